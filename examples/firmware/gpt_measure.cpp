// Firmware (measurement, not CI): the instructions per token or per training step of
// largest.cpp's grid models on a Cortex-M4F or M7, for docs/embedded.md's per-part table.
// Built only with -DTYPEFORMER_FIRMWARE_MEASURE=ON on the MPS2 boards (their 4 MiB of RAM hold
// these models' float weights, initialised on the device with init_float):
//
//   MEASURE_E, MEASURE_L   the grid model (largest.cpp: N_V 259, l_max 32, heads of 32, d_mlp 4·d_e)
//   MEASURE_USE            0: KV-cache decoding (12 prompt bytes, then to l_max)
//                          1: SGD steps, 2: Adam steps (a 32-byte sequence, 3 steps)
//                          3: KV-cache decoding with int8 weights (q8<gpt>, in RAM here: its
//                             float form would not fit; QEMU counts instructions, not waits)
//
// The weights are random (init_float; the int8 ones drawn directly). On the M7 the counts do not
// depend on the values (three training steps count the same to 40 instructions); on the M4F
// they move by up to 5 % (libgcc's soft-float double, which issue 26's float-only device paths
// remove).
#include "board/board.hpp"
#include "greedy.hpp"
#include "grid.hpp"

namespace tf = typeformer;
namespace dp = tf::deploy;

using gpt = tf::DTransformer<float, firmware::grid<MEASURE_E, MEASURE_L>>;
using model = std::conditional_t<MEASURE_USE == 3, tf::q8<gpt>, gpt>;
using use =
    std::conditional_t<MEASURE_USE == 0 || MEASURE_USE == 3, dp::decoding,
                       std::conditional_t<MEASURE_USE == 1, dp::sgd_training, dp::adam_training>>;
using plan = dp::deployment<board::type, model, use>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

constinit model theta{};
#if MEASURE_USE == 0 || MEASURE_USE == 3
constinit tf::kv_cache<model> cache{};
#else
constinit gpt grads{};
constinit tf::training_workspace<gpt> ws{};
#if MEASURE_USE == 2
constinit tf::adam_state<gpt> adam{};
#endif
#endif

#if MEASURE_USE == 3
// Random int8 weights: codes uniform in [−127, 127], scales 0.02/127 (weights of about N(0, 0.02)'s
// size), biases 0, γ = 1, W_p small; the layout of models/quantized.hpp.
std::uint32_t state = 1;
std::int8_t code() {
    state = state * 1664525u + 1013904223u;  // Numerical Recipes' LCG: enough for a measurement
    return static_cast<std::int8_t>(static_cast<int>((state >> 24) % 255) - 127);
}
template <class Q>
void fill(Q& w) {
    for (auto& q : w.q)
        q = code();
    for (auto& s : w.scale)
        s = 0.02f / 127;
}
void init_q8(model& m) {
    fill(m.embedding);
    for (std::size_t i = 0; i < std::size(m.positional.W_p.elems); ++i)
        m.positional.W_p.elems[i] = 0.02f * static_cast<float>(code()) / 127;
    for (auto& l : m.layers) {
        for (auto* ln : {&l.ln1, &l.ln2})
            for (auto& g : ln->gamma.elems)
                g = 1;
        fill(l.attn.W_q), fill(l.attn.W_k), fill(l.attn.W_v), fill(l.attn.W_o);
        fill(l.mlp.W_1), fill(l.mlp.W_2);
    }
    for (auto& g : m.ln_f.gamma.elems)
        g = 1;
}
#endif

int main() {
#if MEASURE_USE == 3
    init_q8(theta);
    board::print("info parameters", tf::parameter_count<gpt>, "info weights_bytes", sizeof(model));
#else
    tf::init_float(theta, 1);
    board::print("info parameters", tf::parameter_count<gpt>);
#endif
    constexpr const char text[] = "The license and the licensor, a";
    tf::token x[sizeof text - 1];
    for (std::size_t i = 0; i + 1 < sizeof text; ++i)
        x[i] = static_cast<unsigned char>(text[i]);
#if MEASURE_USE == 0 || MEASURE_USE == 3
    return firmware::generate_greedy(theta, cache, std::span<const tf::token>(x, 12),
                                     gpt::l_max::size - 12);
#else
    const std::span<const tf::token> seq(x, sizeof text - 1);
    for (int step = 0; step < 3; ++step) {
        tf::zero(grads);
        float loss = 0;
        const std::uint64_t i0 = board::instructions();
        if (tf::try_loss_and_grad(theta, seq, grads, ws, loss) != tf::status::ok)
            return 1;
#if MEASURE_USE == 1
        tf::sgd_step(theta, grads, 0.01f);
#else
        tf::adam_step(theta, grads, adam, {.lr = 1e-3});
#endif
        board::print("loss", step, loss, "info instructions_step", board::instructions() - i0);
    }
    return 0;
#endif
}
