// Softmax over the columns for the Cortex-M layer (float): the scalar reference's passes (max,
// exp and sum, scale) with math::exp for newlib's expf and plain comparisons for fmaxf (which
// newlib does not inline: a call and two classifications an element). Masking as the reference
// (kernels/scalar/softmax.hpp); the online softmax's tile likewise. The other types are the
// scalar layer's. Portable C++.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../scalar/softmax.hpp"
#include "math.hpp"

namespace typeformer::kernels::cortexm {

namespace detail {
// max(mx, scale·s[i] for i < kept)
inline float scaled_max(const float* s, std::size_t kept, float scale, float mx) noexcept {
    for (std::size_t i = 0; i < kept; ++i) {
        const float v = scale * s[i];
        mx = v > mx ? v : mx;
    }
    return mx;
}
// s[i] ← exp(scale·s[i] − mx) for i < kept; returns their sum.
inline float exp_shifted(float* s, std::size_t kept, float scale, float mx) noexcept {
    float sum = 0.0f;
    for (std::size_t i = 0; i < kept; ++i) {
        s[i] = math::exp(scale * s[i] - mx);
        sum += s[i];
    }
    return sum;
}
}  // namespace detail

template <class T>
void softmax_columns(std::size_t rows, std::size_t cols, T scale, bool causal,
                     std::ptrdiff_t offset, T* S, std::size_t lds) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        scalar::softmax_columns(rows, cols, scale, causal, offset, S, lds);
    } else {
        for (std::size_t t = 0; t < cols; ++t) {
            float* s = S + t * lds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            if (kept > 0) {
                const float mx = detail::scaled_max(s, kept, scale, scale * s[0]);
                const float inv = 1.0f / detail::exp_shifted(s, kept, scale, mx);
                for (std::size_t i = 0; i < kept; ++i)
                    s[i] *= inv;
            }
            for (std::size_t i = kept; i < rows; ++i)
                s[i] = 0.0f;  // masked: exactly 0
        }
    }
}

// One tile of the online softmax (scalar::softmax_columns_online: the tiled attention and the KV
// cache's step), with math::exp and plain comparisons for newlib's expf and fmaxf.
template <class T>
void softmax_columns_online(std::size_t rows, std::size_t cols, T scale, bool causal,
                            std::ptrdiff_t offset, T* S, std::size_t lds, T* m, T* l,
                            T* alpha) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        scalar::softmax_columns_online(rows, cols, scale, causal, offset, S, lds, m, l, alpha);
    } else {
        for (std::size_t t = 0; t < cols; ++t) {
            float* s = S + t * lds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            if (kept == 0) {
                alpha[t] = 1.0f;
            } else {
                const float mx = detail::scaled_max(s, kept, scale, m[t]);  // m[t]: −∞ at first
                const float sum = detail::exp_shifted(s, kept, scale, mx);
                alpha[t] = math::exp(m[t] - mx);  // m[t] = −∞: 0
                l[t] = alpha[t] * l[t] + sum;
                m[t] = mx;
            }
            for (std::size_t i = kept; i < rows; ++i)
                s[i] = 0.0f;  // masked: exactly 0
        }
    }
}

}  // namespace typeformer::kernels::cortexm
