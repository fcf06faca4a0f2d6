// The one-column products of decoding on threads (kernels/simd/gemm.hpp, parallel_rows): with
// OpenMP, A·x and Aᵀ·X (X of 1–3 columns) over operands big enough to be split must give the
// same bits on 1, 2 and 3 threads, from one run to the next and as the unsplit kernel, and agree
// with a double reference under the kernels' criterion. Built with -fopenmp (the other kernel tests are not).
#include <omp.h>

#include <cstring>
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

enum class form_t { nn, tn, nt };

// A (stored m × k for A·x, k × m for Aᵀ·X) ≥ parallel_rows_min elements, rows not a multiple of
// any row block, plus one just below the threshold (one thread whatever the count).
const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
    // m, n, k
    {1000, 1, 300},
    {1027, 1, 129},
    {4099, 2, 65},
    {770, 3, 768},
    {255, 1, 255}};

template <class T>
bool bit_equal(const strided<T>& a, const strided<T>& b) {
    return a.v.size() == b.v.size() &&
           std::memcmp(a.v.data(), b.v.data(), a.v.size() * sizeof(T)) == 0;
}

TEST(KernelThreads, OneColumnProductsSameBitsOnAnyThreadCount) {
    for (const auto& [m, n, k] : shapes)
        for (const bool transposed : {false, true})
            for (const bool accumulate : {false, true}) {
                if (!transposed && n != 1)
                    continue;  // A·X with n > 1 is the blocked driver, not the one-column path
                const auto A = transposed ? strided<float>(k, m, 3).random()
                                          : strided<float>(m, k, 3).random();
                const auto B = strided<float>(k, n, 1).random();
                const auto C0 = strided<float>(m, n, 2).random();
                std::vector<strided<float>> got;
                for (const int threads : {1, 2, 3, 2}) {
                    omp_set_num_threads(threads);
                    auto C = C0;
                    if (transposed)
                        TF_CALL(path::simd, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                C.data(), C.ld, accumulate);
                    else
                        TF_CALL(path::simd, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                C.data(), C.ld, accumulate);
                    got.push_back(C);
                }
                const std::string what = std::string(transposed ? "Aᵀ·X" : "A·x") +
                                         " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                         " k=" + std::to_string(k) +
                                         (accumulate ? " accumulate" : "");
                // the reference: C (m, n) ←/+= op(A)·B in double
                ref_mat r(m, n);
                for (std::size_t j = 0; j < n; ++j)
                    for (std::size_t i = 0; i < m; ++i) {
                        double s = accumulate ? double(C0(i, j)) : 0.0;
                        double mag = std::fabs(s);
                        for (std::size_t p = 0; p < k; ++p) {
                            const double t =
                                double(transposed ? A(p, i) : A(i, p)) * double(B(p, j));
                            s += t;
                            mag += std::fabs(t);
                        }
                        r(i, j) = s;
                        r.m(i, j) = mag;
                    }
                EXPECT_TRUE(close(got[1], r, what + ", 2 threads"));
#if TYPEFORMER_SIMD
                // the unsplit kernel: cutting the rows at whole row blocks changes no bit
                auto whole = C0;
                if (transposed)
                    tf::kernels::simd_impl::gemm_tn_dot(m, n, k, A.data(), A.ld, B.data(), B.ld,
                                                        whole.data(), whole.ld, accumulate);
                else
                    tf::kernels::simd_impl::gemv_n_impl(m, k, A.data(), A.ld, B.data(),
                                                        whole.data(), accumulate);
                EXPECT_TRUE(bit_equal(whole, got[1])) << what << ": unsplit vs 2 threads";
#endif
                EXPECT_TRUE(bit_equal(got[0], got[1])) << what << ": 1 vs 2 threads";
                EXPECT_TRUE(bit_equal(got[0], got[2])) << what << ": 1 vs 3 threads";
                EXPECT_TRUE(bit_equal(got[1], got[3])) << what << ": 2 threads, run to run";
            }
    omp_set_num_threads(omp_get_num_procs());
}

// The products of one sequence (B = 1): C's columns cut into chunks (parallel_cols) for every
// form, against the unsplit driver, a double reference, and other thread counts.
TEST(KernelThreads, ColumnSplitProductsSameBitsAsUnsplit) {
    const std::tuple<std::size_t, std::size_t, std::size_t> big[] = {
        // m, n, k: above parallel_cols_min, n not a multiple of the chunking's 8-column groups
        {300, 130, 70},
        {64, 256, 384},
        {1152, 37, 64},
        {65, 255, 384}};
    for (const auto& [m, n, k] : big)
        for (const form_t f : {form_t::nn, form_t::tn, form_t::nt})
            for (const bool accumulate : {false, true}) {
                const auto A = f == form_t::tn ? strided<float>(k, m, 1).random()
                                               : strided<float>(m, k, 1).random();
                const auto B = f == form_t::nt ? strided<float>(n, k, 2).random()
                                               : strided<float>(k, n, 2).random();
                const auto C0 = strided<float>(m, n, 3).random();
                auto call = [&](strided<float>& C) {
                    if (f == form_t::nn)
                        TF_CALL(path::simd, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                C.data(), C.ld, accumulate);
                    else if (f == form_t::tn)
                        TF_CALL(path::simd, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                C.data(), C.ld, accumulate);
                    else
                        TF_CALL(path::simd, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                C.data(), C.ld, accumulate);
                };
                std::vector<strided<float>> got;
                for (const int threads : {1, 2, 3, 2}) {
                    omp_set_num_threads(threads);
                    auto C = C0;
                    call(C);
                    got.push_back(C);
                }
                omp_set_num_threads(omp_get_num_procs());
                const std::string what = std::string(f == form_t::nn   ? "A·B"
                                                     : f == form_t::tn ? "Aᵀ·B"
                                                                       : "A·Bᵀ") +
                                         " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                         " k=" + std::to_string(k) +
                                         (accumulate ? " accumulate" : "");
                ref_mat r(m, n);
                for (std::size_t j = 0; j < n; ++j)
                    for (std::size_t i = 0; i < m; ++i) {
                        double s = accumulate ? double(C0(i, j)) : 0.0;
                        double mag = std::fabs(s);
                        for (std::size_t p = 0; p < k; ++p) {
                            const double a = f == form_t::tn ? A(p, i) : A(i, p);
                            const double b = f == form_t::nt ? B(j, p) : B(p, j);
                            s += a * b;
                            mag += std::fabs(a * b);
                        }
                        r(i, j) = s;
                        r.m(i, j) = mag;
                    }
                EXPECT_TRUE(close(got[1], r, what + ", 2 threads"));
                EXPECT_TRUE(bit_equal(got[0], got[1])) << what << ": 1 vs 2 threads";
                EXPECT_TRUE(bit_equal(got[0], got[2])) << what << ": 1 vs 3 threads";
                EXPECT_TRUE(bit_equal(got[1], got[3])) << what << ": 2 threads, run to run";
#if TYPEFORMER_SIMD
                auto whole = C0;  // the unsplit driver
                const bool t = f == form_t::tn;
                const std::size_t rs = f == form_t::nt ? B.ld : 1, cs = f == form_t::nt ? 1 : B.ld;
                tf::kernels::simd_impl::gemm_driver(m, n, k, A.data(), A.ld, t, B.data(), rs, cs,
                                                    whole.data(), whole.ld, accumulate);
                EXPECT_TRUE(bit_equal(whole, got[1])) << what << ": unsplit vs 2 threads";
#endif
            }
}

}  // namespace
