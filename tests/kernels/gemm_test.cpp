// Matrix products: gemm_nn / gemm_tn / gemm_nt / gemv_n / gemv_t on both raw paths against a
// triple loop in double, then the typed matmul / matvec once.
#include <cmath>
#include <memory>
#include <tuple>

#include <typeformer/kernels.hpp>

#include "kernel_test_support.hpp"

namespace {

using namespace tf_test;
namespace tf = typeformer;

// (m, n, k): each dim swept over 1…67 with the other two from a few pairs, plus shapes that
// cross the k-slice (KC = 64…384) and column-block (NC, a last block of up to 1.25·NC)
// boundaries of the SIMD driver.
std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> gemm_shapes() {
    std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> s;
    const std::size_t others[][2] = {{1, 1}, {7, 16}, {17, 67}, {64, 33}};
    for (std::size_t v : sweep)
        for (auto& o : others) {
            s.emplace_back(v, o[0], o[1]);
            s.emplace_back(o[0], v, o[1]);
            s.emplace_back(o[0], o[1], v);
        }
    s.emplace_back(100, 37, 300);
    s.emplace_back(49, 9, 257);
    s.emplace_back(130, 20, 400);
    s.emplace_back(5, 1100, 3);
    s.emplace_back(97, 13, 900);
    // A last column block of more than NC / 4 (float on AVX2), and a C large enough (> 256 KiB of
    // float) that the tiles prefetch it.
    s.emplace_back(230, 301, 40);
    // An A of more than 1 MiB, whose next panel the tiles ask for while they run: across row
    // blocks (MC) and k slices, the last one short.
    s.emplace_back(530, 19, 520);
    return s;
}

template <class T>
class Gemm : public ::testing::Test {};
using value_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Gemm, value_types);

template <class T>
void run_gemm(form f) {
    auto shapes = gemm_shapes();
    // A·Bᵀ with B's rows more than 2 KiB apart, which the SIMD driver first copies into a stack
    // buffer, column blocks of NCP = 48 or 96: the last one partial, k across a slice. double's
    // rows are that far apart already in (230, 301, 40).
    if (f == form::nt && std::is_same_v<T, float>)
        shapes.emplace_back(100, 530, 270);
    std::size_t idx = 0;
    for (auto [m, n, k] : shapes) {
        const std::size_t pad = (idx++ % 3) * 3;  // ld = rows, rows + 3, rows + 6
        strided<T> A(f == form::tn ? k : m, f == form::tn ? m : k, pad);
        strided<T> B(f == form::nt ? n : k, f == form::nt ? k : n, pad + 1);
        A.random();
        B.random();
        for (bool accumulate : {false, true}) {
            strided<T> C0(m, n, pad);
            C0.random();
            const ref_mat ref = gemm_reference(f, m, n, k, A, B, C0, accumulate);
            for (path p : paths()) {
                strided<T> C = C0;
                switch (f) {
                    case form::nn:
                        TF_CALL(p, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                                accumulate);
                        break;
                    case form::tn:
                        TF_CALL(p, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                                accumulate);
                        break;
                    case form::nt:
                        TF_CALL(p, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld, C.data(), C.ld,
                                accumulate);
                        break;
                }
                ASSERT_TRUE(close(C, ref,
                                  std::string(name(p)) + " " + form_name(f) + " " + shape(m, n, k) +
                                      (accumulate ? " +=" : " ←")));
            }
        }
    }
}

TYPED_TEST(Gemm, AB) {
    run_gemm<TypeParam>(form::nn);
}
TYPED_TEST(Gemm, AtB) {
    run_gemm<TypeParam>(form::tn);
}
TYPED_TEST(Gemm, ABt) {
    run_gemm<TypeParam>(form::nt);
}

