// Bias, axpy/scale, Adam(W), activations (relu, gelu, gelu_tanh, forward and backward) and
// cross-entropy on both raw paths against double references, then the typed API; the Cortex-M
// layer's float GELU backward and cross-entropy (portable C++) against the same references.
#include <functional>
#include <memory>
#include <vector>

#include <typeformer/kernels.hpp>

#include "kernel_test_support.hpp"

namespace {

using namespace tf_test;
namespace tf = typeformer;

template <class T>
class Elementwise : public ::testing::Test {};
using value_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Elementwise, value_types);

const std::size_t ew_cols[] = {1, 2, 17, 33};

TYPED_TEST(Elementwise, BiasAxpyScale) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : ew_cols) {
            const std::size_t pad = (idx++ % 3) * 3;
            strided<T> Y0(rows, cols, pad), X(rows, cols, pad + 1), b(rows, 1), db0(rows, 1);
            Y0.random();
            X.random();
            b.random();
            db0.random();
            const double a = -0.75;
            ref_mat bias(rows, cols), axpy(rows, cols), scaled(rows, cols), dbr(rows, 1);
            for (std::size_t i = 0; i < rows; ++i)
                dbr(i, 0) = db0(i, 0), dbr.m(i, 0) = std::fabs(db0(i, 0));
            for (std::size_t t = 0; t < cols; ++t)
                for (std::size_t i = 0; i < rows; ++i) {
                    bias(i, t) = double(Y0(i, t)) + b(i, 0);
                    bias.m(i, t) = std::fabs(Y0(i, t)) + std::fabs(b(i, 0));
                    axpy(i, t) = Y0(i, t) + a * X(i, t);
                    axpy.m(i, t) = std::fabs(Y0(i, t)) + std::fabs(a * X(i, t));
                    scaled(i, t) = a * X(i, t);
                    dbr(i, 0) += Y0(i, t);
                    dbr.m(i, 0) += std::fabs(Y0(i, t));
                }
            for (path p : paths()) {
                const std::string what = std::string(name(p)) + " " + shape(rows, cols);
                strided<T> Y = Y0;
                TF_CALL(p, add_bias, rows, cols, b.data(), Y.data(), Y.ld);
                ASSERT_TRUE(close(Y, bias, what + " add_bias"));
                strided<T> db = db0;
                TF_CALL(p, add_bias_grad, rows, cols, Y0.data(), Y0.ld, db.data());
                ASSERT_TRUE(close(db, dbr, what + " add_bias_grad"));
                Y = Y0;
                TF_CALL(p, axpy, rows, cols, T(a), X.data(), X.ld, Y.data(), Y.ld);
                ASSERT_TRUE(close(Y, axpy, what + " axpy"));
                strided<T> Z = X;
                TF_CALL(p, scale, rows, cols, T(a), Z.data(), Z.ld);
                ASSERT_TRUE(close(Z, scaled, what + " scale"));
            }
        }
}

