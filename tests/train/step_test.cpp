// train/step.hpp and train/trainable.hpp: a DTransformer's training step with a trainable subset,
// in-place SGD and recomputed activations.
//   - every mode's gradient of the trainable part against PyTorch autograd with requires_grad
//     only on it (torch_partial.py), per entry, double;
//   - train_all through the step workspace against today's loss_and_grad (+ sgd_step), per entry,
//     for the accumulated gradient and for SGD applied in place, double and float;
//   - keep_activations and recompute_activations give the same bits;
//   - sizeof: gradient and optimiser buffers exist only for the trainable part, and the two
//     microcontroller fits of docs/training.md (an SGD step of DESIGN's tiny GPT in 64 KB beside θ;
//     fine-tuning a 235k-parameter GPT in 128 KB with its weights in flash), and every row of
//     docs/training.md's footprint table against step_footprint;
//   - bad input changes nothing; merged adapters give the adapted model's loss.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/typeformer.hpp>

#include "models/model_support.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

// Every dimension distinct; d_mlp = 40 runs three MLP tiles (16 + 16 + 8), l_max = 9 three logit
// tiles and two query tiles (8 + 1).
struct cfg_a {
    static constexpr std::size_t N_V = 13, l_max = 9, L = 3, H = 3, d_e = 10, d_mlp = 40,
                                 d_attn = 4, d_mid = 5;
};
// Every variant: tied W_u = W_eᵀ, RMSnorm, sinusoidal W_p, tanh GELU, ε = 0.
struct cfg_b {
    static constexpr std::size_t N_V = 11, l_max = 7, L = 2, H = 2, d_e = 6, d_mlp = 9, d_attn = 3,
                                 d_mid = 2;
    static constexpr bool tied = true;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 0.0;
};
// DESIGN.md's tiny GPT, the firmware's model.
struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
// A GPT of 234,880 parameters for a 192 KB part's fine-tuning (docs/training.md).
struct gpt235k {
    static constexpr std::size_t N_V = 256, l_max = 32, L = 4, H = 4, d_e = 64, d_mlp = 256,
                                 d_attn = 16, d_mid = 16;
};

using A = tf::DTransformer<double, cfg_a>;
using B = tf::DTransformer<double, cfg_b>;

// ---- sizes: buffers only for what trains ----

using tiny_gpt = tf::DTransformer<float, tiny>;
using big_gpt = tf::DTransformer<float, gpt235k>;
static_assert(tf::parameter_count<tiny_gpt> == 30592);
static_assert(tf::parameter_count<big_gpt> == 234880);
// gains and biases: 2 layers × (γ, β twice, b_q, b_k, b_v, b_o, b_1, b_2) + ln_f
static_assert(tf::parameter_count<tf::trainable<tiny_gpt, tf::train_gains_biases>> ==
              2 * (4 * 32 + 3 * 32 + 32 + 128 + 32) + 64);
// LoRA r = 4 on W_q, W_v: A (4, 32), B (32, 4) each, per layer
static_assert(sizeof(tf::trainable<tiny_gpt, tf::train_lora<4>>) == 2 * 2 * 2 * 4 * 32 * 4);
// the last layer: its parameters, ln_f, W_u
static_assert(tf::parameter_count<tf::trainable<tiny_gpt, tf::train_last<1>>> ==
              tf::parameter_count<tiny_gpt::layer_type> + 64 + 64 * 32);
// Adam's moments have the trainable part's type
static_assert(sizeof(tf::adam_state<tf::trainable<big_gpt, tf::train_lora<4>>>) ==
              2 * sizeof(tf::trainable<big_gpt, tf::train_lora<4>>) + 64);  // + t, aligned