// Under a causal band (what attention passes): the wanted entries of C, with op(B) zero outside a
// k band, on both paths against the full product in double. Shapes cross the SIMD driver's k
// slices (KC = 128 or 256), column blocks (NC = 240 on AVX2), row blocks (MC, used when
// k > 2·KC) and end in partial tiles; n ≥ 64, where the SIMD products use the band, but one.
TYPED_TEST(Gemm, CausalBands) {
    using T = TypeParam;
    const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
        {37, 67, 41},   {40, 250, 50}, {130, 100, 20}, {24, 100, 300},
        {20, 300, 290}, {5, 1100, 3},  {90, 66, 530},  {9, 7, 2}};
    std::size_t idx = 0;
    for (const auto& band : causal_bands())
        for (const form f : {form::nn, form::tn, form::nt})
            for (const auto& [m, n, k] : shapes) {
                // double's blocks are half as wide (NC = 120): its cases are the ones that cross
                // them and the small ones, which keeps the sanitizer runs short.
                if (std::is_same_v<T, double> && n != 250 && n != 300 && m * n * k > 200'000)
                    continue;
                const std::size_t pad = (idx++ % 3) * 3;
                strided<T> A(f == form::tn ? k : m, f == form::tn ? m : k, pad);
                strided<T> B(f == form::nt ? n : k, f == form::nt ? k : n, pad + 1);
                A.random();
                B.random();
                zero_outside_band(f, band, B);
                for (bool accumulate : {false, true}) {
                    strided<T> C0(m, n, pad);
                    C0.random();
                    ref_mat ref = gemm_reference(f, m, n, k, A, B, C0, accumulate);
                    clear_unwanted(band, ref);
                    for (path p : paths()) {
                        strided<T> C = C0;
                        switch (f) {
                            case form::nn:
                                TF_CALL(p, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        C.data(), C.ld, accumulate, band);
                                break;
                            case form::tn:
                                TF_CALL(p, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        C.data(), C.ld, accumulate, band);
                                break;
                            case form::nt:
                                TF_CALL(p, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        C.data(), C.ld, accumulate, band);
                                break;
                        }
                        clear_unwanted(band, C);
                        ASSERT_TRUE(close(C, ref,
                                          std::string(name(p)) + " " + form_name(f) + " " +
                                              shape(m, n, k) + band_name(band) +
                                              (accumulate ? " +=" : " ←")));
                    }
                }
            }
}

// The fused epilogue (kernels/scalar/gemm.hpp): C + bias, then + R, on both paths, against the
// product in double followed by those additions, and bit for bit against the same path's product
// followed by its add_bias and axpy kernels (what the models ran before the epilogue, and what
// their PyTorch-checked tests saw). Shapes cross the SIMD driver's k slices (the epilogue belongs
// to the last only), column and row blocks and end in partial tiles; n = 1 and n < 4 (Aᵀ·B) take
// the paths without register tiles; k = 0.
TYPED_TEST(Gemm, Epilogue) {
    using T = TypeParam;
    const std::pair<bool, bool> epilogues[] = {{true, false}, {false, true}, {true, true}};
    const std::tuple<std::size_t, std::size_t, std::size_t> shapes[] = {
        {37, 67, 41}, {130, 250, 20}, {24, 100, 300}, {90, 30, 530}, {9, 7, 2},
        {33, 1, 70},  {20, 3, 40},    {17, 5, 0},     {65, 70, 600}};  // 65: a lone last row
    std::size_t idx = 0;
    for (const auto& [with_bias, with_residual] : epilogues)
        for (const form f : {form::nn, form::tn, form::nt})
            for (const auto& mnk : shapes) {
                // (plain variables, not a structured binding: Clang 14 cannot capture those)
                const std::size_t m = std::get<0>(mnk), n = std::get<1>(mnk), k = std::get<2>(mnk);
                const std::size_t pad = (idx++ % 3) * 3;
                strided<T> A(f == form::tn ? k : m, f == form::tn ? m : k, pad);
                strided<T> B(f == form::nt ? n : k, f == form::nt ? k : n, pad + 1);
                strided<T> bias(m, 1), R(m, n, pad + 2);
                A.random();
                B.random();
                bias.random();
                R.random(-2, 2);
                tf::kernels::gemm_epilogue<T> ep{};
                if (with_bias)
                    ep = ep.with_bias(bias.data());
                if (with_residual)
                    ep = ep.with_residual(R.data(), R.ld);
                for (bool accumulate : {false, true}) {
                    strided<T> C0(m, n, pad);
                    C0.random();
                    ref_mat ref = gemm_reference(f, m, n, k, A, B, C0, accumulate);
                    for (std::size_t j = 0; j < n; ++j)
                        for (std::size_t i = 0; i < m; ++i) {
                            if (with_bias) {
                                ref(i, j) += double(bias(i, 0));
                                ref.m(i, j) += std::fabs(double(bias(i, 0)));
                            }
                            if (with_residual) {
                                ref(i, j) += double(R(i, j));
                                ref.m(i, j) += std::fabs(double(R(i, j)));
                            }
                        }
                    for (path p : paths()) {
                        auto product = [&](strided<T>& out,
                                           const tf::kernels::gemm_epilogue<T>& e) {
                            if (f == form::nn)
                                TF_CALL(p, gemm_nn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        out.data(), out.ld, accumulate, {}, e);
                            else if (f == form::tn)
                                TF_CALL(p, gemm_tn, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        out.data(), out.ld, accumulate, {}, e);
                            else
                                TF_CALL(p, gemm_nt, m, n, k, A.data(), A.ld, B.data(), B.ld,
                                        out.data(), out.ld, accumulate, {}, e);
                        };
                        strided<T> C = C0, C_passes = C0;
                        product(C, ep);
                        product(C_passes, {});
                        if (with_bias)
                            TF_CALL(p, add_bias, m, n, bias.data(), C_passes.data(), C_passes.ld);
                        if (with_residual)
                            TF_CALL(p, axpy, m, n, T(1), R.data(), R.ld, C_passes.data(),
                                    C_passes.ld);
                        const std::string what = std::string(name(p)) + " " + form_name(f) + " " +
                                                 shape(m, n, k) + (with_bias ? " +bias" : "") +
                                                 (with_residual ? " +R" : "") +
                                                 (accumulate ? " +=" : " ←");
                        ASSERT_TRUE(close(C, ref, what));
                        ASSERT_EQ(C.v, C_passes.v) << what << ": fused vs passes";
                    }
                }
            }
}

