// GELU for the Cortex-M layer (float): math::gelu, 0.5·x·(1 + erf(x/√2)) with the rational erf
// the SIMD layer uses, where the scalar reference calls newlib's erff (about 90 instructions an
// element on a Cortex-M4F; this takes about 40). The other types and activations are the scalar
// layer's. Portable C++ (tested on hosts).
#pragma once

#include <cstddef>
#include <type_traits>

#include "../scalar/activation.hpp"
#include "math.hpp"

namespace typeformer::kernels::cortexm {

template <class T>
void gelu(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
          std::size_t ldy) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        scalar::gelu(rows, cols, X, ldx, Y, ldy);
    } else {
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = 0; i < rows; ++i)
                Y[i + j * ldy] = math::gelu(X[i + j * ldx]);
    }
}

}  // namespace typeformer::kernels::cortexm
