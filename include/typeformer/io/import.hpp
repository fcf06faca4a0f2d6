// Importers: GPT checkpoints in the layouts people have, as safetensors, onto DTransformer.
//
//   import_nanogpt(model, path [, options])   nanoGPT's GPT (model.py): nn.Linear weights [out, in]
//   import_hf_gpt2(model, path [, options])   Hugging Face GPT2Model / GPT2LMHeadModel: Conv1D
//                                             weights [in, out]
//   try_import_nanogpt / try_import_hf_gpt2   the same without exceptions → result{code, message}
//   read_gpt_config(path, layout, options, config)   what the file says about its model (for
//                                             typeformer-inspect)
//   nanogpt_vocabulary(path)                  a character model's vocabulary (nanoGPT's meta.pkl,
//                                             kept by from-nanogpt) as tokenize::characters
//
// The file is read by the loader's own reader (safetensors.hpp: the same header checks, messages,
// statuses and NaN policy as tf::load), and the import is all-or-nothing like load: every tensor
// is checked (names, shapes, dtypes, offsets, finite values) before the first byte of the model
// is written, so on any error the model is unchanged.
//
// What the tensors cannot say is checked against the file's configuration: nanoGPT's
// `model_args` (kept in the file's metadata by tools/typeformer_torch.py from-nanogpt) or
// Hugging Face's config.json (options.config, else the config.json beside the weights, as
// transformers' from_pretrained reads it). The head count in particular changes no tensor's shape
// (W_q is [H·d_attn, d_e] either way); a file with no configuration is refused unless the caller
// passes `accept_no_config = true`. A difference is named as `H: file 2, model 4 (model_args'
// n_head)`.
//
// Mapping (layer l, 0-based; a leading `transformer.` or `_orig_mod.` is ignored):
//   wte.weight [N_V, d_e]                 → W_e (d_e, N_V), transposed
//   wpe.weight [n_pos, d_e], n_pos ≥ l_max → W_p (d_e, l_max): the first l_max positions
//   h.{l}.ln_1.weight|bias                → layers.{l}.ln1.gamma|beta      (ln_2 → ln2)
//   h.{l}.attn.c_attn.weight              → W_q, W_k, W_v: rows [0, d_e), [d_e, 2d_e), [2d_e, 3d_e)
//                                           of the fused [3·d_e, d_e] (nanoGPT) or columns of
//                                           [d_e, 3·d_e] (HF Conv1D); head h is the h-th block
//                                           of d_attn rows, as in both models' view(…, H, d_attn)
//   h.{l}.attn.c_attn.bias [3·d_e]        → b_q, b_k, b_v
//   h.{l}.attn.c_proj.weight|bias         → W_o, b_o
//   h.{l}.mlp.c_fc.weight|bias            → W_1, b_1;   h.{l}.mlp.c_proj.weight|bias → W_2, b_2
//   ln_f.weight|bias                      → ln_f.gamma|beta
//   lm_head.weight [N_V, d_e] (optional)  → W_u if the model is untied; with a tied model it
//                                           must equal wte.weight (both models tie them)
// A bias (or layer-norm β) the file lacks (nanoGPT with bias=False) is set to zero: the
// model then computes exactly what the bias-free original does. HF's attention-mask buffers
// (`attn.bias`, `attn.masked_bias`) are ignored; any other tensor the mapping does not use is
// an error (e.g. more layers in the file than L).
//
// Checked at compile time: a DTransformer with layer norm, learned positions, d_attn = d_mid =
// d_e / H; nanoGPT's GELU is nn.GELU() (erf). At run time, against the configuration: N_V, l_max
// ≤ the file's positions, L, H, d_e, d_mlp, the GELU form (HF's activation_function), ε (HF's
// layer_norm_epsilon; nanoGPT's LayerNorm is 1e-5).
//
// Host only: <string>, <vector>, <cstdio>, fmt, exceptions (try_* work without them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "../models/dtransformer.hpp"
#include "../params.hpp"
#include "../tokenize/characters.hpp"
#include "json.hpp"
#include "safetensors.hpp"