template <class T>
void run_gemv(bool transposed) {
    std::size_t idx = 0;
    for (std::size_t m : sweep)
        for (std::size_t k :
             {std::size_t(1), std::size_t(3), std::size_t(16), std::size_t(67), std::size_t(300)}) {
            const std::size_t pad = (idx++ % 3) * 2;
            strided<T> A(transposed ? k : m, transposed ? m : k, pad);
            strided<T> x(k, 1), y0(m, 1);
            A.random();
            x.random();
            y0.random();
            for (bool accumulate : {false, true}) {
                const ref_mat ref =
                    gemm_reference(transposed ? form::tn : form::nn, m, 1, k, A, x, y0, accumulate);
                for (path p : paths()) {
                    strided<T> y = y0;
                    if (transposed)
                        TF_CALL(p, gemv_t, m, k, A.data(), A.ld, x.data(), y.data(), accumulate);
                    else
                        TF_CALL(p, gemv_n, m, k, A.data(), A.ld, x.data(), y.data(), accumulate);
                    ASSERT_TRUE(close(y, ref,
                                      std::string(name(p)) + (transposed ? " Aᵀ·x " : " A·x ") +
                                          shape(m, 1, k) + (accumulate ? " +=" : " ←")));
                }
            }
        }
}

TYPED_TEST(Gemm, Ax) {
    run_gemv<TypeParam>(false);
}
TYPED_TEST(Gemm, Atx) {
    run_gemv<TypeParam>(true);
}

// k = 0: the empty sum. Assign writes zeros, accumulate leaves C alone.
TYPED_TEST(Gemm, EmptyInnerDimension) {
    using T = TypeParam;
    for (path p : paths()) {
        strided<T> A(5, 1), B(1, 3), C(5, 3, 2);
        C.random();
        const strided<T> C0 = C;
        TF_CALL(p, gemm_nn, std::size_t(5), std::size_t(3), std::size_t(0), A.data(), A.ld,
                B.data(), B.ld, C.data(), C.ld, true);
        EXPECT_EQ(C.v, C0.v) << name(p);
        TF_CALL(p, gemm_nn, std::size_t(5), std::size_t(3), std::size_t(0), A.data(), A.ld,
                B.data(), B.ld, C.data(), C.ld, false);
        for (std::size_t j = 0; j < 3; ++j)
            for (std::size_t i = 0; i < 5; ++i)
                EXPECT_EQ(C(i, j), T(0)) << name(p);
        EXPECT_TRUE(C.padding_intact());
    }
}

// ---- the typed layer, once: dims, transposes, bounded lengths, head views ----

template <class M>
void randomize(M& x) {
    for (std::size_t j = 0; j < x.cols(); ++j)
        for (std::size_t i = 0; i < x.rows(); ++i)
            x(i, j) = static_cast<typename M::value_type>(uniform(-1, 1));
}
template <class V>
strided<typename V::value_type> as_strided(const V& v) {
    strided<typename V::value_type> s(v.rows(), v.cols());
    for (std::size_t j = 0; j < v.cols(); ++j)
        for (std::size_t i = 0; i < v.rows(); ++i)
            s(i, j) = v(i, j);
    return s;
}

