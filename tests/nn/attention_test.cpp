// Algorithms 3, 4, 5 (nn/single_query_attention.hpp, nn/attention.hpp, nn/mh_attention.hpp):
// gradients against central finite differences, forward and backward against PyTorch autograd
// (tests/nn/torch_attention.py, written from the paper), Algorithm 3 against Algorithm 4's
// columns, and the exact zeros of the unidirectional mask.
//
// Sizes: d_x = 10, d_z = 6, d_attn = 3, d_mid = 5, d_out = 7, H = 3 (d_attn ≠ d_mid ≠ d_x/H),
// lengths 1, 5, 11 (capacity 11) and l_z ∈ {3, 7, 13} (capacity 13): none a SIMD width.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/hana/accessors.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <typeformer/nn/attention.hpp>
#include <typeformer/nn/mh_attention.hpp>
#include <typeformer/nn/single_query_attention.hpp>

#include "support/finite_diff.hpp"
#include "support/oracle.hpp"

namespace {

namespace tf = typeformer;
namespace hana = boost::hana;
namespace fd = typeformer::testing;
using tf::mat;
using tf::vec;

using Dx = tf::d_x<10>;
using Dz = tf::d_z<6>;
using Da = tf::d_attn<3>;
using Dm = tf::d_mid<5>;
using Do = tf::d_out<7>;
using Hn = tf::H<3>;
using Lx = tf::l_x<11>;
using Lz = tf::l_z<13>;
// Lengths a blocked or tiled causal path would cut into several pieces (24 to 70 columns).
using Lx_long = tf::l_x<70>;
using Lz_long = tf::l_z<74>;

template <class T>
using self_attention = tf::nn::Attention<T, Dx, Dx, Da, Do>;
template <class T>
using cross_attention = tf::nn::Attention<T, Dx, Dz, Da, Do>;
template <class T>
using self_mh = tf::nn::MHAttention<T, Dx, Dx, Da, Dm, Do, Hn>;
template <class T>
using cross_mh = tf::nn::MHAttention<T, Dx, Dz, Da, Dm, Do, Hn>;

// ---- helpers ----

using fd::for_each_entry;

template <class X>
void randomize(X&& x, std::mt19937_64& rng, double a = 1.0) {
    fd::fill_uniform(x, rng, -a, a);
}

template <class P>
void randomize_params(P& p, std::mt19937_64& rng) {
    hana::for_each(hana::accessors<P>(),
                   [&](auto acc) { randomize(hana::second(acc)(p), rng, 0.7); });
}

// An input of n random columns (the gradient and oracle cases draw X, then Z, this way).
template <class M>
M random_columns(std::size_t n, std::mt19937_64& rng) {
    M X;
    X.resize_cols(n);
    randomize(X, rng);
    return X;
}

template <class P, class F>
void for_each_attention_param(const P&, F f) {
    hana::for_each(hana::accessors<P>(), [&](auto acc) {
        f(hana::to<char const*>(hana::first(acc)), hana::second(acc));
    });
}

// Runs f with the mask as a value of its type.
template <class F>
void with_mask(bool causal, std::size_t offset, F f) {
    if (causal)
        f(tf::mask_unidirectional{offset});
    else
        f(tf::mask_bidirectional{});
}

// Central differences of loss() in every entry of w, against g − g0: the gradient a backward
// added on top of the pre-filled g0 (so this checks the += convention too).
template <class W, class G, class Loss>
void expect_matches_finite_differences(W& w, const G& g, const G& g0, Loss loss,
                                       const std::string& what) {
    auto added = std::make_unique<G>(g);
    auto g0v = tf::as_view(g0);
    for_each_entry(*added, [&](double& e, std::size_t i, std::size_t j) {
        if constexpr (tf::matrix<decltype(g0v)>)
            e -= g0v(i, j);
        else
            e -= g0v[i];
    });
    const fd::fd_report r = fd::check_gradient(w, *added, loss);
    EXPECT_LT(r.worst, 1e-7) << what << ": " << r;
    EXPECT_EQ(r.entries, fd::entry_count(w)) << what;
}

// Every parameter gradient and dX (and dZ when Z is not X) of module P against central finite
// differences of loss = Σ R ⊙ Ṽ, with every accumulator pre-filled (backward must add).
template <class P, class XM, class ZM, class Mask>
void check_module_gradients(P& p, XM& X, ZM& Z, Mask mask, std::mt19937_64& rng,
                            const std::string& what) {
    using LxT = typename XM::cols_dim;
    using LzT = typename ZM::cols_dim;
    constexpr bool self = std::is_same_v<XM, ZM>;
    if constexpr (self) {
        ASSERT_EQ(static_cast<void*>(&X), static_cast<void*>(&Z));
    }
    using V = mat<double, typename P::out_dim, LxT>;
    auto c = std::make_unique<typename P::template cache<LxT, LzT>>();
    auto s = std::make_unique<typename P::template scratch<LxT, LzT>>();
    V R;
    R.resize_cols(X.cols());
    randomize(R, rng);
    auto loss = [&] {
        V Vt;
        Vt.resize_cols(X.cols());
        tf::nn::forward(p, X, Z, mask, Vt, *c);
        return fd::weighted_sum(R, Vt);
    };

    auto grads = std::make_unique<P>();
    randomize_params(*grads, rng);
    const auto grads0 = std::make_unique<P>(*grads);
    XM dX, dX0;
    dX.resize_cols(X.cols());
    randomize(dX, rng);
    dX0 = dX;
    ZM dZ, dZ0;
    dZ.resize_cols(Z.cols());
    randomize(dZ, rng);
    dZ0 = dZ;

    loss();
    if constexpr (self)
        tf::nn::backward(p, X, X, mask, R, dX, dX, *grads, *c, *s);  // dX and dZ: one buffer
    else
        tf::nn::backward(p, X, Z, mask, R, dX, dZ, *grads, *c, *s);

    for_each_attention_param(p, [&](const char* name, auto get) {
        expect_matches_finite_differences(get(p), get(*grads), get(*grads0), loss,
                                          what + " " + name);
    });
    expect_matches_finite_differences(X, dX, dX0, loss, what + (self ? " X (= Z)" : " X"));
    if constexpr (!self)
        expect_matches_finite_differences(Z, dZ, dZ0, loss, what + " Z");
}

template <class P>
void check_self(const char* name) {
    std::mt19937_64 rng(42);
    auto p = std::make_unique<P>();
    randomize_params(*p, rng);
    for (bool causal : {false, true})
        for (std::size_t l : {1, 5, 11}) {
            auto X = random_columns<mat<double, Dx, Lx>>(l, rng);
            with_mask(causal, 0, [&](auto mask) {
                check_module_gradients(*p, X, X, mask, rng,
                                       std::string(name) + (causal ? " causal" : " bidirectional") +
                                           " l=" + std::to_string(l));
            });
        }
}

template <class P>
void check_cross(const char* name) {
    std::mt19937_64 rng(7);
    auto p = std::make_unique<P>();
    randomize_params(*p, rng);
    const std::pair<std::size_t, std::size_t> lengths[] = {{1, 7}, {5, 3}, {11, 13}};
    for (bool causal : {false, true})
        for (auto [lx, lz] : lengths) {
            auto X = random_columns<mat<double, Dx, Lx>>(lx, rng);
            auto Z = random_columns<mat<double, Dz, Lz>>(lz, rng);
            with_mask(causal, 0, [&](auto mask) {
                check_module_gradients(*p, X, Z, mask, rng,
                                       std::string(name) + (causal ? " causal" : " bidirectional") +
                                           " l_x=" + std::to_string(lx) +
                                           " l_z=" + std::to_string(lz));
            });
        }
}

// ---- finite differences ----

TEST(AttentionGradients, SelfAttentionMatchesFiniteDifferences) {
    check_self<self_attention<double>>("Attention self");
}

TEST(AttentionGradients, CrossAttentionMatchesFiniteDifferences) {
    check_cross<cross_attention<double>>("Attention cross");
}

TEST(MHAttentionGradients, SelfAttentionMatchesFiniteDifferences) {
    check_self<self_mh<double>>("MHAttention self");
}

TEST(MHAttentionGradients, CrossAttentionMatchesFiniteDifferences) {
    check_cross<cross_mh<double>>("MHAttention cross");
}

// ---- Algorithm 3 ----

using Din = tf::d_in<10>;
using Tc = tf::T<11>;
template <class T>
using sqa = tf::nn::single_query_attention<T, Din, Da, Do>;
using sq_cache = tf::nn::single_query_cache<double, Da, Do, Tc>;
using sq_scratch = tf::nn::single_query_scratch<double, Da, Do, Tc>;

TEST(SingleQueryAttention, GradientsMatchFiniteDifferences) {
    std::mt19937_64 rng(3);
    sqa<double> p;
    randomize_params(p, rng);
    for (std::size_t n : {1, 4, 11}) {
        vec<double, Din> e, de, de0;
        mat<double, Din, Tc> E, dE, dE0;
        E.resize_cols(n);
        dE.resize_cols(n);
        randomize(e, rng);
        randomize(E, rng);
        randomize(de, rng);
        randomize(dE, rng);
        de0 = de;
        dE0 = dE;
        vec<double, Do> r;
        randomize(r, rng);
        sq_cache c;
        sq_scratch s;
        auto loss = [&] {
            vec<double, Do> v;
            tf::nn::forward(p, e, E, v, c);
            return fd::weighted_sum(r, v);
        };
        sqa<double> grads;
        randomize_params(grads, rng);
        const sqa<double> grads0 = grads;
        loss();
        tf::nn::backward(p, e, E, r, de, dE, grads, c, s);
        const std::string what = "Algorithm 3 T=" + std::to_string(n);
        for_each_attention_param(p, [&](const char* name, auto get) {
            expect_matches_finite_differences(get(p), get(grads), get(grads0), loss,
                                              what + " " + name);
        });
        expect_matches_finite_differences(e, de, de0, loss, what + " e");
        expect_matches_finite_differences(E, dE, dE0, loss, what + " E");
    }
}

// Column t of Algorithm 4 (self-attention, MaskΔ) is Algorithm 3 on e = X[:, t], E = X[:, 0..t],
// forward and backward (dṼ nonzero only in column t).
TEST(SingleQueryAttention, EqualsTheColumnOfAlgorithm4) {
    std::mt19937_64 rng(11);
    sqa<double> p;
    randomize_params(p, rng);
    constexpr std::size_t l = 11;
    auto X = random_columns<mat<double, Din, Lx>>(l, rng);
    mat<double, Do, Lx> Vt;
    Vt.resize_cols(l);
    sqa<double>::cache<Lx, Lx> c4;
    sqa<double>::scratch<Lx, Lx> s4;
    tf::nn::forward(p, X, X, tf::mask_unidirectional{}, Vt, c4);
    for (std::size_t t = 0; t < l; ++t) {
        const auto E = tf::relabel<Din, Tc>(std::as_const(X)).first_cols(t + 1);  // (d_in, t+1)
        vec<double, Do> v;
        sq_cache c3;
        sq_scratch s3;
        tf::nn::forward(p, X.col(t), E, v, c3);
        for (std::size_t i = 0; i < Do::size; ++i)
            EXPECT_NEAR(v[i], Vt(i, t), 1e-13 * std::max(1.0, std::abs(Vt(i, t))))
                << "t=" << t << " i=" << i;

        // backward: Algorithm 4 with dṼ = r in column t only
        mat<double, Do, Lx> dVt;
        dVt.resize_cols(l);
        vec<double, Do> r;
        randomize(r, rng);
        for (std::size_t i = 0; i < Do::size; ++i)
            dVt(i, t) = r[i];
        sqa<double> g4, g3;
        mat<double, Din, Lx> dX;
        dX.resize_cols(l);
        tf::nn::backward(p, X, X, tf::mask_unidirectional{}, dVt, dX, dX, g4, c4, s4);
        vec<double, Din> de;
        mat<double, Din, Tc> dE;
        dE.resize_cols(t + 1);
        tf::nn::backward(p, X.col(t), E, r, de, dE, g3, c3, s3);
        for_each_attention_param(g4, [&](const char* name, auto get) {
            auto a = tf::as_view(get(g3));
            for_each_entry(get(g4), [&](double x, std::size_t i, std::size_t j) {
                double y;
                if constexpr (tf::matrix<decltype(a)>)
                    y = a(i, j);
                else
                    y = a[i];
                EXPECT_NEAR(x, y, 1e-12 * std::max(1.0, std::abs(x)))
                    << name << "(" << i << ", " << j << ") t=" << t;
            });
        });
        for (std::size_t j = 0; j < l; ++j)
            for (std::size_t i = 0; i < Din::size; ++i) {
                const double want = (j <= t ? dE(i, j) : 0.0) + (j == t ? de[i] : 0.0);
                EXPECT_NEAR(dX(i, j), want, 1e-12 * std::max(1.0, std::abs(want)))
                    << "dX(" << i << ", " << j << ") t=" << t;
            }
    }
}

// ---- PyTorch autograd (tests/nn/torch_attention.py) ----

using tf::testing::bundle;
using tf::testing::to_array;

// One case: our forward and backward (zeroed accumulators) and its inputs for the script.
// MHAttention's forward-only output (an inference_cache: attention in tiles) goes to
// `inference`, held to the same reference Ṽ.
template <class P, class XM, class ZM, class Mask>
void add_oracle_case(bundle& in, bundle& ours, bundle& inference, int i, const P& p, const XM& X,
                     const ZM& Z, bool self, Mask mask, std::mt19937_64& rng) {
    using T = typename P::value_type;
    using LxT = typename XM::cols_dim;
    using LzT = typename ZM::cols_dim;
    const std::string pre = "c" + std::to_string(i) + ".";
    auto c = std::make_unique<typename P::template cache<LxT, LzT>>();
    auto s = std::make_unique<typename P::template scratch<LxT, LzT>>();
    mat<T, typename P::out_dim, LxT> Vt, dVt;
    Vt.resize_cols(X.cols());
    dVt.resize_cols(X.cols());
    randomize(dVt, rng);
    auto grads = std::make_unique<P>();
    XM dX;
    ZM dZ;
    dX.resize_cols(X.cols());
    dZ.resize_cols(Z.cols());
    tf::nn::forward(p, X, Z, mask, Vt, *c);
    if constexpr (std::is_same_v<XM, ZM>) {
        if (self) {
            tf::nn::backward(p, X, X, mask, dVt, dX, dX, *grads, *c, *s);
        } else {
            tf::nn::backward(p, X, Z, mask, dVt, dX, dZ, *grads, *c, *s);
        }
    } else {
        tf::nn::backward(p, X, Z, mask, dVt, dX, dZ, *grads, *c, *s);
    }

    const bool causal = std::is_same_v<Mask, tf::mask_unidirectional>;
    std::size_t offset = 0;
    if constexpr (std::is_same_v<Mask, tf::mask_unidirectional>)
        offset = mask.offset;
    in[pre + "kind"] = tf::testing::scalar_array(requires { P::n_heads; } ? 1 : 0);
    if constexpr (requires { P::n_heads; })
        in[pre + "H"] = tf::testing::scalar_array(double(P::n_heads));
    in[pre + "causal"] = tf::testing::scalar_array(causal ? 1 : 0);
    in[pre + "offset"] = tf::testing::scalar_array(double(offset));
    in[pre + "self"] = tf::testing::scalar_array(self ? 1 : 0);
    in[pre + "X"] = to_array(X);
    if (!self)
        in[pre + "Z"] = to_array(Z);
    in[pre + "dVt"] = to_array(dVt);
    for_each_attention_param(p, [&](const char* name, auto get) {
        in[pre + name] = to_array(get(p));
        ours[pre + "grad." + name] = to_array(get(*grads));
    });
    ours[pre + "Vt"] = to_array(Vt);
    if constexpr (requires { P::n_heads; }) {  // forward only: the heads in tiles, no A^h
        auto ci = std::make_unique<typename P::template inference_cache<LxT, LzT>>();
        mat<T, typename P::out_dim, LxT> Vi;
        Vi.resize_cols(X.cols());
        tf::nn::forward(p, X, Z, mask, Vi, *ci);
        inference[pre + "Vt"] = to_array(Vi);
    }
    ours[pre + "dX"] = to_array(dX);
    if (!self)
        ours[pre + "dZ"] = to_array(dZ);
}

// The absolute tolerance for the reference array `name`: atol_for(tol, reference_scale) — except
// for a key bias's gradient, zero in exact arithmetic (see reference_scale): both sides are pure
// rounding noise of W_k's products, so it is held to tol times that scale, absolutely.
double oracle_atol(const bundle& ref, const std::string& name, double tol) {
    const double scale = tf::testing::reference_scale(ref, name);
    if (name.ends_with("b_k"))
        return tol * scale;
    return tf::testing::atol_for(tol, scale);
}

// Runs the script on every case and compares each returned array with ours, and the
// forward-only outputs with the same references.
void expect_oracle_agrees(bundle& in, const bundle& ours, const bundle& inference, int n_cases,
                          double tol) {
    in["n_cases"] = tf::testing::scalar_array(n_cases);
    const bundle ref = tf::testing::run_python("nn/torch_attention.py", in);
    ASSERT_EQ(ref.size(), ours.size());
    for (const auto* got : {&ours, &inference})
        for (const auto& [name, a] : *got) {
            auto it = ref.find(name);
            ASSERT_NE(it, ref.end()) << name;
            EXPECT_EQ(it->second.shape, a.shape) << name;
            const double atol = oracle_atol(ref, name, tol);
            EXPECT_LE(tf::testing::allclose_ratio(a.data, it->second.data, tol, atol), 1)
                << name << (got == &inference ? " (inference cache)" : "");
        }
}

template <template <class> class Self, template <class> class Cross, class T>
void check_against_pytorch(double tol) {
    std::mt19937_64 rng(2024);
    bundle in, ours, inference;
    int n = 0;
    auto ps = std::make_unique<Self<T>>();
    auto pc = std::make_unique<Cross<T>>();
    randomize_params(*ps, rng);
    randomize_params(*pc, rng);
    for (bool causal : {false, true}) {
        for (std::size_t l : {1, 5, 11}) {  // self-attention: Z is X
            auto X = random_columns<mat<T, Dx, Lx>>(l, rng);
            with_mask(causal, 0, [&](auto mask) {
                add_oracle_case(in, ours, inference, n++, *ps, X, X, true, mask, rng);
            });
        }
        const std::pair<std::size_t, std::size_t> lengths[] = {{1, 7}, {5, 3}, {11, 13}};
        for (auto [lx, lz] : lengths) {  // cross-attention, l_z ≠ l_x
            auto X = random_columns<mat<T, Dx, Lx>>(lx, rng);
            auto Z = random_columns<mat<T, Dz, Lz>>(lz, rng);
            with_mask(causal, 0, [&](auto mask) {
                add_oracle_case(in, ours, inference, n++, *pc, X, Z, false, mask, rng);
            });
        }
    }
    // Causal attention over longer sequences: partial and whole blocks of any tiling by 6, 8,
    // 16 or 24 columns, with and without an offset, l_z = l_x and l_z > l_x.
    for (std::size_t l : {25, 48, 49, 70}) {
        auto X = random_columns<mat<T, Dx, Lx_long>>(l, rng);
        add_oracle_case(in, ours, inference, n++, *ps, X, X, true, tf::mask_unidirectional{}, rng);
    }
    using sz = std::size_t;
    for (auto [lx, lz, offset] :
         {std::tuple{sz{40}, sz{44}, sz{4}}, std::tuple{sz{30}, sz{70}, sz{0}}}) {
        auto X = random_columns<mat<T, Dx, Lx_long>>(lx, rng);
        auto Z = random_columns<mat<T, Dz, Lz_long>>(lz, rng);
        add_oracle_case(in, ours, inference, n++, *pc, X, Z, false, tf::mask_unidirectional{offset},
                        rng);
    }
    {  // MaskΔ with an offset (queries after a KV cache of 4 positions): l_z = l_x + 4
        auto X = random_columns<mat<T, Dx, Lx>>(5, rng);
        auto Z = random_columns<mat<T, Dz, Lz>>(9, rng);
        add_oracle_case(in, ours, inference, n++, *pc, X, Z, false, tf::mask_unidirectional{4},
                        rng);
    }
    expect_oracle_agrees(in, ours, inference, n, tol);
}

TEST(AttentionOracle, DoubleMatchesPyTorch) {
    check_against_pytorch<self_attention, cross_attention, double>(1e-10);
}
TEST(AttentionOracle, FloatMatchesPyTorch) {
    check_against_pytorch<self_attention, cross_attention, float>(1e-5);
}
TEST(MHAttentionOracle, DoubleMatchesPyTorch) {
    check_against_pytorch<self_mh, cross_mh, double>(1e-10);
}
TEST(MHAttentionOracle, FloatMatchesPyTorch) {
    check_against_pytorch<self_mh, cross_mh, float>(1e-5);
}

// Algorithm 3 against PyTorch: one query e against its context E is, for torch_attention.py,
// cross-attention of the single column X = e over Z = E with no mask. Our Algorithm 3 code
// (matrix–vector products, written apart from Algorithm 4's matrix core) supplies ṽ, ∂e, ∂E
// and every parameter gradient.
TEST(SingleQueryAttentionOracle, MatchesPyTorch) {
    std::mt19937_64 rng(33);
    bundle in, ours;
    int n = 0;
    auto p = std::make_unique<sqa<double>>();
    randomize_params(*p, rng);
    auto column = [](tf::testing::array a) {  // a vector as a (d, 1) matrix
        a.shape = {a.data.size(), 1};
        return a;
    };
    for (std::size_t T_ctx : {1, 4, 11}) {
        vec<double, Din> e, de;
        mat<double, Din, Tc> E, dE;
        E.resize_cols(T_ctx);
        dE.resize_cols(T_ctx);
        randomize(e, rng);
        randomize(E, rng);
        vec<double, Do> r, v;
        randomize(r, rng);
        sq_cache c;
        sq_scratch s;
        auto grads = std::make_unique<sqa<double>>();
        tf::nn::forward(*p, e, E, v, c);
        tf::nn::backward(*p, e, E, r, de, dE, *grads, c, s);
        const std::string pre = "c" + std::to_string(n++) + ".";
        in[pre + "kind"] = tf::testing::scalar_array(0);
        in[pre + "causal"] = tf::testing::scalar_array(0);
        in[pre + "offset"] = tf::testing::scalar_array(0);
        in[pre + "self"] = tf::testing::scalar_array(0);
        in[pre + "X"] = column(to_array(e));
        in[pre + "Z"] = to_array(E);
        in[pre + "dVt"] = column(to_array(r));
        for_each_attention_param(*p, [&](const char* name, auto get) {
            in[pre + name] = to_array(get(*p));
            ours[pre + "grad." + name] = to_array(get(*grads));
        });
        ours[pre + "Vt"] = column(to_array(v));
        ours[pre + "dX"] = column(to_array(de));
        ours[pre + "dZ"] = to_array(dE);
    }
    expect_oracle_agrees(in, ours, bundle{}, n, 1e-10);
}

// ---- lines 4–6 in tiles with an online softmax (attention_core_forward_tiled) ----

// Ṽ = V·softmax(KᵀQ/√d_attn) under t_z ≤ t_x + offset (or no mask), written plainly in double;
// row-major, as to_array.
template <class QM, class KM, class VM>
std::vector<double> naive_attention(const QM& Q, const KM& K, const VM& V, bool causal,
                                    std::size_t offset) {
    const std::size_t d = Q.rows(), l_x = Q.cols(), l_z = K.cols(), d_v = V.rows();
    std::vector<double> out(d_v * l_x, 0.0);
    for (std::size_t tx = 0; tx < l_x; ++tx) {
        std::vector<double> a(l_z, 0.0);
        double mx = -1e300, sum = 0;
        const std::size_t kept = causal ? std::min(l_z, tx + offset + 1) : l_z;
        for (std::size_t tz = 0; tz < kept; ++tz) {
            for (std::size_t i = 0; i < d; ++i)
                a[tz] += double(K(i, tz)) * double(Q(i, tx));
            a[tz] /= std::sqrt(double(d));
            mx = std::max(mx, a[tz]);
        }
        for (std::size_t tz = 0; tz < kept; ++tz)
            sum += (a[tz] = std::exp(a[tz] - mx));
        for (std::size_t tz = 0; tz < kept; ++tz)
            for (std::size_t i = 0; i < d_v; ++i)
                out[i * l_x + tx] += double(V(i, tz)) * a[tz] / sum;
    }
    return out;
}

// The tiled forward against the naive loop and against attention_core_forward (the path the
// PyTorch cases above check), for tilings that cut the queries and keys into whole and partial
// tiles (1×1 to one tile for everything), with and without MaskΔ, an offset (queries after a KV
// cache) and l_z ≠ l_x.
template <class T, std::size_t Bz, std::size_t Bx>
void check_tiled(std::mt19937_64& rng, double tol) {
    using Dv = Dm;
    namespace nd = tf::nn::detail;
    struct shape {
        std::size_t l_x, l_z, offset;
        bool causal;
    };
    const shape shapes[] = {{70, 70, 0, true}, {70, 74, 4, true},  {1, 74, 73, true},
                            {3, 60, 57, true}, {70, 74, 0, false}, {1, 9, 0, false},
                            {25, 3, 0, false}, {17, 17, 0, true}};
    for (const auto& sh : shapes) {
        SCOPED_TRACE("l_x " + std::to_string(sh.l_x) + ", l_z " + std::to_string(sh.l_z) +
                     ", offset " + std::to_string(sh.offset) + (sh.causal ? ", causal" : "") +
                     ", tiles " + std::to_string(Bz) + "x" + std::to_string(Bx));
        auto Q = random_columns<mat<T, Da, Lx_long>>(sh.l_x, rng);
        auto K = random_columns<mat<T, Da, Lz_long>>(sh.l_z, rng);
        auto V = random_columns<mat<T, Dv, Lz_long>>(sh.l_z, rng);
        randomize(Q, rng, 3.0);  // scores of a few units: the running maximum moves
        auto tile = std::make_unique<nd::attention_tile<T, Bz, Bx>>();
        auto A = std::make_unique<mat<T, Lz_long, Lx_long>>();
        A->resize_rows(sh.l_z), A->resize_cols(sh.l_x);
        mat<T, Dv, Lx_long> tiled, whole;
        tiled.resize_cols(sh.l_x), whole.resize_cols(sh.l_x);
        fill(tiled, T(7));  // every entry must be written
        const auto q = nd::attention_cview(Q), k = nd::attention_cview(K);
        const auto v = nd::attention_cview(V);
        with_mask(sh.causal, sh.offset, [&](auto mask) {
            nd::attention_core_forward_tiled(q, k, v, mask, tiled.view(), *tile);
            nd::attention_core_forward(q, k, v, mask, A->view(), whole.view());
        });
        const auto want = naive_attention(Q, K, V, sh.causal, sh.offset);
        const auto got = to_array(tiled), other = to_array(whole);
        const double r_naive = tf::testing::allclose_ratio(got.data, want, tol, tol);
        const double r_whole = tf::testing::allclose_ratio(got.data, other.data, tol, tol);
        EXPECT_LE(r_naive, 1) << "vs naive";
        EXPECT_LE(r_whole, 1) << "vs attention_core_forward";
        if (std::getenv("TYPEFORMER_TEST_VERBOSE"))  // margins
            std::printf("  tiled %zux%zu l_x %zu l_z %zu: %.3g (naive) %.3g (untiled)\n", Bz, Bx,
                        sh.l_x, sh.l_z, r_naive, r_whole);
    }
}

TEST(AttentionTiled, EqualsANaiveLoopAndTheUntiledCoreForAnyTiling) {
    std::mt19937_64 rng(31);
    check_tiled<double, 1, 1>(rng, 1e-14);
    check_tiled<double, 3, 2>(rng, 1e-14);
    check_tiled<double, 4, 7>(rng, 1e-14);
    check_tiled<double, 16, 16>(rng, 1e-14);
    check_tiled<double, 128, 64>(rng, 1e-14);
    check_tiled<float, 1, 1>(rng, 4e-7);
    check_tiled<float, 5, 3>(rng, 4e-7);
    check_tiled<float, 16, 16>(rng, 4e-7);
    check_tiled<float, 74, 70>(rng, 4e-7);
}

// ---- the unidirectional mask's exact zeros ----

template <class P>
void check_future_is_invisible() {
    using T = typename P::value_type;
    std::mt19937_64 rng(5);
    auto p = std::make_unique<P>();
    randomize_params(*p, rng);
    constexpr std::size_t l = 11;
    auto X = random_columns<mat<T, Dx, Lx>>(l, rng);
    auto c = std::make_unique<typename P::template cache<Lx, Lx>>();
    mat<T, Do, Lx> before;
    before.resize_cols(l);
    tf::nn::forward(*p, X, X, tf::mask_unidirectional{}, before, *c);

    // probabilities of future positions are exactly 0.0
    auto expect_future_zero = [&](const auto& A) {
        for (std::size_t tx = 0; tx < l; ++tx)
            for (std::size_t tz = 0; tz < l; ++tz) {
                if (tz > tx)
                    EXPECT_EQ(A(tz, tx), T(0)) << "A(" << tz << ", " << tx << ")";
                else
                    EXPECT_GT(A(tz, tx), T(0)) << "A(" << tz << ", " << tx << ")";
            }
    };
    if constexpr (requires { P::n_heads; })
        for (const auto& A : c->A)
            expect_future_zero(A);
    else
        expect_future_zero(c->A);

    // changing token k's vector leaves every earlier output column bit-identical
    for (std::size_t k = 1; k < l; ++k) {
        mat<T, Dx, Lx> X2 = X;
        for (std::size_t i = 0; i < Dx::size; ++i)
            X2(i, k) += T(0.5) + T(i);
        mat<T, Do, Lx> after;
        after.resize_cols(l);
        tf::nn::forward(*p, X2, X2, tf::mask_unidirectional{}, after, *c);
        for (std::size_t t = 0; t < k; ++t)
            EXPECT_EQ(std::memcmp(&before(0, t), &after(0, t), Do::size * sizeof(T)), 0)
                << "column " << t << " changed when token " << k << " did";
        bool later_changed = false;
        for (std::size_t i = 0; i < Do::size; ++i)
            later_changed |= before(i, k) != after(i, k);
        EXPECT_TRUE(later_changed) << "token " << k << " should change its own output";
    }
}

TEST(Mask, FutureGetsExactlyZeroWeightAttention) {
    check_future_is_invisible<self_attention<double>>();
    check_future_is_invisible<self_attention<float>>();
}
TEST(Mask, FutureGetsExactlyZeroWeightMHAttention) {
    check_future_is_invisible<self_mh<double>>();
    check_future_is_invisible<self_mh<float>>();
}

// The decoding step the KV-cache design relies on: the last k queries against the whole prefix
// with MaskΔ offset l − k are the last k columns of causal self-attention over the prefix.
TEST(Mask, OffsetQueriesAreTheLastColumnsOfSelfAttention) {
    std::mt19937_64 rng(9);
    auto p = std::make_unique<self_mh<double>>();
    randomize_params(*p, rng);
    constexpr std::size_t l = 9;
    auto X = random_columns<mat<double, Dx, Lx>>(l, rng);
    auto c = std::make_unique<self_mh<double>::cache<Lx, Lx>>();
    mat<double, Do, Lx> full;
    full.resize_cols(l);
    tf::nn::forward(*p, X, X, tf::mask_unidirectional{}, full, *c);
    for (std::size_t k : {1, 3}) {
        const auto Xv = tf::as_view(std::as_const(X));
        const tf::mat_view<const double, Dx, Lx> last{Xv.ptr + (l - k) * Xv.ld, Xv.ld, Dx::size, k};
        mat<double, Do, Lx> step;
        step.resize_cols(k);
        tf::nn::forward(*p, last, Xv, tf::mask_unidirectional{l - k}, step, *c);
        for (std::size_t t = 0; t < k; ++t)
            for (std::size_t i = 0; i < Do::size; ++i)
                EXPECT_NEAR(step(i, t), full(i, l - k + t), 1e-13) << "k=" << k << " t=" << t;
    }
}

// ---- the parameters are the paper's, in the weights file's order ----

template <class P>
std::vector<std::string> param_names() {
    std::vector<std::string> names;
    P p;
    for_each_attention_param(p, [&](const char* name, auto) { names.emplace_back(name); });
    return names;
}

TEST(Parameters, NamesAndShapesAreThePapers) {
    using S = std::vector<std::string>;
    EXPECT_EQ(param_names<cross_attention<float>>(), (S{"W_q", "b_q", "W_k", "b_k", "W_v", "b_v"}));
    EXPECT_EQ(param_names<cross_mh<float>>(),
              (S{"W_q", "b_q", "W_k", "b_k", "W_v", "b_v", "W_o", "b_o"}));
    using M = cross_mh<float>;
    static_assert(std::is_same_v<M::W_q_type, mat<float, tf::prod<Hn, Da>, Dx>>);
    static_assert(std::is_same_v<M::W_k_type, mat<float, tf::prod<Hn, Da>, Dz>>);
    static_assert(std::is_same_v<M::W_v_type, mat<float, tf::prod<Hn, Dm>, Dz>>);
    static_assert(std::is_same_v<M::W_o_type, mat<float, Do, tf::prod<Hn, Dm>>>);
    static_assert(std::is_same_v<M::b_v_type, vec<float, tf::prod<Hn, Dm>>>);
    static_assert(std::is_same_v<cross_attention<float>::W_v_type, mat<float, Do, Dz>>);
    static_assert(std::is_same_v<sqa<float>, tf::nn::Attention<float, Din, Din, Da, Do>>);
}

}  // namespace