namespace typeformer::io {

enum class gpt_layout { nanogpt, hf_gpt2 };

// The metadata entry of a converted nanoGPT file that holds its character vocabulary: a JSON
// array of the characters of ids 0, 1, … (meta.pkl's itos), read by nanogpt_vocabulary.
inline constexpr std::string_view nanogpt_vocabulary_key = "nanogpt.vocabulary";

constexpr std::string_view layout_name(gpt_layout k) noexcept {
    return k == gpt_layout::nanogpt ? "nanoGPT" : "Hugging Face GPT-2";
}

struct import_options {
    // Hugging Face: the config.json to check the model against; empty: the config.json beside
    // the weights file, if there is one. (nanoGPT files carry model_args in their metadata.)
    std::filesystem::path config{};
    // Import a file that says nothing about its model (no model_args, no config.json): only the
    // tensors' shapes are then checked, and H, ε and the GELU form are taken from the model type
    // unchecked. (A configuration the file has is always checked.)
    bool accept_no_config = false;
    non_finite_values non_finite = non_finite_values::reject;
};

// What a GPT file's configuration says (each field when it says it), in typeformer's terms.
struct gpt_config {
    std::string source;  // "model_args", "'…/config.json'" or "" when there is none
    std::optional<std::size_t> N_V, n_positions, L, H, d_e, d_mlp;
    std::optional<gelu_kind> gelu;
    std::optional<double> eps;
    std::optional<bool> bias, tied;

