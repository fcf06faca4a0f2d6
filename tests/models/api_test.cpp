// The models' public surface: bad inputs rejected with the documented messages (model, grads
// untouched), parameter names as in the weights file, footprint == sizeof, the two workspace
// kinds and the convenience overloads agreeing, gradients accumulating, and SGD on
// loss_and_grad lowering the loss.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "model_cases.hpp"

namespace tf = typeformer;
using namespace typeformer::testing;

namespace {

struct cfg {
    static constexpr std::size_t N_V = 13, l_max = 9, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5, d_f = 7;
};
struct cfg_variants {
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 1, d_e = 5, d_mlp = 3, d_attn = 2,
                                 d_mid = 7, L_enc = 2, L_dec = 1;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};

using D = tf::DTransformer<double, cfg>;
using E = tf::ETransformer<double, cfg>;
using ED = tf::EDTransformer<double, cfg>;

// Runs f, which must throw std::invalid_argument with exactly `message`.
template <class F>
void expect_invalid(F&& f, const std::string& message) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected: " << message;
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
}

template <class Model>
std::vector<std::string> library_names() {
    auto m = std::make_unique<Model>();
    std::vector<std::string> names;
    tf::for_each_param(*m,
                       [&](const tf::param_name& n, const auto&) { names.emplace_back(n.view()); });
    return names;
}
template <class Model>
std::vector<std::string> file_names() {  // the tests' own walk (model_support.hpp)
    auto m = std::make_unique<Model>();
    std::vector<std::string> names;
    for_each_named([&](const std::string& n, const auto&) { names.push_back(n); }, *m);
    return names;
}

// ---- bad inputs ----

TEST(BadInput, DTransformerRejectsEmptyTooLongAndOutOfRange) {
    auto m = random_model<D>(1);
    auto g = random_model<D>(2);  // gradients that must stay as they are
    const auto m0 = std::make_unique<D>(*m);
    const auto g0 = std::make_unique<D>(*g);
    auto ws = std::make_unique<tf::training_workspace<D>>();
    const std::vector<tf::token> empty, too_long(10, 1), bad = {1, 2, 13, 4};

    EXPECT_EQ(tf::check_input<D>(empty), tf::status::empty_sequence);
    EXPECT_EQ(tf::check_input<D>(too_long), tf::status::sequence_too_long);
    EXPECT_EQ(tf::check_input<D>(bad), tf::status::token_out_of_range);
    EXPECT_EQ(tf::check_input<D>(std::vector<tf::token>(9, 12)), tf::status::ok);

    expect_invalid([&] { tf::forward(*m, too_long, *ws); },
                   "DTransformer: sequence x of length 10 exceeds l_max = 9");
    expect_invalid([&] { tf::forward(*m, bad); },
                   "DTransformer: token 13 at position 2 of sequence x is out of range "
                   "(N_V = 13, ids are 0 .. 12)");
    expect_invalid([&] { tf::logits(*m, empty, *ws); },
                   "DTransformer: sequence x is empty (a model needs at least one token)");
    expect_invalid([&] { tf::loss_and_grad(*m, too_long, *g, *ws); },
                   "DTransformer: sequence x of length 10 exceeds l_max = 9");
    expect_invalid([&] { tf::loss_and_grad(*m, bad, *g); },
                   "DTransformer: token 13 at position 2 of sequence x is out of range "
                   "(N_V = 13, ids are 0 .. 12)");

    double loss = 123;
    EXPECT_EQ(tf::try_loss_and_grad(*m, empty, *g, *ws, loss), tf::status::empty_sequence);
    EXPECT_EQ(tf::try_loss_and_grad(*m, bad, *g, *ws, loss), tf::status::token_out_of_range);
    EXPECT_EQ(tf::try_forward(*m, too_long, *ws), tf::status::sequence_too_long);
    EXPECT_EQ(tf::try_logits(*m, bad, *ws), tf::status::token_out_of_range);
    EXPECT_EQ(loss, 123);
    EXPECT_TRUE(tf::bit_equal(*m, *m0));
    EXPECT_TRUE(tf::bit_equal(*g, *g0));
}

