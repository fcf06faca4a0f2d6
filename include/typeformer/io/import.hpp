// Importers: GPT checkpoints in the layouts people have, as safetensors, onto DTransformer.
//
//   import_nanogpt(model, path)   nanoGPT's GPT (model.py): nn.Linear weights [out, in]
//   import_hf_gpt2(model, path)   Hugging Face GPT2Model / GPT2LMHeadModel: Conv1D weights [in, out]
//   try_import_nanogpt / try_import_hf_gpt2   the same without exceptions → result{code, message}
//
// Both are all-or-nothing like load: every tensor is checked (names, shapes, dtypes, offsets)
// before the first byte of the model is written, so on any error the model is unchanged. The
// error names the first file tensor that does not fit, with its shape and the shape the target
// type needs.
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
// The target type must match the model's variant, checked at compile time: layer norm, learned
// positions, GELU erf (nanoGPT's nn.GELU()) or tanh (HF's gelu_new), ε = 1e-5 (both models'
// default; a checkpoint trained with another ε needs that ε in the config), d_attn = d_mid.
//
// Host only: <string>, <vector>, <cstdio>, fmt, exceptions (try_* work without them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "../models/dtransformer.hpp"
#include "../params.hpp"
#include "safetensors.hpp"

namespace typeformer::io {

enum class gpt_layout { nanogpt, hf_gpt2 };

constexpr std::string_view layout_name(gpt_layout k) noexcept {
    return k == gpt_layout::nanogpt ? "nanoGPT" : "Hugging Face GPT-2";
}

namespace detail {

template <class Model>
inline constexpr bool is_dtransformer = false;
template <class T, class cfg>
inline constexpr bool is_dtransformer<DTransformer<T, cfg>> = true;

// One source tensor's element k (row-major), whatever its dtype.
inline double read_element(const tensor_entry& t, const std::byte* data, std::size_t k) noexcept {
    const std::byte* p = data + t.begin;
    switch (find_dtype(t.dtype)->as_dtype) {
        case dtype::f32:
            return std::bit_cast<float>(le32(p + 4 * k));
        case dtype::f64:
            return std::bit_cast<double>(le64(p + 8 * k));
        case dtype::bf16:
            return bf16_to_float(le16(p + 2 * k));
        case dtype::f16:
            return f16_to_float(le16(p + 2 * k));
    }
    return 0;
}

// Where one model leaf comes from. The leaf is seen as rows × cols in file order (cols = its
// last file dim); a vector leaf is one row.
struct leaf_source {
    const tensor_entry* t = nullptr;  // null: zeros (a bias the file lacks)
    enum class mode { vector, out_in, in_out } how = mode::vector;
    std::size_t offset = 0;  // first row of the fused tensor (c_attn: q, k, v)
    std::size_t stride = 0;  // out_in: the source's row length; in_out: its row length
};

inline std::string shape_text(const std::vector<std::uint64_t>& s) {
    return fmt::format("[{}]", fmt::join(s, ", "));
}

struct foreign_file {
    parsed_header header;
    std::vector<std::byte> data;  // the tensors' bytes
};

inline result read_foreign(const std::filesystem::path& path, foreign_file& f) {
    const std::string src = printable(path.string());
    std::FILE* fp = std::fopen(path.string().c_str(), "rb");
    if (!fp)
        return make_error(status::io_error, src, errno_text(errno));
    std::vector<std::byte> bytes;
    std::error_code ec;
    if (const auto size = std::filesystem::file_size(path, ec); !ec)
        bytes.reserve(static_cast<std::size_t>(size));  // GPT-2 small: 500 MB, one allocation
    std::byte buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, fp)) > 0;)
        bytes.insert(bytes.end(), buf, buf + n);
    const bool read_error = std::ferror(fp) != 0;
    std::fclose(fp);
    if (read_error)
        return make_error(status::io_error, src, "read error");
    if (bytes.size() < 8)
        return make_error(
            status::malformed_header, src,
            fmt::format("{} bytes is too short for a safetensors file", bytes.size()));
    const std::uint64_t n = le64(bytes.data());
    if (n > bytes.size() - 8 || n < 2 || n > max_header_size)
        return make_error(
            status::malformed_header, src,
            fmt::format("header length {} does not fit the file's {} bytes", n, bytes.size()));
    const std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8),
                                static_cast<std::size_t>(n));
    if (invalid_utf8_at(text) != std::string_view::npos)
        return make_error(status::malformed_header, src, "the header is not valid UTF-8");
    header_parser parser(text);
    if (!parser.parse(f.header))
        return make_error(status::malformed_header, src, "malformed header: " + parser.error());
    f.data.assign(bytes.begin() + 8 + static_cast<std::ptrdiff_t>(n), bytes.end());
    return {};
}

