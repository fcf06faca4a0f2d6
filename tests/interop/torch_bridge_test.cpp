// tools/typeformer_torch.py: typeformer → PyTorch → typeformer is bit-exact for all three
// architectures (with variants), the torch.nn.Module's forward equals typeformer's, and a
// DTransformer exported to nanoGPT's ckpt.pt and Hugging Face's model.safetensors + config.json
// loads into reference implementations of those models (gpt_ref.py, written from their published
// definitions: train.py's resume path with its optimizer state, GPT2LMHeadModel's loading) with
// the same logits, and comes back.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/import.hpp>
#include <typeformer/io/safetensors.hpp>
#include <typeformer/typeformer.hpp>

#include "interop.hpp"

namespace tf = typeformer;
namespace tio = typeformer::io;
using interop::python;
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
void round_trip(const std::string& tag) {
    auto m = std::make_unique<Model>();
    interop::randomise(*m);
    const std::string in = scratch("bridge_" + tag + ".safetensors");
    const std::string back = scratch("bridge_" + tag + "_back.safetensors");
    const std::string logits = scratch("bridge_" + tag + ".tfx");
    tf::save(*m, in);
    python("torch_bridge_ref.py", in + " " + back + " " + logits + " " + csv(x) +
                                      (Model::sequences == 2 ? " " + csv(z) : ""));

    auto again = std::make_unique<Model>();
    tf::zero(*again);
    tf::load(*again, back);  // with the bridge's signature, checked against this type
    EXPECT_TRUE(tf::bit_equal(*m, *again)) << tag << ": the round trip changed a parameter";
    tio::signature sig;
    ASSERT_TRUE(tio::try_read_signature(back, sig));
    EXPECT_EQ(tio::first_difference(sig, tio::signature_of<Model>()), "") << tio::describe(sig);

    const auto ref = tf::testing::read_bundle(logits);
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

TEST(TorchBridge, ExportToNanoGptResumesThereAndComesBack) {
    using gpt = tf::DTransformer<float, gpt_cfg>;
    auto m = std::make_unique<gpt>();
    interop::randomise(*m, 11);
    tf::save(*m, scratch("to_nano.safetensors"));
    python("bridge", "to-nanogpt " + scratch("to_nano.safetensors") + " " + scratch("to_nano.pt"));
    // train.py's resume: GPT(model_args), strict load_state_dict, AdamW's load_state_dict, a step
    python("gpt_ref.py", "nanogpt-resume " + scratch("to_nano.pt") + " " + scratch("nano_step.pt") +
                             " " + scratch("nano_before.tfx") + " " + scratch("nano_after.tfx") +
                             interop::ids(prompt));
    interop::expect_logits(*m, prompt, interop::logits_file(scratch("nano_before.tfx")),
                           "in nanoGPT");
    // ... and its checkpoint after the step comes back
    python("bridge",
           "from-nanogpt " + scratch("nano_step.pt") + " " + scratch("nano_step.safetensors"));
    auto back = std::make_unique<gpt>();
    tio::import_nanogpt(*back, scratch("nano_step.safetensors"));
    EXPECT_FALSE(tf::bit_equal(*back, *m));  // the step moved it
    interop::expect_logits(*back, prompt, interop::logits_file(scratch("nano_after.tfx")),
                           "after nanoGPT's step");

    // what nanoGPT's model.py cannot hold is refused by name
    auto h = std::make_unique<tf::DTransformer<float, hf_tanh_cfg>>();
    tf::save(*h, scratch("tanh.safetensors"));
    EXPECT_THROW(python("bridge", "to-nanogpt " + scratch("tanh.safetensors") + " " +
                                      scratch("tanh.pt") + " 2>" + scratch("tanh.err")),
                 std::runtime_error);
}

template <class Cfg>
void hf_export(const std::string& tag) {
    using gpt = tf::DTransformer<float, Cfg>;
    auto m = std::make_unique<gpt>();
    interop::randomise(*m, 12);
    const std::string dir = scratch("to_hf_" + tag);
    tf::save(*m, dir + ".safetensors");
    python("bridge", "to-hf " + dir + ".safetensors " + dir);
    python("gpt_ref.py", "hf-check " + dir + " " + dir + ".tfx" + interop::ids(prompt));
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