TEST(BadInput, ETransformerChecksBothSequencesOfAlgorithm12) {
    auto m = random_model<E>(3);
    auto g = std::make_unique<E>();
    const auto g0 = std::make_unique<E>(*g);
    auto ws = std::make_unique<tf::training_workspace<E>>();
    const std::vector<tf::token> x = {1, 2, 3, 4, 5, 6}, x_tilde = {10, 2, 10, 4, 5};
    expect_invalid([&] { tf::loss_and_grad(*m, x_tilde, x, *g, *ws); },
                   "ETransformer: x_tilde has length 5 but x has length 6 (Algorithm 12 masks x "
                   "position by position)");
    const std::vector<tf::token> bad_target = {1, 2, 3, 40, 5};
    expect_invalid([&] { tf::loss_and_grad(*m, x_tilde, bad_target, *g); },
                   "ETransformer: token 40 at position 3 of sequence x is out of range "
                   "(N_V = 13, ids are 0 .. 12)");
    const std::vector<tf::token> bad_input = {1, 13};
    expect_invalid(
        [&] {
            tf::loss_and_grad(*m, bad_input, std::vector<tf::token>{1, 2}, *g);
        },
        "ETransformer: token 13 at position 1 of sequence x_tilde is out of range "
        "(N_V = 13, ids are 0 .. 12)");
    double loss = 0;
    EXPECT_EQ(tf::try_loss_and_grad(*m, x_tilde, x, *g, *ws, loss), tf::status::length_mismatch);
    EXPECT_TRUE(tf::bit_equal(*g, *g0));
    EXPECT_STREQ(tf::status_message(tf::status::length_mismatch),
                 "sequences of different lengths (x_tilde and x)");
}

TEST(BadInput, EDTransformerNamesTheSequence) {
    auto m = random_model<ED>(4);
    auto g = std::make_unique<ED>();
    const auto g0 = std::make_unique<ED>(*g);
    auto ws = std::make_unique<tf::training_workspace<ED>>();
    const std::vector<tf::token> ok = {1, 2, 3}, too_long(12, 0), empty;
    expect_invalid([&] { tf::forward(*m, too_long, ok, *ws); },
                   "EDTransformer: sequence z of length 12 exceeds l_max = 9");
    expect_invalid([&] { tf::forward(*m, ok, empty); },
                   "EDTransformer: sequence x is empty (a model needs at least one token)");
    expect_invalid([&] { tf::loss_and_grad(*m, ok, too_long, *g, *ws); },
                   "EDTransformer: sequence x of length 12 exceeds l_max = 9");
    EXPECT_EQ((tf::check_input<ED>(empty, ok)), tf::status::empty_sequence);
    EXPECT_EQ((tf::check_input<ED>(ok, ok)), tf::status::ok);
    double loss = 0;
    EXPECT_EQ(tf::try_loss_and_grad(*m, ok, too_long, *g, *ws, loss),
              tf::status::sequence_too_long);
    EXPECT_TRUE(tf::bit_equal(*g, *g0));
}

// ---- names, shapes, counts ----

