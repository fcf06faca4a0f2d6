// Scalar softmax over the columns of S (rows, cols): each column becomes a distribution.
//
//   softmax_columns           S[:, t] ← softmax(scale·S[:, t]) over its kept rows, 0 elsewhere
//   softmax_columns_backward  dS += scale · A ⊙ (dA − 1·Σ_i A[i, t]·dA[i, t]) over the kept rows
//   softmax_columns_online    one tile of keys of the online softmax (FlashAttention's forward):
//                             S[:, t] ← exp(scale·S[:, t] − m'[t]) with the running maximum
//                             m'[t] = max(m[t], scale·S[:, t]); the running sum
//                             l[t] ← α[t]·l[t] + Σ S[:, t], α[t] = exp(m[t] − m'[t]) the factor
//                             for what the earlier tiles accumulated (nn/attention.hpp)
//
// Masking (the paper's Mask[t_z, t_x]): `causal` false keeps every row; true keeps row t_z of
// column t_x iff t_z ≤ t_x + offset. A negative offset can mask whole columns; those are all 0.
#pragma once

#include <cmath>
#include <cstddef>

#include "cmath.hpp"

namespace typeformer::kernels::detail {
// Rows [0, kept) of column t survive the mask.
constexpr std::size_t kept_rows(std::size_t rows, std::size_t t, bool causal,
                                std::ptrdiff_t offset) noexcept {
    if (!causal)
        return rows;
    const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(t) + offset;  // t_z ≤ t + offset
    if (last < 0)
        return 0;
    const auto kept = static_cast<std::size_t>(last) + 1;
    return kept < rows ? kept : rows;
}

// max over i < kept (≥ 1) of scale·s[i]
template <class T>
constexpr T softmax_scaled_max(const T* s, std::size_t kept, T scale) noexcept {
    T mx = scale * s[0];
    for (std::size_t i = 1; i < kept; ++i)
        mx = kernels::detail::cmath::fmax(mx, scale * s[i]);
    return mx;
}
// s[i] ← exp(scale·s[i] − mx) for i < kept; returns their sum.
template <class T>
constexpr T softmax_exp_shifted(T* s, std::size_t kept, T scale, T mx) noexcept {
    T sum = T(0);
    for (std::size_t i = 0; i < kept; ++i) {
        s[i] = kernels::detail::cmath::exp(scale * s[i] - mx);
        sum += s[i];
    }
    return sum;
}
}  // namespace typeformer::kernels::detail

namespace typeformer::kernels::scalar {

template <class T>
constexpr void softmax_columns(std::size_t rows, std::size_t cols, T scale, bool causal,
                               std::ptrdiff_t offset, T* S, std::size_t lds) noexcept {
    for (std::size_t t = 0; t < cols; ++t) {
        T* s = S + t * lds;
        const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
        if (kept > 0) {
            const T inv =
                T(1) / kernels::detail::softmax_exp_shifted(
                           s, kept, scale, kernels::detail::softmax_scaled_max(s, kept, scale));
            for (std::size_t i = 0; i < kept; ++i)
                s[i] *= inv;
        }
        for (std::size_t i = kept; i < rows; ++i)
            s[i] = T(0);  // masked: exactly 0
    }
}

template <class T>
constexpr void softmax_columns_backward(std::size_t rows, std::size_t cols, T scale, const T* A,
                                        std::size_t lda, const T* dA, std::size_t ldda, T* dS,
                                        std::size_t ldds, bool causal = false,
                                        std::ptrdiff_t offset = 0) noexcept {
    for (std::size_t t = 0; t < cols; ++t) {
        const T* a = A + t * lda;
        const T* da = dA + t * ldda;
        T* ds = dS + t * ldds;
        // Masked rows have A = 0 and add nothing; their dA is not read (it may be unset).
        const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
        T dot = T(0);
        for (std::size_t i = 0; i < kept; ++i)
            dot += a[i] * da[i];
        for (std::size_t i = 0; i < kept; ++i)
            ds[i] += scale * a[i] * (da[i] - dot);
    }
}

// One tile of keys of an online softmax (Milakov & Gimelshein 2018; FlashAttention's forward):
// for each column t over its kept rows [0, kept): m' = max(m[t], max_i scale·S[i, t]),
// S[i, t] ← exp(scale·S[i, t] − m') (masked rows 0), alpha[t] = exp(m[t] − m'), l[t] ←
// alpha[t]·l[t] + Σ_i S[i, t], m[t] ← m'. A column starts at m = −∞, l = 0 (alpha is then 0); a
// column with no kept row in this tile keeps m, l and gets alpha = 1.
template <class T>
constexpr void softmax_columns_online(std::size_t rows, std::size_t cols, T scale, bool causal,
                                      std::ptrdiff_t offset, T* S, std::size_t lds, T* m, T* l,
                                      T* alpha) noexcept {
    for (std::size_t t = 0; t < cols; ++t) {
        T* s = S + t * lds;
        const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
        if (kept == 0) {
            alpha[t] = T(1);
        } else {
            const T mx = kernels::detail::cmath::fmax(
                m[t], kernels::detail::softmax_scaled_max(s, kept, scale));
            const T sum = kernels::detail::softmax_exp_shifted(s, kept, scale, mx);
            alpha[t] = kernels::detail::cmath::exp(m[t] - mx);  // m[t] = −∞: 0
            l[t] = alpha[t] * l[t] + sum;
            m[t] = mx;
        }
        for (std::size_t i = kept; i < rows; ++i)
            s[i] = T(0);  // masked: exactly 0
    }
}

}  // namespace typeformer::kernels::scalar
