// The whole core on a Cortex-M4F: a tiny DTransformer (DESIGN.md's "tiny" configuration) takes
// a training step (Algorithm 13 with SGD) and a forward pass, all in static memory. Linked into
// an image, which must contain no heap (malloc, sbrk) and no exception machinery.
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = tf::DTransformer<float, tiny>;
static_assert(TYPEFORMER_SIMD == 0, "a Cortex-M4 build takes the scalar kernels");
static_assert(tf::deploy::fits<tf::deploy::nrf52840, gpt, tf::deploy::inference>,
              "fits an nRF52840");

constinit gpt model{};
constinit gpt grads{};
constinit tf::training_workspace<gpt> ws{};

extern "C" int train_step(const tf::token* x, unsigned n) {
    float loss = 0;
    const std::span<const tf::token> seq(x, n);
    const tf::status s = tf::try_loss_and_grad(model, seq, grads, ws, loss);
    if (s != tf::status::ok)
        return static_cast<int>(s);
    tf::sgd_step(model, grads, 0.01f);
    tf::zero(grads);
    return tf::try_forward(model, seq, ws) == tf::status::ok ? 0 : 1;
}

int main() {
    tf::init(model, 1);
    static const tf::token x[5] = {1, 2, 3, 4, 5};
    return train_step(x, 5);
}
