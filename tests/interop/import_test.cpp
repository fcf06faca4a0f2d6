// Importers (io/import.hpp): nanoGPT and Hugging Face GPT-2 checkpoints written by gpt_ref.py
// (the models' public definitions in PyTorch, random weights) give PyTorch's logits here.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/import.hpp>
#include <typeformer/typeformer.hpp>

#include "support/oracle.hpp"
#include "support/paths.hpp"

namespace tf = typeformer;

namespace {

// gpt_ref.py's sizes: N_V 50, block_size 24 (≥ l_max: the first 16 positions are kept), L 2,
// H 2, d_e 16, d_mlp 4·d_e.
struct nano_cfg {
    static constexpr std::size_t N_V = 50, l_max = 16, L = 2, H = 2, d_e = 16, d_mlp = 64,
                                 d_attn = 8, d_mid = 8;
    static constexpr bool tied = true;
};
struct nano_untied_cfg {
    static constexpr std::size_t N_V = 50, l_max = 16, L = 2, H = 2, d_e = 16, d_mlp = 64,
                                 d_attn = 8, d_mid = 8;
};
struct hf_cfg : nano_cfg {
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-5;
};
struct wrong_vocab_cfg : nano_cfg {
    static constexpr std::size_t N_V = 51;
};
struct one_layer_cfg : nano_cfg {
    static constexpr std::size_t L = 1;
};

// GPT-2 small's importer instantiates (docs/interop.md's config); running it needs the real file.
struct gpt2_small {
    static constexpr std::size_t N_V = 50257, l_max = 1024, L = 12, H = 12, d_e = 768, d_mlp = 3072,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-5;
};
[[maybe_unused]] constexpr auto import_gpt2_small =
    &tf::io::try_import_hf_gpt2<tf::DTransformer<float, gpt2_small>>;

const std::vector<tf::token> prompt = {3, 17, 42, 0, 49, 8, 8, 23, 11, 5, 30};

// Runs gpt_ref.py: writes <name>.safetensors and returns its logits [T, N_V].
std::vector<double> make_reference(const std::string& layout, bool bias, const std::string& file) {
    const std::string logits = file + ".tfx";
    std::string cmd = typeformer::testing::path_string(TYPEFORMER_PYTHON) + " " +
                      typeformer::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR) +
                      "/gpt_ref.py " + layout + (bias ? " 1" : " 0") + " 7 " + file + " " + logits;
    for (auto t : prompt)
        cmd += " " + std::to_string(t);
    if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("oracle failed: " + cmd);
    return tf::testing::read_bundle(logits).at("logits").data;
}

std::string scratch(const std::string& name) {
    // Not string + "/" + name: GCC 12 -Warray-bounds flags that inlined chain (PR 105651).
    std::string path = typeformer::testing::path_string(TYPEFORMER_TEST_BINARY_DIR);
    path += '/';
    path += name;
    return path;
}

template <class Model>
void expect_logits(const Model& model, const std::vector<double>& ref) {
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    const auto out = tf::logits(model, prompt, *ws);
    ASSERT_EQ(ref.size(), prompt.size() * Model::traits::N_V::size);
    int bad = 0;
    for (std::size_t t = 0; t < prompt.size(); ++t)
        for (std::size_t i = 0; i < Model::traits::N_V::size; ++i) {
            const double want = ref[t * Model::traits::N_V::size + i];
            const double got = out(i, t);
            if (!(std::abs(got - want) <= 1e-4 + 1e-4 * std::abs(want)) && bad++ < 5)
                ADD_FAILURE() << "logit (" << i << ", " << t << "): " << got << " vs " << want;
        }
    EXPECT_EQ(bad, 0);
}

template <class Cfg>
auto make_model() {
    auto m = std::make_unique<tf::DTransformer<float, Cfg>>();
    tf::init(*m, 99);
    return m;
}

TEST(Import, NanoGptWithBiasesMatchesPyTorch) {
    const auto file = scratch("nano_bias.safetensors");
    const auto ref = make_reference("nanogpt", true, file);
    auto m = make_model<nano_cfg>();
    tf::io::import_nanogpt(*m, file);
    expect_logits(*m, ref);
    auto u = make_model<nano_untied_cfg>();  // W_u from lm_head.weight
    tf::io::import_nanogpt(*u, file);
    expect_logits(*u, ref);
}

TEST(Import, NanoGptWithoutBiasesZeroesThem) {
    const auto file = scratch("nano_nobias.safetensors");
    const auto ref = make_reference("nanogpt", false, file);
    auto m = make_model<nano_cfg>();  // init leaves nonzero γ; β, b are zeroed by the import
    tf::for_each_param(*m, [](const tf::param_name&, auto& p) {
        for (std::size_t k = 0; k < sizeof(p.elems) / sizeof(p.elems[0]); ++k)
            p.data()[k] = 0.25f;
    });
    tf::io::import_nanogpt(*m, file);
    EXPECT_EQ(m->layers[1].attn.b_v.data()[3], 0.0f);
    EXPECT_EQ(m->ln_f.beta.data()[0], 0.0f);
    expect_logits(*m, ref);
}

TEST(Import, HuggingFaceGpt2MatchesPyTorch) {
    const auto file = scratch("hf.safetensors");
    const auto ref = make_reference("hf", true, file);
    auto m = make_model<hf_cfg>();
    tf::io::import_hf_gpt2(*m, file);
    expect_logits(*m, ref);
}

template <bool HF, class Model>
std::string import_error(Model& m, const std::string& file) {
    auto before = std::make_unique<Model>();
    tf::copy_params(m, *before);
    tf::io::result r;
    if constexpr (HF)
        r = tf::io::try_import_hf_gpt2(m, file);
    else
        r = tf::io::try_import_nanogpt(m, file);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(tf::bit_equal(m, *before)) << "a failed import changed the model";
    return r.message;
}

TEST(Import, MismatchNamesTheTensorAndBothShapes) {
    const auto nano = scratch("nano_err.safetensors");
    make_reference("nanogpt", true, nano);
    auto v = make_model<wrong_vocab_cfg>();
    const std::string msg = import_error<false>(*v, nano);
    EXPECT_NE(msg.find("transformer.wte.weight"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[50, 16]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[51, 16]"), std::string::npos) << msg;

    auto one = make_model<one_layer_cfg>();  // the file has two layers
    const std::string extra = import_error<false>(*one, nano);
    EXPECT_NE(extra.find("transformer.h.1."), std::string::npos) << extra;

    // A nanoGPT file read as Hugging Face's: c_attn is [3·d_e, d_e], not Conv1D's [d_e, 3·d_e].
    struct hf_on_nano : hf_cfg {};
    auto h = make_model<hf_on_nano>();
    const std::string swapped = import_error<true>(*h, nano);
    EXPECT_NE(swapped.find("'transformer.h.0.attn.c_attn.weight' has shape [48, 16]"),
              std::string::npos)
        << swapped;
    EXPECT_NE(swapped.find("needs [16, 48]"), std::string::npos) << swapped;

    EXPECT_THROW(tf::io::import_nanogpt(*v, scratch("no_such_file.safetensors")), tf::io::error);
}

}  // namespace