// (a) an in-place SGD step of tiny: everything but θ in the STM32F405's 64 KB CCM
// (a stack of 4 KB: the F405 programs check their measured high-water mark below it in each run)
constexpr std::size_t stack = 4 * 1024;
constexpr std::size_t tiny_step = sizeof(tf::step_workspace<tiny_gpt>);
static_assert(tiny_step + stack <= 64 * 1024, "an SGD step of tiny beside θ fits the 64 KB CCM");
static_assert(sizeof(tiny_gpt) + tiny_step + stack <= 192 * 1024);
// (b) fine-tuning the 235k GPT in place with its weights in flash: adapters or gains and biases,
// and the step, in 128 KB of SRAM with room for a stack
using big_lora = tf::trainable<big_gpt, tf::train_lora<4>>;
using big_gains = tf::trainable<big_gpt, tf::train_gains_biases>;
static_assert(sizeof(big_lora) + sizeof(tf::step_workspace<big_gpt, tf::train_lora<4>>) + stack <=
              128 * 1024);
static_assert(sizeof(big_gains) + sizeof(tf::step_workspace<big_gpt, tf::train_gains_biases>) +
                  stack <=
              128 * 1024);
static_assert(tf::step_footprint<big_gpt, tf::train_lora<4>>.sgd_in_place ==
                  sizeof(big_lora) + sizeof(tf::step_workspace<big_gpt, tf::train_lora<4>>) &&
              tf::step_footprint<big_gpt, tf::train_lora<4>>.flash == sizeof(big_gpt));

// ---- docs/training.md's footprint table is this code's ----

// n with thousands separators, as the table writes bytes
std::string grouped(std::size_t n) {
    std::string d = std::to_string(n), out;
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i > 0 && (d.size() - i) % 3 == 0)
            out += ',';
        out += d[i];
    }
    return out;
}
// One row: its label columns (model, S, Memory), then step_footprint's bytes; `bold` marks the
// in-place column the text quotes. A frozen base's bytes are in flash ("—" under train_all).
template <class Model, class S, class Mem>
std::string footprint_row(const std::string& labels, bool bold = false) {
    constexpr auto f = tf::step_footprint<Model, S, Mem>;
    const std::string sgd = bold ? "**" + grouped(f.sgd_in_place) + "**" : grouped(f.sgd_in_place);
    return "| " + labels + " | " + grouped(f.trainable) + " | " + grouped(f.workspace) + " | " +
           sgd + " | " + grouped(f.gradients + f.adam_state) + " | " + grouped(f.adam) + " | " +
           (f.flash == 0 ? std::string("—") : grouped(f.flash)) + " |";
}

