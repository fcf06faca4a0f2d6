// softmax_columns (bidirectional, unidirectional with offsets, fully masked columns),
// softmax_columns_online (the same columns in tiles of keys) and softmax_columns_backward on both
// raw paths against double references, then the typed API.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/kernels.hpp>

#include "kernel_test_support.hpp"

namespace {

using namespace tf_test;
namespace tf = typeformer;

// Rows of column t that survive: all, or t_z ≤ t + offset.
std::size_t kept(std::size_t rows, std::size_t t, bool causal, std::ptrdiff_t offset) {
    if (!causal)
        return rows;
    std::size_t n = 0;
    for (std::size_t i = 0; i < rows; ++i)
        if (static_cast<std::ptrdiff_t>(i) <= static_cast<std::ptrdiff_t>(t) + offset)
            ++n;
    return n;
}

// softmax(scale·S[:, t]) over the kept rows, in double; masked entries 0.
template <class T>
ref_mat reference(const strided<T>& S, double scale, bool causal, std::ptrdiff_t offset) {
    ref_mat r(S.rows, S.cols);
    for (std::size_t t = 0; t < S.cols; ++t) {
        const std::size_t n = kept(S.rows, t, causal, offset);
        double mx = -INFINITY, sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            mx = std::max(mx, scale * S(i, t));
        for (std::size_t i = 0; i < n; ++i)
            sum += std::exp(scale * S(i, t) - mx);
        for (std::size_t i = 0; i < n; ++i) {
            r(i, t) = std::exp(scale * S(i, t) - mx) / sum;
            // exp's error grows with its argument: a few ulps relative, scaled by |scale·s − max|.
            r.m(i, t) = r(i, t) * (std::fabs(scale * S(i, t)) + std::fabs(mx));
        }
    }
    return r;
}

template <class T>
class Softmax : public ::testing::Test {};
using value_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Softmax, value_types);

struct mask_case {
    bool causal;
    std::ptrdiff_t offset;
};

TYPED_TEST(Softmax, Columns) {
    using T = TypeParam;
    const mask_case masks[] = {{false, 0}, {true, 0}, {true, 2}, {true, -3}};
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : {std::size_t(1), std::size_t(5), std::size_t(17), std::size_t(67)})
            for (auto mk : masks) {
                strided<T> S0(rows, cols, (idx++ % 3) * 3);
                S0.random(-4, 4);
                const double scale = 0.7;
                const ref_mat ref = reference(S0, scale, mk.causal, mk.offset);
                for (path p : paths()) {
                    strided<T> S = S0;
                    TF_CALL(p, softmax_columns, rows, cols, T(scale), mk.causal, mk.offset,
                            S.data(), S.ld);
                    const std::string what =
                        std::string(name(p)) + " " + shape(rows, cols) +
                        (mk.causal ? " causal offset " + std::to_string(mk.offset)
                                   : " bidirectional");
                    ASSERT_TRUE(close(S, ref, what));
                    for (std::size_t t = 0; t < cols; ++t) {
                        const std::size_t n = kept(rows, t, mk.causal, mk.offset);
                        double sum = 0;
                        for (std::size_t i = 0; i < rows; ++i) {
                            if (i >= n) {
                                ASSERT_EQ(S(i, t), T(0))
                                    << what << ": masked entry (" << i << ", " << t << ")";
                            }
                            sum += S(i, t);
                        }
                        // A fully masked column (offset < 0) is all zeros; any other sums to 1,
                        // to the rounding of its n entries and of their normalisation (a few ulps
                        // each; the entries themselves are checked one by one above).
                        ASSERT_NEAR(sum, n == 0 ? 0.0 : 1.0,
                                    4 * double(n + 1) * std::numeric_limits<T>::epsilon())
                            << what << " column " << t;
                    }
                }
            }
}

// Huge scores: the max is subtracted before exp, nothing overflows.
TYPED_TEST(Softmax, LargeScoresDoNotOverflow) {
    using T = TypeParam;
    for (path p : paths()) {
        strided<T> S(19, 2);
        for (std::size_t i = 0; i < 19; ++i) {
            S(i, 0) = T(1000) + T(i);
            S(i, 1) = T(-1000) - T(i);
        }
        const ref_mat ref = reference(S, 1.0, false, 0);
        TF_CALL(p, softmax_columns, std::size_t(19), std::size_t(2), T(1), false, std::ptrdiff_t(0),
                S.data(), S.ld);
        EXPECT_TRUE(close(S, ref, name(p)));
    }
}

