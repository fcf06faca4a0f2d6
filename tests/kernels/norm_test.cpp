// layer_norm and rms_norm, forward and backward, on both raw paths against double references
// (whose gradients are checked against central differences), then the typed API.
#include <memory>

#include <typeformer/kernels.hpp>

#include "kernel_test_support.hpp"

namespace {

using namespace tf_test;
namespace tf = typeformer;

// ---- double references; X (rows, cols), gamma/beta (rows) ----

struct ln_ref {
    ref_mat Y, mean, rstd;
};
template <class T>
ln_ref layer_norm_ref(const strided<T>& X, const strided<T>& g, const strided<T>& b, double eps) {
    ln_ref r{ref_mat(X.rows, X.cols), ref_mat(X.cols, 1), ref_mat(X.cols, 1)};
    const double n = double(X.rows);
    for (std::size_t t = 0; t < X.cols; ++t) {
        double m = 0, v = 0, mag_m = 0;
        for (std::size_t i = 0; i < X.rows; ++i)
            m += X(i, t), mag_m += std::fabs(X(i, t));
        m /= n;
        for (std::size_t i = 0; i < X.rows; ++i)
            v += (X(i, t) - m) * (X(i, t) - m);
        v /= n;
        const double rs = 1 / std::sqrt(v + eps);
        r.mean(t, 0) = m;
        r.mean.m(t, 0) = mag_m / n;
        r.rstd(t, 0) = rs;
        r.rstd.m(t, 0) = 0;
        for (std::size_t i = 0; i < X.rows; ++i) {
            r.Y(i, t) = (X(i, t) - m) * rs * g(i, 0) + b(i, 0);
            // x − m cancels: its error is relative to |x| + mean|x|.
            r.Y.m(i, t) =
                (std::fabs(X(i, t)) + mag_m / n) * rs * std::fabs(g(i, 0)) + std::fabs(b(i, 0));
        }
    }
    return r;
}

struct ln_grads {
    ref_mat dX, dg, db;
};
// dX, dgamma, dbeta += the gradient of Σ dY ⊙ layer_norm(X), from the initial values given.
template <class T>
ln_grads layer_norm_backward_ref(const strided<T>& dY, const strided<T>& X, const strided<T>& g,
                                 double eps, const strided<T>& dX0, const strided<T>& dg0,
                                 const strided<T>& db0) {
    const std::size_t R = X.rows, C = X.cols;
    ln_grads r{to_ref(dX0), to_ref(dg0), to_ref(db0)};
    for (std::size_t i = 0; i < R; ++i)
        r.dg.m(i, 0) = std::fabs(dg0(i, 0)), r.db.m(i, 0) = std::fabs(db0(i, 0));
    for (std::size_t t = 0; t < C; ++t) {
        double m = 0, v = 0, mag_m = 0;
        for (std::size_t i = 0; i < R; ++i)
            m += X(i, t), mag_m += std::fabs(X(i, t));
        m /= R;
        mag_m /= R;
        for (std::size_t i = 0; i < R; ++i)
            v += (X(i, t) - m) * (X(i, t) - m);
        v /= R;
        const double rs = 1 / std::sqrt(v + eps);
        // y_i = x̂_i γ_i + β_i, x̂ = (x − m)·rs; ∂L/∂x̂_i = dy_i γ_i =: a_i
        // ∂L/∂x_j = rs·(a_j − mean(a) − x̂_j·mean(a ⊙ x̂))
        double sa = 0, sax = 0, mag_a = 0, mag_ax = 0;
        for (std::size_t i = 0; i < R; ++i) {
            const double xh = (X(i, t) - m) * rs, a = dY(i, t) * g(i, 0);
            sa += a, sax += a * xh;
            mag_a += std::fabs(a), mag_ax += std::fabs(a) * (std::fabs(X(i, t)) + mag_m) * rs;
            r.dg(i, 0) += dY(i, t) * xh;
            r.dg.m(i, 0) += std::fabs(dY(i, t)) * (std::fabs(X(i, t)) + mag_m) * rs;
            r.db(i, 0) += dY(i, t);
            r.db.m(i, 0) += std::fabs(dY(i, t));
        }
        for (std::size_t j = 0; j < R; ++j) {
            const double xh = (X(j, t) - m) * rs, a = dY(j, t) * g(j, 0);
            r.dX(j, t) += rs * (a - sa / R - xh * sax / R);
            const double xh_mag = (std::fabs(X(j, t)) + mag_m) * rs;
            r.dX.m(j, t) +=
                std::fabs(dX0(j, t)) + rs * (std::fabs(a) + mag_a / R + xh_mag * mag_ax / R);
        }
    }
    return r;
}

template <class T>
ref_mat rms_norm_ref(const strided<T>& X, const strided<T>& g, double eps, ref_mat& rstd) {
    ref_mat Y(X.rows, X.cols);
    for (std::size_t t = 0; t < X.cols; ++t) {
        double ss = 0;
        for (std::size_t i = 0; i < X.rows; ++i)
            ss += double(X(i, t)) * X(i, t);
        const double rs = 1 / std::sqrt(ss / X.rows + eps);
        rstd(t, 0) = rs;
        for (std::size_t i = 0; i < X.rows; ++i)
            Y(i, t) = X(i, t) * rs * g(i, 0);
    }
    return Y;
}

// y_i = x_i·rs·γ_i, rs = (mean(x²) + eps)^(−1/2): ∂L/∂x_j = rs·a_j − x_j·rs³·mean(a ⊙ x), a = dy ⊙ γ
template <class T>
std::pair<ref_mat, ref_mat> rms_norm_backward_ref(const strided<T>& dY, const strided<T>& X,
                                                  const strided<T>& g, double eps,
                                                  const strided<T>& dX0, const strided<T>& dg0) {
    const std::size_t R = X.rows;
    ref_mat dX = to_ref(dX0), dg = to_ref(dg0);
    for (std::size_t i = 0; i < R; ++i)
        dg.m(i, 0) = std::fabs(dg0(i, 0));
    for (std::size_t t = 0; t < X.cols; ++t) {
        double ss = 0;
        for (std::size_t i = 0; i < R; ++i)
            ss += double(X(i, t)) * X(i, t);
        const double rs = 1 / std::sqrt(ss / R + eps);
        double sax = 0, mag = 0;
        for (std::size_t i = 0; i < R; ++i) {
            sax += dY(i, t) * g(i, 0) * X(i, t);
            mag += std::fabs(dY(i, t) * g(i, 0) * X(i, t));
            dg(i, 0) += dY(i, t) * X(i, t) * rs;
            dg.m(i, 0) += std::fabs(dY(i, t) * X(i, t) * rs);
        }
        for (std::size_t j = 0; j < R; ++j) {
            const double a = dY(j, t) * g(j, 0);
            dX(j, t) += rs * a - X(j, t) * rs * rs * rs * sax / R;
            dX.m(j, t) += std::fabs(dX0(j, t)) + rs * std::fabs(a) +
                          std::fabs(X(j, t)) * rs * rs * rs * mag / R;
        }
    }
    return {dX, dg};
}

template <class T>
class Norm : public ::testing::Test {};
using value_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Norm, value_types);

