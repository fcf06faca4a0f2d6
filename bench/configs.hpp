// The DESIGN.md benchmark configurations as model configs (tied W_u: W_u = W_eᵀ) and the training
// step both bench_models and train_memory run: B = 4 sequences of deterministic tokens, AdamW,
// training_state<Model, 2>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <typeformer/typeformer.hpp>

namespace typeformer_bench {

constexpr std::size_t batch = 4;          // sequences per training step
constexpr std::size_t train_threads = 2;  // training_state's workers

// Deterministic tokens < N_V.
inline std::vector<typeformer::token> tokens(std::size_t n, std::size_t N_V, std::uint64_t seed) {
    std::vector<typeformer::token> t(n);
    for (auto& x : t) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x = static_cast<typeformer::token>((seed >> 33) % N_V);
    }
    return t;
}

// AdamW on the per-token mean, `batch` sequences a step, in order, for as long as the observer
// asks.
inline typeformer::training_options train_options() {
    typeformer::training_options opt{};
    opt.epochs = ~std::size_t{0};
    opt.batch_size = batch;
    opt.method = typeformer::optimizer::adamw;
    opt.lr = 1e-3;
    opt.weight_decay = 0.01;
    opt.reduction = typeformer::loss_reduction::mean_per_token;
    opt.shuffle = false;
    return opt;
}

struct tiny_cfg {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
    static constexpr bool tied = true;
};
struct small_cfg {
    static constexpr std::size_t N_V = 256, l_max = 128, L = 4, H = 4, d_e = 128, d_mlp = 512,
                                 d_attn = 32, d_mid = 32;
    static constexpr bool tied = true;
};
struct baby_cfg {
    static constexpr std::size_t N_V = 65, l_max = 256, L = 6, H = 6, d_e = 384, d_mlp = 1536,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
};
struct gpt2_cfg {
    static constexpr std::size_t N_V = 50257, l_max = 1024, L = 12, H = 12, d_e = 768, d_mlp = 3072,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
};

}  // namespace typeformer_bench
