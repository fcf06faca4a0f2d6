// Float only on a Cortex-M4F (TYPEFORMER_DEVICE, config.hpp): a tiny GPT with §5's sinusoidal
// positions decodes through the KV cache and samples with τ > 0, top-k and top-p, then takes an
// Adam step. Linked into an image that must contain no double arithmetic (libgcc's soft-float
// __aeabi_d*, libm's double functions), besides no heap and no exceptions (check_image.cmake).
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

static_assert(TYPEFORMER_DEVICE == 1, "an arm-none-eabi build is a device build");

struct tiny_sinusoidal {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};
using gpt = tf::DTransformer<float, tiny_sinusoidal>;

constinit gpt model{};
constinit gpt grads{};
constinit tf::training_workspace<gpt> ws{};
constinit tf::adam_state<gpt> adam{};
constinit tf::kv_cache<gpt> cache{};

extern "C" int generate_and_train(const tf::token* x, unsigned n, float tau) {
    const std::span<const tf::token> prompt(x, n);
    tf::rng gen(7);
    tf::token y[8];
    std::size_t made = 0;
    const tf::sampling opt{.tau = tau, .top_k = 40, .top_p = 0.9f};
    if (tf::try_DInference(model, cache, prompt, 8, opt, gen, std::span<tf::token>(y), made) !=
        tf::status::ok)
        return 1;
    float loss = 0;
    if (tf::try_loss_and_grad(model, prompt, grads, ws, loss) != tf::status::ok)
        return 2;
    tf::adam_step(model, grads, adam, {.lr = 1e-3, .weight_decay = 0.01});
    return static_cast<int>(y[0]);
}

int main() {
    tf::init_float(model, 1);
    static const tf::token x[5] = {1, 2, 3, 4, 5};
    return generate_and_train(x, 5, 0.8f);
}