// Adam(W): three forms (plain, decoupled decay, L2 decay), two steps each (the second with ∇
// scaled as it is read), every length of the sweep (the SIMD path's tail lanes), against the
// update written out in double from the same inputs and coefficients. The magnitude of each result is that of its terms.
TYPED_TEST(Elementwise, Adam) {
    using T = TypeParam;
    for (int form = 0; form < 3; ++form)
        for (std::size_t n : sweep) {
            strided<T> theta(n, 1), m(n, 1), v(n, 1);
            theta.random();
            m.random(-0.1, 0.1);
            v.random(0, 0.01);
            for (int step = 1; step <= 2; ++step) {
                strided<T> g(n, 1);
                g.random(-0.5, 0.5);
                const double beta1 = 0.9, beta2 = 0.99, lr = 0.01, lambda = 0.3;
                const tf::kernels::adam_coefficients<T> c{
                    .beta1 = T(beta1),
                    .one_minus_beta1 = T(1 - beta1),
                    .beta2 = T(beta2),
                    .one_minus_beta2 = T(1 - beta2),
                    .bc2_sqrt = T(std::sqrt(1 - std::pow(beta2, step))),
                    .eps = T(1e-8),
                    .neg_step = T(-lr / (1 - std::pow(beta1, step))),
                    .lambda = T(lambda),
                    .keep = T(1 - lr * lambda),
                    .grad_scale = T(step == 1 ? 1.0 : 0.375),  // a mean's or a clip's factor
                    .decoupled = form == 1,
                    .l2 = form == 2};
                ref_mat rt(n, 1), rm(n, 1), rv(n, 1);
                for (std::size_t i = 0; i < n; ++i) {
                    double th = theta(i, 0), th_mag = 0;
                    if (c.decoupled)
                        th *= double(c.keep), th_mag = std::fabs(th);
                    double gi = double(c.grad_scale) * g(i, 0), g_mag = std::fabs(gi);
                    if (c.l2)
                        gi += double(c.lambda) * th, g_mag += std::fabs(double(c.lambda) * th);
                    rm(i, 0) = double(c.beta1) * m(i, 0) + double(c.one_minus_beta1) * gi;
                    rm.m(i, 0) =
                        std::fabs(double(c.beta1) * m(i, 0)) + double(c.one_minus_beta1) * g_mag;
                    rv(i, 0) = double(c.beta2) * v(i, 0) + double(c.one_minus_beta2) * gi * gi;
                    rv.m(i, 0) = rv(i, 0) + double(c.one_minus_beta2) * g_mag * g_mag;
                    const double denom = std::sqrt(rv(i, 0)) / double(c.bc2_sqrt) + double(c.eps);
                    const double delta = double(c.neg_step) * rm(i, 0) / denom;
                    rt(i, 0) = th + delta;
                    // the update's relative error follows m's (cancellation in β1·m + (1−β1)·g)
                    rt.m(i, 0) = th_mag + 4 * std::fabs(double(c.neg_step)) * rm.m(i, 0) / denom;
                }
                {  // the Cortex-M layer's (float: one VSQRT, the form's tests out of the loop)
                    strided<T> t2 = theta, m2 = m, v2 = v;
                    tf::kernels::cortexm::adam(n, c, t2.data(), g.data(), m2.data(), v2.data());
                    ASSERT_TRUE(close(m2, rm, "cortexm adam m"));
                    ASSERT_TRUE(close(v2, rv, "cortexm adam v"));
                    ASSERT_TRUE(close(t2, rt, "cortexm adam theta"));
                }
                for (path p : paths()) {
                    const std::string what = std::string(name(p)) + " adam form " +
                                             std::to_string(form) + " step " +
                                             std::to_string(step) + " n=" + std::to_string(n);
                    strided<T> t2 = theta, m2 = m, v2 = v;
                    TF_CALL(p, adam, n, c, t2.data(), g.data(), m2.data(), v2.data());
                    ASSERT_TRUE(close(m2, rm, what + " m"));
                    ASSERT_TRUE(close(v2, rv, what + " v"));
                    ASSERT_TRUE(close(t2, rt, what + " theta"));
                    if (p == paths().back())
                        theta = t2, m = m2, v = v2;  // the next step starts from this one
                }
            }
        }
}

// ---- activations: f, f′ and the magnitude of the terms of each, in double ----

struct activation {
    const char* name;
    std::function<double(double)> f, df, f_mag, df_mag;
};
const double inv_sqrt2 = 0.70710678118654752440, inv_sqrt_2pi = 0.39894228040143267794,
             sqrt_2_over_pi = 0.79788456080286535588;
double gelu(double x) {
    return 0.5 * x * (1 + std::erf(x * inv_sqrt2));
}
double gelu_d(double x) {
    return 0.5 * (1 + std::erf(x * inv_sqrt2)) + x * inv_sqrt_2pi * std::exp(-0.5 * x * x);
}
double gelu_tanh(double x) {
    return 0.5 * x * (1 + std::tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
}
double gelu_tanh_d(double x) {
    const double th = std::tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x));
    return 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * sqrt_2_over_pi * (1 + 3 * 0.044715 * x * x);
}
// 1 + erf(·) and 1 + tanh(·) cancel for negative x: the terms' size is what rounding scales with.
const activation activations[] = {
    {"relu", [](double x) { return x > 0 ? x : 0; }, [](double x) { return x > 0 ? 1.0 : 0.0; },
     [](double) { return 0.0; }, [](double) { return 0.0; }},
    {"gelu", gelu, gelu_d, [](double x) { return std::fabs(x); },
     [](double x) {
         return 1 + std::fabs(x) * inv_sqrt_2pi * std::exp(-0.5 * x * x) * (1 + x * x);
     }},
    {"gelu_tanh", gelu_tanh, gelu_tanh_d, [](double x) { return std::fabs(x); },
     [](double x) { return 1 + std::fabs(x) * (1 + x * x); }},
};