    bool empty() const noexcept { return source.empty(); }
};

namespace detail {

template <class Model>
inline constexpr bool is_dtransformer = false;
template <class T, class cfg>
inline constexpr bool is_dtransformer<DTransformer<T, cfg>> = true;

// Where one model leaf comes from. The leaf is seen as rows × cols in file order (cols = its
// last file dim); a vector leaf is one row.
struct leaf_source {
    const tensor_entry* t = nullptr;  // null: zeros (a bias the file lacks)
    enum class mode { vector, out_in, in_out } how = mode::vector;
    std::size_t offset = 0;  // first row of the fused tensor (c_attn: q, k, v)
    std::size_t stride = 0;  // out_in: the source's row length; in_out: its row length
};

inline bool ignored_buffer(std::string_view name) noexcept {
    auto ends = [&](std::string_view s) {
        return name.size() >= s.size() && name.substr(name.size() - s.size()) == s;
    };
    return ends(".attn.bias") || ends(".attn.masked_bias");
}

inline std::string metadata_value(const metadata& md, std::string_view key) {
    for (const auto& [k, v] : md)
        if (k == key)
            return v;
    return {};
}

// The members of a JSON object that describe a GPT: nanoGPT's model_args or HF's config.json.
// Unknown members are skipped; a known one of the wrong type is an error.
inline bool parse_gpt_json(std::string_view text, gpt_layout layout, gpt_config& c,
                           std::string& error) {
    json::reader r(text);
    const bool hf = layout == gpt_layout::hf_gpt2;
    std::optional<std::size_t> n_inner;
    bool scale_attn = true, by_layer = false, cross = false;
    std::string activation;
    auto size = [&](std::optional<std::size_t>& out, std::string_view key) {
        std::uint64_t v = 0;
        if (!r.uint64(v, key))
            return false;
        out = static_cast<std::size_t>(v);
        return true;
    };
    auto flag = [&](bool& out, std::string_view key) {
        return r.peek() == json::kind::boolean
                   ? r.boolean(out)
                   : r.fail(std::string(key) + " must be true or false");
    };
    const bool ok = r.object([&](std::string& key) {
        if (key == "vocab_size")
            return size(c.N_V, key);
        if (key == (hf ? "n_positions" : "block_size"))
            return size(c.n_positions, key);
        if (key == "n_layer")
            return size(c.L, key);
        if (key == "n_head")
            return size(c.H, key);
        if (key == "n_embd")
            return size(c.d_e, key);
        if (!hf && key == "bias") {
            bool b = false;
            if (!flag(b, key))
                return false;
            c.bias = b;
            return true;
        }
        if (hf && key == "n_inner") {
            if (r.peek() == json::kind::null)
                return r.null();
            return size(n_inner, key);
        }
        if (hf && key == "layer_norm_epsilon") {
            double e = 0;
            if (r.peek() != json::kind::number || !r.number(e) || !std::isfinite(e) || e < 0)
                return r.fail("layer_norm_epsilon must be a number >= 0");
            c.eps = e;
            return true;
        }
        if (hf && key == "activation_function") {
            if (r.peek() != json::kind::string)
                return r.fail("activation_function must be a string");
            return r.string(activation);
        }
        if (hf && key == "tie_word_embeddings") {
            bool b = true;
            if (!flag(b, key))
                return false;
            c.tied = b;
            return true;
        }
        if (hf && key == "scale_attn_weights")
            return flag(scale_attn, key);
        if (hf && key == "scale_attn_by_inverse_layer_idx")
            return flag(by_layer, key);
        if (hf && key == "add_cross_attention")
            return flag(cross, key);
        return r.skip();
    });
    if (!ok || !r.finish()) {
        error = r.error();
        return false;
    }
    if (hf) {
        // GPT2Config's defaults for what the file leaves out
        if (!c.eps)
            c.eps = 1e-5;
        if (!c.tied)
            c.tied = true;
        if (c.d_e)
            c.d_mlp = n_inner ? *n_inner : 4 * *c.d_e;
        if (activation.empty())
            activation = "gelu_new";
        // transformers' ACT2FN: gelu_new, gelu_fast and gelu_pytorch_tanh are the tanh form
        // (the same formula); gelu is the exact erf form
        if (activation == "gelu_new" || activation == "gelu_fast" ||
            activation == "gelu_pytorch_tanh")
            c.gelu = gelu_kind::tanh;
        else if (activation == "gelu")
            c.gelu = gelu_kind::erf;
        else {
            error = fmt::format(
                "activation_function {} has no typeformer form (the GELU's erf "
                "or tanh form)",
                printable(activation));
            return false;
        }
        if (!scale_attn || by_layer || cross) {
            error =
                "scale_attn_weights = false, scale_attn_by_inverse_layer_idx = true or "
                "add_cross_attention = true: typeformer's attention is Algorithm 4's, scaled "
                "by 1/sqrt(d_attn) in every layer, without cross-attention";
            return false;
        }
    } else {
        // nanoGPT's model.py: LayerNorm(…, eps=1e-5), nn.GELU(), MLP of 4·n_embd, lm_head tied
        c.eps = 1e-5, c.gelu = gelu_kind::erf, c.tied = true;
        if (c.d_e)
            c.d_mlp = 4 * *c.d_e;
    }
    return true;
}

inline result read_text_file(const std::filesystem::path& path, std::string& text) {
    const std::string src = printable(path.string());
    std::string problem;
    std::FILE* f = open_regular_file(path, problem);  // a FIFO is refused, never waited on
    if (!f)
        return make_error(status::io_error, src, problem);
    char buf[1 << 14];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) {
        text.append(buf, n);
        if (text.size() > max_header_size) {
            std::fclose(f);
            return make_error(status::malformed_header, src, "larger than 100 MB: not a config");
        }
    }
    const bool bad = std::ferror(f) != 0;
    std::fclose(f);
    if (bad)
        return make_error(status::io_error, src, "read error");
    return {};
}

inline result gpt_config_of(const std::filesystem::path& path, const metadata& md,
                            gpt_layout layout, const import_options& opt, gpt_config& c) {
    c = gpt_config{};
    const std::string src = printable(path.string());
    if (layout == gpt_layout::nanogpt) {
        const std::string args = metadata_value(md, "model_args");
        if (args.empty())
            return {};
        std::string error;
        if (!parse_gpt_json(args, layout, c, error))
            return make_error(status::malformed_header, src,
                              "malformed model_args in the metadata: " + error);
        c.source = "model_args";
        return {};
    }
    std::filesystem::path config = opt.config;
    if (config.empty()) {
        config = path.parent_path() / "config.json";
        std::error_code ec;
        if (!std::filesystem::is_regular_file(config, ec))
            return {};
    }
    std::string text;
    if (auto r = read_text_file(config, text); !r)
        return r;
    std::string error;
    c.source = printable(config.string());
    if (invalid_utf8_at(text) != std::string_view::npos)
        error = "not valid UTF-8";
    if (!error.empty() || !parse_gpt_json(text, layout, c, error))
        return make_error(status::malformed_header, c.source, "malformed config: " + error);
    return {};
}

// The first disagreement between a configuration and the model type, "" if none.
template <class Model>
std::string config_difference(const gpt_config& c, bool has_biases) {
    using tr = typename Model::traits;
    const std::string from = c.source == "model_args" ? "model_args'" : "config.json's";
    auto differs = [&](std::string_view dim, const std::optional<std::size_t>& file,
                       std::size_t model, std::string_view key) {
        return file && *file != model
                   ? fmt::format("{}: file {}, model {} ({} {})", dim, *file, model, from, key)
                   : std::string{};
    };
    const bool hf = c.source != "model_args";
    for (std::string d :
         {differs("N_V", c.N_V, tr::N_V::size, "vocab_size"), differs("L", c.L, tr::L, "n_layer"),
          differs("H", c.H, tr::H::size, "n_head"), differs("d_e", c.d_e, tr::d_e::size, "n_embd"),
          differs("d_mlp", c.d_mlp, tr::d_mlp::size, hf ? "n_inner" : "4·n_embd")})
        if (!d.empty())
            return d;
    if (c.n_positions && *c.n_positions < tr::l_max::size)
        return fmt::format("l_max: file {} positions, model {} ({} {})", *c.n_positions,
                           tr::l_max::size, from, hf ? "n_positions" : "block_size");
    if (c.gelu && *c.gelu != tr::gelu)
        return fmt::format("gelu: file {}, model {} ({} {})", gelu_text(*c.gelu),
                           gelu_text(tr::gelu), from,
                           hf ? "activation_function" : "nn.GELU() in model.py");
    if (c.eps && *c.eps != tr::eps)
        return fmt::format("eps: file {}, model {} ({} {})", *c.eps, tr::eps, from,
                           hf ? "layer_norm_epsilon" : "LayerNorm in model.py");
    if (c.bias && *c.bias && !has_biases)
        return fmt::format("bias: {} says true, but the file has no biases", from);
    return {};
}

template <class Model>
result try_import_gpt(Model& model, const std::filesystem::path& path, gpt_layout layout,
                      const import_options& opt) {
    using traits = typename Model::traits;
    const std::string src = printable(path.string());
    const std::string_view lname = layout_name(layout);
    open_file file;
    if (auto r = open_safetensors(path, src, file); !r)
        return r;
    parsed_header header;
    if (auto r = parse_header(file.header, src, header); !r)
        return r;
    {
        problem_list problems;
        std::vector<std::size_t> by_name;
        if (auto r = check_entries(header, file.data_len, src, problems, by_name); !r)
            return r;
        if (!problems.empty())
            return report(problems, src);
    }
    signature sig;
    if (const auto r = read_signature(header.metadata, sig); !r.ok)
        return make_error(status::malformed_header, src, r.problem);
    if (!sig.empty())
        return make_error(status::foreign_layout, src,
                          fmt::format("this is a typeformer weights file ({}): read it with "
                                      "tf::load(model, path)",
                                      describe(sig)));

    // Index by stripped name.
    auto& tensors = header.tensors;
    auto find = [&](const std::string& name) -> tensor_entry* {
        for (auto& t : tensors)
            if (strip_prefixes(t.name) == name)
                return &t;
        return nullptr;
    };

    // The configuration: what the tensors cannot say.
    gpt_config config;
    if (auto r = gpt_config_of(path, header.metadata, layout, opt, config); !r)
        return r;
    if (config.empty() && !opt.accept_no_config)
        return make_error(
            status::unchecked_signature, src,
            fmt::format("the {0} file says nothing about its model ({1}), so its head count, ε "
                        "and GELU form cannot be checked: the tensors have the same shapes for "
                        "any H with H·d_attn = d_e. {2}, or pass accept_no_config = true "
                        "(typeformer-generate: --accept-no-config) to import it as H = {3}, "
                        "eps = {4}, gelu = {5} unchecked",
                        lname,
                        layout == gpt_layout::nanogpt ? "no model_args in its metadata"
                                                      : "no config.json beside it",
                        layout == gpt_layout::nanogpt
                            ? "Convert the checkpoint with `tools/typeformer_torch.py "
                              "from-nanogpt ckpt.pt` (it keeps model_args)"
                            : "Put the model's config.json beside it or pass its path "
                              "(import_options::config)",
                        traits::H::size, traits::eps, gelu_text(traits::gelu)));
    if (!config.empty()) {
        bool has_biases = false;
        for (const auto& t : tensors)
            has_biases = has_biases ||
                         (strip_prefixes(t.name).ends_with(".bias") && !ignored_buffer(t.name));
        if (const std::string d = config_difference<Model>(config, has_biases); !d.empty())
            return make_error(status::signature_mismatch, src,
                              fmt::format("another model type, {}", d));
    }

    constexpr std::size_t d_e = traits::d_e::size, H = traits::H::size,
                          d_attn = traits::d_attn::size, d_mid = traits::d_mid::size,
                          N_V = traits::N_V::size, l_max = traits::l_max::size;
    constexpr std::size_t fused = 2 * H * d_attn + H * d_mid;  // c_attn's output rows
    const bool hf = layout == gpt_layout::hf_gpt2;
    // Biases may be absent only where the configuration allows it (nanoGPT's bias=False) or
    // says nothing.
    const bool biases_optional = !config.bias || !*config.bias;

    std::vector<leaf_source> plan;
    result failure;
    auto fail = [&](status s, std::string what) {
        if (failure)
            failure = make_error(s, src, what);
    };

    for_each_param(model, [&](const param_name& name, const auto& leaf) {
        if (!failure)
            return;
        constexpr auto fshape = file_shape<decltype(leaf)>;
        const std::size_t cols = fshape.dims[fshape.rank - 1];
        const std::size_t rows = fshape.elements() / cols;
        const std::string_view n = name.view();
        const std::string_view part = name.leaf();
        std::string layer_prefix;  // "h.{l}."
        if (n.substr(0, 7) == "layers.") {
            const auto dot = n.find('.', 7);
            layer_prefix = fmt::format("h.{}.", n.substr(7, dot - 7));
        }
        const std::string_view block =
            layer_prefix.empty() ? n : n.substr(n.find('.', 7) + 1);  // "attn.W_q", "ln1.gamma"

        leaf_source s;
        std::string want_name;
        std::vector<std::uint64_t> want;
        bool optional = false;
        if (n == "W_e") {  // (d_e, N_V) ← wte [N_V, d_e]
            want_name = "wte.weight";
            want = {N_V, d_e};
            s.how = leaf_source::mode::in_out;
            s.stride = d_e;
        } else if (n == "W_p") {  // (d_e, l_max) ← wpe [n_pos ≥ l_max, d_e]
            want_name = "wpe.weight";
            want = {l_max, d_e};
            s.how = leaf_source::mode::in_out;
            s.stride = d_e;
        } else if (n == "W_u") {  // (N_V, d_e) ← lm_head, or wte when the file ties them
            want_name = find("lm_head.weight") ? "lm_head.weight" : "wte.weight";
            want = {N_V, d_e};
            s.how = leaf_source::mode::out_in;
            s.stride = d_e;
        } else {
            // Layer norms (ln1, ln2, ln_f) and the layers' linear maps.
            const bool is_bias = part.starts_with("b_") || part == "beta";
            const bool is_vector = is_bias || part == "gamma";
            std::string base;
            std::size_t total = is_vector ? fshape.elements() : rows;  // the source's out size
            if (block.starts_with("ln1."))
                base = layer_prefix + "ln_1";
            else if (block.starts_with("ln2."))
                base = layer_prefix + "ln_2";
            else if (block.starts_with("ln_f."))
                base = "ln_f";
            else if (block.starts_with("attn.") && part != "W_o" && part != "b_o") {
                base = layer_prefix + "attn.c_attn";  // fused q, k, v
                total = fused;
                s.offset = (part[2] == 'q' ? 0 : part[2] == 'k' ? H * d_attn : 2 * H * d_attn);
            } else if (block.starts_with("attn."))
                base = layer_prefix + "attn.c_proj";
            else if (block == "mlp.W_1" || block == "mlp.b_1")
                base = layer_prefix + "mlp.c_fc";
            else
                base = layer_prefix + "mlp.c_proj";
            want_name = base + (is_bias ? ".bias" : ".weight");
            optional = is_bias && biases_optional;
            if (is_vector) {
                s.how = leaf_source::mode::vector;
                want = {total};
            } else if (hf) {  // Conv1D: [in, out]
                s.how = leaf_source::mode::in_out;
                s.stride = total;
                want = {cols, total};
            } else {  // nn.Linear: [out, in]
                s.how = leaf_source::mode::out_in;
                s.stride = cols;
                want = {total, cols};
            }
        }
        tensor_entry* t = find(want_name);
        if (!t) {
            if (optional) {
                plan.push_back(s);  // zeros
                return;
            }
            fail(status::missing_tensor,
                 fmt::format("the {} file has no {} (for {} of this model)", lname, want_name, n));
            return;
        }
        if (const auto* d = find_dtype(t->dtype); !d->loadable) {
            fail(status::bad_dtype,
                 fmt::format("tensor {}: dtype {} is not supported (F32, F64, BF16 and F16 are)",
                             printable(t->name), t->dtype));
            return;
        }
        t->used = true;
        const bool fits = n == "W_p"
                              ? t->shape.size() == 2 && t->shape[0] >= l_max && t->shape[1] == d_e
                              : t->shape == want;
        if (!fits) {
            fail(status::shape_mismatch,
                 fmt::format("tensor {} has shape {} but {} [{}] of this model needs {} ({} "
                             "layout)",
                             printable(t->name), shape_string(t->shape), n,
                             fmt::join(fshape.dims, ", "), shape_string(want), lname));
            return;
        }
        s.t = t;
        plan.push_back(s);
    });
    if (!failure)
        return failure;

    // Everything the mapping did not read is an error, but the ignored buffers and a tied
    // lm_head (checked below).
    tensor_entry* lm_head = find("lm_head.weight");
    const tensor_entry* wte = find("wte.weight");
    for (auto& t : tensors) {
        if (t.used || ignored_buffer(t.name) || &t == lm_head)
            continue;
        return make_error(status::unexpected_tensor, src,
                          fmt::format("tensor {} {} is not used by this model ({} layout, L = {})",
                                      printable(t.name), shape_string(t.shape), lname, Model::L));
    }
    const bool compare_lm_head =
        lm_head && !lm_head->used;  // the model is tied: so must be the file
    if (compare_lm_head && lm_head->shape != wte->shape)
        return make_error(status::shape_mismatch, src,
                          fmt::format("tensor {} has shape {} but wte.weight has {}; this "
                                      "model ties W_u = W_eᵀ",
                                      printable(lm_head->name), shape_string(lm_head->shape),
                                      shape_string(wte->shape)));

    std::vector<std::byte> data;
    if (auto r = read_data(file, src, data); !r)
        return r;
    if (opt.non_finite == non_finite_values::reject) {
        finite_check check;
        for (const auto& t : tensors)
            if (t.used)
                check.scan(t, data.data(), std::is_same_v<typename Model::value_type, double>);
        if (!check.problems.empty())
            return report(check.problems, src);
    }
    if (compare_lm_head)
        for (std::size_t k = 0, n = N_V * d_e; k < n; ++k)
            if (read_element(find_dtype(lm_head->dtype)->as_dtype, data.data() + lm_head->begin,
                             k) !=
                read_element(find_dtype(wte->dtype)->as_dtype, data.data() + wte->begin, k))
                return make_error(status::unexpected_tensor, src,
                                  fmt::format("tensor {} differs from wte.weight, but this model "
                                              "ties W_u = W_eᵀ (use a config without tied)",
                                              printable(lm_head->name)));

    // All checked: copy (cannot fail).
    std::size_t i = 0;
    for_each_param(model, [&](const param_name&, auto& leaf) {
        using Leaf = std::remove_cvref_t<decltype(leaf)>;
        constexpr auto fshape = file_shape<Leaf>;
        const std::size_t cols = fshape.dims[fshape.rank - 1];
        const leaf_source& s = plan[i++];
        auto* d = leaf.data();
        // the dtype resolved once per tensor, not per element
        const dtype dt = s.t ? find_dtype(s.t->dtype)->as_dtype : dtype::f32;
        const std::byte* src = s.t ? data.data() + s.t->begin : nullptr;
        for (std::size_t k = 0; k < leaf_elements<Leaf>; ++k) {
            const std::size_t r = k / cols, c = k % cols;
            double v = 0;
            if (s.t) {
                switch (s.how) {
                    case leaf_source::mode::vector:
                        v = read_element(dt, src, s.offset + k);
                        break;
                    case leaf_source::mode::out_in:
                        v = read_element(dt, src, (s.offset + r) * s.stride + c);
                        break;
                    case leaf_source::mode::in_out:
                        v = read_element(dt, src, c * s.stride + s.offset + r);
                        break;
                }
            }
            d[file_to_storage_index<Leaf>(k)] = static_cast<typename Leaf::value_type>(v);
        }
    });
    return {};
}

template <class Model>
constexpr void check_gpt_target(gpt_layout layout) {
    static_assert(is_dtransformer<Model>, "GPT importers map onto a DTransformer");
    using traits = typename Model::traits;
    static_assert(traits::norm == norm_kind::layer_norm,
                  "GPT checkpoints use layer norm: remove `norm = rms_norm` from the config");
    static_assert(traits::positional == positional_kind::learned,
                  "GPT checkpoints learn their positions (wpe): remove `positional = sinusoidal`");
    static_assert(traits::d_attn::size == traits::d_mid::size &&
                      traits::H::size * traits::d_attn::size == traits::d_e::size,
                  "GPT checkpoints have d_attn = d_mid = d_e / H");
    (void)layout;
}

}  // namespace detail

