// The compiler runs the transformer: Algorithm 10 (DTransformer) evaluated at compile time.
//
// The scalar kernels are constexpr and are the ones that run under constant evaluation
// (kernels/backend.hpp: std::is_constant_evaluated() chooses them; xsimd's run at run time), so
// a forward pass can sit in a static_assert. Checked here, by the compiler:
//   - a model with weights from a fixed pseudo-random pattern: every column of P is a
//     distribution (entries in [0, 1], summing to 1), for a causal prompt of l_max tokens;
//   - a model with hand-set weights built to predict the successor of each token (W_e one-hot,
//     attention and MLP zero, W_u row i reading coordinate i − 1): argmax P[:, t] = x[t] + 1;
//   - P of a prompt does not depend on the tokens after it (MaskΔ): column 0 of [a, b] is
//     column 0 of [a, c].
// At run time (main) the compile-time P of the first model is compared with the run-time
// forward pass (SIMD kernels, <cmath>) entry by entry.
//
// Size limit and cost: docs/diagnostics.md ("The compiler runs the transformer").
#include <array>
#include <cmath>
#include <cstdio>
#include <span>

#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

namespace {

struct cfg {  // small enough for the compiler's evaluator: one layer, two heads
    static constexpr std::size_t N_V = 8, l_max = 4, L = 1, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4;
};
using model_t = tf::DTransformer<float, cfg>;
constexpr std::size_t N_V = cfg::N_V, l = cfg::l_max;
using tokens = std::array<tf::token, l>;
using probabilities = std::array<float, N_V * l>;  // P(i, t) at [i + t·N_V]

// Weights in [−0.5, 0.5) from a linear congruential sequence; γ = 1, β = 0.
constexpr model_t pattern_model(std::uint64_t seed) {
    model_t m{};
    tf::for_each_param(m, [&](const tf::param_name& name, auto& leaf) {
        for (std::size_t i = 0; i < tf::leaf_elements<decltype(leaf)>; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const float u = static_cast<float>(seed >> 40) / static_cast<float>(1ull << 24) - 0.5f;
            leaf.data()[i] = name.leaf() == "gamma" ? 1.0f : name.leaf() == "beta" ? 0.0f : u;
        }
    });
    return m;
}

// Every token's embedding is one-hot (d_e = N_V); attention and MLP are zero, so the stream is
// the embedding, and ln_f keeps coordinate x[t] the largest; W_u row i reads coordinate i − 1.
constexpr model_t successor_model() {
    model_t m{};
    for (std::size_t v = 0; v < N_V; ++v)
        m.embedding.W_e(v, v) = 1.0f;
    tf::for_each_param(m, [](const tf::param_name& name, auto& leaf) {
        if (name.leaf() == "gamma")
            for (std::size_t i = 0; i < tf::leaf_elements<decltype(leaf)>; ++i)
                leaf.data()[i] = 1.0f;
    });
    for (std::size_t i = 0; i < N_V; ++i)
        m.unembedding.W_u(i, (i + N_V - 1) % N_V) = 1.0f;
    return m;
}

// P = DTransformer(x | θ) for the first n tokens of x, as a flat array (empty on a bad input).
constexpr probabilities forward_P(const model_t& m, const tokens& x, std::size_t n) {
    tf::inference_workspace<model_t> ws{};
    probabilities P{};
    if (tf::try_forward(m, std::span<const tf::token>(x.data(), n), ws) != tf::status::ok)
        return P;
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t i = 0; i < N_V; ++i)
            P[i + t * N_V] = ws.out(i, t);
    return P;
}

constexpr float abs(float v) {
    return v < 0 ? -v : v;
}

constexpr tokens prompt = {1, 5, 2, 7};
constexpr probabilities P_pattern = forward_P(pattern_model(42), prompt, l);

constexpr bool columns_are_distributions(const probabilities& P) {
    for (std::size_t t = 0; t < l; ++t) {
        float sum = 0;
        for (std::size_t i = 0; i < N_V; ++i) {
            if (!(P[i + t * N_V] >= 0.0f && P[i + t * N_V] <= 1.0f))
                return false;
            sum += P[i + t * N_V];
        }
        if (abs(sum - 1.0f) > 1e-5f)
            return false;
    }
    return true;
}
static_assert(columns_are_distributions(P_pattern), "every column of P sums to 1");

constexpr bool predicts_successors() {
    const model_t m = successor_model();
    const tokens x = {0, 3, 6, 7};
    const probabilities P = forward_P(m, x, l);
    for (std::size_t t = 0; t < l; ++t) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < N_V; ++i)
            if (P[i + t * N_V] > P[best + t * N_V])
                best = i;
        if (best != (x[t] + 1) % N_V || !(P[best + t * N_V] > 0.7f))
            return false;
    }
    return true;
}
static_assert(predicts_successors(), "the hand-set model predicts x[t] + 1");

constexpr bool causal() {
    const model_t m = pattern_model(7);
    const probabilities a = forward_P(m, {3, 1, 0, 0}, 2);
    const probabilities b = forward_P(m, {3, 6, 0, 0}, 2);
    for (std::size_t i = 0; i < N_V; ++i)
        if (a[i] != b[i])  // column 0 sees token 0 only
            return false;
    return a[N_V + 1] != b[N_V + 1];  // column 1 sees its own token
}
static_assert(causal(), "column t of P depends on x[0..t] only (MaskΔ)");

}  // namespace

int main() {
    // The same forward pass at run time (the SIMD kernels where the target has them): equal to
    // the compiler's within float rounding, entry by entry.
    static const model_t m = pattern_model(42);
    static tf::inference_workspace<model_t> ws;
    const auto P = tf::forward(m, std::span<const tf::token>(prompt), ws);
    int bad = 0;
    for (std::size_t t = 0; t < l; ++t)
        for (std::size_t i = 0; i < N_V; ++i) {
            const float c = P_pattern[i + t * N_V], r = P(i, t);
            if (!(std::fabs(c - r) <= 1e-6f + 1e-5f * std::fabs(r))) {
                std::printf("P(%zu, %zu): compile time %.9g, run time %.9g\n", i, t, c, r);
                ++bad;
            }
        }
    std::printf("compile-time P equals run-time P: %s\n", bad == 0 ? "yes" : "no");
    return bad == 0 ? 0 : 1;
}