template <class T>
void call_activation(path p, int which, std::size_t r, std::size_t c, const T* X, std::size_t ldx,
                     T* Y, std::size_t ldy) {
    if (which == 0)
        TF_CALL(p, relu, r, c, X, ldx, Y, ldy);
    if (which == 1)
        TF_CALL(p, gelu, r, c, X, ldx, Y, ldy);
    if (which == 2)
        TF_CALL(p, gelu_tanh, r, c, X, ldx, Y, ldy);
}
template <class T>
void call_activation_backward(path p, int which, std::size_t r, std::size_t c, const T* X,
                              std::size_t ldx, const T* dY, std::size_t lddy, T* dX,
                              std::size_t lddx) {
    if (which == 0)
        TF_CALL(p, relu_backward, r, c, X, ldx, dY, lddy, dX, lddx);
    if (which == 1)
        TF_CALL(p, gelu_backward, r, c, X, ldx, dY, lddy, dX, lddx);
    if (which == 2)
        TF_CALL(p, gelu_tanh_backward, r, c, X, ldx, dY, lddy, dX, lddx);
}

TYPED_TEST(Elementwise, Activations) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : ew_cols)
            for (int which = 0; which < 3; ++which) {
                const activation& act = activations[which];
                const std::size_t pad = (idx++ % 3) * 3;
                strided<T> X(rows, cols, pad), dY(rows, cols, pad + 1), dX0(rows, cols, pad + 2);
                X.random(-5, 5);
                if (rows > 2)
                    X(1, 0) = T(0);  // relu′(0) = 0
                dY.random();
                dX0.random();
                ref_mat Y(rows, cols), dX(rows, cols);
                for (std::size_t t = 0; t < cols; ++t)
                    for (std::size_t i = 0; i < rows; ++i) {
                        const double x = X(i, t);
                        Y(i, t) = act.f(x);
                        Y.m(i, t) = act.f_mag(x);
                        dX(i, t) = dX0(i, t) + dY(i, t) * act.df(x);
                        dX.m(i, t) = std::fabs(dX0(i, t)) +
                                     std::fabs(dY(i, t)) * (std::fabs(act.df(x)) + act.df_mag(x));
                    }
                for (path p : paths()) {
                    const std::string what =
                        std::string(name(p)) + " " + act.name + " " + shape(rows, cols);
                    strided<T> Yg(rows, cols, pad + 1);
                    call_activation(p, which, rows, cols, X.data(), X.ld, Yg.data(), Yg.ld);
                    ASSERT_TRUE(close(Yg, Y, what));
                    strided<T> Z = X;  // in place
                    call_activation(p, which, rows, cols, Z.data(), Z.ld, Z.data(), Z.ld);
                    ASSERT_TRUE(close(Z, Y, what + " in place"));
                    strided<T> dXg = dX0;
                    call_activation_backward(p, which, rows, cols, X.data(), X.ld, dY.data(), dY.ld,
                                             dXg.data(), dXg.ld);
                    ASSERT_TRUE(close(dXg, dX, what + " backward"));
                }
                if (which == 1) {  // the Cortex-M layer's (float: math.hpp's erf and exp)
                    strided<T> dXg = dX0;
                    typeformer::kernels::cortexm::gelu_backward(
                        rows, cols, X.data(), X.ld, dY.data(), dY.ld, dXg.data(), dXg.ld);
                    ASSERT_TRUE(close(dXg, dX, "cortexm gelu backward " + shape(rows, cols)));
                }
            }
}