// What a GPT file says about its model: nanoGPT's model_args, or the Hugging Face config.json
// (options.config, else beside the file); `config.empty()` when it says nothing.
inline result read_gpt_config(const std::filesystem::path& path, gpt_layout layout,
                              const import_options& opt, gpt_config& config) {
    metadata md;
    if (auto r = try_read_metadata(path, md); !r)
        return r;
    return detail::gpt_config_of(path, md, layout, opt, config);
}

// What a GPT file's tensors say (no configuration): N_V, positions, L, d_e, d_mlp, tied; H, ε
// and the GELU form stay unknown. `source` is "the tensors".
inline gpt_config gpt_config_from_tensors(const detail::parsed_header& header, gpt_layout layout) {
    gpt_config c;
    c.source = "the tensors";
    std::size_t layers = 0;
    bool lm_head = false;
    for (const auto& t : header.tensors) {
        const std::string_view n = detail::strip_prefixes(t.name);
        const auto& sh = t.shape;
        if (n == "wte.weight" && sh.size() == 2)
            c.N_V = sh[0], c.d_e = sh[1];
        else if (n == "wpe.weight" && sh.size() == 2)
            c.n_positions = sh[0];
        else if (n == "lm_head.weight")
            lm_head = true;
        else if (n == "h.0.mlp.c_fc.weight" && sh.size() == 2)
            c.d_mlp = layout == gpt_layout::nanogpt ? sh[0] : sh[1];
        if (n.starts_with("h.")) {
            std::size_t l = 0;
            for (std::size_t k = 2; k < n.size() && n[k] >= '0' && n[k] <= '9'; ++k)
                l = l * 10 + static_cast<std::size_t>(n[k] - '0');
            layers = std::max(layers, l + 1);
        }
    }
    if (layers)
        c.L = layers;
    c.tied = !lm_head;
    return c;
}

