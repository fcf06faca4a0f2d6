// int8 weights: a matrix stored as int8 codes per output row with one float scale per row
// (symmetric, no zero point), and its product with float inputs, which it may quantize too.
//
//   q8_mat<R, C, Act>       W ≈ diag(scale)·q     q (R rows of C int8, row-major), scale (R)
//   quantize(W, Wq)         Wq ← W (R, C) float: scale_i = max_j |W_ij| / 127, q_ij = round(W_ij / scale_i)
//   quantize_transposed(W, Wq)   Wq ← Wᵀ for W (C, R): a row of Wq is a column of W (W_e's
//                           tokens: the gather of an embedding and the tied W_u = W_eᵀ read it)
//   dequantize(Wq, W)       W ← diag(scale)·q (R, C) float
//   matmul(Wq, B, C)        C ← diag(scale)·q · B      B (C, N) float, C (R, N) float
//
// Act, the activations' type, says what the product does with B:
//   float_activations             (the default, q8<Model>) B stays float: each weight is widened
//                                 to float and multiplied in float
//   int8_activations<per_token>   (q8a8<Model>) each column of B (a token) is quantized on the
//                                 fly to int8 with its own scale s_x = max |B[:, j]| / 127, the
//                                 sums are int32: C(i, j) = (Σ_p q_ip q_pj) · scale_i · s_x (the
//                                 DSP extension's SMLAD on a Cortex-M4/M7)
//   int8_activations<per_tensor>  one s_x for all of B (the same for a decoding step's column)
//
// With int8 activations the MLP's W_2·GELU(H) takes GELU on H's int8 codes through a table
// (q8_gelu_product; kernels/scalar/q8.hpp says how), as TFLite Micro's int8 GELU does.
//
// Per output row: each row's scale fits that row's largest weight, so a row of small weights is
// not rounded on the grid of the matrix's largest (what TFLite Micro / CMSIS-NN call per-channel
// quantization); the flash shrinks by 4× less R·4 bytes. A q8_mat is an aggregate of two
// arrays, so a trained model's can be a constexpr/constinit object in flash; q is 4-byte aligned
// (the DSP kernel loads 8 weights a time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../dim.hpp"
#include "../tensor.hpp"
#include "backend.hpp"
#include "common.hpp"
#include "diagnose.hpp"
#include "scalar/q8.hpp"
#if TYPEFORMER_SIMD
#include "simd/q8.hpp"
#endif
#if TYPEFORMER_CORTEXM
#include "cortexm/q8.hpp"
#endif
#if TYPEFORMER_HELIUM
#include "helium/q8.hpp"
#endif