TEST(StepFootprint, DocsTableIsTheCodes) {
    using rc = tf::recompute_activations;
    using kp = tf::keep_activations;
    using gb = tf::train_gains_biases;
    using lora4 = tf::train_lora<4>;
    using lora4_all =
        tf::train_lora<4, tf::lora_target::W_q | tf::lora_target::W_k | tf::lora_target::W_v |
                              tf::lora_target::W_o | tf::lora_target::W_1 | tf::lora_target::W_2>;
    // today's plain step: θ, ∇, Adam's m and v, the training workspace
    constexpr std::size_t theta = sizeof(tiny_gpt), tws = sizeof(tf::training_workspace<tiny_gpt>),
                          adam = sizeof(tf::adam_state<tiny_gpt>);
    const std::vector<std::string> rows = {
        footprint_row<tiny_gpt, tf::train_all, rc>("tiny (30,592 params) | `train_all` | recompute",
                                                   true),
        footprint_row<tiny_gpt, tf::train_all, kp>("tiny | `train_all` | keep"),
        footprint_row<tiny_gpt, gb, rc>("tiny | `train_gains_biases` | recompute"),
        footprint_row<tiny_gpt, gb, kp>("tiny | `train_gains_biases` | keep"),
        footprint_row<tiny_gpt, tf::train_last<1>, rc>("tiny | `train_last<1>` | recompute"),
        footprint_row<tiny_gpt, lora4, rc>("tiny | `train_lora<4>` (W_q, W_v) | recompute"),
        footprint_row<tiny_gpt, lora4, kp>("tiny | `train_lora<4>` (W_q, W_v) | keep"),
        "| tiny, today (`training_state`) | all | — | " + grouped(theta) + " | " + grouped(tws) +
            " | (SGD: " + grouped(2 * theta + tws) + ") | " + grouped(theta + adam) + " | " +
            grouped(2 * theta + adam + tws) + " | — |",
        footprint_row<big_gpt, tf::train_all, rc>(
            "235k (234,880 params) | `train_all` | recompute"),
        footprint_row<big_gpt, tf::train_all, kp>("235k | `train_all` | keep"),
        footprint_row<big_gpt, gb, rc>("235k | `train_gains_biases` | recompute", true),
        footprint_row<big_gpt, gb, kp>("235k | `train_gains_biases` | keep"),
        footprint_row<big_gpt, tf::train_last<1>, rc>("235k | `train_last<1>` | recompute"),
        footprint_row<big_gpt, lora4, rc>("235k | `train_lora<4>` (W_q, W_v) | recompute", true),
        footprint_row<big_gpt, lora4, kp>("235k | `train_lora<4>` (W_q, W_v) | keep"),
        footprint_row<big_gpt, lora4_all, rc>(
            "235k | `train_lora<4, all six>` (W_q, W_k, W_v, W_o, W_1, W_2) | recompute"),
    };
    std::ifstream in(std::string(TYPEFORMER_TESTS_DIR) + "/../docs/training.md");
    ASSERT_TRUE(in) << "docs/training.md not found";
    std::vector<std::string> table;  // the table's body, in order
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("| tiny") || line.starts_with("| 235k"))
            table.push_back(line);
    EXPECT_EQ(table, rows);
}

// ---- against PyTorch, with requires_grad only on the trainable part ----

// Per entry, as torch.allclose: |a − b| ≤ atol + rtol·|b|, atol from the tensor's scale.
void expect_close(const std::string& what, const array& mine, const array& ref, double tol,
                  double floor_scale) {
    const double scale = std::max(max_abs(ref.data), floor_scale);
    EXPECT_LE(allclose_ratio(mine.data, ref.data, tol, atol_for(tol, scale)), 1) << what;
}

template <class Model, class S>
void write_partial_case(bundle& in, const std::string& pre, const Model& base,
                        const tf::trainable<Model, S>& tr, const std::vector<tf::token>& x) {
    auto full = std::make_unique<Model>(base);
    if constexpr (!tf::is_lora<S>)
        tf::apply_trainable(tr, *full);  // the model whose part tr is
    write_case(in, pre, *full, sequences::D(x));
    if constexpr (std::is_same_v<S, tf::train_all>)
        in[pre + "mode"] = scalar_array(0);
    else if constexpr (std::is_same_v<S, tf::train_gains_biases>)
        in[pre + "mode"] = scalar_array(1);
    else if constexpr (tf::is_lora<S>)
        in[pre + "mode"] = scalar_array(3);
    else
        in[pre + "mode"] = scalar_array(2);
    if constexpr (requires { S::k; })
        in[pre + "k"] = scalar_array(static_cast<double>(S::k));
    if constexpr (tf::is_lora<S>) {
        in[pre + "lora_scale"] = scalar_array(static_cast<double>(S::alpha) / S::rank);
        tf::for_each_param(tr, [&](const tf::param_name& n, const auto& p) {
            in[pre + "lora." + std::string(n.view())] = to_array(p);
        });
    }
}

// The step's forms for (base, tr); train_all's take θ alone.
template <class Model, class Tr, class WS>
auto grad_of(const Model& base, const Tr& tr, const std::vector<tf::token>& x, Tr& g, WS& ws) {
    if constexpr (std::is_same_v<Tr, Model>)
        return tf::loss_and_grad(tr, x, g, ws);
    else
        return tf::loss_and_grad(base, tr, x, g, ws);
}
template <class Model, class Tr, class WS>
auto sgd_of(const Model& base, Tr& tr, const std::vector<tf::token>& x, double eta, WS& ws) {
    if constexpr (std::is_same_v<Tr, Model>)
        return tf::sgd_step_in_place(tr, x, eta, ws);
    else
        return tf::sgd_step_in_place(base, tr, x, eta, ws);
}

