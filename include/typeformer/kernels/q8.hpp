// int8 weights: a matrix stored as int8 codes per output row with one float scale per row
// (symmetric, no zero point), and its product with float activations.
//
//   q8_mat<R, C>            W ≈ diag(scale)·q     q (R rows of C int8, row-major), scale (R)
//   quantize(W, Wq)         Wq ← W (R, C) float: scale_i = max_j |W_ij| / 127, q_ij = round(W_ij / scale_i)
//   quantize_transposed(W, Wq)   Wq ← Wᵀ for W (C, R): a row of Wq is a column of W (W_e's
//                           tokens: the gather of an embedding and the tied W_u = W_eᵀ read it)
//   dequantize(Wq, W)       W ← diag(scale)·q (R, C) float
//   matmul(Wq, B, C)        C ← diag(scale)·q · B      B (C, N) float, C (R, N) float
//
// Per output row: each row's scale fits that row's largest weight, so a row of small weights is
// not rounded on the grid of the matrix's largest (what TFLite Micro / CMSIS-NN call per-channel
// quantization). Activations stay float: only the weights' flash shrinks, by 4× less R·4 bytes.
// A q8_mat is an aggregate of two arrays, so a trained model's can be a constexpr/constinit
// object in flash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../dim.hpp"
#include "../tensor.hpp"
#include "backend.hpp"
#include "common.hpp"
#include "scalar/q8.hpp"
#if TYPEFORMER_SIMD
#include "simd/q8.hpp"
#endif

namespace typeformer {

template <fixed_dimension R, fixed_dimension C>
struct q8_mat {
    using out_dim = R;  // not rows_dim / cols_dim: a q8_mat is no float matrix operand
    using in_dim = C;
    static constexpr std::size_t rows = R::size;
    static constexpr std::size_t cols = C::size;
    std::int8_t q[R::size * C::size]{};  // row i at q + i·cols
    float scale[R::size]{};

    // The weight it stands for: scale_i · q_ij.
    constexpr float operator()(std::size_t i, std::size_t j) const noexcept {
        return scale[i] * static_cast<float>(q[i * cols + j]);
    }
};

namespace kernels::detail {
// The backend's gemm_q8 at run time; the scalar one under constant evaluation (constexpr).
constexpr void gemm_q8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                       const float* s, const float* B, std::size_t ldb, float* C, std::size_t ldc,
                       bool accumulate) noexcept {
#if TYPEFORMER_SIMD
    if (!std::is_constant_evaluated())
        return simd::gemm_q8(m, n, k, Q, k, s, B, ldb, C, ldc, accumulate);
#endif
    scalar::gemm_q8(m, n, k, Q, k, s, B, ldb, C, ldc, accumulate);
}
}  // namespace kernels::detail

template <class R, class C>
constexpr void quantize(const mat<float, R, C>& W, q8_mat<R, C>& Wq) noexcept {
    kernels::scalar::quantize_rows_q8(R::size, C::size, W.data(), 1, W.stride(), Wq.q, C::size,
                                      Wq.scale);
}

template <class R, class C>
constexpr void quantize_transposed(const mat<float, C, R>& W, q8_mat<R, C>& Wq) noexcept {
    // Row i of Wᵀ is column i of W: entry (i, p) at W[p + i·ld].
    kernels::scalar::quantize_rows_q8(R::size, C::size, W.data(), W.stride(), 1, Wq.q, C::size,
                                      Wq.scale);
}

template <class R, class C>
constexpr void dequantize(const q8_mat<R, C>& Wq, mat<float, R, C>& W) noexcept {
    for (std::size_t i = 0; i < R::size; ++i)
        for (std::size_t j = 0; j < C::size; ++j)
            W(i, j) = Wq(i, j);
}

// C ← diag(scale)·q · B.
template <class R, class K, class Bt, class Ct>
    requires std::is_same_v<typename decltype(as_view(std::declval<const Bt&>()))::rows_dim, K> &&
        std::is_same_v<typename decltype(as_view(std::declval<Ct&>()))::rows_dim, R>
constexpr void matmul(const q8_mat<R, K>& Wq, const Bt& B, Ct&& C) noexcept {
    const auto bv = as_view(B);
    const auto cv = as_view(C);
    TYPEFORMER_CHECK(bv.rows() == K::size, "matmul: B's rows are not q8_mat's columns");
    TYPEFORMER_CHECK(cv.rows() == R::size && cv.cols() == bv.cols(),
                     "matmul: C's extents are not Wq·B's");
    kernels::detail::gemm_q8(R::size, bv.cols(), K::size, Wq.q, Wq.scale, bv.data(), bv.stride(),
                             cv.data(), cv.stride(), false);
}

}  // namespace typeformer
