// The generic walk: names, order, counts, file shapes, init, zero, copy, SGD.
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/params.hpp>
#include <typeformer/train/sgd.hpp>

#include "support/oracle.hpp"
#include "test_model.hpp"
#include "test_util.hpp"

namespace {

namespace tf = typeformer;
using model_f = tiny::model<float>;
using model_d = tiny::model<double>;

std::vector<std::string> expected_names() {
    std::vector<std::string> n = {"W_e", "W_p"};
    for (int l = 0; l < 2; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        for (const char* s : {"ln1.gamma", "ln1.beta", "attn.W_q", "attn.b_q", "attn.W_k",
                              "attn.b_k", "attn.W_v", "attn.b_v", "attn.W_o", "attn.b_o",
                              "ln2.gamma", "ln2.beta", "mlp.W_1", "mlp.b_1", "mlp.W_2", "mlp.b_2"})
            n.push_back(p + s);
    }
    for (const char* s : {"ln_f.gamma", "ln_f.beta", "W_u"})
        n.push_back(s);
    return n;
}

// ---- compile-time facts ----

static_assert(tf::parameter_count<model_f> == tiny::hand_count);
static_assert(tf::parameter_count<model_f> == 259 + 2 * 597);  // 1453
static_assert(tf::parameter_tensor_count<model_f> == 37);
static_assert(tf::parameter_count<const model_f&> == tiny::hand_count);
static_assert(tf::max_param_name_length<model_f> == std::string_view("layers.0.ln1.gamma").size());

using Wq = tiny::attention<float>::w_qk;
using Wo = tiny::attention<float>::w_o;
using bq = tiny::attention<float>::b_qk;
static_assert(tf::file_shape<Wq>.rank == 3);
static_assert(tf::file_shape<Wq>.dims == std::array<std::size_t, 3>{3, 5, 7});  // [H, d_attn, d_e]
static_assert(tf::file_shape<Wo>.dims ==
              std::array<std::size_t, 2>{7, 12});  // [d_e, H·d_mid], flat
static_assert(tf::file_shape<bq>.dims == std::array<std::size_t, 2>{3, 5});  // [H, d_attn]
static_assert(tf::file_shape<tf::vec<float, tiny::DE>>.dims == std::array<std::size_t, 1>{7});
static_assert(tf::file_shape<tiny::model<float>::w_e>.dims == std::array<std::size_t, 2>{7, 11});
static_assert(tf::file_shape<Wq>.elements() == 105);
// Nested products expand fully in the row dim.
using nested =
    tf::mat<float, tf::prod<tf::prod<tf::H<2>, tf::d_attn<3>>, tf::d_mid<4>>, tf::d_e<5>>;
static_assert(tf::file_shape<nested>.dims == std::array<std::size_t, 4>{2, 3, 4, 5});
// Row-major file index ↔ column-major storage.
static_assert(tf::file_to_storage_index<Wq>(0) == 0);
static_assert(tf::file_to_storage_index<Wq>(1) == 15);  // (0, 1)
static_assert(tf::file_to_storage_index<Wq>(7) == 1);   // (1, 0)
static_assert(tf::file_to_storage_index<Wq>(7 * 6 + 3) == 6 + 3 * 15);
static_assert(tf::storage_to_file_index<Wq>(6 + 3 * 15) == 7 * 6 + 3);
static_assert(tf::param_leaf<Wq> && !tf::param_leaf<model_f> && tf::param_struct<model_f>);

TEST(Params, NamesInDeclarationOrder) {
    auto m = std::make_unique<model_f>();
    std::vector<std::string> names;
    tf::for_each_param(*m, [&](const tf::param_name& n, auto&) { names.emplace_back(n.view()); });
    EXPECT_EQ(names, expected_names());
}

TEST(Params, WalkVisitsTheMembersThemselves) {
    auto m = std::make_unique<model_f>();
    std::vector<const void*> seen;
    tf::for_each_param(*m, [&](const tf::param_name& n, auto& p) {
        seen.push_back(&p);
        if (n == "layers.1.attn.W_o") {
            EXPECT_EQ(static_cast<const void*>(&p), &m->layers[1].attn.W_o);
        }
        if (n == "ln_f.beta") {
            EXPECT_EQ(static_cast<const void*>(&p), &m->ln_f.beta);
        }
    });
    EXPECT_EQ(seen.size(), tf::parameter_tensor_count<model_f>);
    EXPECT_EQ(seen.front(), static_cast<const void*>(&m->W_e));
    EXPECT_EQ(seen.back(), static_cast<const void*>(&m->W_u));
}

TEST(Params, CountMatchesTheWalk) {
    auto m = std::make_unique<model_f>();
    std::size_t scalars = 0, tensors = 0;
    tf::for_each_param(*m, [&](const tf::param_name&, const auto& p) {
        scalars += sizeof(p.elems) / sizeof(p.elems[0]);
        ++tensors;
    });
    EXPECT_EQ(scalars, tiny::hand_count);
    EXPECT_EQ(tensors, 37u);
}

TEST(Params, LockstepWalkPairsSameNamedLeaves) {
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    std::size_t n = 0;
    tf::for_each_param(*a, std::as_const(*b),
                       [&](const tf::param_name& name, auto& x, const auto& y) {
                           const char* base_a = reinterpret_cast<const char*>(a.get());
                           const char* base_b = reinterpret_cast<const char*>(b.get());
                           EXPECT_EQ(reinterpret_cast<const char*>(&x) - base_a,
                                     reinterpret_cast<const char*>(&y) - base_b)
                               << name.view();
                           ++n;
                       });
    EXPECT_EQ(n, 37u);
    auto c = std::make_unique<model_f>();
    n = 0;
    tf::for_each_param_zip([&](const tf::param_name&, auto&, const auto&, auto&) { ++n; }, *a,
                           std::as_const(*b), *c);
    EXPECT_EQ(n, 37u);
}

// Nested per-algorithm structs whose members keep the parent's names, and a struct with
// no parameters at all (e.g. a hard-coded positional embedding).
struct embedding_params {
    static constexpr bool flatten_params = true;
    using w_e = tf::mat<float, tiny::DE, tiny::NV>;
    BOOST_HANA_DEFINE_STRUCT(embedding_params, (w_e, W_e));
};
struct no_params {
    BOOST_HANA_DEFINE_STRUCT(no_params);
};
struct composed {
    using ln = tiny::layer_norm<float>;
    BOOST_HANA_DEFINE_STRUCT(composed, (embedding_params, embedding), (no_params, positions),
                             (ln, ln_f));
};
static_assert(tf::flatten_params<embedding_params> && !tf::flatten_params<composed>);
static_assert(tf::parameter_count<composed> == 77 + 14 &&
              tf::parameter_tensor_count<composed> == 3);
static_assert(tf::max_param_name_length<composed> == std::string_view("ln_f.gamma").size());

TEST(Params, InlineNamesAndEmptyStructs) {
    auto m = std::make_unique<composed>();
    std::vector<std::string> names;
    tf::for_each_param(*m, [&](const tf::param_name& n, auto&) { names.emplace_back(n.view()); });
    EXPECT_EQ(names, (std::vector<std::string>{"W_e", "ln_f.gamma", "ln_f.beta"}));
    tf::init(*m, 1);
    EXPECT_NE(m->embedding.W_e(0, 0), 0.0f);
}

TEST(Params, ParamNameParts) {
    tf::param_name n;
    const auto a = n.push_member("layers");
    const auto b = n.push_index(12);
    n.push_member("attn");
    n.push_member("W_q");
    EXPECT_EQ(n.view(), "layers.12.attn.W_q");
    EXPECT_EQ(n.leaf(), "W_q");
    EXPECT_STREQ(n.c_str(), "layers.12.attn.W_q");
    n.pop(b);
    EXPECT_EQ(std::string_view(n), "layers");
    n.pop(a);
    EXPECT_TRUE(n.empty());
    EXPECT_EQ(tf::init_kind_of("b_q"), tf::init_kind::zeros);
    EXPECT_EQ(tf::init_kind_of("beta"), tf::init_kind::zeros);
    EXPECT_EQ(tf::init_kind_of("gamma"), tf::init_kind::ones);
    EXPECT_EQ(tf::init_kind_of("W_q"), tf::init_kind::normal);
    EXPECT_EQ(tf::init_kind_of("bias_like_W"), tf::init_kind::normal);
}

TEST(Params, InitRuleByLeafName) {
    auto m = std::make_unique<model_f>();
    tf::init(*m, 1234);
    tf::for_each_param(*m, [&](const tf::param_name& name, const auto& p) {
        const auto* d = p.data();
        const std::size_t n = sizeof(p.elems) / sizeof(p.elems[0]);
        const auto leaf = name.leaf();
        if (leaf == "gamma") {
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(d[i], 1.0f) << name.view();
        } else if (leaf == "beta" || leaf.starts_with("b_")) {
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(d[i], 0.0f) << name.view();
        } else {
            std::size_t nonzero = 0;
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_LT(std::fabs(d[i]), 0.02f * 7) << name.view();
                nonzero += d[i] != 0.0f;
            }
            EXPECT_EQ(nonzero, n) << name.view();
        }
    });
}

