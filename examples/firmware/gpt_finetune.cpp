// Firmware: fine-tuning, on the device, of a 234,880-parameter GPT whose weights stay in flash
// (grid.hpp's gpt235k, 939,520 B, trained on the host on the Apache-2.0 licence's bytes:
// finetune_base.hpp), on text it has not seen (a paragraph of the MIT licence), within the
// STM32F405's 128 KiB SRAM alone: the trainable part, train/step.hpp's step workspace and the
// stack; the CCM stays empty. FINETUNE_LORA chooses what trains:
//
//   1   low-rank adapters, rank 4, on W_q and W_v of every layer (LoRA: 16,384 B; A random,
//       B = 0, so the adapted model starts as the base)
//   0   every gain and bias (BitFit, TinyTL's bias-only update: 13,824 B)
//
// 6 in-place SGD steps over three 16-byte windows of that text (η 0.1 for the adapters, 0.003 for
// gains and biases: the loss is a sum over positions); the text's loss (the three windows')
// before and after, then every 8th trained parameter. Exits 1 unless the loss falls. (A step
// costs some 70 M instructions here: QEMU's time, not CI's, bounds the steps.)
//
// The host build is the reference the device must match (run_qemu.py: every float within
// 1e-4 + 1e-4·|host|), computed without train/step.hpp: the base with the trainable part merged
// in (apply_trainable), Algorithm 13's loss_and_grad over that whole model (train/training.hpp,
// checked against PyTorch in tests/train), and the trained part's gradient taken from the whole
// model's: a gain's or bias's is its own; an adapter's, from G = ∂loss/∂W of its matrix W,
// ∂A = s·Bᵀ·G and ∂B = s·G·Aᵀ (s = α/r, since W + s·B·A is what the forward pass uses).
#include <string_view>

#include <typeformer/typeformer.hpp>

#include "board/board.hpp"
#include "finetune_base.hpp"
#include "grid.hpp"

namespace tf = typeformer;
namespace dp = tf::deploy;
using big = tf::DTransformer<float, firmware::gpt235k>;
#if FINETUNE_LORA
using S = tf::train_lora<4>;  // W_q, W_v; α = r
constexpr float eta = 0.1f;
#else
using S = tf::train_gains_biases;
constexpr float eta = 0.003f;
#endif

// The base in flash; the trainable part, the workspace and the stack in the main RAM.
using plan = dp::deployment<
    board::type, big, dp::step_sgd<S>,
    dp::placement<
        dp::stack<4 * dp::KiB, typename board::type::region_at<board::type::ram_index>::name>>>;
