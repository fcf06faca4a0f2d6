// The matrix products on OpenMP threads (kernels/simd/gemm.hpp: parallel_row_runs and
// parallel_rows for the one-column products of decoding, parallel_cols for the products of one
// sequence): over operands big enough to be split (TYPEFORMER_PARALLEL_ROWS_MIN is lowered for
// this binary), every form must give the same bits on 1, 2 and 3 threads, from one run to the
// next and as the unsplit kernel, and agree with a double reference under the kernels'
// criterion, with and without a causal band. Built with -fopenmp (the other kernel tests are
// not).
#include <omp.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <typeformer/kernels.hpp>

#include "kernel_test_support.hpp"

#if !defined(_OPENMP)
#error "test_kernels_threads is built with OpenMP so that the products really run on threads"
#endif

namespace {

using namespace tf_test;
namespace tf = typeformer;

template <class T>
bool bit_equal(const strided<T>& a, const strided<T>& b) {
    return a.v.size() == b.v.size() &&
           std::memcmp(a.v.data(), b.v.data(), a.v.size() * sizeof(T)) == 0;
}

// C (m, n) ←/+= op(A)·op(B) through the public kernel on 1, 2, 3 and again 2 threads; `unsplit`
// computes the same with the kernel the split calls, on one piece.
// Under a band (causal attention's products), op(B) is zero outside a k band and only the
// entries a c_upper band wants are compared.
template <class Unsplit>
void expect_split_exact(form f, std::size_t m, std::size_t n, std::size_t k, bool accumulate,
                        Unsplit&& unsplit, tf::kernels::gemm_band band = {}) {
    const auto A =
        f == form::tn ? strided<float>(k, m, 1).random() : strided<float>(m, k, 1).random();
    auto B = f == form::nt ? strided<float>(n, k, 2).random() : strided<float>(k, n, 2).random();
    zero_outside_band(f, band, B);
    const auto C0 = strided<float>(m, n, 3).random();
    std::vector<strided<float>> got;
    for (const int threads : {1, 2, 3, 2}) {
        omp_set_num_threads(threads);
        auto C = C0;
        if (f == form::nn)
            TF_CALL(path::simd, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                    accumulate, band);
        else if (f == form::tn)
            TF_CALL(path::simd, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                    accumulate, band);
        else
            TF_CALL(path::simd, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                    accumulate, band);
        clear_unwanted(band, C);
        got.push_back(C);
    }
    omp_set_num_threads(omp_get_num_procs());
    const std::string what =
        std::string(form_name(f)) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
        " k=" + std::to_string(k) +
        (band.what != tf::kernels::gemm_band::kind::none ? band_name(band) : std::string()) +
        (accumulate ? " accumulate" : "");
    auto ref = gemm_reference(f, m, n, k, A, B, C0, accumulate);
    clear_unwanted(band, ref);
    EXPECT_TRUE(close(got[1], ref, what));
    EXPECT_TRUE(bit_equal(got[0], got[1])) << what << ": 1 vs 2 threads";
    EXPECT_TRUE(bit_equal(got[0], got[2])) << what << ": 1 vs 3 threads";
    EXPECT_TRUE(bit_equal(got[1], got[3])) << what << ": 2 threads, run to run";
#if TYPEFORMER_SIMD
    auto whole = C0;  // cutting at whole row blocks / column groups changes no bit
    unsplit(A, B, whole);
    clear_unwanted(band, whole);
    EXPECT_TRUE(bit_equal(whole, got[1])) << what << ": unsplit vs 2 threads";
#else
    (void)unsplit;
#endif
}

// Decoding's A·x and Aᵀ·X (X of 1–3 columns), A ≥ parallel_rows_min elements but the last, rows
// not a multiple of any row block.
TEST(KernelThreads, OneColumnProductsSameBitsAsUnsplit) {
    const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
        {1000, 1, 300}, {1027, 1, 129}, {4099, 2, 65}, {770, 3, 768}, {255, 1, 255}};
    for (const auto& shape : shapes)
        for (const bool accumulate : {false, true}) {
            // (plain variables, not a structured binding: Clang 14 cannot capture those)
            const std::size_t m = std::get<0>(shape), n = std::get<1>(shape),
                              k = std::get<2>(shape);
#if TYPEFORMER_SIMD
            namespace impl = tf::kernels::simd_impl;
            if (n == 1)
                expect_split_exact(form::nn, m, n, k, accumulate, [&](auto& A, auto& B, auto& C) {
                    impl::gemv_n_impl(m, k, A.data(), A.ld, B.data(), C.data(), accumulate);
                });
            expect_split_exact(form::tn, m, n, k, accumulate, [&](auto& A, auto& B, auto& C) {
                impl::gemm_tn_dot(m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                                  accumulate);
            });
#else
            expect_split_exact(form::tn, m, n, k, accumulate, [](auto&, auto&, auto&) {});
#endif
        }
}