// W_1 of a big matrix drawn by init looks like N(0, 0.02²); the biases are 0.
// `init` is tf::init or tf::init_float.
template <class Init>
void expect_normal_init(Init init) {
    auto m = std::make_unique<tiny::big<float>>();
    init(*m, 42);
    const auto& W = m->W_1;
    const std::size_t n = sizeof(W.elems) / sizeof(float);
    double s = 0, s2 = 0, s4 = 0, within1 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = W.elems[i];
        s += x;
        s2 += x * x;
        s4 += x * x * x * x;
        within1 += std::fabs(x) < 0.02;
    }
    const double mean = s / n, var = s2 / n - mean * mean, sd = std::sqrt(var);
    // n = 98,304: the standard error of the mean is 6.4e-5, of the std 4.5e-5.
    EXPECT_LT(std::fabs(mean), 3.5e-4);
    EXPECT_NEAR(sd, 0.02, 3e-4);
    EXPECT_NEAR(s4 / n / (var * var), 3.0, 0.1);  // kurtosis of a normal
    EXPECT_NEAR(within1 / n, 0.6827, 0.008);
    for (float b : m->b_1.elems)
        EXPECT_EQ(b, 0.0f);
}

TEST(Params, InitStatisticsOnABigMatrix) {
    expect_normal_init([](auto& m, std::uint64_t seed) { tf::init(m, seed); });
}