TEST(ParameterNames, AreTheWeightsFileNames) {
    const auto d = file_names<D>();
    const std::vector<std::string> d_head = {"W_e",
                                             "W_p",
                                             "layers.0.ln1.gamma",
                                             "layers.0.ln1.beta",
                                             "layers.0.attn.W_q",
                                             "layers.0.attn.b_q"};
    ASSERT_GE(d.size(), d_head.size());
    EXPECT_EQ(std::vector<std::string>(d.begin(), d.begin() + 6), d_head);
    EXPECT_EQ(d.back(), "W_u");
    EXPECT_EQ(d[d.size() - 2], "ln_f.beta");
    EXPECT_EQ(d.size(), 2 + 2 * 16 + 3u);

    const auto e = file_names<E>();
    EXPECT_EQ(std::vector<std::string>(e.end() - 5, e.end()),
              (std::vector<std::string>{"W_f", "b_f", "ln_f.gamma", "ln_f.beta", "W_u"}));
    EXPECT_EQ(e[2], "layers.0.attn.W_q");  // post-norm order: attn, ln1, mlp, ln2

    const auto ed = file_names<ED>();
    EXPECT_EQ(ed[2], "encoder.layers.0.attn.W_q");
    EXPECT_NE(std::find(ed.begin(), ed.end(), "decoder.layers.1.cross_attn.W_k"), ed.end());
    EXPECT_NE(std::find(ed.begin(), ed.end(), "decoder.layers.0.ln3.beta"), ed.end());
    EXPECT_EQ(ed.back(), "W_u");

    // Variants drop tensors: no W_p (sinusoidal), no W_u (tied), no beta (RMSnorm).
    for (const auto& n : file_names<tf::DTransformer<float, cfg_variants>>()) {
        EXPECT_NE(n, "W_p");
        EXPECT_NE(n, "W_u");
        EXPECT_FALSE(n.ends_with("beta")) << n;
    }
    EXPECT_EQ((file_names<tf::EDTransformer<float, cfg_variants>>().front()), "W_e");
}

// typeformer's own walk (params.hpp) must name the tensors as the weights file does: the
// embedding, positional embedding and unembedding modules are "flattened" (W_e, not
// embedding.W_e).
TEST(ParameterNames, LibraryWalkMatchesTheWeightsFile) {
    EXPECT_EQ(library_names<D>(), file_names<D>());
    EXPECT_EQ(library_names<E>(), file_names<E>());
    EXPECT_EQ(library_names<ED>(), file_names<ED>());
    EXPECT_EQ((library_names<tf::DTransformer<float, cfg_variants>>()),
              (file_names<tf::DTransformer<float, cfg_variants>>()));
}

TEST(ParameterShapes, FollowThePaper) {
    auto e = std::make_unique<E>();
    // Algorithm 9 with the shape slip fixed: W_u is (N_V, d_f), not (N_V, d_e).
    EXPECT_EQ((tf::file_shape<decltype(e->unembedding.W_u)>.dims),
              (std::array<std::size_t, 2>{13, 7}));
    EXPECT_EQ((tf::file_shape<decltype(e->projection.W_f)>.dims),
              (std::array<std::size_t, 2>{7, 10}));
    EXPECT_EQ((tf::file_shape<decltype(e->ln_f.gamma)>.dims), (std::array<std::size_t, 1>{7}));
    auto d = std::make_unique<D>();
    EXPECT_EQ((tf::file_shape<decltype(d->layers[0].attn.W_q)>.dims),
              (std::array<std::size_t, 3>{3, 4, 10}));
    // parameter counts by hand: embeddings + L·(2 norms + attention + MLP) + ln_f + W_u
    constexpr std::size_t attn = 2 * (12 * 10 + 12) + (15 * 10 + 15) + (10 * 15 + 10);
    constexpr std::size_t mlp = 14 * 10 + 14 + 10 * 14 + 10;
    static_assert(tf::parameter_count<D> ==
                  10 * 13 + 10 * 9 + 2 * (4 * 10 + attn + mlp) + 20 + 13 * 10);
    static_assert(tf::parameter_count<E> ==
                  10 * 13 + 10 * 9 + 2 * (4 * 10 + attn + mlp) + (7 * 10 + 7) + 14 + 13 * 7);
}

// ---- footprint ----