// The float GELU's erf is a fitted rational function on the SIMD path (tools/fit_erf.py):
// every float of [-12, 12] on a 2⁻¹² grid (98 305 points: both tails past the clamp, and the
// cancelling 1 + erf for negative x) against double. Measured on AVX2: forward 1.3e-7·(|x| +
// |GELU|), backward 2.0e-7·(1 + |x·φ(x)|) (std::erf, the scalar path: 0.5e-7, 1.1e-7); the bounds
// leave 2× and fail when one coefficient moves by 1e-6 of itself. Signs in the tails are kept.
TEST(GeluFloat, DenseGridAgainstDouble) {
    const std::size_t n = 98305;
    std::vector<float> X(n), Y(n), dY(n, 1.0f), dX(n);
    for (std::size_t i = 0; i < n; ++i)
        X[i] = -12.0f + static_cast<float>(i) / 4096.0f;
    for (path p : paths()) {
        TF_CALL(p, gelu, n, 1, X.data(), n, Y.data(), n);
        std::fill(dX.begin(), dX.end(), 0.0f);
        TF_CALL(p, gelu_backward, n, 1, X.data(), n, dY.data(), n, dX.data(), n);
        double worst = 0, worst_d = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = X[i], g = gelu(x), d = gelu_d(x);
            const double phi = inv_sqrt_2pi * std::exp(-0.5 * x * x);
            worst = std::max(worst, std::fabs(Y[i] - g) / (std::fabs(x) + std::fabs(g)));
            worst_d = std::max(worst_d, std::fabs(dX[i] - d) / (1 + std::fabs(x * phi)));
            ASSERT_FALSE(x < 0 && Y[i] > 0) << name(p) << " gelu(" << x << ") = " << Y[i];
            ASSERT_FALSE(d < -1e-6 && dX[i] > 0) << name(p) << " gelu′(" << x << ")";
        }
        EXPECT_LE(worst, 2.5e-7) << name(p) << " gelu";
        EXPECT_LE(worst_d, 4e-7) << name(p) << " gelu_backward";
    }
    // The Cortex-M layer's backward (math.hpp's erf and exp), under the same bound.
    std::fill(dX.begin(), dX.end(), 0.0f);
    typeformer::kernels::cortexm::gelu_backward(n, 1, X.data(), n, dY.data(), n, dX.data(), n);
    double worst_d = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = X[i], d = gelu_d(x);
        const double phi = inv_sqrt_2pi * std::exp(-0.5 * x * x);
        worst_d = std::max(worst_d, std::fabs(dX[i] - d) / (1 + std::fabs(x * phi)));
        ASSERT_FALSE(d < -1e-6 && dX[i] > 0) << "cortexm gelu′(" << x << ")";
    }
    EXPECT_LE(worst_d, 4e-7) << "cortexm gelu_backward";
    EXPECT_GT(worst_d, 0.0);  // the test sees the rational erf's error
}

// The reference derivatives are the derivatives of the reference functions.
TEST(ActivationReference, DerivativesMatchFiniteDifferences) {
    for (const auto& act : activations)
        for (double x = -4.75; x < 5; x += 0.5) {
            const double h = 1e-6;
            EXPECT_NEAR(act.df(x), (act.f(x + h) - act.f(x - h)) / (2 * h), 1e-8)
                << act.name << " at " << x;
        }
}

// ---- cross-entropy ----

struct ce_ref {
    double loss = 0, loss_mag = 0;
    ref_mat dlogits;
};
template <class T>
ce_ref cross_entropy_ref(const strided<T>& L, const std::vector<tf::token>& targets, double weight,
                         const strided<T>& d0) {
    ce_ref r{0, 0, to_ref(d0)};
    for (std::size_t t = 0; t < L.cols; ++t)
        for (std::size_t i = 0; i < L.rows; ++i)
            r.dlogits.m(i, t) = std::fabs(d0(i, t));
    for (std::size_t t = 0; t < L.cols; ++t) {
        if (targets[t] == tf::no_target)
            continue;
        double mx = -INFINITY, sum = 0;
        for (std::size_t i = 0; i < L.rows; ++i)
            mx = std::max(mx, double(L(i, t)));
        for (std::size_t i = 0; i < L.rows; ++i)
            sum += std::exp(L(i, t) - mx);
        const double lse = mx + std::log(sum);
        r.loss += lse - L(targets[t], t);
        r.loss_mag += std::fabs(mx - L(targets[t], t)) + std::fabs(std::log(sum)) + std::fabs(mx);
        for (std::size_t i = 0; i < L.rows; ++i) {
            const double pr = std::exp(L(i, t) - lse);
            r.dlogits(i, t) += weight * (pr - (i == targets[t] ? 1.0 : 0.0));
            r.dlogits.m(i, t) +=
                weight * (pr * (1 + std::fabs(L(i, t) - mx)) + (i == targets[t] ? 1.0 : 0.0));
        }
    }
    return r;
}