// The products of one sequence (B = 1): C's columns cut into chunks, every form.
TEST(KernelThreads, ColumnSplitProductsSameBitsAsUnsplit) {
    const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
        // above parallel_cols_min, n not a multiple of the chunking's 8-column groups
        {300, 130, 70},
        {64, 256, 384},
        {1152, 37, 64},
        {65, 255, 384}};
    for (const auto& shape : shapes)
        for (const form f : {form::nn, form::tn, form::nt})
            for (const bool accumulate : {false, true}) {
                const std::size_t m = std::get<0>(shape), n = std::get<1>(shape),
                                  k = std::get<2>(shape);
                expect_split_exact(f, m, n, k, accumulate, [&](auto& A, auto& B, auto& C) {
#if TYPEFORMER_SIMD
                    const std::size_t rs = f == form::nt ? B.ld : 1, cs = f == form::nt ? 1 : B.ld;
                    tf::kernels::simd_impl::gemm_driver(m, n, k, A.data(), A.ld, f == form::tn,
                                                        B.data(), rs, cs, C.data(), C.ld,
                                                        accumulate);
#else
                    (void)A, (void)B, (void)C;
#endif
                });
            }
}

// Causal attention's products at a baby head's shapes (l = 256, d = 64) and past them: under a
// band the columns are cut at equal work rather than equal width, still the same bits.
TEST(KernelThreads, BandedProductsSameBitsAsUnsplit) {
    using kind = tf::kernels::gemm_band::kind;
    struct banded {
        form f;
        std::size_t m, n, k;
        tf::kernels::gemm_band band;
    };
    const banded cases[] = {
        {form::tn, 256, 256, 64, {kind::c_upper, 0}},     // S = KᵀQ, dA = VᵀdṼ
        {form::nn, 64, 256, 256, {kind::k_to_col, 0}},    // Ṽ = V·A, dQ = K·dS
        {form::nt, 64, 256, 256, {kind::k_from_col, 0}},  // dV = dṼ·Aᵀ, dK = Q·dSᵀ
        {form::tn, 300, 261, 70, {kind::c_upper, 9}},     // a KV cache's offset
        {form::nn, 70, 263, 300, {kind::k_to_col, 9}},
        {form::nt, 70, 301, 263, {kind::k_from_col, -9}},
        {form::nn, 64, 520, 300, {kind::k_to_col, 0}}};  // crosses k slices and column blocks
    for (const auto& c : cases)
        for (const bool accumulate : {false, true})
            expect_split_exact(
                c.f, c.m, c.n, c.k, accumulate,
                [&](auto& A, auto& B, auto& C) {
#if TYPEFORMER_SIMD
                    const std::size_t rs = c.f == form::nt ? B.ld : 1,
                                      cs = c.f == form::nt ? 1 : B.ld;
                    tf::kernels::simd_impl::gemm_driver(c.m, c.n, c.k, A.data(), A.ld,
                                                        c.f == form::tn, B.data(), rs, cs, C.data(),
                                                        C.ld, accumulate, c.band);
#else
                    (void)A, (void)B, (void)C;
#endif
                },
                c.band);
}

// A fused epilogue (bias and residual: the MLP's W_2 with the residual add) over the column
// split: each chunk gets the epilogue moved to its columns, so 1, 2 and 3 threads give the same
// bits as the product followed by the add_bias and axpy passes on one thread.
TEST(KernelThreads, EpilogueSplitSameBitsAsPasses) {
    const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
        {512, 128, 128}, {300, 130, 70}, {65, 255, 384}};
    for (const auto& mnk : shapes)
        for (const form f : {form::nn, form::tn, form::nt}) {
            const std::size_t m = std::get<0>(mnk), n = std::get<1>(mnk), k = std::get<2>(mnk);
            const auto A =
                f == form::tn ? strided<float>(k, m, 1).random() : strided<float>(m, k, 1).random();
            const auto B =
                f == form::nt ? strided<float>(n, k, 2).random() : strided<float>(k, n, 2).random();
            const auto bias = strided<float>(m, 1).random();
            const auto R = strided<float>(m, n, 4).random();
            auto run = [&](strided<float>& C, bool fused) {
                auto ep = tf::kernels::gemm_epilogue<float>{}
                              .with_bias(bias.data())
                              .with_residual(R.data(), R.ld);
                if (!fused)
                    ep = {};
                if (f == form::nn)
                    TF_CALL(path::simd, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(),
                            C.ld, false, {}, ep);
                else if (f == form::tn)
                    TF_CALL(path::simd, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(),
                            C.ld, false, {}, ep);
                else
                    TF_CALL(path::simd, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(),
                            C.ld, false, {}, ep);
                if (!fused) {
                    TF_CALL(path::simd, add_bias, m, n, bias.data(), C.data(), C.ld);
                    TF_CALL(path::simd, axpy, m, n, 1.0f, R.data(), R.ld, C.data(), C.ld);
                }
            };
            omp_set_num_threads(1);
            strided<float> C_passes(m, n, 3);
            run(C_passes, false);
            for (const int threads : {1, 2, 3}) {
                omp_set_num_threads(threads);
                strided<float> C(m, n, 3);
                run(C, true);
                const std::string what = std::string(form_name(f)) + " " + shape(m, n, k) + " on " +
                                         std::to_string(threads) + " threads";
                EXPECT_TRUE(bit_equal(C, C_passes)) << what << ": fused vs passes";
            }
            omp_set_num_threads(omp_get_num_procs());
        }
}

}  // namespace