template <class Model>
void expect_footprint() {
    constexpr tf::footprint_bytes f = tf::footprint<Model>;
    static_assert(f.parameters == sizeof(Model));
    static_assert(f.gradients == sizeof(Model));
    static_assert(f.adam_state == sizeof(tf::adam_state<Model>));
    static_assert(f.activations == sizeof(tf::training_workspace<Model>));
    static_assert(f.inference_activations == sizeof(tf::inference_workspace<Model>));
    static_assert(f.total == f.parameters + f.gradients + f.adam_state + f.activations);
    static_assert(f.inference_total == f.parameters + f.inference_activations);
    static_assert(f.inference_activations < f.activations);
    static_assert(f.adam_step_total == f.total);
    static_assert(f.sgd_step_total == f.parameters + f.gradients + f.activations);
    if constexpr (Model::name[0] == 'E' && Model::name[1] == 'T') {  // ETransformer: no decoding
        static_assert(f.kv_cache == 0 && f.decoding_total == 0);
    } else {
        static_assert(f.kv_cache == sizeof(tf::kv_cache<Model>));
        static_assert(f.decoding_total == f.parameters + f.kv_cache);
    }
    // the parameters are all a model holds, up to alignment padding (dropped variants cost 0)
    EXPECT_GE(sizeof(Model), tf::parameter_count<Model> * sizeof(typename Model::value_type));
    EXPECT_LT(sizeof(Model), tf::parameter_count<Model> * sizeof(typename Model::value_type) +
                                 tf::parameter_tensor_count<Model> * tf::tensor_alignment);
}

TEST(Footprint, EqualsSizeofOfWhatItDescribes) {
    expect_footprint<D>();
    expect_footprint<E>();
    expect_footprint<ED>();
    expect_footprint<tf::DTransformer<float, cfg_variants>>();
    expect_footprint<tf::ETransformer<float, cfg_variants>>();
    expect_footprint<tf::EDTransformer<float, cfg_variants>>();
}

// ---- workspaces and overloads ----

template <class M>
bool same_bits(M a, M b) {
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return false;
    for (std::size_t j = 0; j < a.cols(); ++j)
        for (std::size_t i = 0; i < a.rows(); ++i)
            if (std::memcmp(&a(i, j), &b(i, j), sizeof(a(i, j))) != 0)
                return false;
    return true;
}

template <class Model>
void expect_consistent_entry_points(const sequences& s) {
    using T = typename Model::value_type;
    auto m = random_model<Model>(7);
    auto tws = std::make_unique<tf::training_workspace<Model>>();
    auto iws = std::make_unique<tf::inference_workspace<Model>>();
    // P: training workspace (per-layer slots) == inference workspace (in place, attention in
    // tiles with an online softmax: other roundings) == convenience form
    const auto P_train = call_forward(*m, s, *tws);
    const auto P_infer = call_forward(*m, s, *iws);
    const double tol = std::is_same_v<T, float> ? 2e-6 : 1e-13;
    for (std::size_t t = 0; t < P_train.cols(); ++t)
        for (std::size_t i = 0; i < P_train.rows(); ++i)
            EXPECT_NEAR(P_infer(i, t), P_train(i, t), tol * (1 + std::fabs(P_train(i, t))));
    if constexpr (arch_of<Model>() == arch::ED) {
        EXPECT_TRUE(same_bits(P_infer, tf::forward(*m, s.z, s.x).view()));
    } else if constexpr (arch_of<Model>() == arch::E) {
        EXPECT_TRUE(same_bits(P_infer, tf::forward(*m, s.x_tilde).view()));
    } else {
        EXPECT_TRUE(same_bits(P_infer, tf::forward(*m, s.x).view()));
        // The convenience form owns its result: another model's call does not overwrite it.
        const auto P_m = tf::forward(*m, s.x);
        auto other = random_model<Model>(8);
        const auto P_other = tf::forward(*other, s.x);
        EXPECT_TRUE(same_bits(P_infer, P_m.view()));
        EXPECT_FALSE(same_bits(P_m.view(), P_other.view()));
    }
    // every column of P is a distribution
    for (std::size_t t = 0; t < P_infer.cols(); ++t) {
        double sum = 0;
        for (std::size_t i = 0; i < P_infer.rows(); ++i)
            sum += P_infer(i, t);
        EXPECT_NEAR(sum, 1.0, 1e-6);
    }
    // loss from either workspace == loss_and_grad's; gradients accumulate (+=)
    auto g = std::make_unique<Model>();
    const T l1 = call_loss_and_grad(*m, s, *g, *tws);
    auto g1 = std::make_unique<Model>(*g);
    const T l2 = call_loss_and_grad(*m, s, *g, *tws);
    EXPECT_EQ(l1, l2);
    EXPECT_DOUBLE_EQ(static_cast<double>(call_loss(*m, s, *iws)), static_cast<double>(l1));
    EXPECT_NEAR(static_cast<double>(call_loss(*m, s, *tws)), static_cast<double>(l1), 1e-12);
    tf::for_each_param(*g, *g1, [](const tf::param_name& n, const auto& twice, const auto& once) {
        for (std::size_t i = 0; i < tf::leaf_elements<decltype(once)>; ++i)
            EXPECT_NEAR(twice.data()[i], 2 * once.data()[i], 1e-12 * (1 + std::abs(once.data()[i])))
                << n.view();
    });
}