TYPEFORMER_BOARD_STACK_IN_MAIN_RAM(plan::bytes_of<dp::buffer::stack>);
static_assert(plan::used(board::type::ram_index) <= 128 * dp::KiB);
static_assert(big::L == 4 && tf::parameter_count<big> >= 200'000);

const big& theta = base<big>;
constinit tf::trainable<big, S> trained{};
constinit tf::step_workspace<big, S> ws{};

#if !defined(__arm__)
// The host's reference: the whole model, its ∇ and the training workspace.
constinit big merged{};
constinit big grads{};
constinit tf::training_workspace<big> reference_ws{};
#endif

namespace {

constexpr std::string_view text =
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this "
    "software and associated documentation files, to deal in the Software without restriction";

#if !defined(__arm__)
// grads ← ∇loss of base + trained (merged); returns the loss.
float whole_model_loss_and_grad(std::span<const tf::token> x) {
    tf::copy_params(theta, merged);
    tf::apply_trainable(trained, merged);
    tf::zero(grads);
    return tf::loss_and_grad(merged, x, grads, reference_ws);
}

#if FINETUNE_LORA
// An adapter's step from its matrix's gradient G (out, in): A −= η·s·Bᵀ·G, B −= η·s·G·Aᵀ, both
// from the adapter before the step.
template <class Adapter, class G>
void adapter_step(Adapter& ad, const G& g) {
    if constexpr (tf::is_adapter<Adapter>) {
        constexpr float s = float(S::alpha) / float(S::rank);
        constexpr std::size_t out = Adapter::out_dim::size, in = Adapter::in_dim::size, r = S::rank;
        float dA[r][in] = {}, dB[out][r] = {};
        for (std::size_t i = 0; i < out; ++i)
            for (std::size_t j = 0; j < in; ++j)
                for (std::size_t k = 0; k < r; ++k) {
                    dA[k][j] += s * ad.B(i, k) * g(i, j);
                    dB[i][k] += s * g(i, j) * ad.A(k, j);
                }
        for (std::size_t k = 0; k < r; ++k) {
            for (std::size_t j = 0; j < in; ++j)
                ad.A(k, j) -= eta * dA[k][j];
            for (std::size_t i = 0; i < out; ++i)
                ad.B(i, k) -= eta * dB[i][k];
        }
    }
}
#endif
#endif

// One SGD step of the trained part on x; returns its loss (before the update), or a negative
// value on bad input.
float train_step(std::span<const tf::token> x) {
#if defined(__arm__)
    float loss = 0;
    if (tf::try_sgd_step_in_place(theta, trained, x, eta, ws, loss) != tf::status::ok)
        return -1;
    return loss;
#else
    const float loss = whole_model_loss_and_grad(x);
#if FINETUNE_LORA
    for (std::size_t l = 0; l < big::L; ++l) {
        auto& a = trained.layers[l];
        const auto& g = grads.layers[l];
        adapter_step(a.attn.W_q, g.attn.W_q);
        adapter_step(a.attn.W_k, g.attn.W_k);
        adapter_step(a.attn.W_v, g.attn.W_v);
        adapter_step(a.attn.W_o, g.attn.W_o);
        adapter_step(a.mlp.W_1, g.mlp.W_1);
        adapter_step(a.mlp.W_2, g.mlp.W_2);
    }
#else
    tf::trainable<big, S> g{};
    tf::trainable_from(grads, g);  // the gains' and biases' own gradients
    tf::sgd_step(trained, g, eta);
#endif
    return loss;
#endif
}

float window_loss(std::span<const tf::token> x) {
#if defined(__arm__)
    return tf::loss(theta, trained, x, ws);
#else
    return whole_model_loss_and_grad(x);
#endif
}

}  // namespace

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::trainable>(trained) ||
        !board::placed<plan, dp::buffer::step_workspace>(ws) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    board::print("info parameters", tf::parameter_count<big>, "trainable",
                 tf::parameter_count<tf::trainable<big, S>>);
#if FINETUNE_LORA
    tf::init_lora(trained, 1);
#else
    tf::trainable_from(theta, trained);
#endif
    constexpr std::size_t W = 16, windows = 3;
    tf::token tokens[windows][W];
    for (std::size_t w = 0; w < windows; ++w)
        for (std::size_t i = 0; i < W; ++i)
            tokens[w][i] = static_cast<unsigned char>(text[w * W + i]);
    const auto window = [&](std::size_t w) { return std::span<const tf::token>(tokens[w], W); };
    const auto text_loss = [&] {
        float sum = 0;
        for (std::size_t w = 0; w < windows; ++w)
            sum += window_loss(window(w));
        return sum;
    };

    const float before = text_loss();
    board::print("text_loss before", before);
    for (int step = 0; step < 6; ++step) {
        const std::uint64_t i0 = board::instructions();
        const float loss = train_step(window(step % windows));
        const std::uint64_t i1 = board::instructions();
        if (loss < 0)
            return 1;
        board::print("loss", step, loss);
        if (step == 0)
            board::print("info instructions_step", i1 - i0);
    }
    const float after = text_loss();
    board::print("text_loss after", after);
    board::print_params("trained", trained, 8);
    return after < before ? 0 : 1;
}