inline std::string_view strip_prefixes(std::string_view name) noexcept {
    for (std::string_view p : {std::string_view("_orig_mod."), std::string_view("transformer.")})
        if (name.substr(0, p.size()) == p)
            name.remove_prefix(p.size());
    return name;
}

inline bool ignored_buffer(std::string_view name) noexcept {
    auto ends = [&](std::string_view s) {
        return name.size() >= s.size() && name.substr(name.size() - s.size()) == s;
    };
    return ends(".attn.bias") || ends(".attn.masked_bias");
}

template <class Model>
result try_import_gpt(Model& model, const std::filesystem::path& path, gpt_layout layout) {
    using traits = typename Model::traits;
    const std::string src = printable(path.string());
    const std::string_view lname = layout_name(layout);
    foreign_file file;
    if (auto r = read_foreign(path, file); !r)
        return r;

    // Index by stripped name; check dtype and offsets of every tensor we may read.
    auto& tensors = file.header.tensors;
    auto find = [&](const std::string& name) -> tensor_entry* {
        for (auto& t : tensors)
            if (strip_prefixes(t.name) == name)
                return &t;
        return nullptr;
    };
    for (auto& t : tensors) {
        if (ignored_buffer(t.name))
            continue;
        const file_dtype_info* d = find_dtype(t.dtype);
        if (!d || !d->loadable)
            return make_error(status::bad_dtype, src,
                              fmt::format("tensor {} has dtype {}, not F32, F64, BF16 or F16",
                                          printable(t.name), printable(t.dtype)));
        std::uint64_t count = 1;
        for (auto s : t.shape)
            count *= s;
        if (t.begin > t.end || t.end > file.data.size() || t.end - t.begin != count * d->size)
            return make_error(
                status::bad_offsets, src,
                fmt::format("tensor {}: data_offsets [{}, {}] do not hold {} {} "
                            "values within the {} data bytes",
                            printable(t.name), t.begin, t.end, count, t.dtype, file.data.size()));
    }

    constexpr std::size_t d_e = traits::d_e::size, H = traits::H::size,
                          d_attn = traits::d_attn::size, d_mid = traits::d_mid::size,
                          N_V = traits::N_V::size, l_max = traits::l_max::size;
    constexpr std::size_t fused = 2 * H * d_attn + H * d_mid;  // c_attn's output rows
    const bool hf = layout == gpt_layout::hf_gpt2;

    std::vector<leaf_source> plan;
    result failure;
    auto fail = [&](status s, std::string what) {
        if (failure)
            failure = make_error(s, src, what);
    };
    auto mismatch = [&](const tensor_entry& t, std::string_view target,
                        const std::vector<std::uint64_t>& want) {
        fail(status::shape_mismatch,
             fmt::format("tensor {} has shape {} but {} of this model needs {} ({} layout)",
                         printable(t.name), shape_text(t.shape), target, shape_text(want), lname));
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
            optional = is_bias;
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
        t->used = true;
        const bool fits = n == "W_p"
                              ? t->shape.size() == 2 && t->shape[0] >= l_max && t->shape[1] == d_e
                              : t->shape == want;
        if (!fits) {
            mismatch(*t, fmt::format("{} [{}]", n, fmt::join(fshape.dims, ", ")), want);
            return;
        }
        s.t = t;
        plan.push_back(s);
    });
    if (!failure)
        return failure;

    // Everything the mapping did not read is an error, but the ignored buffers and a tied
    // lm_head (checked below).
    const tensor_entry* lm_head = find("lm_head.weight");
    const tensor_entry* wte = find("wte.weight");
    for (auto& t : tensors) {
        if (t.used || ignored_buffer(t.name) || &t == lm_head)
            continue;
        return make_error(status::unexpected_tensor, src,
                          fmt::format("tensor {} {} is not used by this model ({} layout, L = {})",
                                      printable(t.name), shape_text(t.shape), lname, Model::L));
    }
    if (lm_head && !lm_head->used) {  // the model is tied: the file must be too
        if (lm_head->shape != wte->shape)
            return make_error(status::shape_mismatch, src,
                              fmt::format("tensor {} has shape {} but wte.weight has {}; this "
                                          "model ties W_u = W_eᵀ",
                                          printable(lm_head->name), shape_text(lm_head->shape),
                                          shape_text(wte->shape)));
        for (std::size_t k = 0; k < N_V * d_e; ++k)
            if (read_element(*lm_head, file.data.data(), k) !=
                read_element(*wte, file.data.data(), k))
                return make_error(status::unexpected_tensor, src,
                                  fmt::format("tensor {} differs from wte.weight, but this model "
                                              "ties W_u = W_eᵀ (use a config without tied)",
                                              printable(lm_head->name)));
    }

    // All checked: copy (cannot fail).
    std::size_t i = 0;
    for_each_param(model, [&](const param_name&, auto& leaf) {
        using Leaf = std::remove_cvref_t<decltype(leaf)>;
        constexpr auto fshape = file_shape<Leaf>;
        const std::size_t cols = fshape.dims[fshape.rank - 1];
        const leaf_source& s = plan[i++];
        auto* d = leaf.data();
        for (std::size_t k = 0; k < leaf_elements<Leaf>; ++k) {
            const std::size_t r = k / cols, c = k % cols;
            double v = 0;
            if (s.t) {
                switch (s.how) {
                    case leaf_source::mode::vector:
                        v = read_element(*s.t, file.data.data(), s.offset + k);
                        break;
                    case leaf_source::mode::out_in:
                        v = read_element(*s.t, file.data.data(), (s.offset + r) * s.stride + c);
                        break;
                    case leaf_source::mode::in_out:
                        v = read_element(*s.t, file.data.data(), c * s.stride + s.offset + r);
                        break;
                }
            }
            d[file_to_storage_index<Leaf>(k)] = static_cast<typename Leaf::value_type>(v);
        }
    });
    return {};
}

