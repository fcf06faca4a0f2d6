// The int8 kernels (kernels/scalar/q8.hpp, kernels/simd/q8.hpp) against naive double loops:
// the per-row quantizer (scale = max |row| / 127, codes within half a step) and the product
// C ←/+= diag(s)·Q·B on both raw paths, every size of the sweep, padded B and C.
#include <cstdint>
#include <vector>

#include <typeformer/kernels/q8.hpp>

#include "kernel_test_support.hpp"

using namespace tf_test;

namespace {

TEST(Q8Kernels, QuantizeRowsAgainstNaiveLoop) {
    for (std::size_t m : {1u, 3u, 17u})
        for (std::size_t k : sweep) {
            strided<float> W(m, k, 2);
            W.random(-2, 2);
            std::vector<std::int8_t> Q(m * k);
            std::vector<float> s(m);
            typeformer::kernels::scalar::quantize_rows_q8(m, k, W.data(), 1, W.ld, Q.data(), k,
                                                          s.data());
            for (std::size_t i = 0; i < m; ++i) {
                double amax = 0;
                for (std::size_t j = 0; j < k; ++j)
                    amax = std::max(amax, std::fabs(static_cast<double>(W(i, j))));
                EXPECT_TRUE(close(s[i], amax / 127.0, 0.0, "scale"));
                for (std::size_t j = 0; j < k; ++j) {
                    const double back = static_cast<double>(s[i]) * Q[i * k + j];
                    EXPECT_LE(std::fabs(back - W(i, j)), amax / 254.0 * (1 + 1e-5))
                        << "m " << m << " k " << k << " (" << i << ", " << j << ")";
                }
            }
        }
}

TEST(Q8Kernels, GemmAgainstNaiveLoopOnBothPaths) {
    for (const path p : paths())
        for (std::size_t m : {1u, 5u, 16u, 33u})
            for (std::size_t n : {1u, 3u, 4u, 9u})
                for (std::size_t k : sweep)
                    for (const bool acc : {false, true}) {
                        std::vector<std::int8_t> Q(m * k);
                        std::vector<float> s(m);
                        for (auto& q : Q)
                            q = static_cast<std::int8_t>(uniform(-127.49, 127.49));
                        for (auto& v : s)
                            v = static_cast<float>(uniform(0.001, 0.05));
                        strided<float> B(k, n, 3), C(m, n, 1);
                        B.random();
                        C.random();
                        ref_mat ref(m, n);
                        for (std::size_t j = 0; j < n; ++j)
                            for (std::size_t i = 0; i < m; ++i) {
                                double sum = 0, mag = 0;
                                for (std::size_t q = 0; q < k; ++q) {
                                    const double t = static_cast<double>(s[i]) * Q[i * k + q] *
                                                     static_cast<double>(B(q, j));
                                    sum += t, mag += std::fabs(t);
                                }
                                const double c0 = acc ? static_cast<double>(C(i, j)) : 0.0;
                                ref(i, j) = c0 + sum;
                                ref.m(i, j) = std::fabs(c0) + mag;
                            }
                        TF_CALL(p, gemm_q8, m, n, k, Q.data(), k, s.data(), B.data(), B.ld,
                                C.data(), C.ld, acc);
                        EXPECT_TRUE(close(C, ref,
                                          std::string(name(p)) + " m " + std::to_string(m) + " n " +
                                              std::to_string(n) + " k " + std::to_string(k)));
                    }
}

}  // namespace
