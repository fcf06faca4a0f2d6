// Importers (io/import.hpp): nanoGPT checkpoints as train.py writes them (ckpt.pt, compiled or
// not, bias or not, tied or not) converted by tools/typeformer_torch.py from-nanogpt, and Hugging
// Face GPT-2's model.safetensors + config.json, all written by gpt_ref.py from the models' public
// definitions with random weights, give PyTorch's logits here. What the tensors cannot say (H, ε,
// the GELU form) is checked against model_args / config.json, and refused with the difference.
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <typeformer/io/import.hpp>
#include <typeformer/typeformer.hpp>

#include "interop.hpp"

namespace tf = typeformer;
namespace tio = typeformer::io;
using interop::contains;
using interop::scratch;

namespace {

// gpt_ref.py's sizes: N_V 50, block_size 24 (≥ l_max: the first 16 positions are kept), L 2,
// H 2, d_e 16, d_mlp 4·d_e.
struct nano_cfg {
    static constexpr std::size_t N_V = 50, l_max = 16, L = 2, H = 2, d_e = 16, d_mlp = 64,
                                 d_attn = 8, d_mid = 8;
    static constexpr bool tied = true;
};
struct nano_untied_cfg : nano_cfg {
    static constexpr bool tied = false;
};
struct four_heads_cfg : nano_cfg {  // the same tensors' shapes as two heads of 8
    static constexpr std::size_t H = 4, d_attn = 4, d_mid = 4;
};
struct hf_cfg : nano_cfg {
    static constexpr auto gelu = tf::gelu_kind::tanh;
};
struct hf_erf_untied_cfg : nano_cfg {  // activation_function "gelu", layer_norm_epsilon 1e-6
    static constexpr bool tied = false;
    static constexpr double eps = 1e-6;
};
struct erf_cfg : hf_erf_untied_cfg {
    static constexpr double eps = 1e-5;
};
struct wrong_vocab_cfg : nano_cfg {
    static constexpr std::size_t N_V = 51;
};
struct one_layer_cfg : nano_cfg {
    static constexpr std::size_t L = 1;
};
struct hf_vocab : wrong_vocab_cfg {
    static constexpr auto gelu = tf::gelu_kind::tanh;
};
struct hf_one : one_layer_cfg {
    static constexpr auto gelu = tf::gelu_kind::tanh;
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
    &tio::try_import_hf_gpt2<tf::DTransformer<float, gpt2_small>>;

const std::vector<tf::token> prompt = {3, 17, 42, 0, 49, 8, 8, 23, 11, 5, 30};

template <class Cfg>
auto make_model() {
    auto m = std::make_unique<tf::DTransformer<float, Cfg>>();
    tf::init(*m, 99);
    return m;
}

// The text of the character-level model: nanoGPT's prepare.py makes its vocabulary (sorted(set(
// text)), 27 characters, four of them not ASCII) and the model's N_V is that size.
const std::string char_text = "Où es-tu, Roméo? À la fenêtre, sous la lune.\nRoméo: ici!\n";
struct char_cfg {  // bias=False, like train.py's default
    static constexpr std::size_t N_V = 27, l_max = 32, L = 2, H = 2, d_e = 16, d_mlp = 64,
                                 d_attn = 8, d_mid = 8;
    static constexpr bool tied = true;
};

// The Python side of these tests (one process for the binary: interop.hpp): train.py-style
// ckpt.pt files (gpt_ref.py) → `typeformer_torch.py from-nanogpt` → <name>.safetensors, with
// PyTorch's logits in <name>.tfx; Hugging Face folders with theirs; a copy with a NaN; a
// character-level model with its meta.pkl where nanoGPT keeps it.
void setup(interop::python_jobs& jobs) {
    const std::string p = interop::ids(prompt);
    for (const auto& [name, bias, compiled, tied, n_head] :
         {std::tuple{"nano_compiled", 1, 1, 1, 2}, std::tuple{"nano_nobias", 0, 0, 1, 2},
          std::tuple{"nano_untied", 1, 1, 0, 2}}) {
        const std::string n = name;
        jobs(fmt::format("gpt_ref nanogpt-ckpt {} 7 {} {} {} {} {}{}", bias, compiled, tied,
                         scratch(n + ".pt"), scratch(n + ".tfx"), n_head, p));
        jobs("bridge from-nanogpt " + scratch(n + ".pt") + " " + scratch(n + ".safetensors"));
    }
    jobs("gpt_ref hf 7 " + scratch("hf") + " " + scratch("hf.tfx") + " gelu_new 1e-5 1" + p);
    jobs("gpt_ref hf 7 " + scratch("hf_erf") + " " + scratch("hf_erf.tfx") + " gelu 1e-6 0" + p);
    jobs("gpt_ref nan " + scratch("hf/model.safetensors") + " " + scratch("hf/nan.safetensors") +
         " h.1.mlp.c_fc.weight");
    std::ofstream(scratch("chars.txt"), std::ios::binary) << char_text;
    std::filesystem::remove_all(scratch("nanogpt"));
    jobs(fmt::format("gpt_ref char-ckpt {} {} chars_test 2 2 16 32 3 {} {}", scratch("chars.txt"),
                     scratch("nanogpt"), scratch("chars_ids.tfx"), scratch("chars.tfx")));
    // from nanoGPT's out_dir, its meta.pkl found as sample.py finds it (data/<dataset>/)
    jobs("bridge from-nanogpt " + scratch("nanogpt/out-chars_test/ckpt.pt") + " " +
         scratch("chars.safetensors"));
}
const bool registered = interop::python_setup(&setup);

std::vector<double> logits(const std::string& name) {
    interop::use_python_setup();
    return interop::logits_file(scratch(name + ".tfx"));
}

// A copy of hf/model.safetensors in a folder of its own, without config.json.
std::string bare_copy(const std::string& folder) {
    interop::use_python_setup();
    std::filesystem::create_directories(scratch(folder));
    const std::string bare = scratch(folder + "/model.safetensors");
    std::filesystem::copy_file(scratch("hf/model.safetensors"), bare,
                               std::filesystem::copy_options::overwrite_existing);
    return bare;
}

// A refused import: the status, the message, and the model bit-identical.
template <bool HF, class Model>
tio::result refused(Model& m, const std::string& file, const tio::import_options& opt = {}) {
    auto before = std::make_unique<Model>();
    tf::copy_params(m, *before);
    tio::result r;
    if constexpr (HF)
        r = tio::try_import_hf_gpt2(m, file, opt);
    else
        r = tio::try_import_nanogpt(m, file, opt);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(tf::bit_equal(m, *before)) << "a failed import changed the model";
    return r;
}

TEST(Import, NanoGptCheckpointsFromTrainPyConvertAndMatchPyTorch) {
    // compiled (train.py's default) with biases; not compiled without biases; an untied fork
    for (const auto& [name, bias, compiled, tied] :
         {std::tuple{"nano_compiled", true, true, true},
          std::tuple{"nano_nobias", false, false, true},
          std::tuple{"nano_untied", true, true, false}}) {
        (void)bias, (void)compiled;
        const auto ref = logits(name);
        const std::string file = scratch(std::string(name) + ".safetensors");
        if (tied) {
            auto m = make_model<nano_cfg>();  // init leaves nonzero γ; β, b are zeroed if absent
            tf::for_each_param(*m, [](const tf::param_name&, auto& p) {
                for (std::size_t k = 0; k < sizeof(p.elems) / sizeof(p.elems[0]); ++k)
                    p.data()[k] = 0.25f;
            });
            tio::import_nanogpt(*m, file);
            if (!bias) {
                EXPECT_EQ(m->layers[1].attn.b_v.data()[3], 0.0f);
                EXPECT_EQ(m->ln_f.beta.data()[0], 0.0f);
            }
            interop::expect_logits(*m, prompt, ref, name);
        }
        auto u = make_model<nano_untied_cfg>();  // W_u from lm_head.weight, or wte when tied
        tio::import_nanogpt(*u, file);
        interop::expect_logits(*u, prompt, ref, std::string(name) + " into an untied model");
    }
    // A tied model refuses an untied file's lm_head
    auto m = make_model<nano_cfg>();
    EXPECT_TRUE(contains(refused<false>(*m, scratch("nano_untied.safetensors")).message,
                         "differs from wte.weight"));
}

TEST(Import, HuggingFaceGpt2WithItsConfigMatchesPyTorch) {
    const auto ref = logits("hf");
    auto m = make_model<hf_cfg>();
    tio::import_hf_gpt2(*m, scratch("hf/model.safetensors"));  // config.json beside it
    interop::expect_logits(*m, prompt, ref, "gelu_new, tied");

    // GPT2LMHeadModel's names with an untied lm_head; the exact GELU; another ε
    const auto ref2 = logits("hf_erf");
    auto e = make_model<hf_erf_untied_cfg>();
    tio::import_hf_gpt2(*e, scratch("hf_erf/model.safetensors"));
    interop::expect_logits(*e, prompt, ref2, "gelu, eps 1e-6, untied");

    // ... whose config says what the model must be: ε, the GELU form
    auto h = make_model<hf_cfg>();
    const std::string renamed = scratch("hf_erf/weights.safetensors");
    std::filesystem::copy_file(scratch("hf_erf/model.safetensors"), renamed,
                               std::filesystem::copy_options::overwrite_existing);
    auto r = refused<true>(*h, renamed);
    EXPECT_EQ(r.code, tio::status::signature_mismatch);
    EXPECT_TRUE(contains(r.message, "gelu: file erf, model tanh")) << r.message;
    auto f = make_model<erf_cfg>();
    r = refused<true>(*f, renamed);
    EXPECT_TRUE(contains(r.message, "eps: file 1e-06, model 1e-05")) << r.message;
    EXPECT_TRUE(contains(r.message, "layer_norm_epsilon")) << r.message;
}

TEST(Import, AWrongHeadCountIsRefusedWithTheDifferenceNamed) {
    // H = 4, d_attn = 4 has every tensor shape of H = 2, d_attn = 8: only the config can tell
    interop::use_python_setup();
    auto m = make_model<four_heads_cfg>();
    auto r = refused<false>(*m, scratch("nano_compiled.safetensors"));
    EXPECT_EQ(r.code, tio::status::signature_mismatch);
    EXPECT_TRUE(contains(r.message, "H: file 2, model 4 (model_args' n_head)")) << r.message;

    auto h = make_model<four_heads_cfg>();
    r = refused<true>(*h, scratch("hf/model.safetensors"));
    EXPECT_TRUE(contains(r.message, "H: file 2, model 4")) << r.message;
    EXPECT_TRUE(contains(r.message, "config.json's n_head")) << r.message;

    // a file that says nothing (model.safetensors without its config.json) is refused ...
    const std::string bare = bare_copy("hf_bare");
    r = refused<true>(*h, bare);
    EXPECT_EQ(r.code, tio::status::unchecked_signature);
    EXPECT_TRUE(contains(r.message, "no config.json beside it")) << r.message;
    EXPECT_TRUE(contains(r.message, "accept_no_config = true")) << r.message;
    EXPECT_TRUE(contains(r.message, "H = 4")) << r.message;
    // ... unless its config is given, or the caller says so explicitly
    r = refused<true>(*h, bare, {.config = scratch("hf/config.json")});
    EXPECT_TRUE(contains(r.message, "H: file 2, model 4")) << r.message;
    auto ok = make_model<hf_cfg>();
    EXPECT_TRUE(tio::try_import_hf_gpt2(*ok, bare, {.config = scratch("hf/config.json")}));
    EXPECT_TRUE(tio::try_import_hf_gpt2(*h, bare, {.accept_no_config = true}));
}

TEST(Import, NonFiniteWeightsAreRefusedAsByLoad) {
    interop::use_python_setup();
    auto m = make_model<hf_cfg>();
    const auto r = refused<true>(*m, scratch("hf/nan.safetensors"));
    EXPECT_EQ(r.code, tio::status::non_finite);
    EXPECT_TRUE(contains(r.message, "tensor 'h.1.mlp.c_fc.weight': 1 non-finite value"))
        << r.message;
    EXPECT_TRUE(tio::try_import_hf_gpt2(*m, scratch("hf/nan.safetensors"),
                                        {.non_finite = tio::non_finite_values::accept}));
    EXPECT_TRUE(std::isnan(m->layers[1].mlp.W_1(3, 0)));  // [in, out] element 3 is W_1(3, 0)
}

TEST(Import, MismatchesNameTheTensorAndBothShapes) {
    interop::use_python_setup();
    const std::string nano = scratch("nano_compiled.safetensors");
    auto v = make_model<wrong_vocab_cfg>();  // model_args says vocab_size 50 first
    EXPECT_TRUE(contains(refused<false>(*v, nano).message, "N_V: file 50, model 51")) << "";
    auto one = make_model<one_layer_cfg>();  // the file has two layers
    EXPECT_TRUE(contains(refused<false>(*one, nano).message, "L: file 2, model 1"));

    // without a config, the tensors' shapes
    auto hv = make_model<hf_vocab>();
    const std::string bare = bare_copy("hf_bare_shapes");
    const std::string msg = refused<true>(*hv, bare, {.accept_no_config = true}).message;
    EXPECT_TRUE(contains(msg, "'wte.weight' has shape [50, 16]")) << msg;
    EXPECT_TRUE(contains(msg, "needs [51, 16]")) << msg;
    auto ho = make_model<hf_one>();
    EXPECT_TRUE(
        contains(refused<true>(*ho, bare, {.accept_no_config = true}).message, "tensor 'h.1."));

    // A nanoGPT file read as Hugging Face's: c_attn is [3·d_e, d_e], not Conv1D's [d_e, 3·d_e].
    auto h = make_model<hf_cfg>();
    const std::string swapped =
        refused<true>(*h, nano, {.config = scratch("hf/config.json")}).message;
    EXPECT_TRUE(contains(swapped, "'transformer.h.0.attn.c_attn.weight' has shape [48, 16]"))
        << swapped;
    EXPECT_TRUE(contains(swapped, "needs [16, 48]")) << swapped;

    EXPECT_THROW(tio::import_nanogpt(*v, scratch("no_such_file.safetensors")), tio::error);
}

TEST(Import, ANanoGptCharacterModelCarriesItsVocabulary) {
    const auto ref = logits("chars");
    const std::string file = scratch("chars.safetensors");
    const auto vocabulary = tio::nanogpt_vocabulary(file);  // meta.pkl's itos, kept by the bridge
    ASSERT_TRUE(vocabulary.has_value());
    ASSERT_EQ(vocabulary->vocab_size(), char_cfg::N_V);
    // prepare.py's encoding: [stoi[c] for c in text], one id per character, é and À included
    std::vector<tf::token> want;
    const auto python_ids = tf::testing::read_bundle(scratch("chars_ids.tfx"));
    for (const double id : python_ids.at("ids").data)
        want.push_back(static_cast<tf::token>(id));
    const std::vector<tf::token> ids = vocabulary->encode(char_text);
    EXPECT_EQ(ids, want);
    EXPECT_EQ(vocabulary->decode(ids), char_text);
    auto m = make_model<char_cfg>();
    tio::import_nanogpt(*m, file);  // bias=False: zeros
    const std::vector<tf::token> x(want.begin(), want.begin() + char_cfg::l_max);
    interop::expect_logits(*m, x, ref, "character model");

    // what is not in the vocabulary says so
    auto message = [&](auto&& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    std::string e = message([&] { (void)vocabulary->encode("Roméo!Z"); });
    EXPECT_TRUE(contains(e, "character 6 ('Z') is not in this vocabulary of 27")) << e;
    e = message([&] { (void)vocabulary->encode("ici\xff"); });
    EXPECT_TRUE(contains(e, "byte 3 of the text is not UTF-8")) << e;
    e = message([&] { (void)vocabulary->piece(27); });
    EXPECT_TRUE(contains(e, "token 27 is not in the vocabulary (N_V = 27)")) << e;
    e = message([&] { tf::tokenize::characters::from_json(R"(["a", "bc"])", "v"); });
    EXPECT_TRUE(contains(e, "v: characters: entry 1 ('bc') is not one character")) << e;
    e = message([&] { tf::tokenize::characters::from_json(R"(["a", "\n", "a"])", "v"); });
    EXPECT_TRUE(contains(e, "entry 2 ('a') repeats entry 0")) << e;
    e = message([&] { tf::tokenize::characters::from_json(R"(["a", 3])", "v"); });
    EXPECT_TRUE(contains(e, "v: expected a string (one character)")) << e;
    e = message([&] { tf::tokenize::characters::from_json("[]", "v"); });
    EXPECT_TRUE(contains(e, "the vocabulary is empty")) << e;
    // a GPT-2-vocabulary file carries none
    EXPECT_FALSE(tio::nanogpt_vocabulary(scratch("nano_compiled.safetensors")).has_value());
}

TEST(Import, EachReaderNamesTheOneThatReadsTheFile) {
    interop::use_python_setup();
    auto m = make_model<nano_cfg>();
    // tf::load of a nanoGPT or HF file: the importer to use
    auto r = tio::try_load(*m, scratch("nano_compiled.safetensors"));
    EXPECT_EQ(r.code, tio::status::foreign_layout);
    EXPECT_TRUE(contains(r.message, "nanoGPT checkpoint")) << r.message;
    EXPECT_TRUE(contains(r.message, "tf::io::import_nanogpt")) << r.message;
    r = tio::try_load(*m, scratch("hf/model.safetensors"));
    EXPECT_TRUE(contains(r.message, "tf::io::import_hf_gpt2")) << r.message;
    // train.py's ckpt.pt itself: the conversion command
    r = tio::try_load(*m, scratch("nano_compiled.pt"));
    EXPECT_EQ(r.code, tio::status::malformed_header);
    EXPECT_TRUE(contains(r.message, "PyTorch checkpoint")) << r.message;
    EXPECT_TRUE(contains(r.message, "typeformer_torch.py from-nanogpt")) << r.message;
    EXPECT_TRUE(contains(refused<false>(*m, scratch("nano_compiled.pt")).message,
                         "typeformer_torch.py from-nanogpt"));
    // an importer given typeformer's own file: tf::load
    tf::save(*m, scratch("own.safetensors"));
    r = refused<false>(*m, scratch("own.safetensors"));
    EXPECT_EQ(r.code, tio::status::foreign_layout);
    EXPECT_TRUE(contains(r.message, "tf::load")) << r.message;
}

}  // namespace