const std::size_t norm_cols[] = {1, 3, 17, 64};

TYPED_TEST(Norm, LayerNormForward) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : norm_cols) {
            const std::size_t pad = (idx++ % 3) * 3;
            strided<T> X(rows, cols, pad), g(rows, 1), b(rows, 1);
            X.random(-2, 3);
            g.random(0.5, 1.5);
            b.random();
            const double eps = 1e-5;
            const ln_ref ref = layer_norm_ref(X, g, b, eps);
            for (path p : paths()) {
                strided<T> Y(rows, cols, pad + 1), mean(cols, 1), rstd(cols, 1);
                TF_CALL(p, layer_norm, rows, cols, T(eps), X.data(), X.ld, g.data(), b.data(),
                        Y.data(), Y.ld, mean.data(), rstd.data());
                const std::string what = std::string(name(p)) + " layer_norm " + shape(rows, cols);
                ASSERT_TRUE(close(Y, ref.Y, what + " Y"));
                ASSERT_TRUE(close(mean, ref.mean, what + " mean"));
                ASSERT_TRUE(close(rstd, ref.rstd, what + " rstd"));
                // In place: Y aliases X.
                strided<T> Z = X;
                TF_CALL(p, layer_norm, rows, cols, T(eps), Z.data(), Z.ld, g.data(), b.data(),
                        Z.data(), Z.ld, mean.data(), rstd.data());
                ASSERT_TRUE(close(Z, ref.Y, what + " in place"));
            }
        }
}

TYPED_TEST(Norm, LayerNormBackward) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : norm_cols) {
            const std::size_t pad = (idx++ % 3) * 2;
            strided<T> X(rows, cols, pad), g(rows, 1), b(rows, 1), dY(rows, cols, pad + 1);
            strided<T> dX0(rows, cols, pad), dg0(rows, 1), db0(rows, 1);
            X.random(-2, 3);
            g.random(0.5, 1.5);
            dY.random();
            dX0.random();
            dg0.random();
            db0.random();
            const double eps = 1e-5;
            const ln_grads ref = layer_norm_backward_ref(dY, X, g, eps, dX0, dg0, db0);
            for (path p : paths()) {
                strided<T> Y(rows, cols), mean(cols, 1), rstd(cols, 1);
                TF_CALL(p, layer_norm, rows, cols, T(eps), X.data(), X.ld, g.data(), b.data(),
                        Y.data(), Y.ld, mean.data(), rstd.data());
                strided<T> dX = dX0, dg = dg0, db = db0;
                TF_CALL(p, layer_norm_backward, rows, cols, dY.data(), dY.ld, X.data(), X.ld,
                        g.data(), mean.data(), rstd.data(), dX.data(), dX.ld, dg.data(), db.data());
                const std::string what =
                    std::string(name(p)) + " layer_norm_backward " + shape(rows, cols);
                ASSERT_TRUE(close(dX, ref.dX, what + " dX"));
                ASSERT_TRUE(close(dg, ref.dg, what + " dgamma"));
                ASSERT_TRUE(close(db, ref.db, what + " dbeta"));
            }
        }
}