// The signature a GPT configuration describes (a DTransformer with layer norm and learned
// positions, d_attn = d_mid = d_e / H, l_max = its positions); H = 0 and the defaults of
// gelu and ε where it does not say them.
inline signature gpt_signature(const gpt_config& c) {
    signature s;
    s.architecture = "DTransformer";
    s.N_V = c.N_V.value_or(0), s.l_max = c.n_positions.value_or(0), s.L = c.L.value_or(0);
    s.H = c.H.value_or(0), s.d_e = c.d_e.value_or(0), s.d_mlp = c.d_mlp.value_or(0);
    s.d_attn = s.d_mid = s.H ? s.d_e / s.H : 0;
    s.tied = c.tied.value_or(true);
    s.gelu = c.gelu.value_or(gelu_kind::erf);
    s.eps = c.eps.value_or(1e-5);
    detail::fill_unused(s);
    return s;
}

template <class Model>
    requires detail::is_dtransformer<Model> result try_import_nanogpt(
        Model& model, const std::filesystem::path& path, const import_options& opt = {}) {
        detail::check_gpt_target<Model>(gpt_layout::nanogpt);
        static_assert(Model::traits::gelu == gelu_kind::erf,
                      "nanoGPT's MLP uses nn.GELU(), the erf form: remove `gelu = tanh` from the "
                      "config (tf::gelu_kind::erf is the default)");
        return detail::try_import_gpt(model, path, gpt_layout::nanogpt, opt);
    }