template <class Model, gelu_kind Gelu>
constexpr void check_gpt_target() {
    static_assert(is_dtransformer<Model>, "GPT importers map onto a DTransformer");
    using traits = typename Model::traits;
    static_assert(traits::norm == norm_kind::layer_norm,
                  "GPT checkpoints use layer norm: remove `norm = rms_norm` from the config");
    static_assert(traits::positional == positional_kind::learned,
                  "GPT checkpoints learn their positions (wpe): remove `positional = sinusoidal`");
    static_assert(traits::gelu == Gelu,
                  "the config's GELU form does not match the checkpoint's: nanoGPT uses "
                  "nn.GELU() (gelu = tf::gelu_kind::erf, the default), Hugging Face GPT-2 the "
                  "tanh form (gelu = tf::gelu_kind::tanh)");
    static_assert(traits::d_attn::size == traits::d_mid::size &&
                      traits::H::size * traits::d_attn::size == traits::d_e::size,
                  "GPT checkpoints have d_attn = d_mid = d_e / H");
}

}  // namespace detail

template <class Model>
result try_import_nanogpt(Model& model, const std::filesystem::path& path) {
    detail::check_gpt_target<Model, gelu_kind::erf>();
    return detail::try_import_gpt(model, path, gpt_layout::nanogpt);
}

template <class Model>
result try_import_hf_gpt2(Model& model, const std::filesystem::path& path) {
    detail::check_gpt_target<Model, gelu_kind::tanh>();
    return detail::try_import_gpt(model, path, gpt_layout::hf_gpt2);
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class Model>
void import_nanogpt(Model& model, const std::filesystem::path& path) {
    if (auto r = try_import_nanogpt(model, path); !r)
        throw error(r.code, r.message);
}

template <class Model>
void import_hf_gpt2(Model& model, const std::filesystem::path& path) {
    if (auto r = try_import_hf_gpt2(model, path); !r)
        throw error(r.code, r.message);
}
#endif

}  // namespace typeformer::io
