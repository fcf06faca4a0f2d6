// Sampling a token from one column of logits: line 5 of Algorithm 14 (and of Algorithm 15),
// "sample a token y from q ∝ p^{1/τ}", with the filters practitioners add (§8).
//
//   logits (N_V)     W_u X̃[:, t] before the softmax: p = softmax(logits)
//   q (N_V)          q ∝ p^{1/τ} = exp(logits/τ) up to a constant — computed from the logits,
//                    so p itself is never formed and nothing overflows
//   sampling         {tau, top_k, top_p, stop, when_full}: τ = 0 is argmax (the paper's "most
//                    likely continuation"); top_k keeps the k most likely tokens; top_p (nucleus)
//                    keeps the smallest set of most likely tokens whose mass reaches top_p
//   sample_token(logits, opt, gen, scratch)   the token; scratch holds q and an ordering (N_V
//                    each), caller-owned (a kv_cache has one), so nothing is allocated
//
// Ties are broken by the smaller token id (argmax, the top-k cut and the nucleus cut), so a
// seed gives the same tokens on every platform with the same logits.
//
// τ > 0 so small that 1/τ overflows T (float: τ < 2.9e-39, a subnormal; never for double, whose
// range holds 1/τ of every float τ > 0) is sampled as τ = 0: argmax is the limit of q as τ → 0,
// which 1/τ = ∞ cannot compute (the draw would not depend on the logits). τ = +∞ (q uniform) is
// refused with its own status, NaN and τ < 0 with invalid_temperature.
//
// The sums of q and the uniform draw are in step_real (config.hpp) or T if wider: double on a
// host, float on a device, so a firmware links no soft-float double.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "../config.hpp"
#include "../models/status.hpp"
#include "../random.hpp"
#include "../tensor.hpp"
#include "../token.hpp"

namespace typeformer {

// What to do when prompt + generated tokens reach l_max.
enum class context_policy {
    error,           // stop with status::context_full (the default: never silently truncate)
    sliding_window,  // drop the oldest tokens, keep the newest half of l_max, re-encode them at
                     // positions 0, 1, … and continue (the positions of kept tokens change)
};

struct sampling {
    static constexpr std::size_t all = static_cast<std::size_t>(-1);  // no top-k filter

    float tau = 1.0f;                  // τ ≥ 0, finite; 0 = argmax
    std::size_t top_k = all;           // keep the k most likely tokens, 1 ≤ k ≤ N_V
    float top_p = 1.0f;                // nucleus: 0 < top_p ≤ 1; 1 = no filter
    std::span<const token> stop = {};  // generation ends after emitting one of these
    context_policy when_full = context_policy::error;
};

// The status of sampling options for a vocabulary of n_v tokens.
constexpr status check_sampling(const sampling& s, std::size_t n_v) noexcept {
    if (s.tau == std::numeric_limits<float>::infinity())
        return status::infinite_temperature;
    if (!(s.tau >= 0.0f))
        return status::invalid_temperature;  // NaN or negative
    if (s.top_k != sampling::all && (s.top_k == 0 || s.top_k > n_v))
        return status::invalid_top_k;
    if (!(s.top_p > 0.0f && s.top_p <= 1.0f))
        return status::invalid_top_p;
    return status::ok;
}

// Working memory of sample_token for a vocabulary of NV tokens.
template <class T, std::size_t NV>
struct sampling_scratch {
    std::array<T, NV> q;          // exp((logits − max)/τ)
    std::array<token, NV> order;  // candidate ids, most likely first after filtering
};

namespace detail {

// The larger q first; equal q: the smaller id first.
template <class T>
struct more_likely {
    const T* q;
    bool operator()(token a, token b) const noexcept {
        return q[a] > q[b] || (q[a] == q[b] && a < b);
    }
};

}  // namespace detail

// Line 5: y ~ q ∝ p^{1/τ}, filtered by top-k and top-p. Preconditions (checked by the callers'
// try_ forms): check_sampling(opt, n) == ok, n ≥ 1.
template <class T, std::size_t NV, class Gen>
token sample_token(std::span<const T> logits, const sampling& opt, Gen& gen,
                   sampling_scratch<T, NV>& s) noexcept {
    const std::size_t n = logits.size();
    TYPEFORMER_CHECK(n >= 1 && n <= NV, "sample_token: logits must have 1 … N_V entries");
    // τ = 0: the most likely continuation (the limit τ → 0 of q ∝ p^{1/τ})
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
        if (logits[i] > logits[best])
            best = i;
    if (opt.tau == 0.0f)
        return static_cast<token>(best);
    const T inv_tau = T(1) / static_cast<T>(opt.tau);
    if (!(inv_tau <= std::numeric_limits<T>::max()))
        return static_cast<token>(best);  // 1/τ overflows T: τ is 0 to within T's range

    // q_i = exp((logits_i − max)/τ): p^{1/τ} up to the constant (Σ exp(logits))^{−1/τ}
    using R = std::common_type_t<T, step_real>;  // the sums and the draw
    const T m = logits[best];
    for (std::size_t i = 0; i < n; ++i) {
        s.q[i] = std::exp((logits[i] - m) * inv_tau);
        s.order[i] = static_cast<token>(i);
    }
    const detail::more_likely<T> cmp{s.q.data()};
    token* first = s.order.data();
    std::size_t kept = n;
    // top-k: the k most likely tokens
    if (opt.top_k != sampling::all && opt.top_k < n) {
        std::nth_element(first, first + (opt.top_k - 1), first + n, cmp);
        kept = opt.top_k;
    }
    auto mass_of = [&](std::size_t count) {  // Σ q over the first `count` kept tokens
        R total = 0;
        for (std::size_t i = 0; i < count; ++i)
            total += static_cast<R>(s.q[first[i]]);
        return total;
    };
    // top-p: the shortest most-likely-first prefix whose mass reaches top_p of what is left
    if (opt.top_p < 1.0f) {
        std::sort(first, first + kept, cmp);
        const R target = static_cast<R>(opt.top_p) * mass_of(kept);
        R mass = 0;
        std::size_t cut = 0;
        while (cut < kept) {
            mass += static_cast<R>(s.q[first[cut]]);
            ++cut;
            if (mass >= target)
                break;
        }
        kept = cut;
    }
    // Draw u ∈ [0, Σ q) and walk the kept tokens.
    const R u = prng::uniform01<R>(gen) * mass_of(kept);
    R acc = 0;
    for (std::size_t i = 0; i < kept; ++i) {
        acc += static_cast<R>(s.q[first[i]]);
        if (u < acc)
            return first[i];
    }
    return first[kept - 1];  // u rounded onto the total
}

}  // namespace typeformer