TYPED_TEST(Elementwise, CrossEntropy) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : ew_cols) {
            const std::size_t pad = (idx++ % 3) * 3;
            strided<T> L(rows, cols, pad), d0(rows, cols, pad + 1);
            L.random(-6, 6);
            d0.random();
            std::vector<tf::token> targets(cols);
            for (std::size_t t = 0; t < cols; ++t)
                targets[t] =
                    t % 4 == 1 ? tf::no_target : static_cast<tf::token>((t * 7 + rows) % rows);
            const double weight = 0.5;
            const ce_ref ref = cross_entropy_ref(L, targets, weight, d0);
            for (path p : paths()) {
                const std::string what =
                    std::string(name(p)) + " cross_entropy " + shape(rows, cols);
                const T loss =
                    TF_CALL(p, cross_entropy, rows, cols, L.data(), L.ld, targets.data());
                ASSERT_TRUE(close(loss, ref.loss, ref.loss_mag, what));
                strided<T> d = d0;
                const T loss2 = TF_CALL(p, cross_entropy_backward, rows, cols, L.data(), L.ld,
                                        targets.data(), T(weight), d.data(), d.ld);
                ASSERT_TRUE(close(loss2, ref.loss, ref.loss_mag, what + " (backward's loss)"));
                ASSERT_TRUE(close(d, ref.dlogits, what + " dlogits"));
            }
            {  // the Cortex-M layer's (float: math.hpp's exp)
                namespace cm = typeformer::kernels::cortexm;
                const std::string what = "cortexm cross_entropy " + shape(rows, cols);
                const T loss = cm::cross_entropy(rows, cols, L.data(), L.ld, targets.data());
                ASSERT_TRUE(close(loss, ref.loss, ref.loss_mag, what));
                strided<T> d = d0;
                const T loss2 = cm::cross_entropy_backward(
                    rows, cols, L.data(), L.ld, targets.data(), T(weight), d.data(), d.ld);
                ASSERT_TRUE(close(loss2, ref.loss, ref.loss_mag, what + " (backward's loss)"));
                ASSERT_TRUE(close(d, ref.dlogits, what + " dlogits"));
            }
        }
}

TEST(CrossEntropyReference, GradientMatchesFiniteDifferences) {
    strided<double> L(9, 3), z(9, 3);
    L.random(-3, 3);
    for (auto& e : z.v)
        e = 0;
    const std::vector<tf::token> targets = {4, tf::no_target, 8};
    const ce_ref r = cross_entropy_ref(L, targets, 1.0, z);
    for (std::size_t t = 0; t < 3; ++t)
        for (std::size_t i = 0; i < 9; ++i) {
            const double h = 1e-6;
            strided<double> Lp = L, Lm = L;
            Lp(i, t) += h;
            Lm(i, t) -= h;
            const double fd = (cross_entropy_ref(Lp, targets, 1.0, z).loss -
                               cross_entropy_ref(Lm, targets, 1.0, z).loss) /
                              (2 * h);
            EXPECT_NEAR(r.dlogits.val[i + t * 9], fd, 1e-8);
        }
}

TEST(CrossEntropyDeathTest, TargetOutsideTheVocabulary) {
    // Under qemu-user (cross builds) the binary cannot re-execute itself: fork only.
    GTEST_FLAG_SET(death_test_style, TYPEFORMER_TEST_EMULATED ? "fast" : "threadsafe");
    static tf::mat<float, tf::N_V<5>, tf::l_x<4>> logits;
    logits.resize_cols(2);
    const std::vector<tf::token> bad = {1, 5};
    EXPECT_DEATH((void)tf::cross_entropy(logits, bad), "target outside the vocabulary");
    const std::vector<tf::token> short_targets = {1};
    EXPECT_DEATH((void)tf::cross_entropy(logits, short_targets), "one target per column");
}

// ---- the typed layer, once ----