TYPED_TEST(Gemm, TypedApi) {
    using T = TypeParam;
    using tf::d_attn, tf::d_e, tf::l_x, tf::l_z;
    auto W = std::make_unique<tf::mat<T, d_attn<24>, d_e<40>>>();
    auto X = std::make_unique<tf::mat<T, d_e<40>, l_x<33>>>();
    auto Z = std::make_unique<tf::mat<T, d_e<40>, l_z<20>>>();
    auto Q = std::make_unique<tf::mat<T, d_attn<24>, l_x<33>>>();
    auto K = std::make_unique<tf::mat<T, d_attn<24>, l_z<20>>>();
    auto S = std::make_unique<tf::mat<T, l_z<20>, l_x<33>>>();
    auto G = std::make_unique<tf::mat<T, d_attn<24>, d_e<40>>>();
    X->resize_cols(29);
    Q->resize_cols(29);
    Z->resize_cols(17);
    K->resize_cols(17);
    S->resize_rows(17);
    S->resize_cols(29);
    randomize(*W);
    randomize(*X);
    randomize(*Z);
    randomize(*Q);

    // Q ← W·X, then Q += W·X
    tf::matmul(*W, *X, *Q);
    ref_mat r = gemm_reference(form::nn, 24, 29, 40, as_strided(W->view()), as_strided(X->view()),
                               as_strided(Q->view()), false);
    EXPECT_TRUE(close(as_strided(Q->view()), r, "matmul(W, X, Q)"));
    const auto Q0 = as_strided(Q->view());
    tf::matmul_add(*W, *X, *Q);
    r = gemm_reference(form::nn, 24, 29, 40, as_strided(W->view()), as_strided(X->view()), Q0,
                       true);
    EXPECT_TRUE(close(as_strided(Q->view()), r, "matmul_add(W, X, Q)"));

    // S ← Kᵀ·Q (Algorithm 4, line 4)
    tf::matmul(*W, *Z, *K);
    tf::matmul(tf::transpose(*K), *Q, *S);
    r = gemm_reference(form::tn, 17, 29, 24, as_strided(K->view()), as_strided(Q->view()),
                       as_strided(S->view()), false);
    EXPECT_TRUE(close(as_strided(S->view()), r, "matmul(transpose(K), Q, S)"));

    // G += Q·Xᵀ (a weight gradient)
    randomize(*G);
    const auto G0 = as_strided(G->view());
    tf::matmul_add(*Q, tf::transpose(*X), *G);
    r = gemm_reference(form::nt, 24, 40, 29, as_strided(Q->view()), as_strided(X->view()), G0,
                       true);
    EXPECT_TRUE(close(as_strided(G->view()), r, "matmul_add(Q, transpose(X), G)"));

    // One head of a prod<H, d_mid> stack: a view with ld > rows.
    using Hd = tf::prod<tf::H<3>, tf::d_mid<8>>;
    auto Wv = std::make_unique<tf::mat<T, Hd, d_e<40>>>();
    auto V = std::make_unique<tf::mat<T, Hd, l_x<33>>>();
    V->resize_cols(29);
    randomize(*Wv);
    tf::matmul(tf::head<1>(*Wv), *X, tf::head<1>(*V));
    r = gemm_reference(form::nn, 8, 29, 40, as_strided(tf::head<1>(*Wv)), as_strided(X->view()),
                       as_strided(tf::head<1>(*V)), false);
    EXPECT_TRUE(close(as_strided(tf::head<1>(*V)), r, "matmul(head<1>(W_v), X, head<1>(V))"));

    // y ← W·x, y += W·x, x ← Wᵀ·y
    tf::vec<T, d_e<40>> x;
    tf::vec<T, d_attn<24>> y;
    for (auto& e : x)
        e = T(uniform(-1, 1));
    for (auto& e : y)
        e = T(uniform(-1, 1));
    strided<T> xs(40, 1), ys(24, 1);
    for (std::size_t i = 0; i < 40; ++i)
        xs(i, 0) = x[i];
    for (std::size_t i = 0; i < 24; ++i)
        ys(i, 0) = y[i];
    tf::matvec_add(*W, x, y);
    r = gemm_reference(form::nn, 24, 1, 40, as_strided(W->view()), xs, ys, true);
    for (std::size_t i = 0; i < 24; ++i)
        ys(i, 0) = y[i];
    EXPECT_TRUE(close(ys, r, "matvec_add(W, x, y)"));
    tf::matvec(tf::transpose(*W), y, x);
    r = gemm_reference(form::tn, 40, 1, 24, as_strided(W->view()), ys, xs, false);
    for (std::size_t i = 0; i < 40; ++i)
        xs(i, 0) = x[i];
    EXPECT_TRUE(close(xs, r, "matvec(transpose(W), y, x)"));
}

// ---- what the typed layer accepts and rejects, at compile time ----