TYPED_TEST(Norm, RmsNorm) {
    using T = TypeParam;
    std::size_t idx = 0;
    for (std::size_t rows : sweep)
        for (std::size_t cols : norm_cols) {
            const std::size_t pad = (idx++ % 3) * 3;
            strided<T> X(rows, cols, pad), g(rows, 1), dY(rows, cols), dX0(rows, cols, pad),
                dg0(rows, 1);
            X.random(-2, 3);
            g.random(0.5, 1.5);
            dY.random();
            dX0.random();
            dg0.random();
            const double eps = 1e-6;
            ref_mat rstd_ref(cols, 1);
            const ref_mat Yref = rms_norm_ref(X, g, eps, rstd_ref);
            const auto [dXref, dgref] = rms_norm_backward_ref(dY, X, g, eps, dX0, dg0);
            for (path p : paths()) {
                strided<T> Y(rows, cols, pad + 2), rstd(cols, 1);
                TF_CALL(p, rms_norm, rows, cols, T(eps), X.data(), X.ld, g.data(), Y.data(), Y.ld,
                        rstd.data());
                const std::string what = std::string(name(p)) + " rms_norm " + shape(rows, cols);
                ASSERT_TRUE(close(Y, Yref, what + " Y"));
                ASSERT_TRUE(close(rstd, rstd_ref, what + " rstd"));
                strided<T> dX = dX0, dg = dg0;
                TF_CALL(p, rms_norm_backward, rows, cols, dY.data(), dY.ld, X.data(), X.ld,
                        g.data(), rstd.data(), dX.data(), dX.ld, dg.data());
                ASSERT_TRUE(close(dX, dXref, what + " dX"));
                ASSERT_TRUE(close(dg, dgref, what + " dgamma"));
            }
        }
}

// The references' gradients are the derivatives of the references' forwards.
TEST(NormReference, GradientsMatchFiniteDifferences) {
    const std::size_t R = 6, C = 2;
    strided<double> X(R, C), g(R, 1), b(R, 1), dY(R, C), z(R, C), zg(R, 1);
    X.random(-2, 2);
    g.random(0.5, 1.5);
    b.random();
    dY.random();
    for (auto& e : z.v)
        e = 0;
    for (auto& e : zg.v)
        e = 0;
    const double eps = 1e-3, h = 1e-6;
    auto loss_ln = [&](const strided<double>& x, const strided<double>& gg,
                       const strided<double>& bb) {
        const auto r = layer_norm_ref(x, gg, bb, eps);
        double s = 0;
        for (std::size_t t = 0; t < C; ++t)
            for (std::size_t i = 0; i < R; ++i)
                s += dY(i, t) * r.Y(i, t);
        return s;
    };
    auto loss_rms = [&](const strided<double>& x, const strided<double>& gg) {
        ref_mat rs(C, 1);
        const auto Y = rms_norm_ref(x, gg, eps, rs);
        double s = 0;
        for (std::size_t t = 0; t < C; ++t)
            for (std::size_t i = 0; i < R; ++i)
                s += dY(i, t) * Y.val[i + t * R];
        return s;
    };
    const auto ln = layer_norm_backward_ref(dY, X, g, eps, z, zg, zg);
    const auto [rdX, rdg] = rms_norm_backward_ref(dY, X, g, eps, z, zg);
    for (std::size_t t = 0; t < C; ++t)
        for (std::size_t i = 0; i < R; ++i) {
            strided<double> Xp = X, Xm = X;
            Xp(i, t) += h;
            Xm(i, t) -= h;
            EXPECT_NEAR(ln.dX.val[i + t * R], (loss_ln(Xp, g, b) - loss_ln(Xm, g, b)) / (2 * h),
                        1e-7);
            EXPECT_NEAR(rdX.val[i + t * R], (loss_rms(Xp, g) - loss_rms(Xm, g)) / (2 * h), 1e-7);
        }
    for (std::size_t i = 0; i < R; ++i) {
        strided<double> gp = g, gm = g, bp = b, bm = b;
        gp(i, 0) += h;
        gm(i, 0) -= h;
        bp(i, 0) += h;
        bm(i, 0) -= h;
        EXPECT_NEAR(ln.dg.val[i], (loss_ln(X, gp, b) - loss_ln(X, gm, b)) / (2 * h), 1e-7);
        EXPECT_NEAR(ln.db.val[i], (loss_ln(X, g, bp) - loss_ln(X, g, bm)) / (2 * h), 1e-7);
        EXPECT_NEAR(rdg.val[i], (loss_rms(X, gp) - loss_rms(X, gm)) / (2 * h), 1e-7);
    }
}

