// A model's signature: every dimension and variant that decides what a weights file means, so a
// file says which model type it holds and a loader can refuse another one by name.
//
//   signature_of<Model>()                  the type's signature
//   write_signature(sig, md)               appends the "typeformer.*" entries to a file's metadata
//   read_signature(md, sig) -> result      found: sig filled; absent: sig.architecture empty;
//                                          a malformed entry: malformed_header naming it
//   first_difference(file, model)          "H: file 2, model 4" (the first field that differs, in
//                                          the order below), "" when they agree
//   describe(sig)                          "DTransformer<f32> N_V=50257 l_max=1024 L=12 H=12 …"
//   config_struct(sig, name)               the C++ config struct to paste
//
// In the file, one "__metadata__" entry per field, values as text (safetensors' metadata holds
// strings only), only the fields the architecture uses:
//   typeformer.architecture   DTransformer | ETransformer | EDTransformer
//   typeformer.scalar         f32 | f64 (the model type that wrote the file; load converts)
//   typeformer.N_V, .l_max, .L (D, E) or .L_enc, .L_dec (ED), .H, .d_e, .d_mlp, .d_attn, .d_mid,
//   .d_f (E)                  decimal integers
//   typeformer.norm           layer_norm | rms_norm
//   typeformer.positional     learned | sinusoidal
//   typeformer.tied           true | false
//   typeformer.gelu           erf | tanh (D, E; Algorithm 8 uses ReLU)
//   typeformer.eps            the layer-norm ε, shortest text that reads back to the same double
// Checkpoints written before these entries existed carry one line, "typeformer.model"
// (legacy_text below); read_signature reads it too.
//
// Host only: <string>, fmt.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "../models/config.hpp"
#include "../shape_error.hpp"

namespace typeformer::io {

// The "__metadata__" entries of a file (besides "format": "pt", which every file has).
using metadata = std::vector<std::pair<std::string, std::string>>;

struct signature {
    std::string architecture;  // "" when a file has none
    std::string scalar = "f32";
    std::size_t N_V = 0, l_max = 0, L = 0, L_enc = 0, L_dec = 0, H = 0, d_e = 0, d_mlp = 0,
                d_attn = 0, d_mid = 0, d_f = 0;
    norm_kind norm = norm_kind::layer_norm;
    positional_kind positional = positional_kind::learned;
    bool tied = false;
    gelu_kind gelu = gelu_kind::erf;
    double eps = 1e-5;