// softmax_columns_online over a column split into tiles of keys (as nn/attention.hpp's tiled
// forward runs it): after the last tile, a tile's entries exp(scale·s − m_final)·Π α of the later
// tiles, divided by l, are that column's softmax; masked entries are exactly 0. Tiles of 1, 5,
// 16 and 67 rows (SIMD tails), masks with offsets, a column no tile keeps.
TYPED_TEST(Softmax, OnlineOverTilesEqualsTheColumnsSoftmax) {
    using T = TypeParam;
    const mask_case masks[] = {{false, 0}, {true, 0}, {true, 3}, {true, -2}};
    std::size_t idx = 0;
    for (const std::size_t rows : {std::size_t(9), std::size_t(40), std::size_t(67)})
        for (const std::size_t tile : {std::size_t(1), std::size_t(5), std::size_t(16), rows})
            for (const auto mk : masks) {
                const std::size_t cols = 6;
                strided<T> S0(rows, cols, (idx++ % 3) * 2);
                S0.random(-6, 6);
                const double scale = 0.8;
                const ref_mat ref = reference(S0, scale, mk.causal, mk.offset);
                for (path p : paths()) {
                    strided<T> S = S0;
                    std::vector<T> m(cols, -std::numeric_limits<T>::infinity()), l(cols, T(0)),
                        alpha(cols), carry(cols * rows, T(1));  // Π α of later tiles, per entry
                    for (std::size_t z0 = 0; z0 < rows; z0 += tile) {
                        const std::size_t nz = std::min(tile, rows - z0);
                        TF_CALL(p, softmax_columns_online, nz, cols, T(scale), mk.causal,
                                mk.offset - static_cast<std::ptrdiff_t>(z0), &S(z0, 0), S.ld,
                                m.data(), l.data(), alpha.data());
                        for (std::size_t t = 0; t < cols; ++t)
                            for (std::size_t i = 0; i < z0; ++i)
                                carry[i + t * rows] *= alpha[t];  // earlier tiles rescaled
                    }
                    strided<T> A(rows, cols);
                    for (std::size_t t = 0; t < cols; ++t)
                        for (std::size_t i = 0; i < rows; ++i)
                            A(i, t) = l[t] == T(0) ? S(i, t) : S(i, t) * carry[i + t * rows] / l[t];
                    const std::string what =
                        std::string(name(p)) + " online " + shape(rows, cols) + " tiles of " +
                        std::to_string(tile) +
                        (mk.causal ? " causal offset " + std::to_string(mk.offset)
                                   : " bidirectional");
                    ASSERT_TRUE(close(A, ref, what));
                    for (std::size_t t = 0; t < cols; ++t)
                        for (std::size_t i = kept(rows, t, mk.causal, mk.offset); i < rows; ++i)
                            ASSERT_EQ(S(i, t), T(0))
                                << what << ": masked (" << i << ", " << t << ")";
                }
            }
}

// Without a mask every row is read (A from a causal forward has exact zeros there); with a causal
// one only the kept rows, so dA's masked entries are NaN here and must neither be read nor reach
// dS, whose masked entries stay as they were.
TYPED_TEST(Softmax, Backward) {
    using T = TypeParam;
    const mask_case masks[] = {{false, 0}, {true, 1}, {true, 0}, {true, -3}};
    std::size_t idx = 0;
    for (const mask_case mk : masks)
        for (std::size_t rows : sweep)
            for (std::size_t cols : {std::size_t(1), std::size_t(16), std::size_t(33)}) {
                const std::size_t pad = (idx++ % 3) * 2;
                strided<T> A(rows, cols, pad), dA(rows, cols, pad + 1), dS0(rows, cols, pad);
                A.random(-4, 4);
                TF_CALL(path::scalar, softmax_columns, rows, cols, T(1), true,
                        mk.causal ? mk.offset : std::ptrdiff_t(1), A.data(), A.ld);
                dA.random();
                dS0.random();
                for (std::size_t t = 0; t < cols; ++t)
                    for (std::size_t i = kept(rows, t, mk.causal, mk.offset); i < rows; ++i)
                        dA(i, t) = std::numeric_limits<T>::quiet_NaN();
                const double scale = 0.37;
                // dS += scale · A ⊙ (dA − Σ_i A_i dA_i) over the kept rows
                ref_mat ref(rows, cols);
                for (std::size_t t = 0; t < cols; ++t) {
                    const std::size_t n = kept(rows, t, mk.causal, mk.offset);
                    double dot = 0, dot_mag = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        dot += double(A(i, t)) * dA(i, t);
                        dot_mag += std::fabs(double(A(i, t)) * dA(i, t));
                    }
                    for (std::size_t i = 0; i < rows; ++i) {
                        const double g = i < n ? scale * A(i, t) * (dA(i, t) - dot) : 0.0;
                        ref(i, t) = dS0(i, t) + g;
                        ref.m(i, t) =
                            std::fabs(dS0(i, t)) +
                            (i < n ? scale * A(i, t) * (std::fabs(dA(i, t)) + dot_mag) : 0.0);
                    }
                }
                for (path p : paths()) {
                    strided<T> dS = dS0;
                    TF_CALL(p, softmax_columns_backward, rows, cols, T(scale), A.data(), A.ld,
                            dA.data(), dA.ld, dS.data(), dS.ld, mk.causal, mk.offset);
                    ASSERT_TRUE(close(dS, ref,
                                      std::string(name(p)) + " backward " + shape(rows, cols) +
                                          (mk.causal ? " causal offset " + std::to_string(mk.offset)
                                                     : std::string())));
                }
            }
}