// A partial mode of Model: its base, trainable part and sequences, from a seed.
template <class Model, class S>
struct partial_case {
    using Tr = tf::trainable<Model, S>;
    std::unique_ptr<Model> base;
    std::unique_ptr<Tr> tr = std::make_unique<Tr>();
    std::vector<std::vector<tf::token>> xs;

    explicit partial_case(std::uint64_t seed) : base(random_model<Model>(seed)) {
        if constexpr (tf::is_lora<S>)
            randomize(*tr, seed + 1, 0.3);  // B ≠ 0, so every term of the adapted model is tested
        else
            tf::trainable_from(*base, *tr);
        constexpr std::size_t l_max = Model::l_max::size, NV = Model::N_V::size;
        xs = {random_tokens(l_max, NV, seed + 10), random_tokens((l_max + 1) / 2, NV, seed + 11),
              random_tokens(1, NV, seed + 12)};
    }
};

// Every case of the comparisons below goes to PyTorch in one Python call (torch starts in ~2 s):
// partial_cases() lists them; a case's sequences are c<first>, c<first + 1>, c<first + 2>.
using lora_q_v = tf::train_lora<2>;
using lora_all4 = tf::train_lora<
    3, tf::lora_target::W_q | tf::lora_target::W_k | tf::lora_target::W_v | tf::lora_target::W_o,
    6>;
// the MLP's W_1, W_2 (three tiles of A's d_mlp 40) beside W_v; on B every matrix of a layer
using lora_mlp =
    tf::train_lora<2, tf::lora_target::W_1 | tf::lora_target::W_2 | tf::lora_target::W_v, 3>;
using lora_all6 =
    tf::train_lora<2,
                   tf::lora_target::W_q | tf::lora_target::W_k | tf::lora_target::W_v |
                       tf::lora_target::W_o | tf::lora_target::W_1 | tf::lora_target::W_2,
                   4>;
struct case_index {
    std::map<std::string, std::pair<std::uint64_t, std::size_t>> at;  // name → seed, first
    bundle in;
};
template <class Model, class S>
void add_case(case_index& ix, const std::string& name, std::uint64_t seed) {
    const partial_case<Model, S> c(seed);
    const std::size_t first = ix.at.size() * 3;
    ix.at[name] = {seed, first};
    for (std::size_t k = 0; k < c.xs.size(); ++k)
        write_partial_case<Model, S>(ix.in, "c" + std::to_string(first + k) + ".", *c.base, *c.tr,
                                     c.xs[k]);
}
const case_index& partial_cases() {
    static const case_index ix = [] {
        case_index x;
        add_case<A, tf::train_gains_biases>(x, "gains_a", 1);
        add_case<B, tf::train_gains_biases>(x, "gains_b", 2);
        add_case<A, tf::train_last<1>>(x, "last1_a", 3);
        add_case<A, tf::train_last<3>>(x, "last3_a", 4);
        add_case<B, tf::train_last<1>>(x, "last1_b", 5);
        add_case<A, lora_q_v>(x, "lora_a", 6);
        add_case<A, lora_all4>(x, "lora4_a", 7);
        add_case<B, lora_all4>(x, "lora4_b", 8);
        add_case<A, lora_mlp>(x, "lora_mlp_a", 10);
        add_case<B, lora_all6>(x, "lora6_b", 11);
        add_case<B, tf::train_all>(x, "all_b", 9);
        x.in["ncases"] = scalar_array(static_cast<double>(x.at.size() * 3));
        return x;
    }();
    return ix;
}
const bundle& partial_answers() {
    static const bundle out = run_python("train/torch_partial.py", partial_cases().in);
    return out;
}