TEST(EntryPoints, AgreeAcrossWorkspacesAndOverloads) {
    expect_consistent_entry_points<D>(sequences::D({1, 4, 12, 0, 3}));
    expect_consistent_entry_points<E>(sequences::E({10, 4, 10, 0, 3}, {1, 4, 12, 0, 3}));
    expect_consistent_entry_points<ED>(sequences::ED({7, 7, 2}, {1, 4, 12, 0, 3, 8}));
}

// The public backward: a loss of our own (Σ logits ⊙ R) through logits() and backward().
TEST(EntryPoints, BackwardFromCustomDlogits) {
    auto m = random_model<D>(8);
    auto ws = std::make_unique<tf::training_workspace<D>>();
    const std::vector<tf::token> x = {3, 1, 4, 1, 5};
    auto R = std::make_unique<tf::mat<double, D::N_V, D::l_x>>();
    R->resize_cols(x.size());
    std::mt19937_64 rng(9);
    fill_uniform(*R, rng);
    tf::logits(*m, x, *ws);
    ws->scratch.dlogits.resize_cols(x.size());
    tf::copy(*R, ws->scratch.dlogits);
    auto g = std::make_unique<D>();
    tf::backward(*m, x, *ws, *g);
    auto eval = std::make_unique<tf::inference_workspace<D>>();
    auto f = [&] { return weighted_sum(*R, tf::logits(*m, x, *eval)); };
    std::size_t entries = 0;
    for_each_named(
        [&](const std::string& name, auto& p, const auto& gp) {  // every parameter tensor
            const fd_report r = check_gradient(p, gp, f);
            entries += r.entries;
            EXPECT_LT(r.worst, 1e-6) << name << ": " << r;
        },
        *m, *g);
    EXPECT_EQ(entries, tf::parameter_count<D>);
}

// Algorithm 13 end to end: a few SGD steps on one sequence lower its loss.
TEST(Training, SgdOnLossAndGradLowersTheLoss) {
    auto m = std::make_unique<tf::DTransformer<float, cfg>>();
    tf::init(*m, 42);
    auto g = std::make_unique<tf::DTransformer<float, cfg>>();
    auto ws = std::make_unique<tf::training_workspace<tf::DTransformer<float, cfg>>>();
    const std::vector<tf::token> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    float first = 0, last = 0;
    for (int step = 0; step < 30; ++step) {
        tf::zero(*g);
        last = tf::loss_and_grad(*m, x, *g, *ws);
        if (step == 0)
            first = last;
        tf::sgd_step(*m, *g, 0.05);
    }
    EXPECT_LT(last, 0.5f * first);
}

}  // namespace
