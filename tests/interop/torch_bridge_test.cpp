// tools/typeformer_torch.py: typeformer → PyTorch → typeformer is bit-exact for all three
// architectures (with variants), the torch.nn.Module's forward equals typeformer's, and a
// DTransformer exported to nanoGPT's ckpt.pt and Hugging Face's model.safetensors + config.json
// loads into reference implementations of those models (gpt_ref.py, written from their published
// definitions: train.py's resume path with its optimizer state, GPT2LMHeadModel's loading) with
// the same logits, and comes back.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/checkpoint.hpp>
#include <typeformer/io/import.hpp>
#include <typeformer/io/safetensors.hpp>
#include <typeformer/typeformer.hpp>

#include "interop.hpp"

namespace tf = typeformer;
namespace tio = typeformer::io;
using interop::scratch;

namespace {

struct d_cfg {  // tied, tanh GELU, another ε, d_attn ≠ d_mid
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 2, d_e = 12, d_mlp = 24,
                                 d_attn = 5, d_mid = 4;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-6;
};
struct e_cfg {  // RMSnorm, sinusoidal positions, d_f ≠ d_e
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 3, d_e = 12, d_mlp = 16,
                                 d_attn = 4, d_mid = 4, d_f = 10;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};
struct ed_cfg {  // the paper's Algorithm 8, L_enc ≠ L_dec
    static constexpr std::size_t N_V = 20, l_max = 8, L_enc = 2, L_dec = 1, H = 2, d_e = 12,
                                 d_mlp = 16, d_attn = 6, d_mid = 6;
};

const std::vector<tf::token> x = {1, 5, 19, 0, 7, 7, 3};
const std::vector<tf::token> z = {4, 2, 11, 9, 16};

std::string csv(const std::vector<tf::token>& t) {
    std::string s;
    for (auto v : t)
        s += (s.empty() ? "" : ",") + std::to_string(v);
    return s;
}

template <class Model>
std::unique_ptr<Model> bridge_model() {
    auto m = std::make_unique<Model>();
    interop::randomise(*m);
    return m;
}

// typeformer → tt.load → tt.save → back; the module's logits (torch_bridge_ref.py).
template <class Model>
void round_trip_jobs(interop::python_jobs& jobs, const std::string& tag) {
    const std::string in = scratch("bridge_" + tag + ".safetensors");
    tf::save(*bridge_model<Model>(), in);
    jobs("torch_bridge_ref " + in + " " + scratch("bridge_" + tag + "_back.safetensors") + " " +
         scratch("bridge_" + tag + ".tfx") + " " + csv(x) +
         (Model::sequences == 2 ? " " + csv(z) : ""));
}

template <class Model>
void round_trip(const std::string& tag) {
    interop::use_python_setup();
    const auto m = bridge_model<Model>();
    const std::string back = scratch("bridge_" + tag + "_back.safetensors");
    auto again = std::make_unique<Model>();
    tf::zero(*again);
    tf::load(*again, back);  // with the bridge's signature, checked against this type
    EXPECT_TRUE(tf::bit_equal(*m, *again)) << tag << ": the round trip changed a parameter";
    tio::signature sig;
    ASSERT_TRUE(tio::try_read_signature(back, sig));
    EXPECT_EQ(tio::first_difference(sig, tio::signature_of<Model>()), "") << tio::describe(sig);

    const auto ref = tf::testing::read_bundle(scratch("bridge_" + tag + ".tfx"));
    EXPECT_EQ(ref.at("arch").data.at(0), tag == "D" ? 0 : tag == "E" ? 1 : 2);
    const auto& want = ref.at("logits").data;  // [t, i]
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    constexpr std::size_t N_V = Model::traits::N_V::size;
    if constexpr (Model::sequences == 2)
        interop::expect_close(tf::logits(*m, z, x, *ws), x.size(), N_V, want, tag);
    else
        interop::expect_close(tf::logits(*m, x, *ws), x.size(), N_V, want, tag);
}

TEST(TorchBridge, DTransformerRoundTripAndForward) {
    round_trip<tf::DTransformer<float, d_cfg>>("D");
}
TEST(TorchBridge, ETransformerRoundTripAndForward) {
    round_trip<tf::ETransformer<float, e_cfg>>("E");
}
TEST(TorchBridge, EDTransformerRoundTripAndForward) {
    round_trip<tf::EDTransformer<float, ed_cfg>>("ED");
}

// GPT-2-shaped models (gpt_ref.py's sizes).
struct gpt_cfg {
    static constexpr std::size_t N_V = 50, l_max = 16, L = 2, H = 2, d_e = 16, d_mlp = 64,
                                 d_attn = 8, d_mid = 8;
    static constexpr bool tied = true;
};
struct hf_tanh_cfg : gpt_cfg {
    static constexpr auto gelu = tf::gelu_kind::tanh;
};
struct hf_untied_cfg : gpt_cfg {
    static constexpr bool tied = false;
    static constexpr double eps = 1e-6;
};
const std::vector<tf::token> prompt = {3, 17, 42, 0, 49, 8, 8, 23, 11, 5, 30};

template <class Cfg>
std::unique_ptr<tf::DTransformer<float, Cfg>> gpt_model(unsigned seed) {
    auto m = std::make_unique<tf::DTransformer<float, Cfg>>();
    interop::randomise(*m, seed);
    return m;
}

// A training checkpoint in the middle of a run: random moments (v > 0), Adam's step 7, AdamW's
// options as nanoGPT's (β2 0.95, decoupled decay of the matrices only) with a constant lr.
using adam_gpt = tf::DTransformer<float, gpt_cfg>;
const tf::training_options adam_opt{.lr = 1e-2,
                                    .beta1 = 0.9,
                                    .beta2 = 0.95,
                                    .eps = 1e-8,
                                    .weight_decay = 0.1,
                                    .decay_gains_and_biases = false,
                                    .clip_norm = 0.0,
                                    .reduction = tf::loss_reduction::mean_per_token};
std::unique_ptr<tf::training_state<adam_gpt>> adam_state_at_step_7() {
    auto st = std::make_unique<tf::training_state<adam_gpt>>();
    interop::randomise(st->adam.m, 31);
    interop::randomise(st->adam.v, 32);
    tf::for_each_param(st->adam.v, [](const tf::param_name&, auto& p) {
        for (std::size_t k = 0; k < sizeof(p.elems) / sizeof(p.elems[0]); ++k)
            p.data()[k] = 0.01f + p.data()[k] * p.data()[k];  // second moments: positive
    });
    st->adam.step = 7;
    st->step = 7;
    return st;
}

void setup(interop::python_jobs& jobs) {
    round_trip_jobs<tf::DTransformer<float, d_cfg>>(jobs, "D");
    round_trip_jobs<tf::ETransformer<float, e_cfg>>(jobs, "E");
    round_trip_jobs<tf::EDTransformer<float, ed_cfg>>(jobs, "ED");
    const std::string p = interop::ids(prompt);

    // to nanoGPT: train.py's resume there (GPT(model_args), strict load_state_dict, AdamW's
    // load_state_dict, one iteration), and its checkpoint back
    tf::save(*gpt_model<gpt_cfg>(11), scratch("to_nano.safetensors"));
    jobs("bridge to-nanogpt " + scratch("to_nano.safetensors") + " " + scratch("to_nano.pt"));
    jobs("gpt_ref nanogpt-resume " + scratch("to_nano.pt") + " " + scratch("nano_step.pt") + " " +
         scratch("nano_before.tfx") + " " + scratch("nano_after.tfx") + p);
    jobs("bridge from-nanogpt " + scratch("nano_step.pt") + " " + scratch("nano_step.safetensors"));
    // what nanoGPT's model.py cannot hold is refused by name
    tf::save(*std::make_unique<tf::DTransformer<float, hf_tanh_cfg>>(),
             scratch("tanh.safetensors"));
    jobs.fails(scratch("tanh.err"),
               "bridge to-nanogpt " + scratch("tanh.safetensors") + " " + scratch("tanh.pt"));

    // a training checkpoint's AdamW state to nanoGPT, one step of train.py there, and back as a
    // typeformer training checkpoint
    tf::io::save_checkpoint(scratch("adam.ckpt"), *gpt_model<gpt_cfg>(13), *adam_state_at_step_7(),
                            adam_opt);
    jobs("bridge to-nanogpt " + scratch("adam.ckpt") + " " + scratch("adam.pt"));
    jobs("gpt_ref nanogpt-resume " + scratch("adam.pt") + " " + scratch("adam_step.pt") + " " +
         scratch("adam_before.tfx") + " " + scratch("adam_after.tfx") + p);
    jobs("bridge from-nanogpt " + scratch("adam_step.pt") + " " + scratch("adam_back.ckpt") +
         " --training");

    // to Hugging Face: GPT2LMHeadModel built from the written config.json, loaded as
    // from_pretrained loads
    for (const char* tag : {"tied", "untied"}) {
        const std::string dir = scratch(std::string("to_hf_") + tag);
        if (tag == std::string("tied"))
            tf::save(*gpt_model<hf_tanh_cfg>(12), dir + ".safetensors");
        else
            tf::save(*gpt_model<hf_untied_cfg>(12), dir + ".safetensors");
        jobs("bridge to-hf " + dir + ".safetensors " + dir);
        jobs("gpt_ref hf-check " + dir + " " + dir + ".tfx" + p);
    }
}
const bool registered = interop::python_setup(&setup);

TEST(TorchBridge, ExportToNanoGptResumesThereAndComesBack) {
    interop::use_python_setup();
    using gpt = tf::DTransformer<float, gpt_cfg>;
    const auto m = gpt_model<gpt_cfg>(11);
    interop::expect_logits(*m, prompt, interop::logits_file(scratch("nano_before.tfx")),
                           "in nanoGPT");
    // ... and its checkpoint after the step comes back
    auto back = std::make_unique<gpt>();
    tio::import_nanogpt(*back, scratch("nano_step.safetensors"));
    EXPECT_FALSE(tf::bit_equal(*back, *m));  // the step moved it
    interop::expect_logits(*back, prompt, interop::logits_file(scratch("nano_after.tfx")),
                           "after nanoGPT's step");

    std::ifstream err(scratch("tanh.err"));
    const std::string why((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(interop::contains(why, "this model has no nanoGPT form: gelu = tanh")) << why;
}

// Per entry within 1e-6 + 1e-5·|want|: an update of AdamW's is lr·m̂/(√v̂ + ε) ≈ 1e-2 here, so
// any moment, step count or hyperparameter lost on the way changes entries by orders more.
template <class Model>
void expect_same(const Model& got, const Model& want, const std::string& what) {
    int bad = 0;
    tf::for_each_param(got, want, [&](const tf::param_name& name, const auto& g, const auto& w) {
        for (std::size_t k = 0; k < sizeof(g.elems) / sizeof(g.elems[0]); ++k) {
            const double a = g.data()[k], b = w.data()[k];
            if (!(std::abs(a - b) <= 1e-6 + 1e-5 * std::abs(b)) && bad++ < 5)
                ADD_FAILURE() << what << " " << name.view() << "[" << k << "]: " << a << " vs "
                              << b;
        }
    });
    EXPECT_EQ(bad, 0) << what;
}

TEST(TorchBridge, AdamStateCarriesToNanoGptAndBackAndStepsAsTypeformerDoes) {
    interop::use_python_setup();
    // The step typeformer takes from the checkpoint: the gradient of the prompt's mean per-token
    // loss (train.py's cross-entropy), AdamW with the checkpoint's moments and options.
    auto m = gpt_model<gpt_cfg>(13);
    auto st = adam_state_at_step_7();
    auto grads = std::make_unique<adam_gpt>();
    tf::zero(*grads);
    tf::loss_and_grad(*m, prompt, *grads);
    tf::adam_step(*m, *grads, st->adam,
                  {.lr = adam_opt.lr,
                   .beta1 = adam_opt.beta1,
                   .beta2 = adam_opt.beta2,
                   .eps = adam_opt.eps,
                   .weight_decay = adam_opt.weight_decay,
                   .decay_gains_and_biases = false,
                   .grad_scale = 1.0 / static_cast<double>(prompt.size() - 1)});

    // nanoGPT's train.py resumed from to-nanogpt's checkpoint, one iteration, back by
    // from-nanogpt --training: the same parameters, moments and step count
    auto back = std::make_unique<adam_gpt>();
    auto back_st = std::make_unique<tf::training_state<adam_gpt>>();
    tf::training_options back_opt{};
    tio::load_checkpoint(scratch("adam_back.ckpt"), *back, *back_st, &back_opt);
    expect_same(*back, *m, "parameters");
    expect_same(back_st->adam.m, st->adam.m, "m");
    expect_same(back_st->adam.v, st->adam.v, "v");
    EXPECT_EQ(back_st->adam.step, 8u);
    EXPECT_EQ(back_st->step, 8u);  // iter_num
    EXPECT_EQ(back_opt.lr, adam_opt.lr);
    EXPECT_EQ(back_opt.beta2, adam_opt.beta2);
    EXPECT_EQ(back_opt.weight_decay, adam_opt.weight_decay);
    EXPECT_FALSE(back_opt.decay_gains_and_biases);
    EXPECT_EQ(back_opt.reduction, tf::loss_reduction::mean_per_token);
    // (and before the step, nanoGPT's model computed typeformer's logits)
    interop::expect_logits(*gpt_model<gpt_cfg>(13), prompt,
                           interop::logits_file(scratch("adam_before.tfx")), "in nanoGPT");

    // Without the moments (a fresh AdamW, what to-nanogpt wrote before it carried them) the step
    // would differ: the test can tell.
    auto fresh = gpt_model<gpt_cfg>(13);
    tf::adam_state<adam_gpt> zero_state{};
    zero_state.step = 7;
    tf::adam_step(*fresh, *grads, zero_state,
                  {.lr = adam_opt.lr,
                   .beta2 = adam_opt.beta2,
                   .weight_decay = 0.1,
                   .decay_gains_and_biases = false,
                   .grad_scale = 1.0 / static_cast<double>(prompt.size() - 1)});
    EXPECT_GT(tf::max_abs_diff(*fresh, *m), 1e-3);
}

template <class Cfg>
void hf_export(const std::string& tag) {
    interop::use_python_setup();
    using gpt = tf::DTransformer<float, Cfg>;
    const auto m = gpt_model<Cfg>(12);
    const std::string dir = scratch("to_hf_" + tag);
    interop::expect_logits(*m, prompt, interop::logits_file(dir + ".tfx"),
                           "GPT2LMHeadModel " + tag);
    auto back = std::make_unique<gpt>();
    tio::import_hf_gpt2(*back, dir + "/model.safetensors");  // checked against its config.json
    EXPECT_TRUE(tf::bit_equal(*back, *m)) << tag;
}

TEST(TorchBridge, ExportToHuggingFaceLoadsInGpt2LMHeadModelAndComesBack) {
    hf_export<hf_tanh_cfg>("tied");      // gelu_new, the hub's names
    hf_export<hf_untied_cfg>("untied");  // "gelu", ε 1e-6, lm_head
}

}  // namespace