// Model under S, the case `name`: its gradient (step workspace, both memory modes) and its
// in-place SGD step against PyTorch's.
template <class Model, class S>
void check_partial(const std::string& name) {
    using Tr = tf::trainable<Model, S>;
    const auto [seed, first] = partial_cases().at.at(name);
    const partial_case<Model, S> c(seed);
    const auto& base = c.base;
    const auto& tr = c.tr;
    const auto& xs = c.xs;
    const bundle& out = partial_answers();

    auto ws = std::make_unique<tf::step_workspace<Model, S>>();
    auto ws_keep = std::make_unique<tf::step_workspace<Model, S, tf::keep_activations>>();
    for (std::size_t k = 0; k < xs.size(); ++k) {
        const std::string pre = "c" + std::to_string(first + k) + ".";
        SCOPED_TRACE(name + " " + pre);
        auto g = std::make_unique<Tr>();
        const double loss = grad_of(*base, *tr, xs[k], *g, *ws);
        EXPECT_NEAR(loss, out.at(pre + "loss").data.at(0), 1e-10 * (1 + std::fabs(loss)));
        // the gradient of every trainable tensor, and PyTorch has no other
        std::size_t n = 0, theirs = 0;
        double model_scale = 0;
        for (const auto& [key, value] : out)
            if (key.starts_with(pre + "grad.")) {
                ++theirs;
                model_scale = std::max(model_scale, max_abs(value.data));
            }
        tf::for_each_param(*g, [&](const tf::param_name& leaf_name, const auto& leaf) {
            const auto it = out.find(pre + "grad." + std::string(leaf_name.view()));
            ASSERT_NE(it, out.end()) << leaf_name.view();
            expect_close(std::string(leaf_name.view()), to_array(leaf), it->second, 1e-9,
                         1e-2 * model_scale);
            ++n;
        });
        EXPECT_EQ(n, tf::parameter_tensor_count<Tr>);
        EXPECT_EQ(theirs, n);
        // keep_activations: the same bits
        auto g_keep = std::make_unique<Tr>();
        EXPECT_EQ(grad_of(*base, *tr, xs[k], *g_keep, *ws_keep), loss);
        EXPECT_TRUE(tf::bit_equal(*g, *g_keep));
        // in place: tr − η·∇ (PyTorch's gradient), the loss at tr before the step
        constexpr double eta = 0.05;
        auto stepped = std::make_unique<Tr>(*tr);
        EXPECT_EQ(sgd_of(*base, *stepped, xs[k], eta, *ws), loss);
        tf::for_each_param(
            *tr, *stepped, [&](const tf::param_name& leaf_name, const auto& p, const auto& q) {
                array expected = to_array(p);
                const array& grad = out.at(pre + "grad." + std::string(leaf_name.view()));
                for (std::size_t i = 0; i < expected.data.size(); ++i)
                    expected.data[i] -= eta * grad.data[i];
                expect_close(std::string(leaf_name.view()) + " after the step", to_array(q),
                             expected, 1e-9, 1e-2);
            });
    }
}

// One test, so one process and one Python call (ctest runs each test in its own process).
TEST(StepPartial, EveryModeEqualsPyTorch) {
    check_partial<A, tf::train_gains_biases>("gains_a");
    check_partial<B, tf::train_gains_biases>("gains_b");
    check_partial<A, tf::train_last<1>>("last1_a");
    check_partial<A, tf::train_last<3>>("last3_a");
    check_partial<B, tf::train_last<1>>("last1_b");  // tied: W_e stays frozen
    check_partial<A, lora_q_v>("lora_a");
    check_partial<A, lora_all4>("lora4_a");
    check_partial<B, lora_all4>("lora4_b");
    check_partial<A, lora_mlp>("lora_mlp_a");
    check_partial<B, lora_all6>("lora6_b");
    check_partial<B, tf::train_all>("all_b");
}

