// Softmax over the columns for the Cortex-M layer (float): the scalar reference's passes (max,
// exp and sum, scale) with math::exp for newlib's expf and plain comparisons for fmaxf (which
// newlib does not inline: a call and two classifications an element). Masking as the reference
// (kernels/scalar/softmax.hpp). The other types are the scalar layer's. Portable C++.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../scalar/softmax.hpp"
#include "math.hpp"

namespace typeformer::kernels::cortexm {

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
                float mx = scale * s[0];
                for (std::size_t i = 1; i < kept; ++i) {
                    const float v = scale * s[i];
                    mx = v > mx ? v : mx;
                }
                float sum = 0.0f;
                for (std::size_t i = 0; i < kept; ++i) {
                    s[i] = math::exp(scale * s[i] - mx);
                    sum += s[i];
                }
                const float inv = 1.0f / sum;
                for (std::size_t i = 0; i < kept; ++i)
                    s[i] *= inv;
            }
            for (std::size_t i = kept; i < rows; ++i)
                s[i] = 0.0f;  // masked: exactly 0
        }
    }
}

}  // namespace typeformer::kernels::cortexm