namespace typeformer {

// What a product with int8 weights does with its float input (see above).
struct float_activations {};
struct per_token {};   // one scale per column of the input (a token)
struct per_tensor {};  // one scale for all of it
struct per_head {};    // (an int8 KV cache, infer/kv_cache.hpp) one scale per token and head
template <class Scale>
struct int8_activations {
    static_assert(std::is_same_v<Scale, per_token> || std::is_same_v<Scale, per_tensor>,
                  "int8_activations<per_token> or int8_activations<per_tensor>");
    using scale_type = Scale;
};

namespace detail {
template <class Act>
inline constexpr bool is_int8_activations = false;
template <class Scale>
inline constexpr bool is_int8_activations<int8_activations<Scale>> = true;
}  // namespace detail

template <class Act>
concept activation_kind =
    std::is_same_v<Act, float_activations> || detail::is_int8_activations<Act>;

template <fixed_dimension R, fixed_dimension C, activation_kind Act = float_activations>
struct q8_mat {
    using out_dim = R;  // not rows_dim / cols_dim: a q8_mat is no float matrix operand
    using in_dim = C;
    using activations = Act;
    static constexpr std::size_t rows = R::size;
    static constexpr std::size_t cols = C::size;
    alignas(4) std::int8_t q[R::size * C::size]{};  // row i at q + i·cols
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
                       bool accumulate, const gemm_epilogue<float>& ep = {}) noexcept {
#if TYPEFORMER_SIMD
    if (!std::is_constant_evaluated()) {
        simd::gemm_q8(m, n, k, Q, k, s, B, ldb, C, ldc, accumulate);
        if (!ep.empty())
            scalar::apply_epilogue(m, n, C, ldc, ep);
        return;
    }
#endif
    scalar::gemm_q8(m, n, k, Q, k, s, B, ldb, C, ldc, accumulate, ep);
}

// The same with B quantized on the fly (int8 activations); Q (M, K).
template <std::size_t M, std::size_t K>
constexpr void gemm_q8a8(std::size_t n, const std::int8_t* Q, const float* s, const float* B,
                         std::size_t ldb, float* C, std::size_t ldc, bool accumulate,
                         bool per_tensor, const gemm_epilogue<float>& ep = {}) noexcept {
    std::int8_t scratch[K];  // the codes of the scalar loop (the DSP kernel keeps its own)
#if TYPEFORMER_HELIUM
    if (!std::is_constant_evaluated())
        return helium::gemm_q8a8<M, K>(n, Q, s, B, ldb, C, ldc, accumulate, per_tensor, scratch,
                                       ep);
#elif TYPEFORMER_CORTEXM
    if (!std::is_constant_evaluated())
        return cortexm::gemm_q8a8<M, K>(n, Q, s, B, ldb, C, ldc, accumulate, per_tensor, scratch,
                                        ep);
#endif
    scalar::gemm_q8a8(M, n, K, Q, K, s, B, ldb, C, ldc, accumulate, per_tensor, scratch, ep);
}

// C ← diag(s)·Q · GELU(H) with GELU on H's int8 codes (kernels/scalar/q8.hpp), Q (M, K).
template <std::size_t M, std::size_t K>
constexpr void gemm_q8a8_gelu(std::size_t n, const std::int8_t* Q, const float* s, const float* H,
                              std::size_t ldh, float* C, std::size_t ldc, bool per_tensor,
                              const gemm_epilogue<float>& ep = {}) noexcept {
    std::int8_t scratch[K];
#if TYPEFORMER_HELIUM
    if (!std::is_constant_evaluated())
        return helium::gemm_q8a8_gelu<M, K>(n, Q, s, H, ldh, C, ldc, per_tensor, scratch, ep);
#elif TYPEFORMER_CORTEXM
    if (!std::is_constant_evaluated())
        return cortexm::gemm_q8a8_gelu<M, K>(n, Q, s, H, ldh, C, ldc, per_tensor, scratch, ep);
#endif
    scalar::gemm_q8a8_gelu(M, n, K, Q, K, s, H, ldh, C, ldc, per_tensor, scratch, ep);
}

// C ← Wq·GELU(H), + the epilogue, for int8 activations: the MLP's second product.
template <class R, class K, class Scale, class Hv, class Cv>
constexpr void q8_gelu_product(const q8_mat<R, K, int8_activations<Scale>>& Wq, const Hv& hv,
                               const Cv& cv, const gemm_epilogue<float>& ep = {}) noexcept {
    TYPEFORMER_CHECK(hv.rows() == K::size, "matmul: H's rows are not q8_mat's columns");
    TYPEFORMER_CHECK(cv.rows() == R::size && cv.cols() == hv.cols(),
                     "matmul: C's extents are not Wq·H's");
    gemm_q8a8_gelu<R::size, K::size>(hv.cols(), Wq.q, Wq.scale, hv.data(), hv.stride(), cv.data(),
                                     cv.stride(), std::is_same_v<Scale, per_tensor>, ep);
}

// C ←/+= Wq·B, + the epilogue, as Wq's activations type says.
template <class R, class K, class Act, class Bv, class Cv>
constexpr void q8_product(const q8_mat<R, K, Act>& Wq, const Bv& bv, const Cv& cv, bool accumulate,
                          const gemm_epilogue<float>& ep = {}) noexcept {
    TYPEFORMER_CHECK(bv.rows() == K::size, "matmul: B's rows are not q8_mat's columns");
    TYPEFORMER_CHECK(cv.rows() == R::size && cv.cols() == bv.cols(),
                     "matmul: C's extents are not Wq·B's");
    if constexpr (std::is_same_v<Act, float_activations>)
        gemm_q8(R::size, bv.cols(), K::size, Wq.q, Wq.scale, bv.data(), bv.stride(), cv.data(),
                cv.stride(), accumulate, ep);
    else
        gemm_q8a8<R::size, K::size>(bv.cols(), Wq.q, Wq.scale, bv.data(), bv.stride(), cv.data(),
                                    cv.stride(), accumulate,
                                    std::is_same_v<typename Act::scale_type, per_tensor>, ep);
}
}  // namespace kernels::detail

template <class R, class C, class Act>
constexpr void quantize(const mat<float, R, C>& W, q8_mat<R, C, Act>& Wq) noexcept {
    kernels::scalar::quantize_rows_q8(R::size, C::size, W.data(), 1, W.stride(), Wq.q, C::size,
                                      Wq.scale);
}

template <class R, class C, class Act>
constexpr void quantize_transposed(const mat<float, C, R>& W, q8_mat<R, C, Act>& Wq) noexcept {
    // Row i of Wᵀ is column i of W: entry (i, p) at W[p + i·ld].
    kernels::scalar::quantize_rows_q8(R::size, C::size, W.data(), W.stride(), 1, Wq.q, C::size,
                                      Wq.scale);
}

template <class R, class C, class Act>
constexpr void dequantize(const q8_mat<R, C, Act>& Wq, mat<float, R, C>& W) noexcept {
    for (std::size_t i = 0; i < R::size; ++i)
        for (std::size_t j = 0; j < C::size; ++j)
            W(i, j) = Wq(i, j);
}