template <class Model>
    requires detail::is_dtransformer<Model> result try_import_hf_gpt2(
        Model& model, const std::filesystem::path& path, const import_options& opt = {}) {
        detail::check_gpt_target<Model>(gpt_layout::hf_gpt2);
        return detail::try_import_gpt(model, path, gpt_layout::hf_gpt2, opt);
    }

#if TYPEFORMER_HAS_EXCEPTIONS
namespace detail {
inline std::optional<tokenize::characters> nanogpt_vocabulary_of(const metadata& md,
                                                                 std::string_view src) {
    for (const auto& [k, v] : md)
        if (k == nanogpt_vocabulary_key)
            return tokenize::characters::from_json(
                v, fmt::format("{}'s {}", src, nanogpt_vocabulary_key));
    return std::nullopt;
}
}  // namespace detail

// nanoGPT's character vocabulary (meta.pkl's itos) that `typeformer_torch.py from-nanogpt`
// keeps in a converted file's metadata (nanogpt_vocabulary_key) as a tokenizer; std::nullopt when
// the file has none (a GPT-2-vocabulary model, or one converted without its meta.pkl). io::error
// when the file cannot be read, std::invalid_argument naming the file when the vocabulary is
// malformed.
inline std::optional<tokenize::characters> nanogpt_vocabulary(const std::filesystem::path& path) {
    metadata md;
    if (auto r = try_read_metadata(path, md); !r)
        throw error(r.code, r.message);
    return detail::nanogpt_vocabulary_of(md, detail::printable(path.string()));
}