template <class A, class B, class C>
concept can_matmul = requires(const A& a, const B& b, C&& c) {
    tf::matmul(a, b, static_cast<C&&>(c));
};
template <class A, class X, class Y>
concept can_matvec = requires(const A& a, const X& x, Y&& y) {
    tf::matvec(a, x, static_cast<Y&&>(y));
};

using W_t = tf::mat<float, tf::d_attn<4>, tf::d_e<8>>;  // (d_attn, d_e)
using X_t = tf::mat<float, tf::d_e<8>, tf::l_x<6>>;     // (d_e, l_x)
using Q_t = tf::mat<float, tf::d_attn<4>, tf::l_x<6>>;  // (d_attn, l_x)
using V_t = tf::mat<float, tf::d_mid<8>, tf::l_x<6>>;   // (d_mid, l_x): d_mid = d_e in size only
using S_t = tf::mat<float, tf::l_x<6>, tf::l_x<6>>;
using Wt_t = tf::transposed<tf::mat_view<const float, tf::d_attn<4>, tf::d_e<8>>>;  // (d_e, d_attn)
using Xt_t = tf::transposed<tf::mat_view<const float, tf::d_e<8>, tf::l_x<6>>>;     // (l_x, d_e)
using Qt_t = tf::transposed<tf::mat_view<const float, tf::d_attn<4>, tf::l_x<6>>>;  // (l_x, d_attn)

static_assert(can_matmul<W_t, X_t, Q_t&>);
static_assert(
    can_matmul<W_t, X_t, tf::mat_view<float, tf::d_attn<4>, tf::l_x<6>>>);  // a view, by value
static_assert(!can_matmul<W_t, V_t, Q_t&>);        // inner dims: d_e vs d_mid
static_assert(!can_matmul<W_t, X_t, V_t&>);        // result rows: d_mid vs d_attn
static_assert(!can_matmul<W_t, X_t, S_t&>);        // result rows: l_x vs d_attn
static_assert(!can_matmul<W_t, X_t, const Q_t&>);  // output not writable
static_assert(!can_matmul<W_t, X_t, tf::mat_view<const float, tf::d_attn<4>, tf::l_x<6>>>);
static_assert(
    !can_matmul<W_t, X_t, tf::mat<double, tf::d_attn<4>, tf::l_x<6>>&>);  // float vs double
static_assert(can_matmul<Qt_t, Q_t, S_t&>);                               // S ← QᵀQ
static_assert(can_matmul<Q_t, Xt_t, W_t&>);                               // dW ← dQ·Xᵀ
static_assert(can_matmul<Wt_t, Q_t, X_t&>);                               // dX ← Wᵀ·dQ
static_assert(!can_matmul<Xt_t, Wt_t, tf::mat<float, tf::l_x<6>, tf::d_attn<4>>&>);  // Aᵀ·Bᵀ
static_assert(can_matvec<W_t, tf::vec<float, tf::d_e<8>>, tf::vec<float, tf::d_attn<4>>&>);
static_assert(can_matvec<Wt_t, tf::vec<float, tf::d_attn<4>>, tf::vec<float, tf::d_e<8>>&>);
static_assert(!can_matvec<W_t, tf::vec<float, tf::d_mid<8>>, tf::vec<float, tf::d_attn<4>>&>);
static_assert(!can_matvec<W_t, tf::vec<float, tf::d_e<8>>, tf::vec<float, tf::d_e<4>>&>);

template <class X, class DY, class DX>
concept can_relu_backward = requires(const X& x, const DY& dy, DX&& dx) {
    tf::relu_backward(x, dy, static_cast<DX&&>(dx));
};
static_assert(can_relu_backward<X_t, tf::mat_view<const float, tf::d_e<8>, tf::l_x<6>>,
                                X_t&>);  // dY read-only
static_assert(!can_relu_backward<X_t, X_t, const X_t&>);
static_assert(!can_relu_backward<X_t, Q_t, X_t&>);

// Extents the types cannot see are checked at run time.
TEST(GemmDeathTest, RuntimeExtentMismatch) {
    // Under qemu-user (cross builds) the binary cannot re-execute itself: fork only.
    GTEST_FLAG_SET(death_test_style, TYPEFORMER_TEST_EMULATED ? "fast" : "threadsafe");
    static tf::mat<float, tf::d_e<8>, tf::l_x<8>> X;
    static tf::mat<float, tf::d_attn<4>, tf::d_e<8>> W;
    static tf::mat<float, tf::d_attn<4>, tf::l_x<8>> Y;
    X.resize_cols(5);
    Y.resize_cols(6);
    EXPECT_DEATH(tf::matmul(W, X, Y), "matmul: C's extents");
}

}  // namespace