// init_float, the float-only sampler (for devices without a double unit): the same distribution, its own
// numbers, deterministic; its logarithm agrees with std::log in double.
TEST(Params, InitFloatSampler) {
    expect_normal_init([](auto& m, std::uint64_t seed) { tf::init_float(m, seed); });
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    auto c = std::make_unique<model_f>();
    tf::init_float(*a, 7);
    tf::init_float(*b, 7);
    tf::init(*c, 7);
    EXPECT_TRUE(tf::bit_equal(*a, *b));
    EXPECT_FALSE(tf::bit_equal(*a, *c));
    for (std::uint32_t n = 1; n < (1u << 22); n += 4099)
        EXPECT_NEAR(tf::prng::detail::log_scaled_float(n, -22),
                    std::log(static_cast<double>(n) * 0x1.0p-22), 1e-6)
            << n;
}

TEST(Params, InitIsDeterministicAndSeeded) {
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    auto c = std::make_unique<model_f>();
    tf::init(*a, 7);
    tf::init(*b, 7);
    tf::init(*c, 8);
    EXPECT_TRUE(tf::bit_equal(*a, *b));
    EXPECT_FALSE(tf::bit_equal(*a, *c));
    // Layers get different draws (the stream depends on the full name).
    EXPECT_NE(
        std::memcmp(a->layers[0].attn.W_q.elems, a->layers[1].attn.W_q.elems, sizeof(Wq::elems)),
        0);
    // A tensor's values depend only on (seed, name): the double model draws the same numbers.
    auto d = std::make_unique<model_d>();
    tf::init(*d, 7);
    for (std::size_t i = 0; i < 105; ++i)
        EXPECT_EQ(a->layers[1].attn.W_k.elems[i],
                  static_cast<float>(d->layers[1].attn.W_k.elems[i]));
}