template <class Model>
    requires detail::is_dtransformer<Model>
void import_nanogpt(Model& model, const std::filesystem::path& path,
                    const import_options& opt = {}) {
    if (auto r = try_import_nanogpt(model, path, opt); !r)
        throw error(r.code, r.message);
}

template <class Model>
    requires detail::is_dtransformer<Model>
void import_hf_gpt2(Model& model, const std::filesystem::path& path,
                    const import_options& opt = {}) {
    if (auto r = try_import_hf_gpt2(model, path, opt); !r)
        throw error(r.code, r.message);
}
#endif

// ---- a call of no form above: GPT weights need a DTransformer (shape_error.hpp) ----

namespace detail {
template <class Model>
constexpr auto import_error() {
    using namespace ::typeformer::detail;
    if constexpr (architecture<std::remove_cvref_t<Model>>)
        return check_architecture<DTransformer, std::remove_cvref_t<Model>>();
    else
        return check_parameters<Model>();
}
}  // namespace detail
#define TYPEFORMER_IMPORT_FALLBACK(f)                                         \
    template <class Model, class... A>                                        \
        requires(!detail::is_dtransformer<std::remove_cvref_t<Model>>)        \
    auto f(Model&& model, const std::filesystem::path& path, A&&... args)     \
        ->decltype(::typeformer::detail::shape_error_of<::typeformer::in::f>( \
            detail::import_error<Model>()))
TYPEFORMER_IMPORT_FALLBACK(try_import_nanogpt);
TYPEFORMER_IMPORT_FALLBACK(try_import_hf_gpt2);
#if TYPEFORMER_HAS_EXCEPTIONS
TYPEFORMER_IMPORT_FALLBACK(import_nanogpt);
TYPEFORMER_IMPORT_FALLBACK(import_hf_gpt2);
#endif
#undef TYPEFORMER_IMPORT_FALLBACK

}  // namespace typeformer::io
