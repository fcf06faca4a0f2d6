// Algorithms 1, 2, 6, 7 and the MLP (nn/embedding, layer_norm, activation, mlp, unembedding):
// every gradient against central finite differences in double, forward and backward against
// PyTorch autograd (tests/nn/torch_basic.py, written from the paper) in double and float.
//
// Sizes are odd and prime (d_e 19, d_mlp 37, N_V 23, l_max 17) so no SIMD width divides them;
// lengths 1, partial and full capacity. Loss = Σ R ⊙ output with a fixed random R, so dY = R.
// Gradients start at random values, so every check also proves backward accumulates (+=).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <typeformer/nn/activation.hpp>
#include <typeformer/nn/embedding.hpp>
#include <typeformer/nn/layer_norm.hpp>
#include <typeformer/nn/mlp.hpp>
#include <typeformer/nn/unembedding.hpp>

#include "support/finite_diff.hpp"
#include "support/oracle.hpp"

namespace {

namespace tf = typeformer;
namespace nn = typeformer::nn;
namespace fd = typeformer::testing;

using E = tf::d_e<19>;
using M = tf::d_mlp<37>;
using V = tf::N_V<23>;
using P = tf::l_max<17>;
using C = tf::l_x<17>;

constexpr double fd_tol = 1e-7;

// g − g0: what one backward call added.
template <class G>
G added(const G& g, const G& g0) {
    G d = g;
    fd::for_each_entry(d, [&](double& e, std::size_t i, std::size_t j) {
        if constexpr (tf::matrix<G>)
            e -= g0(i, j);
        else
            e -= g0[i];
    });
    return d;
}

template <class X>
void set_cols(X& x, std::size_t n) {
    if constexpr (tf::bounded_dimension<typename X::cols_dim>)
        x.resize_cols(n);
}

std::vector<tf::token> random_tokens(std::size_t n, std::mt19937_64& rng) {
    std::uniform_int_distribution<tf::token> id(0, V::size - 1);
    std::vector<tf::token> x(n);
    for (auto& v : x)
        v = id(rng);
    if (n > 2)
        x[n - 1] = x[0];  // a repeated token: its gradient columns must add up
    return x;
}

// ---------------------------------------------------------------------------------------------
// The helper itself

TEST(FiniteDiff, AcceptsTheRightGradientAndCatchesWrongOnes) {
    std::mt19937_64 rng(7);
    tf::mat<double, E, C> X, R, G;
    set_cols(X, 5), set_cols(R, 5), set_cols(G, 5);
    fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
    auto loss = [&] {  // Σ R ⊙ X², d/dX = 2 R ⊙ X
        double s = 0;
        fd::for_each_entry(X,
                           [&](double& x, std::size_t i, std::size_t j) { s += R(i, j) * x * x; });
        return s;
    };
    fd::for_each_entry(G,
                       [&](double& g, std::size_t i, std::size_t j) { g = 2 * R(i, j) * X(i, j); });
    const auto good = fd::check_gradient(X, G, loss);
    EXPECT_LT(good.worst, fd_tol) << good;
    EXPECT_EQ(good.entries, E::size * 5);

    G(3, 4) += 1e-4;  // one entry slightly off
    const auto off = fd::check_gradient(X, G, loss);
    EXPECT_GT(off.worst, 1e-5) << off;
    EXPECT_EQ(off.row, 3u);
    EXPECT_EQ(off.col, 4u);

    fd::for_each_entry(G, [&](double& g, std::size_t i, std::size_t j) { g = R(i, j) * X(i, j); });
    EXPECT_GT(fd::check_gradient(X, G, loss).worst, 1e-2);  // a missing factor 2
}

TEST(FiniteDiff, CatchesAWrongBlockGradient) {
    std::mt19937_64 rng(8);
    nn::layer_norm<double, E> p, g, g_bad;
    tf::mat<double, E, C> X, Y, R, dX;
    set_cols(X, 4), set_cols(Y, 4), set_cols(R, 4), set_cols(dX, 4);
    fd::fill_uniform(p.gamma, rng), fd::fill_uniform(p.beta, rng);
    fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
    nn::layer_norm<double, E>::cache<C> c;
    auto loss = [&] {
        forward(p, X, Y, c, 1e-5);
        return fd::weighted_sum(R, Y);
    };
    loss();
    backward(p, X, R, dX, g, c);
    EXPECT_LT(fd::check_gradient(p.gamma, g.gamma, loss).worst, fd_tol);
    g_bad = g;
    g_bad.gamma[2] *= 1.001;  // a 0.1% error in one entry
    EXPECT_GT(fd::check_gradient(p.gamma, g_bad.gamma, loss).worst, 1e-5);
    EXPECT_GT(fd::check_gradient(p.beta, g.gamma, loss).worst, 1e-2);  // the wrong parameter's
}

// ---------------------------------------------------------------------------------------------
// Algorithms 1 and 2

TEST(Embedding, LearnedGradientsMatchFiniteDifferences) {
    std::mt19937_64 rng(11);
    struct run {
        std::size_t len, first;
    };
    for (const auto [len, first] : {run{1, 0}, run{1, 16}, run{6, 3}, run{17, 0}}) {
        SCOPED_TRACE("len " + std::to_string(len) + ", first " + std::to_string(first));
        nn::token_embedding<double, E, V> te, dte;
        nn::positional_embedding<double, E, P> pe, dpe;
        tf::mat<double, E, C> X, R;
        set_cols(X, len), set_cols(R, len);
        fd::fill_uniform(te.W_e, rng), fd::fill_uniform(pe.W_p, rng), fd::fill_uniform(R, rng);
        fd::fill_uniform(dte.W_e, rng), fd::fill_uniform(dpe.W_p, rng);
        const auto dte0 = dte;
        const auto dpe0 = dpe;
        const auto x = random_tokens(len, rng);
        auto loss = [&] {
            embed(te, pe, x, X, first);
            return fd::weighted_sum(R, X);
        };
        loss();
        for (std::size_t t = 0; t < len; ++t)
            for (std::size_t r = 0; r < E::size; ++r)
                ASSERT_EQ(X(r, t), te.W_e(r, x[t]) + pe.W_p(r, first + t));
        embed_backward(te, pe, x, R, dte, dpe, first);
        auto r1 = fd::check_gradient(te.W_e, added(dte.W_e, dte0.W_e), loss);
        EXPECT_LT(r1.worst, fd_tol) << "dW_e " << r1;
        auto r2 = fd::check_gradient(pe.W_p, added(dpe.W_p, dpe0.W_p), loss);
        EXPECT_LT(r2.worst, fd_tol) << "dW_p " << r2;
    }
}

TEST(Embedding, SinusoidalGradientOnlyInW_e) {
    std::mt19937_64 rng(12);
    nn::token_embedding<double, E, V> te, dte;
    nn::sinusoidal_embedding<E, P> pe, dpe;
    tf::mat<double, E, C> X, R;
    set_cols(X, 9), set_cols(R, 9);
    fd::fill_uniform(te.W_e, rng), fd::fill_uniform(R, rng), fd::fill_uniform(dte.W_e, rng);
    const auto dte0 = dte;
    const auto x = random_tokens(9, rng);
    auto loss = [&] {
        embed(te, pe, x, X, 12);
        return fd::weighted_sum(R, X);
    };  // past l_max
    loss();
    embed_backward(te, pe, x, R, dte, dpe, 12);
    auto r = fd::check_gradient(te.W_e, added(dte.W_e, dte0.W_e), loss);
    EXPECT_LT(r.worst, fd_tol) << r;
}

// §5's formula evaluated as printed: 1-based row, 1-based position.
template <std::size_t De, std::size_t Lmax>
void expect_paper_sinusoid(std::size_t first, std::size_t n) {
    using S = nn::sinusoidal_embedding<tf::d_e<De>, tf::l_max<Lmax>>;
    nn::token_embedding<double, tf::d_e<De>, V> zero;  // W_e = 0: X is W_p alone
    nn::token_embedding<float, tf::d_e<De>, V> zero_f;
    tf::mat<double, tf::d_e<De>, tf::l_x<64>> X;
    tf::mat<float, tf::d_e<De>, tf::l_x<64>> X_f;
    X.resize_cols(n), X_f.resize_cols(n);
    const std::vector<tf::token> x(n, 0);
    embed(zero, S{}, x, X, first);
    embed(zero_f, S{}, x, X_f, first);
    for (std::size_t col = 0; col < n; ++col) {
        const double t = static_cast<double>(first + col + 1);
        for (std::size_t i = 1; 2 * i <= De; ++i) {  // 0 < i ≤ d_e/2
            const double angle = t / std::pow(double(Lmax), 2.0 * double(i) / double(De));
            EXPECT_NEAR(X(2 * i - 2, col), std::sin(angle), 1e-15) << "W_p[2i-1, t], i " << i;
            EXPECT_NEAR(X(2 * i - 1, col), std::cos(angle), 1e-15) << "W_p[2i, t], i " << i;
            EXPECT_NEAR(X_f(2 * i - 1, col), std::cos(angle), 1e-7);
        }
        if (De % 2 == 1) {  // odd d_e: the last row continues the rule (sin, i = (d_e + 1)/2)
            const double angle = t / std::pow(double(Lmax), double(De + 1) / double(De));
            EXPECT_NEAR(X(De - 1, col), std::sin(angle), 1e-15);
        }
        for (std::size_t r = 0; r < De; ++r)
            EXPECT_EQ(X(r, col), S::value(r, first + col));
    }
}

TEST(Embedding, SinusoidalIsThePapersFormula) {
    expect_paper_sinusoid<8, 10>(0, 12);   // even d_e; positions beyond l_max are fine
    expect_paper_sinusoid<19, 17>(5, 17);  // odd d_e
    expect_paper_sinusoid<2, 5>(1000, 3);  // far positions
    // column 0 is the paper's position t = 1, not t = 0
    EXPECT_DOUBLE_EQ((nn::sinusoidal_embedding<E, P>::value(0, 0)),
                     std::sin(1.0 / std::pow(17.0, 2.0 / 19)));
}

TEST(Embedding, SingleTokenAndPosition) {
    nn::token_embedding<float, E, V> te;
    nn::positional_embedding<float, E, P> pe;
    te.W_e(4, 9) = 2.5f;
    pe.W_p(7, 16) = -1.5f;
    EXPECT_EQ(nn::embed_token(te, 9)[4], 2.5f);  // Algorithm 1: W_e[:, v]
    EXPECT_EQ(nn::embed_token(te, 9).size(), E::size);
    EXPECT_EQ(nn::embed_position(pe, 16)[7], -1.5f);  // Algorithm 2: W_p[:, ℓ]
}

using EmbeddingDeathTest = ::testing::Test;
TEST_F(EmbeddingDeathTest, PreconditionsFailLoudly) {
    static nn::token_embedding<float, E, V> te;
    static nn::positional_embedding<float, E, P> pe;
    nn::sinusoidal_embedding<E, P> se;
    tf::mat<float, E, C> X;
    std::vector<tf::token> x = {1, 2, V::size};
    X.resize_cols(3);
    EXPECT_DEATH(embed(te, pe, x, X), "token id >= N_V");
    EXPECT_DEATH(embed_backward(te, x, X, te), "token id >= N_V");
    x = {1, 2};
    EXPECT_DEATH(embed(te, pe, x, X), "must equal the number of tokens");
    x.assign(C::capacity + 1, 0);
    EXPECT_DEATH(embed(te, pe, x, X), "more tokens than X's column capacity");
    x.assign(3, 0);
    EXPECT_DEATH(embed(te, pe, x, X, 15), "position >= l_max");
    EXPECT_DEATH((void)nn::embed_token(te, V::size), "token id >= N_V");
    embed(te, se, x, X, 15);                   // sinusoidal: any position, here 15…17 past l_max
    for (std::size_t i = 0; i < E::size; ++i)  // column 2 is token 0 at 0-based position 17
        EXPECT_FLOAT_EQ(X(i, 2), te.W_e(i, 0) + static_cast<float>(se.value(i, 17)));
}

// ---------------------------------------------------------------------------------------------
// Algorithm 6 and RMSnorm

TEST(LayerNorm, GradientsMatchFiniteDifferences) {
    std::mt19937_64 rng(21);
    for (const std::size_t len : {1, 5, 17}) {
        for (const double eps : {1e-5, 0.0}) {
            SCOPED_TRACE("len " + std::to_string(len) + ", eps " + std::to_string(eps));
            nn::layer_norm<double, E> p, g;
            tf::mat<double, E, C> X, Y, R, dX;
            set_cols(X, len), set_cols(Y, len), set_cols(R, len), set_cols(dX, len);
            fd::fill_uniform(p.gamma, rng, 0.5, 1.5), fd::fill_uniform(p.beta, rng);
            fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
            fd::fill_uniform(g.gamma, rng), fd::fill_uniform(g.beta, rng),
                fd::fill_uniform(dX, rng);
            const auto g0 = g;
            const auto dX0 = dX;
            nn::layer_norm<double, E>::cache<C> c;
            auto loss = [&] {
                forward(p, X, Y, c, eps);
                return fd::weighted_sum(R, Y);
            };
            loss();
            EXPECT_EQ(c.mean.size(), len);
            backward(p, X, R, dX, g, c);
            auto r = fd::check_gradient(X, added(dX, dX0), loss);
            EXPECT_LT(r.worst, fd_tol) << "dX " << r;
            r = fd::check_gradient(p.gamma, added(g.gamma, g0.gamma), loss);
            EXPECT_LT(r.worst, fd_tol) << "dgamma " << r;
            r = fd::check_gradient(p.beta, added(g.beta, g0.beta), loss);
            EXPECT_LT(r.worst, fd_tol) << "dbeta " << r;
        }
    }
}

TEST(LayerNorm, EpsZeroIsAlgorithm6) {
    std::mt19937_64 rng(22);
    nn::layer_norm<double, E> p;
    tf::mat<double, E, C> X, Y;
    set_cols(X, 7), set_cols(Y, 7);
    fd::fill_uniform(p.gamma, rng), fd::fill_uniform(p.beta, rng), fd::fill_uniform(X, rng, -3, 5);
    nn::layer_norm<double, E>::cache<C> c;
    const auto paper = [&](std::size_t i, std::size_t t) {
        double m = 0, v = 0;
        for (std::size_t k = 0; k < E::size; ++k)
            m += X(k, t) / E::size;  // 1
        for (std::size_t k = 0; k < E::size; ++k)
            v += (X(k, t) - m) * (X(k, t) - m) / E::size;              // 2
        return (X(i, t) - m) / std::sqrt(v) * p.gamma[i] + p.beta[i];  // 3
    };
    forward(p, X, Y, c, 0.0);
    for (std::size_t t = 0; t < 7; ++t)
        for (std::size_t i = 0; i < E::size; ++i)
            EXPECT_NEAR(Y(i, t), paper(i, t), 1e-14);
    forward(p, X, Y, c, 1e-2);  // and ε is really used
    EXPECT_GT(std::abs(Y(0, 0) - paper(0, 0)), 1e-6);
    forward(p, X, Y, c, 0.0);
    auto X2 = X;
    forward(p, X2, X2, c, 0.0);  // in place (Y = X): statistics are taken before the writes
    for (std::size_t t = 0; t < 7; ++t)
        for (std::size_t i = 0; i < E::size; ++i)
            EXPECT_EQ(X2(i, t), Y(i, t));
}

TEST(RmsNorm, GradientsMatchFiniteDifferences) {
    std::mt19937_64 rng(23);
    for (const std::size_t len : {1, 6, 17}) {
        SCOPED_TRACE("len " + std::to_string(len));
        nn::rms_norm<double, E> p, g;
        tf::mat<double, E, C> X, Y, R, dX;
        set_cols(X, len), set_cols(Y, len), set_cols(R, len), set_cols(dX, len);
        fd::fill_uniform(p.gamma, rng, 0.5, 1.5), fd::fill_uniform(X, rng),
            fd::fill_uniform(R, rng);
        fd::fill_uniform(g.gamma, rng), fd::fill_uniform(dX, rng);
        const auto g0 = g;
        const auto dX0 = dX;
        nn::rms_norm<double, E>::cache<C> c;
        auto loss = [&] {
            forward(p, X, Y, c, 1e-5);
            return fd::weighted_sum(R, Y);
        };
        loss();
        backward(p, X, R, dX, g, c);
        auto r = fd::check_gradient(X, added(dX, dX0), loss);
        EXPECT_LT(r.worst, fd_tol) << "dX " << r;
        r = fd::check_gradient(p.gamma, added(g.gamma, g0.gamma), loss);
        EXPECT_LT(r.worst, fd_tol) << "dgamma " << r;
    }
}

// ---------------------------------------------------------------------------------------------
// MLP

template <class Act>
void mlp_gradients_match_finite_differences(std::initializer_list<std::size_t> lengths) {
    std::mt19937_64 rng(31);
    for (const std::size_t len : lengths) {
        SCOPED_TRACE(std::string(Act::name) + ", len " + std::to_string(len));
        using Mlp = nn::mlp<double, E, M, Act>;
        Mlp p, g;
        tf::mat<double, E, C> X, Y, R, dX;
        set_cols(X, len), set_cols(Y, len), set_cols(R, len), set_cols(dX, len);
        fd::fill_uniform(p.W_1, rng, -0.5, 0.5), fd::fill_uniform(p.b_1, rng);
        fd::fill_uniform(p.W_2, rng, -0.5, 0.5), fd::fill_uniform(p.b_2, rng);
        fd::fill_uniform(X, rng), fd::fill_uniform(R, rng), fd::fill_uniform(dX, rng);
        fd::fill_uniform(g.W_1, rng), fd::fill_uniform(g.b_1, rng);
        fd::fill_uniform(g.W_2, rng), fd::fill_uniform(g.b_2, rng);
        const auto g0 = g;
        const auto dX0 = dX;
        typename Mlp::template cache<C> c;
        typename Mlp::template scratch<C> s;
        auto loss = [&] {
            forward(p, X, Y, c);
            return fd::weighted_sum(R, Y);
        };
        loss();
        backward(p, X, R, dX, g, c, s);
        auto r = fd::check_gradient(X, added(dX, dX0), loss);
        EXPECT_LT(r.worst, fd_tol) << "dX " << r;
        r = fd::check_gradient(p.W_1, added(g.W_1, g0.W_1), loss);
        EXPECT_LT(r.worst, fd_tol) << "dW_1 " << r;
        r = fd::check_gradient(p.b_1, added(g.b_1, g0.b_1), loss);
        EXPECT_LT(r.worst, fd_tol) << "db_1 " << r;
        r = fd::check_gradient(p.W_2, added(g.W_2, g0.W_2), loss);
        EXPECT_LT(r.worst, fd_tol) << "dW_2 " << r;
        r = fd::check_gradient(p.b_2, added(g.b_2, g0.b_2), loss);
        EXPECT_LT(r.worst, fd_tol) << "db_2 " << r;
    }
}

// Lengths 1, partial and full capacity; the erf and tanh variants run two of them each, to stay
// fast under the sanitizers (each FD check reruns the forward twice per parameter entry).
TEST(Mlp, ReluGradientsMatchFiniteDifferences) {
    mlp_gradients_match_finite_differences<nn::relu>({1, 5, 17});
}
TEST(Mlp, GeluGradientsMatchFiniteDifferences) {
    mlp_gradients_match_finite_differences<nn::gelu>({1, 17});
}
TEST(Mlp, GeluTanhGradientsMatchFiniteDifferences) {
    mlp_gradients_match_finite_differences<nn::gelu_tanh>({1, 6});
}

// The residual form, Y = R + MLP(X) (the models' residual add, in the products' epilogue): the
// plain form (checked against PyTorch below) plus R, entry by entry; R may not be Y itself.
TEST(Mlp, ResidualFormAddsR) {
    std::mt19937_64 rng(37);
    using Mlp = nn::mlp<double, E, M, nn::gelu>;
    Mlp p;
    tf::mat<double, E, C> X, Y, Y_r, R;
    set_cols(X, 5), set_cols(Y, 5), set_cols(Y_r, 5), set_cols(R, 5);
    fd::fill_uniform(p.W_1, rng, -0.5, 0.5), fd::fill_uniform(p.b_1, rng);
    fd::fill_uniform(p.W_2, rng, -0.5, 0.5), fd::fill_uniform(p.b_2, rng);
    fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
    Mlp::cache<C> c;
    forward(p, X, Y, c);
    forward(p, X, Y_r, c, R);
    for (std::size_t j = 0; j < 5; ++j)
        for (std::size_t i = 0; i < E::size; ++i)
            EXPECT_EQ(Y_r(i, j), R(i, j) + Y(i, j)) << "(" << i << ", " << j << ")";
    EXPECT_DEATH(forward(p, X, Y, c, Y), "the residual R shares Y's storage");
}

// ---------------------------------------------------------------------------------------------
// Algorithm 7, untied and tied

TEST(Unembedding, GradientsMatchFiniteDifferences) {
    std::mt19937_64 rng(41);
    for (const std::size_t len : {1, 8, 17}) {
        SCOPED_TRACE("len " + std::to_string(len));
        nn::unembedding<double, V, E> p, g;
        tf::mat<double, E, C> X, dX;
        tf::mat<double, V, C> logits, R;
        set_cols(X, len), set_cols(dX, len), set_cols(logits, len), set_cols(R, len);
        fd::fill_uniform(p.W_u, rng), fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
        fd::fill_uniform(g.W_u, rng), fd::fill_uniform(dX, rng);
        const auto g0 = g;
        const auto dX0 = dX;
        auto loss = [&] {
            forward(p, X, logits);
            return fd::weighted_sum(R, logits);
        };
        loss();
        backward(p, X, R, dX, g);
        auto r = fd::check_gradient(X, added(dX, dX0), loss);
        EXPECT_LT(r.worst, fd_tol) << "dX " << r;
        r = fd::check_gradient(p.W_u, added(g.W_u, g0.W_u), loss);
        EXPECT_LT(r.worst, fd_tol) << "dW_u " << r;
    }
}

TEST(Unembedding, ProbabilitiesAreTheSoftmaxOfEachColumn) {
    std::mt19937_64 rng(42);
    nn::unembedding<double, V, E> p;
    tf::mat<double, E, C> X;
    tf::mat<double, V, C> logits, Pr;
    set_cols(X, 4), set_cols(logits, 4), set_cols(Pr, 4);
    fd::fill_uniform(p.W_u, rng, -2, 2), fd::fill_uniform(X, rng);
    forward(p, X, logits);
    probabilities(p, X, Pr);
    for (std::size_t t = 0; t < 4; ++t) {
        double z = 0, sum = 0;
        for (std::size_t v = 0; v < V::size; ++v)
            z += std::exp(logits(v, t));
        for (std::size_t v = 0; v < V::size; ++v) {
            double l = 0;
            for (std::size_t k = 0; k < E::size; ++k)
                l += p.W_u(v, k) * X(k, t);  // W_u e
            EXPECT_NEAR(logits(v, t), l, 1e-13);
            EXPECT_NEAR(Pr(v, t), std::exp(logits(v, t)) / z, 1e-15);  // softmax(W_u e)
            sum += Pr(v, t);
        }
        EXPECT_NEAR(sum, 1.0, 1e-14);
    }
}

TEST(TiedUnembedding, GradientLandsInW_e) {
    std::mt19937_64 rng(43);
    for (const std::size_t len : {1, 7}) {
        SCOPED_TRACE("len " + std::to_string(len));
        nn::token_embedding<double, E, V> te, dte;
        nn::tied_unembedding<double, V, E> tied;
        nn::unembedding<double, V, E> untied, duntied;  // W_u = W_eᵀ by hand, for comparison
        tf::mat<double, E, C> X, dX, dX_untied;
        tf::mat<double, V, C> logits, logits_untied, R;
        set_cols(X, len), set_cols(dX, len), set_cols(dX_untied, len);
        set_cols(logits, len), set_cols(logits_untied, len), set_cols(R, len);
        fd::fill_uniform(te.W_e, rng), fd::fill_uniform(X, rng), fd::fill_uniform(R, rng);
        fd::fill_uniform(dte.W_e, rng), fd::fill_uniform(dX, rng);
        const auto dte0 = dte;
        const auto dX0 = dX;
        auto loss = [&] {
            forward(tied, te, X, logits);
            return fd::weighted_sum(R, logits);
        };
        loss();
        backward(tied, te, X, R, dX, dte);
        auto r = fd::check_gradient(te.W_e, added(dte.W_e, dte0.W_e), loss);
        EXPECT_LT(r.worst, fd_tol) << "dW_e " << r;
        r = fd::check_gradient(X, added(dX, dX0), loss);
        EXPECT_LT(r.worst, fd_tol) << "dX " << r;

        for (std::size_t v = 0; v < V::size; ++v)
            for (std::size_t k = 0; k < E::size; ++k)
                untied.W_u(v, k) = te.W_e(k, v);
        loss();  // the checks left logits at a perturbed W_e
        forward(untied, X, logits_untied);
        backward(untied, X, R, dX_untied, duntied);
        const auto dW_e = added(dte.W_e, dte0.W_e);
        const auto dX_tied = added(dX, dX0);
        for (std::size_t t = 0; t < len; ++t) {
            for (std::size_t v = 0; v < V::size; ++v)
                EXPECT_NEAR(logits(v, t), logits_untied(v, t), 1e-14);
            for (std::size_t k = 0; k < E::size; ++k)
                EXPECT_NEAR(dX_tied(k, t), dX_untied(k, t), 1e-13);
        }
        for (std::size_t v = 0; v < V::size; ++v)
            for (std::size_t k = 0; k < E::size; ++k)
                EXPECT_NEAR(dW_e(k, v), duntied.W_u(v, k), 1e-13);
    }
}

// W_e used twice, as in a tied model: embed, then unembed with W_eᵀ. Both backward passes add
// into the one dW_e.
TEST(TiedUnembedding, EmbeddingAndUnembeddingGradientsAddInW_e) {
    std::mt19937_64 rng(44);
    nn::token_embedding<double, E, V> te, dte;
    nn::positional_embedding<double, E, P> pe, dpe;
    nn::tied_unembedding<double, V, E> tied;
    tf::mat<double, E, C> X, dX;
    tf::mat<double, V, C> logits, R;
    const std::size_t len = 6;
    set_cols(X, len), set_cols(dX, len), set_cols(logits, len), set_cols(R, len);
    fd::fill_uniform(te.W_e, rng), fd::fill_uniform(pe.W_p, rng), fd::fill_uniform(R, rng);
    const auto x = random_tokens(len, rng);
    auto loss = [&] {
        embed(te, pe, x, X);
        forward(tied, te, X, logits);
        return fd::weighted_sum(R, logits);
    };
    loss();
    backward(tied, te, X, R, dX, dte);
    embed_backward(te, pe, x, dX, dte, dpe);
    auto r = fd::check_gradient(te.W_e, dte.W_e, loss);
    EXPECT_LT(r.worst, fd_tol) << "dW_e " << r;
    r = fd::check_gradient(pe.W_p, dpe.W_p, loss);
    EXPECT_LT(r.worst, fd_tol) << "dW_p " << r;
}

// ---------------------------------------------------------------------------------------------
// PyTorch autograd (tests/nn/torch_basic.py), one python run for every case below

constexpr double torch_tol_double = 1e-10;
constexpr double torch_tol_float = 1e-5;

struct oracle_run {
    fd::bundle in, out;
};

fd::array random_array(std::vector<std::size_t> shape, std::mt19937_64& rng, double lo = -1,
                       double hi = 1) {
    std::uniform_real_distribution<double> dist(lo, hi);
    std::size_t n = 1;
    for (auto s : shape)
        n *= s;
    fd::array a{std::move(shape), std::vector<double>(n)};
    for (auto& e : a.data)
        e = static_cast<float>(dist(rng));  // exact in float and double
    return a;
}

fd::bundle make_oracle_inputs() {
    std::mt19937_64 rng(2024);
    const std::size_t e = E::size, m = M::size, nv = V::size, lmax = P::size;
    fd::bundle in;
    auto tokens = [&](std::size_t len) {
        std::vector<tf::token> x = random_tokens(len, rng);
        return fd::to_array(x);
    };
    for (const auto& [tag, len, first] : {std::tuple{"l1", 1, 0}, std::tuple{"l13", 13, 3}}) {
        const std::string k = std::string("embedding:") + tag + ".";
        in[k + "W_e"] = random_array({e, nv}, rng);
        in[k + "W_p"] = random_array({e, lmax}, rng);
        in[k + "x"] = tokens(len);
        in[k + "first"] = fd::scalar_array(first);
        in[k + "R"] = random_array({e, std::size_t(len)}, rng);
    }
    for (const auto& [tag, d, l, first, n] :
         {std::tuple{"e19", 19, 17, 0, 17}, std::tuple{"e8", 8, 10, 5, 12}}) {
        const std::string k = std::string("sinusoidal:") + tag + ".";
        in[k + "d_e"] = fd::scalar_array(d);
        in[k + "l_max"] = fd::scalar_array(l);
        in[k + "first"] = fd::scalar_array(first);
        in[k + "n"] = fd::scalar_array(n);
    }
    for (const auto& [tag, len, eps] :
         {std::tuple{"l1", 1, 1e-5}, std::tuple{"l13", 13, 1e-5}, std::tuple{"l13eps0", 13, 0.0}}) {
        for (const std::string block : {"layer_norm", "rms_norm"}) {
            const std::string k = block + ":" + tag + ".";
            in[k + "X"] = random_array({e, std::size_t(len)}, rng, -2, 3);
            in[k + "gamma"] = random_array({e}, rng, 0.5, 1.5);
            if (block == "layer_norm")
                in[k + "beta"] = random_array({e}, rng);
            in[k + "eps"] = fd::scalar_array(eps);
            in[k + "R"] = random_array({e, std::size_t(len)}, rng);
        }
    }
    for (const auto& [act, code] :
         {std::pair{"relu", 0}, std::pair{"gelu", 1}, std::pair{"gelu_tanh", 2}}) {
        for (const auto& [tag, len] : {std::pair{"_l1", 1}, std::pair{"_l13", 13}}) {
            const std::string k = std::string("mlp:") + act + tag + ".";
            in[k + "act"] = fd::scalar_array(code);
            in[k + "X"] = random_array({e, std::size_t(len)}, rng, -2, 2);
            in[k + "W_1"] = random_array({m, e}, rng, -0.5, 0.5);
            in[k + "b_1"] = random_array({m}, rng);
            in[k + "W_2"] = random_array({e, m}, rng, -0.5, 0.5);
            in[k + "b_2"] = random_array({e}, rng);
            in[k + "R"] = random_array({e, std::size_t(len)}, rng);
        }
    }
    for (const auto& [tag, len] : {std::pair{"l1", 1}, std::pair{"l13", 13}}) {
        std::string k = std::string("unembedding:") + tag + ".";
        in[k + "W_u"] = random_array({nv, e}, rng);
        in[k + "X"] = random_array({e, std::size_t(len)}, rng);
        in[k + "R"] = random_array({nv, std::size_t(len)}, rng);
        k = std::string("tied:") + tag + ".";
        in[k + "W_e"] = random_array({e, nv}, rng);
        in[k + "X"] = random_array({e, std::size_t(len)}, rng);
        in[k + "R"] = random_array({nv, std::size_t(len)}, rng);
    }
    return in;
}

const oracle_run& oracle() {
    static const oracle_run run = [] {
        oracle_run r;
        r.in = make_oracle_inputs();
        r.out = fd::run_python("nn/torch_basic.py", r.in);
        return r;
    }();
    return run;
}

// Copies input `case.name` into a tensor whose extents are set here (columns from the array).
template <class X>
void load(const std::string& key, X& x) {
    const auto& a = oracle().in.at(key);
    if constexpr (tf::matrix<X>)
        set_cols(x, a.shape.at(1));
    fd::from_array(a, x);
}

std::vector<tf::token> load_tokens(const std::string& key) {
    std::vector<tf::token> x;
    for (double v : oracle().in.at(key).data)
        x.push_back(static_cast<tf::token>(v));
    return x;
}

double load_scalar(const std::string& key) {
    return oracle().in.at(key).data.at(0);
}

template <class X>
void expect_matches(const X& ours, const std::string& key, double tol) {
    const auto it = oracle().out.find(key);
    ASSERT_NE(it, oracle().out.end()) << "torch_basic.py wrote no " << key;
    const auto a = fd::to_array(ours);
    ASSERT_EQ(a.shape, it->second.shape) << key;
    const double err = fd::allclose_ratio(a.data, it->second.data, tol,
                                          fd::atol_for(tol, fd::max_abs(it->second.data)));
    EXPECT_LE(err, 1) << key;
    if (std::getenv("TYPEFORMER_TEST_VERBOSE"))
        std::printf("  %-32s %.3g\n", key.c_str(), err);  // margins
}

template <class T>
void torch_embedding(double tol) {
    for (const std::string tag : {"l1", "l13"}) {
        const std::string k = "embedding:" + tag + ".";
        nn::token_embedding<T, E, V> te, dte;
        nn::positional_embedding<T, E, P> pe, dpe;
        tf::mat<T, E, C> X, R;
        load(k + "W_e", te.W_e), load(k + "W_p", pe.W_p), load(k + "R", R);
        const auto x = load_tokens(k + "x");
        const auto first = static_cast<std::size_t>(load_scalar(k + "first"));
        set_cols(X, x.size());
        embed(te, pe, x, X, first);
        embed_backward(te, pe, x, R, dte, dpe, first);
        expect_matches(X, k + "X", tol);
        expect_matches(dte.W_e, k + "dW_e", tol);
        expect_matches(dpe.W_p, k + "dW_p", tol);
    }
}

template <class T>
void torch_layer_norm(double tol) {
    for (const std::string tag : {"l1", "l13", "l13eps0"}) {
        const std::string k = "layer_norm:" + tag + ".";
        nn::layer_norm<T, E> p, g;
        tf::mat<T, E, C> X, Y, R, dX;
        load(k + "X", X), load(k + "R", R), load(k + "gamma", p.gamma), load(k + "beta", p.beta);
        set_cols(Y, X.cols()), set_cols(dX, X.cols());
        typename nn::layer_norm<T, E>::template cache<C> c;
        forward(p, X, Y, c, static_cast<T>(load_scalar(k + "eps")));
        backward(p, X, R, dX, g, c);
        expect_matches(Y, k + "Y", tol);
        expect_matches(dX, k + "dX", tol);
        expect_matches(g.gamma, k + "dgamma", tol);
        expect_matches(g.beta, k + "dbeta", tol);
    }
}

template <class T>
void torch_rms_norm(double tol) {
    for (const std::string tag : {"l1", "l13", "l13eps0"}) {
        const std::string k = "rms_norm:" + tag + ".";
        nn::rms_norm<T, E> p, g;
        tf::mat<T, E, C> X, Y, R, dX;
        load(k + "X", X), load(k + "R", R), load(k + "gamma", p.gamma);
        set_cols(Y, X.cols()), set_cols(dX, X.cols());
        typename nn::rms_norm<T, E>::template cache<C> c;
        forward(p, X, Y, c, static_cast<T>(load_scalar(k + "eps")));
        backward(p, X, R, dX, g, c);
        expect_matches(Y, k + "Y", tol);
        expect_matches(dX, k + "dX", tol);
        expect_matches(g.gamma, k + "dgamma", tol);
    }
}

template <class T, class Act>
void torch_mlp(double tol) {
    for (const std::string tag : {"_l1", "_l13"}) {
        const std::string k = std::string("mlp:") + Act::name + tag + ".";
        using Mlp = nn::mlp<T, E, M, Act>;
        Mlp p, g;
        tf::mat<T, E, C> X, Y, R, dX;
        load(k + "X", X), load(k + "R", R);
        load(k + "W_1", p.W_1), load(k + "b_1", p.b_1), load(k + "W_2", p.W_2),
            load(k + "b_2", p.b_2);
        set_cols(Y, X.cols()), set_cols(dX, X.cols());
        typename Mlp::template cache<C> c;
        typename Mlp::template scratch<C> s;
        forward(p, X, Y, c);
        backward(p, X, R, dX, g, c, s);
        expect_matches(Y, k + "Y", tol);
        expect_matches(dX, k + "dX", tol);
        expect_matches(g.W_1, k + "dW_1", tol);
        expect_matches(g.b_1, k + "db_1", tol);
        expect_matches(g.W_2, k + "dW_2", tol);
        expect_matches(g.b_2, k + "db_2", tol);
    }
}

template <class T>
void torch_unembedding(double tol) {
    for (const std::string tag : {"l1", "l13"}) {
        const std::string k = "unembedding:" + tag + ".";
        nn::unembedding<T, V, E> p, g;
        tf::mat<T, E, C> X, dX;
        tf::mat<T, V, C> logits, Pr, R;
        load(k + "W_u", p.W_u), load(k + "X", X), load(k + "R", R);
        set_cols(dX, X.cols()), set_cols(logits, X.cols()), set_cols(Pr, X.cols());
        forward(p, X, logits);
        probabilities(p, X, Pr);
        backward(p, X, R, dX, g);
        expect_matches(logits, k + "logits", tol);
        expect_matches(Pr, k + "P", tol);
        expect_matches(g.W_u, k + "dW_u", tol);
        expect_matches(dX, k + "dX", tol);
    }
}

template <class T>
void torch_tied(double tol) {
    for (const std::string tag : {"l1", "l13"}) {
        const std::string k = "tied:" + tag + ".";
        nn::token_embedding<T, E, V> te, dte;
        nn::tied_unembedding<T, V, E> tied;
        tf::mat<T, E, C> X, dX;
        tf::mat<T, V, C> logits, Pr, R;
        load(k + "W_e", te.W_e), load(k + "X", X), load(k + "R", R);
        set_cols(dX, X.cols()), set_cols(logits, X.cols()), set_cols(Pr, X.cols());
        forward(tied, te, X, logits);
        probabilities(tied, te, X, Pr);
        backward(tied, te, X, R, dX, dte);
        expect_matches(logits, k + "logits", tol);
        expect_matches(Pr, k + "P", tol);
        expect_matches(dte.W_e, k + "dW_e", tol);
        expect_matches(dX, k + "dX", tol);
    }
}

template <std::size_t De, std::size_t Lmax>
void torch_sinusoidal(const std::string& tag) {
    const std::string k = "sinusoidal:" + tag + ".";
    const auto first = static_cast<std::size_t>(load_scalar(k + "first"));
    const auto n = static_cast<std::size_t>(load_scalar(k + "n"));
    ASSERT_EQ(load_scalar(k + "d_e"), De);
    ASSERT_EQ(load_scalar(k + "l_max"), Lmax);
    nn::token_embedding<double, tf::d_e<De>, V> zero;
    tf::mat<double, tf::d_e<De>, tf::l_x<32>> W;
    W.resize_cols(n);
    using S = nn::sinusoidal_embedding<tf::d_e<De>, tf::l_max<Lmax>>;
    embed(zero, S{}, std::vector<tf::token>(n, 0), W, first);
    expect_matches(W, k + "W", 1e-14);
    // The float-only form a device build adds (value_float): relative error ~2e-7, absolute
    // ~1.2e-7 (two float ulps at 1), against numpy's double.
    for (std::size_t c = 0; c < n; ++c)
        for (std::size_t r = 0; r < De; ++r)
            W(r, c) = S::value_float(r, first + c);
    expect_matches(W, k + "W", 5e-7);
}

// One python run per test process (ctest runs each TEST alone), so each test covers a block
// in both precisions: double at 1e-10, float at 1e-5 (relative to max(1, |torch|)).
TEST(Torch, Embedding) {
    {
        SCOPED_TRACE("double");
        torch_embedding<double>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_embedding<float>(torch_tol_float);
    }
}
TEST(Torch, SinusoidalMatchesNumpy) {
    torch_sinusoidal<19, 17>("e19");
    torch_sinusoidal<8, 10>("e8");
}
TEST(Torch, LayerNorm) {
    {
        SCOPED_TRACE("double");
        torch_layer_norm<double>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_layer_norm<float>(torch_tol_float);
    }
}
TEST(Torch, RmsNorm) {
    {
        SCOPED_TRACE("double");
        torch_rms_norm<double>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_rms_norm<float>(torch_tol_float);
    }
}
TEST(Torch, Mlp) {
    {
        SCOPED_TRACE("double");
        torch_mlp<double, nn::relu>(torch_tol_double);
    }
    {
        SCOPED_TRACE("double");
        torch_mlp<double, nn::gelu>(torch_tol_double);
    }
    {
        SCOPED_TRACE("double");
        torch_mlp<double, nn::gelu_tanh>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_mlp<float, nn::relu>(torch_tol_float);
    }
    {
        SCOPED_TRACE("float");
        torch_mlp<float, nn::gelu>(torch_tol_float);
    }
    {
        SCOPED_TRACE("float");
        torch_mlp<float, nn::gelu_tanh>(torch_tol_float);
    }
}
TEST(Torch, Unembedding) {
    {
        SCOPED_TRACE("double");
        torch_unembedding<double>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_unembedding<float>(torch_tol_float);
    }
}
TEST(Torch, TiedUnembedding) {
    {
        SCOPED_TRACE("double");
        torch_tied<double>(torch_tol_double);
    }
    {
        SCOPED_TRACE("float");
        torch_tied<float>(torch_tol_float);
    }
}

}  // namespace