TYPED_TEST(Elementwise, TypedApi) {
    using T = TypeParam;
    using tf::d_e, tf::d_mlp, tf::l_x, tf::N_V;
    auto X = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>();
    auto Y = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>();
    auto dX = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>();
    X->resize_cols(5);
    Y->resize_cols(5);
    dX->resize_cols(5);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i)
            (*X)(i, t) = T(uniform(-3, 3));

    tf::gelu(*X, *Y);
    tf::fill(*dX, T(0));
    tf::gelu_backward(*X, *Y, *dX);  // dY := Y
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i) {
            const double x = (*X)(i, t), y = gelu(x);
            EXPECT_NEAR((*Y)(i, t), y, 10 * rtol<T> * (1 + std::fabs(x)));
            EXPECT_NEAR((*dX)(i, t), (*Y)(i, t) * gelu_d(x), 10 * rtol<T> * (1 + std::fabs(x)));
        }
    // relu against the naive rule, entry by entry (exact: max(x, 0) rounds nothing).
    tf::relu(*X, *Y);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i)
            EXPECT_EQ((*Y)(i, t), (*X)(i, t) > T(0) ? (*X)(i, t) : T(0)) << "relu " << i << t;
    // gelu_tanh in place (Y aliases X) against the double formula.
    const auto X0 = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>(*X);
    tf::gelu_tanh(*X, *X);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i) {
            const double x = (*X0)(i, t);
            EXPECT_NEAR((*X)(i, t), gelu_tanh(x),
                        10 * rtol<T> * (std::fabs(gelu_tanh(x)) + std::fabs(x)))
                << "gelu_tanh in place " << i << t;
        }

    tf::vec<T, d_mlp<21>> b, db;
    for (auto& e : b)
        e = T(1);
    const auto Y0 = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>(*Y);
    tf::add_bias(*Y, b);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i)
            EXPECT_EQ((*Y)(i, t), (*Y0)(i, t) + T(1)) << "add_bias " << i << t;
    tf::add_bias_grad(*Y, db);
    for (std::size_t i = 0; i < 21; ++i) {
        double want = 0, mag = 0;
        for (std::size_t t = 0; t < 5; ++t)
            want += (*Y)(i, t), mag += std::fabs((*Y)(i, t));
        EXPECT_NEAR(db[i], want, rtol<T> * (std::fabs(want) + mag)) << "add_bias_grad " << i;
    }
    // dX ← dX + 2·Y, then dX ← 0.5·dX, against double arithmetic on the same inputs.
    const auto dX0 = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>(*dX);
    tf::axpy(T(2), *Y, *dX);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i) {
            const double y = (*Y)(i, t), d = (*dX0)(i, t), want = d + 2 * y;
            EXPECT_NEAR((*dX)(i, t), want, rtol<T> * (std::fabs(d) + std::fabs(2 * y)))
                << "axpy " << i << t;
        }
    const auto dX1 = std::make_unique<tf::mat<T, d_mlp<21>, l_x<8>>>(*dX);
    tf::scale(*dX, T(0.5));
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 21; ++i)
            EXPECT_EQ((*dX)(i, t), T(0.5) * (*dX1)(i, t)) << "scale " << i << t;  // exact: ·2⁻¹
    const tf::vec<T, d_mlp<21>> db0 = db;
    tf::axpy(T(1), b, db);
    tf::scale(db, T(2));
    for (std::size_t i = 0; i < 21; ++i) {
        const double want = 2 * (double(db0[i]) + 1);
        EXPECT_NEAR(db[i], want, rtol<T> * 2 * (std::fabs(db0[i]) + 1))
            << "vector axpy, scale " << i;
    }

    auto logits = std::make_unique<tf::mat<T, N_V<13>, l_x<8>>>();
    auto dlogits = std::make_unique<tf::mat<T, N_V<13>, l_x<8>>>();
    logits->resize_cols(4);
    dlogits->resize_cols(4);
    for (std::size_t t = 0; t < 4; ++t)
        for (std::size_t i = 0; i < 13; ++i)
            (*logits)(i, t) = T(uniform(-2, 2));
    const std::vector<tf::token> targets = {0, 12, tf::no_target, 5};
    const T loss = tf::cross_entropy(*logits, targets);
    const T loss2 = tf::cross_entropy_backward(*logits, targets, *dlogits);
    strided<T> Ls(13, 4), z(13, 4);
    for (std::size_t t = 0; t < 4; ++t)
        for (std::size_t i = 0; i < 13; ++i)
            Ls(i, t) = (*logits)(i, t), z(i, t) = 0;
    const ce_ref r = cross_entropy_ref(Ls, targets, 1.0, z);
    EXPECT_TRUE(close(loss, r.loss, r.loss_mag, "cross_entropy(logits, targets)"));
    EXPECT_EQ(loss, loss2);
    for (std::size_t t = 0; t < 4; ++t)
        for (std::size_t i = 0; i < 13; ++i)
            z(i, t) = (*dlogits)(i, t);
    EXPECT_TRUE(close(z, r.dlogits, "cross_entropy_backward dlogits"));
    for (std::size_t i = 0; i < 13; ++i)
        EXPECT_EQ((*dlogits)(i, 2), T(0));  // no_target column
}

}  // namespace