// The same bits on every platform (the PRNG is part of the contract), checked against an
// independent port of the generator run at test time (tests/io/init_ref.py: Python floats are
// IEEE doubles, math.sqrt is correctly rounded): whole tensors of two models, and the raw
// xoshiro256** stream.
TEST(Params, InitEqualsTheIndependentPythonPort) {
    namespace tt = tf::testing;
    auto m = std::make_unique<model_f>();
    tf::init(*m, 42);
    tt::bundle in;
    in["seed"] = tt::scalar_array(42);
    std::vector<std::vector<float>> ours;
    std::vector<std::string> names;
    tf::for_each_param(*m, [&](const tf::param_name& name, const auto& p) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        if (name.leaf() != "W_e" && name.leaf() != "W_k" && name.leaf() != "W_u")
            return;  // weights drawn from N(0, 0.02²); gammas and biases are constants
        const std::size_t k = names.size();
        names.emplace_back(name.view());
        tt::array chars{{name.view().size()}, {}};
        for (char c : name.view())
            chars.data.push_back(static_cast<unsigned char>(c));
        in["name" + std::to_string(k)] = chars;
        in["count" + std::to_string(k)] = tt::scalar_array(double(tf::leaf_elements<Leaf>));
        std::vector<float> v(tf::leaf_elements<Leaf>);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = p.data()[tf::file_to_storage_index<Leaf>(i)];
        ours.push_back(std::move(v));
    });
    ASSERT_GE(names.size(), 3u);
    in["n_tensors"] = tt::scalar_array(double(names.size()));
    const tt::bundle out = tt::run_python("io/init_ref.py", in);
    for (std::size_t k = 0; k < names.size(); ++k) {
        const auto& ref = out.at("values" + std::to_string(k)).data;
        ASSERT_EQ(ref.size(), ours[k].size()) << names[k];
        for (std::size_t i = 0; i < ref.size(); ++i)
            ASSERT_EQ(std::bit_cast<std::uint32_t>(ours[k][i]),
                      std::bit_cast<std::uint32_t>(static_cast<float>(ref[i])))
                << names[k] << " element " << i << ": " << ours[k][i] << " vs " << ref[i];
    }
    tf::prng::xoshiro256ss g(0);
    const auto& raw = out.at("raw").data;
    ASSERT_EQ(raw.size(), 8u);
    for (std::size_t i = 0; i < 4; ++i) {
        const std::uint64_t r = g();
        EXPECT_EQ(double(r >> 32), raw[i]) << i;
        EXPECT_EQ(double(r & 0xFFFFFFFFu), raw[4 + i]) << i;
    }
}