TYPED_TEST(Norm, TypedApi) {
    using T = TypeParam;
    using tf::d_e, tf::l_x;
    auto X = std::make_unique<tf::mat<T, d_e<37>, l_x<16>>>();
    auto Y = std::make_unique<tf::mat<T, d_e<37>, l_x<16>>>();
    auto dY = std::make_unique<tf::mat<T, d_e<37>, l_x<16>>>();
    auto dX = std::make_unique<tf::mat<T, d_e<37>, l_x<16>>>();
    tf::vec<T, d_e<37>> gamma, beta, dgamma, dbeta;
    tf::vec<T, l_x<16>> mean, rstd;
    for (auto* M : {X.get(), Y.get(), dY.get(), dX.get()})
        M->resize_cols(11);
    mean.resize(11), rstd.resize(11);
    strided<T> Xs(37, 11), gs(37, 1), bs(37, 1), dYs(37, 11), zero(37, 11), zg(37, 1);
    Xs.random(-2, 2);
    gs.random(0.5, 1.5);
    bs.random();
    dYs.random();
    for (auto& e : zero.v)
        e = 0;
    for (auto& e : zg.v)
        e = 0;
    for (std::size_t t = 0; t < 11; ++t)
        for (std::size_t i = 0; i < 37; ++i)
            (*X)(i, t) = Xs(i, t), (*dY)(i, t) = dYs(i, t);
    for (std::size_t i = 0; i < 37; ++i)
        gamma[i] = gs(i, 0), beta[i] = bs(i, 0);
    const T eps = T(1e-5);

    tf::layer_norm(*X, gamma, beta, eps, *Y, mean, rstd);
    const ln_ref ref = layer_norm_ref(Xs, gs, bs, eps);
    strided<T> got(37, 11);
    for (std::size_t t = 0; t < 11; ++t)
        for (std::size_t i = 0; i < 37; ++i)
            got(i, t) = (*Y)(i, t);
    EXPECT_TRUE(close(got, ref.Y, "layer_norm(X, gamma, beta, eps, Y, mean, rstd)"));

    tf::layer_norm_backward(*dY, *X, gamma, mean, rstd, *dX, dgamma, dbeta);
    const ln_grads gr = layer_norm_backward_ref(dYs, Xs, gs, eps, zero, zg, zg);
    for (std::size_t t = 0; t < 11; ++t)
        for (std::size_t i = 0; i < 37; ++i)
            got(i, t) = (*dX)(i, t);
    EXPECT_TRUE(close(got, gr.dX, "layer_norm_backward dX"));
    strided<T> gv(37, 1);
    for (std::size_t i = 0; i < 37; ++i)
        gv(i, 0) = dgamma[i];
    EXPECT_TRUE(close(gv, gr.dg, "layer_norm_backward dgamma"));
    for (std::size_t i = 0; i < 37; ++i)
        gv(i, 0) = dbeta[i];
    EXPECT_TRUE(close(gv, gr.db, "layer_norm_backward dbeta"));

    ref_mat rs(11, 1);
    const ref_mat Yr = rms_norm_ref(Xs, gs, eps, rs);
    tf::rms_norm(*X, gamma, eps, *Y, rstd);
    for (std::size_t t = 0; t < 11; ++t)
        for (std::size_t i = 0; i < 37; ++i)
            got(i, t) = (*Y)(i, t);
    EXPECT_TRUE(close(got, Yr, "rms_norm(X, gamma, eps, Y, rstd)"));
    tf::fill(*dX, T(0));
    tf::fill(dgamma, T(0));
    tf::rms_norm_backward(*dY, *X, gamma, rstd, *dX, dgamma);
    const auto [rdX, rdg] = rms_norm_backward_ref(dYs, Xs, gs, eps, zero, zg);
    for (std::size_t t = 0; t < 11; ++t)
        for (std::size_t i = 0; i < 37; ++i)
            got(i, t) = (*dX)(i, t);
    EXPECT_TRUE(close(got, rdX, "rms_norm_backward dX"));
    for (std::size_t i = 0; i < 37; ++i)
        gv(i, 0) = dgamma[i];
    EXPECT_TRUE(close(gv, rdg, "rms_norm_backward dgamma"));
}

}  // namespace