// C ← diag(scale)·q · B.
template <class R, class K, class Act, class Bt, class Ct>
    requires std::is_same_v<typename decltype(as_view(std::declval<const Bt&>()))::rows_dim, K> &&
        std::is_same_v<typename decltype(as_view(std::declval<Ct&>()))::rows_dim, R>
constexpr void matmul(const q8_mat<R, K, Act>& Wq, const Bt& B, Ct&& C) noexcept {
    kernels::detail::q8_product(Wq, as_view(B), as_view(C), false);
}

// ---- a call of no form above: the float matrix and the q8_mat disagree (shape_error.hpp) ----

namespace kernels::detail {
template <class X>
inline constexpr bool is_q8_mat_v = false;
template <class Role>
struct dim_named;  // Wq_rows<D> -> D
template <template <class> class Role, class D>
struct dim_named<Role<D>> {
    using type = D;
};
template <class R, class C>
inline constexpr bool is_q8_mat_v<q8_mat<R, C>> = true;

// W (float, its rows and columns) against Wq's: quantize(W, Wq), dequantize(Wq, W). Transposed:
// quantize_transposed(W, Wq), whose Wq's rows are W's columns.
template <class W, class Wq, bool Transposed = false>
constexpr auto q8_pair_error() {
    using namespace typeformer::detail;
    using Q = bare_t<Wq>;
    if constexpr (!is_q8_mat_v<Q>) {
        return what<arguments<bare_t<W>, Q>>{};
    } else {
        using rows = Wq_rows<typename Q::out_dim>;
        using cols = Wq_cols<typename Q::in_dim>;
        using R = std::conditional_t<Transposed, cols, rows>;  // what W's rows must be
        using C = std::conditional_t<Transposed, rows, cols>;
        return first_error(check_matrix<role::W, W>(),
                           check_rows<role::W, W, typename dim_named<R>::type, R>(),
                           check_cols<role::W, W, typename dim_named<C>::type, C>(),
                           check_scalar<role::W, W, float, Wq_scalar<float>>());
    }
}
// C ← Wq·B: B's rows are Wq's columns, C's rows Wq's rows, C's columns B's.
template <class Wq, class B, class C>
constexpr auto q8_matmul_error() {
    using namespace typeformer::detail;
    using Q = bare_t<Wq>;
    return or_arguments<Wq, B, C>(first_error(
        check_matrix<role::B, B>(), check_matrix<role::C, C>(),
        check_rows<role::B, B, typename Q::in_dim, Wq_cols<typename Q::in_dim>>(),
        check_rows<role::C, C, typename Q::out_dim, Wq_rows<typename Q::out_dim>>(),
        check_same_cols<role::C, C, role::B, B>(),
        check_scalar<role::B, B, float, Wq_scalar<float>>(),
        check_scalar<role::C, C, float, Wq_scalar<float>>(), check_writable<role::C, C>()));
}
}  // namespace kernels::detail

// W (R, C) float and Wq a q8_mat<R, C>: what quantize and dequantize take (quantize_transposed:
// W (C, R)).
template <class W, class Wq, bool Transposed = false>
concept q8_pair = kernels::detail::is_q8_mat_v<Wq> && std::is_same_v<
    W, std::conditional_t<Transposed, mat<float, typename Wq::in_dim, typename Wq::out_dim>,
                          mat<float, typename Wq::out_dim, typename Wq::in_dim>>>;

template <class W, class Wq>
    requires((matrix<W> || kernels::detail::is_q8_mat_v<Wq>)&&!q8_pair<W, Wq>)
auto quantize(const W& w, Wq& wq) noexcept -> decltype(detail::shape_error_of<in::quantize>(
    kernels::detail::q8_pair_error<const W&, Wq>()));
template <class W, class Wq>
    requires((matrix<W> || kernels::detail::is_q8_mat_v<Wq>)&&!q8_pair<W, Wq, true>)
auto quantize_transposed(const W& w, Wq& wq) noexcept
    -> decltype(detail::shape_error_of<in::quantize_transposed>(
        kernels::detail::q8_pair_error<const W&, Wq, true>()));
template <class Wq, class W>
    requires((kernels::detail::is_q8_mat_v<Wq> || matrix<W>)&&!q8_pair<W, Wq>)
auto dequantize(const Wq& wq, W& w) noexcept -> decltype(detail::shape_error_of<in::dequantize>(
    kernels::detail::q8_pair_error<W&, const Wq&>()));
template <class R, class K, class Bt, class Ct>
    requires(!requires {
        requires std::is_same_v<typename decltype(as_view(std::declval<const Bt&>()))::rows_dim,
                                K> &&
            std::is_same_v<typename decltype(as_view(std::declval<Ct&>()))::rows_dim, R>;
    })
auto matmul(const q8_mat<R, K>& Wq, const Bt& B, Ct&& C) noexcept
    -> decltype(detail::shape_error_of<in::q8_matmul>(
        kernels::detail::q8_matmul_error<const q8_mat<R, K>&, const Bt&, Ct>()));

}  // namespace typeformer