    bool empty() const noexcept { return architecture.empty(); }
    bool is_ed() const noexcept { return architecture == "EDTransformer"; }
    bool is_e() const noexcept { return architecture == "ETransformer"; }
};

namespace detail {

template <class Model>
concept signed_model = requires {
    typename Model::traits;
    typename Model::value_type;
    { Model::name } -> std::convertible_to<const char*>;
}
&&(std::string_view(Model::name) == "DTransformer" ||
   std::string_view(Model::name) == "ETransformer" ||
   std::string_view(Model::name) == "EDTransformer");

inline constexpr std::string_view signature_prefix = "typeformer.";

constexpr std::string_view norm_text(norm_kind k) noexcept {
    return k == norm_kind::rms_norm ? "rms_norm" : "layer_norm";
}
constexpr std::string_view positional_text(positional_kind k) noexcept {
    return k == positional_kind::sinusoidal ? "sinusoidal" : "learned";
}
constexpr std::string_view gelu_text(gelu_kind k) noexcept {
    return k == gelu_kind::tanh ? "tanh" : "erf";
}

// One integer field: its key and where it lives; `applies` says for which architectures.
struct size_field {
    std::string_view key;
    std::size_t signature::*member;
    enum class in { all, d_and_e, e_only, ed_only } applies;
};
inline constexpr size_field size_fields[] = {
    {"N_V", &signature::N_V, size_field::in::all},
    {"l_max", &signature::l_max, size_field::in::all},
    {"L", &signature::L, size_field::in::d_and_e},
    {"L_enc", &signature::L_enc, size_field::in::ed_only},
    {"L_dec", &signature::L_dec, size_field::in::ed_only},
    {"H", &signature::H, size_field::in::all},
    {"d_e", &signature::d_e, size_field::in::all},
    {"d_mlp", &signature::d_mlp, size_field::in::all},
    {"d_attn", &signature::d_attn, size_field::in::all},
    {"d_mid", &signature::d_mid, size_field::in::all},
    {"d_f", &signature::d_f, size_field::in::e_only},
};
inline bool applies(const size_field& f, const signature& s) noexcept {
    switch (f.applies) {
        case size_field::in::all:
            return true;
        case size_field::in::d_and_e:
            return !s.is_ed();
        case size_field::in::e_only:
            return s.is_e();
        case size_field::in::ed_only:
            return s.is_ed();
    }
    return false;
}

// The fields that follow from others when the architecture does not use them (as config_traits
// defaults them), so two signatures of one type are equal member by member.
inline void fill_unused(signature& s) {
    if (s.is_ed())
        s.L = s.L_enc, s.gelu = gelu_kind::erf;
    else
        s.L_enc = s.L_dec = s.L;
    if (!s.is_e())
        s.d_f = s.d_e;
}

// At most n bytes of a file's text, "..." marking a cut.
inline std::string clip(std::string_view v, std::size_t n) {
    std::string out(v.substr(0, n));
    if (v.size() > n)
        out.append("...");
    return out;
}

template <class V>
bool parse_number(std::string_view text, V& v) noexcept {
    if (text.empty())
        return false;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc{} && p == text.data() + text.size();
}

}  // namespace detail

template <class Model>
    requires detail::signed_model<Model> signature signature_of() {
        using tr = typename Model::traits;
        signature s;
        s.architecture = Model::name;
        s.scalar = sizeof(typename Model::value_type) == 8 ? "f64" : "f32";
        s.N_V = tr::N_V::size, s.l_max = tr::l_max::size, s.L = tr::L, s.L_enc = tr::L_enc,
        s.L_dec = tr::L_dec, s.H = tr::H::size, s.d_e = tr::d_e::size, s.d_mlp = tr::d_mlp::size,
        s.d_attn = tr::d_attn::size, s.d_mid = tr::d_mid::size, s.d_f = tr::d_f::size;
        s.norm = tr::norm, s.positional = tr::positional, s.tied = tr::tied, s.gelu = tr::gelu;
        s.eps = tr::eps;
        detail::fill_unused(s);
        return s;
    }

// Any other type (a model's config, a pointer to a model, its KV cache) has no signature
// (shape_error.hpp): model<X>, needed<signed_architecture>.
template <class Model>
    requires(!detail::signed_model<Model>)
auto signature_of() -> decltype(::typeformer::detail::shape_error_of<in::signature_of>(
    ::typeformer::detail::what<model<Model>, needed<signed_architecture>>{}));

inline void write_signature(const signature& s, metadata& md) {
    const std::string p(detail::signature_prefix);
    md.emplace_back(p + "architecture", s.architecture);
    md.emplace_back(p + "scalar", s.scalar);
    for (const auto& f : detail::size_fields)
        if (detail::applies(f, s))
            md.emplace_back(p + std::string(f.key), fmt::format("{}", s.*f.member));
    md.emplace_back(p + "norm", std::string(detail::norm_text(s.norm)));
    md.emplace_back(p + "positional", std::string(detail::positional_text(s.positional)));
    md.emplace_back(p + "tied", s.tied ? "true" : "false");
    if (!s.is_ed())
        md.emplace_back(p + "gelu", std::string(detail::gelu_text(s.gelu)));
    md.emplace_back(p + "eps", fmt::format("{}", s.eps));
}

// "DTransformer<f32> N_V=65 l_max=256 L=6 L_enc=6 L_dec=6 H=6 d_e=384 … eps=1.0000000000000001e-05":
// the one-line form that checkpoints carried as "typeformer.model" before the entries above, and
// that the tools and exported headers still print and compare.
inline std::string legacy_text(const signature& s) {
    return fmt::format(
        "{}<{}> N_V={} l_max={} L={} L_enc={} L_dec={} H={} d_e={} d_mlp={} d_attn={} d_mid={} "
        "d_f={} norm={} positional={} tied={} gelu={} eps={:.17g}",
        s.architecture, s.scalar, s.N_V, s.l_max, s.L, s.L_enc, s.L_dec, s.H, s.d_e, s.d_mlp,
        s.d_attn, s.d_mid, s.d_f, static_cast<int>(s.norm), static_cast<int>(s.positional),
        s.tied ? 1 : 0, static_cast<int>(s.gelu), s.eps);
}

// "DTransformer<f32> N_V=50 l_max=16 L=2 H=2 d_e=16 d_mlp=64 d_attn=8 d_mid=8 layer_norm learned
// tied gelu=erf eps=1e-05": what a person reads (only the fields the architecture uses).
inline std::string describe(const signature& s) {
    std::string out = fmt::format("{}<{}>", s.architecture, s.scalar);
    for (const auto& f : detail::size_fields)
        if (detail::applies(f, s))
            out += fmt::format(" {}={}", f.key, s.*f.member);
    out += fmt::format(" {} {} {}", detail::norm_text(s.norm),
                       detail::positional_text(s.positional), s.tied ? "tied" : "untied");
    if (!s.is_ed())
        out += fmt::format(" gelu={}", detail::gelu_text(s.gelu));
    return out + fmt::format(" eps={}", s.eps);
}

// The first field in which a file's signature differs from a model's, as "H: file 2, model 4";
// "" when they agree. The scalar type is compared only when asked (load converts it; a
// checkpoint resumes bit for bit only in its own type).
inline std::string first_difference(const signature& file, const signature& model,
                                    bool compare_scalar = false) {
    if (file.architecture != model.architecture)
        return fmt::format("architecture: file {}, model {}", file.architecture,
                           model.architecture);
    if (compare_scalar && file.scalar != model.scalar)
        return fmt::format("scalar: file {}, model {}", file.scalar, model.scalar);
    for (const auto& f : detail::size_fields)
        if (detail::applies(f, model) && file.*f.member != model.*f.member)
            return fmt::format("{}: file {}, model {}", f.key, file.*f.member, model.*f.member);
    if (file.norm != model.norm)
        return fmt::format("norm: file {}, model {}", detail::norm_text(file.norm),
                           detail::norm_text(model.norm));
    if (file.positional != model.positional)
        return fmt::format("positional: file {}, model {}",
                           detail::positional_text(file.positional),
                           detail::positional_text(model.positional));
    if (file.tied != model.tied)
        return fmt::format("tied: file {}, model {}", file.tied, model.tied);
    if (!model.is_ed() && file.gelu != model.gelu)
        return fmt::format("gelu: file {}, model {}", detail::gelu_text(file.gelu),
                           detail::gelu_text(model.gelu));
    if (file.eps != model.eps)
        return fmt::format("eps: file {}, model {}", file.eps, model.eps);
    return {};
}

// The config struct that gives this signature, to paste into a program.
inline std::string config_struct(const signature& s, std::string_view name = "cfg") {
    std::string sizes;
    for (const auto& f : detail::size_fields)
        if (detail::applies(f, s) && f.key != "d_f")
            sizes += fmt::format("{}{} = {}", sizes.empty() ? "" : ", ", f.key, s.*f.member);
    std::string out =
        fmt::format("struct {} {{\n    static constexpr std::size_t {};\n", name, sizes);
    if (s.is_e() && s.d_f != s.d_e)
        out += fmt::format("    static constexpr std::size_t d_f = {};\n", s.d_f);
    if (s.norm != norm_kind::layer_norm)
        out += "    static constexpr auto norm = tf::norm_kind::rms_norm;\n";
    if (s.positional != positional_kind::learned)
        out += "    static constexpr auto positional = tf::positional_kind::sinusoidal;\n";
    if (s.tied)
        out += "    static constexpr bool tied = true;\n";
    if (!s.is_ed() && s.gelu != gelu_kind::erf)
        out += "    static constexpr auto gelu = tf::gelu_kind::tanh;\n";
    if (s.eps != 1e-5)
        out += fmt::format("    static constexpr double eps = {};\n", s.eps);
    out += "};\n";
    return out + fmt::format("using model = tf::{}<{}, {}>;\n", s.architecture,
                             s.scalar == "f64" ? "double" : "float", name);
}

namespace detail {

// The old one-line form (legacy_text); false if `text` is not one.
inline bool parse_legacy(std::string_view text, signature& s) {
    const auto lt = text.find('<'), gt = text.find("> ");
    if (lt == std::string_view::npos || gt == std::string_view::npos || gt < lt)
        return false;
    s.architecture = std::string(text.substr(0, lt));
    s.scalar = std::string(text.substr(lt + 1, gt - lt - 1));
    if ((s.architecture != "DTransformer" && s.architecture != "ETransformer" &&
         s.architecture != "EDTransformer") ||
        (s.scalar != "f32" && s.scalar != "f64"))
        return false;
    std::string_view rest = text.substr(gt + 2);
    std::uint32_t seen = 0;  // one bit per key: each exactly once
    std::uint32_t bit = 0;
    while (!rest.empty()) {
        const auto sp = rest.find(' ');
        const std::string_view item = rest.substr(0, sp);
        rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
        const auto eq = item.find('=');
        if (eq == std::string_view::npos)
            return false;
        const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
        bool known = false;
        bit = 0;
        for (const auto& f : size_fields) {
            ++bit;
            if (f.key == key) {
                if (!parse_number(value, s.*f.member))
                    return false;
                known = true;
                break;
            }
        }
        int k = 0;
        if (!known && (key == "norm" || key == "positional" || key == "tied" || key == "gelu")) {
            bit = key == "norm" ? 12 : key == "positional" ? 13 : key == "tied" ? 14 : 15;
            if (!parse_number(value, k) || k < 0 || k > 1)
                return false;
            if (key == "norm")
                s.norm = static_cast<norm_kind>(k);
            else if (key == "positional")
                s.positional = static_cast<positional_kind>(k);
            else if (key == "tied")
                s.tied = k == 1;
            else
                s.gelu = static_cast<gelu_kind>(k);
            known = true;
        } else if (!known && key == "eps") {
            if (!parse_number(value, s.eps) || !std::isfinite(s.eps) || s.eps < 0)
                return false;
            bit = 16;
            known = true;
        }
        if (!known || (seen >> bit & 1u))
            return false;
        seen |= 1u << bit;
    }
    if (seen != 0x1FFFEu)  // bits 1 … 16
        return false;
    fill_unused(s);
    return true;
}

}  // namespace detail

// What read_signature reports: ok (then `sig` is the file's, or empty when the file has none),
// or the name of the malformed entry.
struct signature_read {
    bool ok = true;
    std::string problem;  // "typeformer.H is 'two', not a non-negative integer"
};

inline signature_read read_signature(const metadata& md, signature& sig) {
    sig = signature{};
    signature s;
    bool any = false;
    auto find = [&](std::string_view key) -> const std::string* {
        for (const auto& [k, v] : md)
            if (k.size() == detail::signature_prefix.size() + key.size() &&
                k.starts_with(detail::signature_prefix) &&
                std::string_view(k).substr(detail::signature_prefix.size()) == key)
                return &v;
        return nullptr;
    };
    auto bad = [](std::string_view key, const std::string& v, std::string_view what) {
        return signature_read{false, fmt::format("metadata typeformer.{} is '{}', not {}", key,
                                                 detail::clip(v, 60), what)};
    };
    const std::string* arch = find("architecture");
    if (!arch) {
        // A checkpoint of before the entries: its one line.
        if (const std::string* line = find("model")) {
            if (!detail::parse_legacy(*line, s))
                return {false, fmt::format("metadata typeformer.model is not a model signature: "
                                           "'{}'",
                                           detail::clip(*line, 200))};
            sig = std::move(s);
            return {};
        }
        for (const auto& [k, v] : md)  // a partial signature is a damaged one
            if (k.starts_with(detail::signature_prefix) && k != "typeformer.checkpoint")
                any = true;
        if (any)
            return {false, "metadata has typeformer.* entries but no typeformer.architecture"};
        return {};
    }
    s.architecture = *arch;
    if (!s.is_ed() && !s.is_e() && s.architecture != "DTransformer")
        return bad("architecture", *arch, "DTransformer, ETransformer or EDTransformer");
    auto need = [&](std::string_view key) -> const std::string* { return find(key); };
    if (const auto* v = need("scalar")) {
        if (*v != "f32" && *v != "f64")
            return bad("scalar", *v, "f32 or f64");
        s.scalar = *v;
    } else {
        return {false, "metadata typeformer.scalar is missing"};
    }
    for (const auto& f : detail::size_fields) {
        if (!detail::applies(f, s))
            continue;
        const auto* v = need(f.key);
        if (!v)
            return {false, fmt::format("metadata typeformer.{} is missing", f.key)};
        if (!detail::parse_number(*v, s.*f.member))
            return bad(f.key, *v, "a non-negative integer");
    }
    auto choice = [&](std::string_view key, std::string_view a, std::string_view b,
                      bool& second) -> signature_read {
        const auto* v = need(key);
        if (!v)
            return {false, fmt::format("metadata typeformer.{} is missing", key)};
        if (*v != a && *v != b)
            return bad(key, *v, fmt::format("{} or {}", a, b));
        second = *v == b;
        return {};
    };
    bool second = false;
    if (auto r = choice("norm", "layer_norm", "rms_norm", second); !r.ok)
        return r;
    s.norm = second ? norm_kind::rms_norm : norm_kind::layer_norm;
    if (auto r = choice("positional", "learned", "sinusoidal", second); !r.ok)
        return r;
    s.positional = second ? positional_kind::sinusoidal : positional_kind::learned;
    if (auto r = choice("tied", "false", "true", second); !r.ok)
        return r;
    s.tied = second;
    if (!s.is_ed()) {
        if (auto r = choice("gelu", "erf", "tanh", second); !r.ok)
            return r;
        s.gelu = second ? gelu_kind::tanh : gelu_kind::erf;
    }
    const auto* e = need("eps");
    if (!e)
        return {false, "metadata typeformer.eps is missing"};
    if (!detail::parse_number(*e, s.eps) || !std::isfinite(s.eps) || s.eps < 0)
        return bad("eps", *e, "a number >= 0");
    detail::fill_unused(s);
    sig = std::move(s);
    return {};
}

}  // namespace typeformer::io