TEST(Params, ZeroAndCopyAndDiff) {
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    tf::init(*a, 3);
    tf::copy_params(*a, *b);
    EXPECT_TRUE(tf::bit_equal(*a, *b));
    EXPECT_EQ(tf::max_abs_diff(*a, *b), 0.0);
    b->layers[1].mlp.W_2(6, 8) += 0.5f;
    EXPECT_NEAR(tf::max_abs_diff(*a, *b), 0.5, 1e-6);
    EXPECT_FALSE(tf::bit_equal(*a, *b));
    tf::zero(*b);
    tf::for_each_param(*b, [](const tf::param_name&, const auto& p) {
        for (float x : p.elems)
            ASSERT_EQ(x, 0.0f);
    });
    tf::zero(a->W_u);  // a single leaf
    for (float x : a->W_u.elems)
        EXPECT_EQ(x, 0.0f);
    EXPECT_NE(a->W_e(0, 0), 0.0f);
}

TEST(Sgd, MatchesANaiveLoop) {
    auto theta = std::make_unique<model_f>();
    auto grads = std::make_unique<model_f>();
    auto expect = std::make_unique<model_f>();
    tf::init(*theta, 11);
    testutil::fill_normal(*grads, 12);
    tf::copy_params(*theta, *expect);
    const float eta = 0.125f;
    // Naive: element by element through M(i, j) / v[i], one member at a time.
    auto naive = [&](auto& p, const auto& g) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        if constexpr (tf::matrix<Leaf>) {
            for (std::size_t i = 0; i < Leaf::rows_dim::size; ++i)
                for (std::size_t j = 0; j < Leaf::cols_dim::size; ++j)
                    p(i, j) = p(i, j) - eta * g(i, j);
        } else {
            for (std::size_t i = 0; i < Leaf::dim_type::size; ++i)
                p[i] = p[i] - eta * g[i];
        }
    };
    naive(expect->W_e, grads->W_e);
    naive(expect->W_p, grads->W_p);
    for (std::size_t l = 0; l < 2; ++l) {
        auto& e = expect->layers[l];
        const auto& g = grads->layers[l];
        naive(e.ln1.gamma, g.ln1.gamma), naive(e.ln1.beta, g.ln1.beta);
        naive(e.attn.W_q, g.attn.W_q), naive(e.attn.b_q, g.attn.b_q);
        naive(e.attn.W_k, g.attn.W_k), naive(e.attn.b_k, g.attn.b_k);
        naive(e.attn.W_v, g.attn.W_v), naive(e.attn.b_v, g.attn.b_v);
        naive(e.attn.W_o, g.attn.W_o), naive(e.attn.b_o, g.attn.b_o);
        naive(e.ln2.gamma, g.ln2.gamma), naive(e.ln2.beta, g.ln2.beta);
        naive(e.mlp.W_1, g.mlp.W_1), naive(e.mlp.b_1, g.mlp.b_1);
        naive(e.mlp.W_2, g.mlp.W_2), naive(e.mlp.b_2, g.mlp.b_2);
    }
    naive(expect->ln_f.gamma, grads->ln_f.gamma), naive(expect->ln_f.beta, grads->ln_f.beta);
    naive(expect->W_u, grads->W_u);

    tf::sgd_step(*theta, *grads, eta);
    // Equal up to FMA contraction (one rounding of θ − ηg).
    tf::for_each_param(*theta, *expect, [](const tf::param_name& n, const auto& x, const auto& y) {
        for (std::size_t i = 0; i < sizeof(x.elems) / sizeof(float); ++i)
            ASSERT_NEAR(x.elems[i], y.elems[i], 4e-7f * (1 + std::fabs(y.elems[i])))
                << n.view() << "[" << i << "]";
    });
    // And a double model with eta as double.
    auto td = std::make_unique<model_d>();
    auto gd = std::make_unique<model_d>();
    tf::init(*td, 1);
    testutil::fill_normal(*gd, 2);
    const double before = td->W_u(3, 4), g34 = gd->W_u(3, 4);
    tf::sgd_step(*td, *gd, 0.01);
    EXPECT_NEAR(td->W_u(3, 4), before - 0.01 * g34, 1e-16);
}

}  // namespace