// The reference backward is the derivative of the reference forward (central differences).
TEST(SoftmaxReference, BackwardMatchesFiniteDifferences) {
    const std::size_t rows = 7;
    strided<double> S(rows, 1), dA(rows, 1);
    S.random(-2, 2);
    dA.random();
    const double scale = 0.8;
    const ref_mat A = reference(S, scale, false, 0);
    double dot = 0;
    for (std::size_t i = 0; i < rows; ++i)
        dot += A.val[i] * dA(i, 0);
    for (std::size_t i = 0; i < rows; ++i) {
        const double analytic = scale * A.val[i] * (dA(i, 0) - dot);
        const double h = 1e-6;
        strided<double> Sp = S, Sm = S;
        Sp(i, 0) += h;
        Sm(i, 0) -= h;
        const ref_mat Ap = reference(Sp, scale, false, 0), Am = reference(Sm, scale, false, 0);
        double fd = 0;
        for (std::size_t r = 0; r < rows; ++r)
            fd += dA(r, 0) * (Ap.val[r] - Am.val[r]) / (2 * h);
        EXPECT_NEAR(analytic, fd, 1e-8);
    }
}

TYPED_TEST(Softmax, TypedApi) {
    using T = TypeParam;
    auto S = std::make_unique<tf::mat<T, tf::l_z<40>, tf::l_x<40>>>();
    S->resize_rows(23);
    S->resize_cols(19);
    strided<T> S0(23, 19);
    S0.random(-3, 3);
    for (std::size_t t = 0; t < 19; ++t)
        for (std::size_t i = 0; i < 23; ++i)
            (*S)(i, t) = S0(i, t);
    const double scale = 0.125;

    tf::softmax_columns(*S, T(scale), tf::mask_unidirectional{2});
    ref_mat ref = reference(S0, scale, true, 2);
    strided<T> got(23, 19);
    for (std::size_t t = 0; t < 19; ++t)
        for (std::size_t i = 0; i < 23; ++i)
            got(i, t) = (*S)(i, t);
    EXPECT_TRUE(close(got, ref, "softmax_columns(S, scale, mask_unidirectional{2})"));
    EXPECT_EQ((*S)(3, 0), T(0));
    EXPECT_GT((*S)(2, 0), T(0));

    for (std::size_t t = 0; t < 19; ++t)
        for (std::size_t i = 0; i < 23; ++i)
            (*S)(i, t) = S0(i, t);
    tf::softmax_columns(*S, T(scale), tf::mask_bidirectional{});
    ref = reference(S0, scale, false, 0);
    for (std::size_t t = 0; t < 19; ++t)
        for (std::size_t i = 0; i < 23; ++i)
            got(i, t) = (*S)(i, t);
    EXPECT_TRUE(close(got, ref, "softmax_columns(S, scale, mask_bidirectional{})"));

    auto dA = std::make_unique<tf::mat<T, tf::l_z<40>, tf::l_x<40>>>();
    auto dS = std::make_unique<tf::mat<T, tf::l_z<40>, tf::l_x<40>>>();
    dA->resize_rows(23);
    dA->resize_cols(19);
    dS->resize_rows(23);
    dS->resize_cols(19);
    for (std::size_t t = 0; t < 19; ++t)
        for (std::size_t i = 0; i < 23; ++i)
            (*dA)(i, t) = T(uniform(-1, 1));
    // Without a mask every row; with mask_unidirectional{2} only rows t_z ≤ t + 2 (the others of
    // dS stay 0), whatever A holds there.
    for (const bool causal : {false, true}) {
        tf::fill(*dS, T(0));
        if (causal)
            tf::softmax_columns_backward(*S, *dA, T(scale), *dS, tf::mask_unidirectional{2});
        else
            tf::softmax_columns_backward(*S, *dA, T(scale), *dS);
        for (std::size_t t = 0; t < 19; ++t) {
            const std::size_t n = kept(23, t, causal, 2);
            double dot = 0, dot_mag = 0;
            for (std::size_t i = 0; i < n; ++i) {
                dot += double((*S)(i, t)) * (*dA)(i, t);
                dot_mag += std::fabs(double((*S)(i, t)) * (*dA)(i, t));
            }
            // Per entry: relative to the size of the terms (dA − A·dA cancels), as the raw test.
            for (std::size_t i = 0; i < 23; ++i) {
                const double a = i < n ? double((*S)(i, t)) : 0.0;
                const double want = scale * a * ((*dA)(i, t) - dot);
                const double mag = scale * a * (std::fabs((*dA)(i, t)) + dot_mag);
                EXPECT_NEAR((*dS)(i, t), want, rtol<T> * (std::fabs(want) + mag))
                    << i << ", " << t << (causal ? " causal" : "");
            }
        }
    }
}

}  // namespace