// ---- train_all through the step workspace against today's loss_and_grad and sgd_step ----

template <class Model, class Mem>
void check_against_todays_step(std::uint64_t seed, double tol) {
    using T = typename Model::value_type;
    constexpr std::size_t l_max = Model::l_max::size, NV = Model::N_V::size;
    const auto theta = random_model<Model>(seed, 0.3);
    auto ws = std::make_unique<tf::training_workspace<Model>>();
    auto sws = std::make_unique<tf::step_workspace<Model, tf::train_all, Mem>>();
    for (const std::size_t l : {l_max, std::size_t{2}, std::size_t{1}}) {
        SCOPED_TRACE(l);
        const auto x = random_tokens(l, NV, seed + l);
        auto g = std::make_unique<Model>(), g_step = std::make_unique<Model>();
        const T loss = tf::loss_and_grad(*theta, x, *g, *ws);
        const T loss_step = tf::loss_and_grad(*theta, x, *g_step, *sws);
        EXPECT_NEAR(loss_step, loss, tol * (1 + std::fabs(loss)));
        double scale = 0;
        for_each_named([&](const std::string&,
                           const auto& r) { scale = std::max(scale, max_abs(to_array(r).data)); },
                       *g);
        for_each_named(
            [&](const std::string& name, const auto& mine, const auto& ref) {
                expect_close(name, to_array(mine), to_array(ref), tol, 1e-2 * scale);
            },
            *g_step, *g);
        // SGD in place = θ − η·∇ of today's step
        const T eta = T(0.1);
        auto expected = std::make_unique<Model>(*theta);
        tf::sgd_step(*expected, *g, eta);
        auto stepped = std::make_unique<Model>(*theta);
        EXPECT_NEAR(tf::sgd_step_in_place(*stepped, x, eta, *sws), loss,
                    tol * (1 + std::fabs(loss)));
        for_each_named(
            [&](const std::string& name, const auto& mine, const auto& ref) {
                expect_close(name + " after the step", to_array(mine), to_array(ref), tol, 1e-2);
            },
            *stepped, *expected);
    }
}

TEST(StepAll, EqualsTodaysLossAndGradAndSgdStep) {
    check_against_todays_step<A, tf::recompute_activations>(20, 1e-11);
    check_against_todays_step<A, tf::keep_activations>(21, 1e-11);
    check_against_todays_step<B, tf::recompute_activations>(22, 1e-11);
    check_against_todays_step<tiny_gpt, tf::recompute_activations>(23, 2e-4);
}

// The two memory modes run the same arithmetic: the same bits, in place too.
TEST(StepAll, KeepAndRecomputeGiveTheSameBits) {
    const auto x = random_tokens(cfg_a::l_max, cfg_a::N_V, 30);
    auto m1 = random_model<A>(31, 0.3);
    auto m2 = std::make_unique<A>(*m1);
    auto w1 = std::make_unique<tf::step_workspace<A>>();
    auto w2 = std::make_unique<tf::step_workspace<A, tf::train_all, tf::keep_activations>>();
    for (int s = 0; s < 3; ++s)
        EXPECT_EQ(tf::sgd_step_in_place(*m1, x, 0.05, *w1),
                  tf::sgd_step_in_place(*m2, x, 0.05, *w2));
    EXPECT_TRUE(tf::bit_equal(*m1, *m2));
}

// ---- set-up, merging, bad input ----

TEST(StepPartial, MergedAdaptersGiveTheAdaptedModelsLoss) {
    using S = tf::train_lora<2, tf::lora_target::W_q | tf::lora_target::W_v | tf::lora_target::W_o |
                                    tf::lora_target::W_1 | tf::lora_target::W_2>;
    const auto base = random_model<A>(40, 0.3);
    auto ad = std::make_unique<tf::trainable<A, S>>();
    randomize(*ad, 41, 0.3);
    const auto x = random_tokens(cfg_a::l_max, cfg_a::N_V, 42);
    auto ws = std::make_unique<tf::step_workspace<A, S>>();
    const double adapted = tf::loss(*base, *ad, x, *ws);
    auto merged = std::make_unique<A>(*base);
    tf::apply_trainable(*ad, *merged);
    auto iws = std::make_unique<tf::inference_workspace<A>>();
    EXPECT_NEAR(tf::loss(*merged, x, *iws), adapted, 1e-10 * adapted);
    // init_lora: B = 0, so the adapted model starts as the base
    tf::init_lora(*ad, 43);
    EXPECT_NEAR(tf::loss(*base, *ad, x, *ws), tf::loss(*base, x, *iws), 1e-12);
}

TEST(StepPartial, GainsStartFromTheBaseAndMergeBack) {
    const auto base = random_model<A>(50, 0.3);
    auto g = std::make_unique<tf::trainable<A, tf::train_gains_biases>>();
    tf::trainable_from(*base, *g);
    EXPECT_EQ(g->layers[1].mlp.b_1[3], base->layers[1].mlp.b_1[3]);
    EXPECT_EQ(g->ln_f.gamma[2], base->ln_f.gamma[2]);
    g->layers[2].attn.b_v[1] = 7.0;
    auto m = std::make_unique<A>(*base);
    tf::apply_trainable(*g, *m);
    EXPECT_EQ(m->layers[2].attn.b_v[1], 7.0);
    auto last = std::make_unique<tf::trainable<A, tf::train_last<2>>>();
    tf::trainable_from(*base, *last);
    EXPECT_TRUE(tf::bit_equal(last->layers[0], base->layers[1]));
    std::vector<std::string> names;
    tf::for_each_param(*last,
                       [&](const tf::param_name& n, const auto&) { names.emplace_back(n.view()); });
    EXPECT_EQ(names.front(), "layers.1.ln1.gamma");  // named as in the model
    EXPECT_EQ(names.back(), "W_u");
}

TEST(Step, BadInputChangesNothing) {
    const auto base = random_model<A>(60, 0.3);
    auto theta = std::make_unique<A>(*base);
    auto tr = std::make_unique<tf::trainable<A, tf::train_gains_biases>>();
    tf::trainable_from(*base, *tr);
    const auto tr0 = std::make_unique<tf::trainable<A, tf::train_gains_biases>>(*tr);
    auto ws = std::make_unique<tf::step_workspace<A>>();
    auto wsg = std::make_unique<tf::step_workspace<A, tf::train_gains_biases>>();
    double loss = -1;
    const std::vector<tf::token> ok = {1, 2, 3}, empty = {}, bad_id = {1, 13},
                                 too_long(cfg_a::l_max + 1, 1);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, empty, 0.1, *ws, loss), tf::status::empty_sequence);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, bad_id, 0.1, *ws, loss),
              tf::status::token_out_of_range);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, too_long, 0.1, *ws, loss),
              tf::status::sequence_too_long);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, ok, 0.0, *ws, loss),
              tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, ok, std::nan(""), *ws, loss),
              tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::try_sgd_step_in_place(*base, *tr, bad_id, 0.1, *wsg, loss),
              tf::status::token_out_of_range);
    EXPECT_EQ(tf::try_sgd_step_in_place(*base, *tr, ok, -1.0, *wsg, loss),
              tf::status::invalid_learning_rate);
    EXPECT_EQ(loss, -1);
    EXPECT_TRUE(tf::bit_equal(*theta, *base));
    EXPECT_TRUE(tf::bit_equal(*tr, *tr0));
    EXPECT_THROW(tf::sgd_step_in_place(*theta, bad_id, 0.1, *ws), std::invalid_argument);
    EXPECT_EQ(tf::try_sgd_step_in_place(*theta, ok, 0.1, *ws, loss), tf::status::ok);
    EXPECT_GT(loss, 0);
}

}  // namespace
