// Weights in flash: a model written as a C++ header that a firmware includes.
//
//   export_header(model, path, name)       writes `path` atomically; throws std::runtime_error on
//                                          failure (path then as it was)
//
// `model` is a float or double DTransformer, ETransformer or EDTransformer, or an int8
// q8<DTransformer<float, cfg>> (quantized on the host: the firmware's compiler quantizes nothing).
// Anything else is a shape_error<in::export_header, …> naming what was given (a model's KV cache,
// workspace or Adam state: kv_cache_of<M>, needed<M>).
// The header holds
//   struct <name>_config {…};                  every dimension and variant of the model
//   using <name>_type = …;                     the model type it was written from
//   inline constexpr char <name>_signature[]   the same as text (a checkpoint's typeformer.model)
//   template <class Model, std::size_t = sizeof(deploy::exported_as<Model, <name>_type>())>
//   inline constexpr Model <name> = {…};
// and its user names the model type: `const gpt& theta = tiny_trained<gpt>;`. The parameters are
// the object's aggregate initialiser, designated member by member (`.layers = {{{.ln1 = …`),
// every scalar a literal: the compiler reads them as data and evaluates no loop, so a header of
// a million parameters compiles within GCC's default constexpr limits, in seconds
// (docs/embedded.md). The object is constant-initialised, so it lands in .rodata (flash), not in
// RAM. exported_as (deploy/exported.hpp) checks at compile time that Model has the exported
// model's signature, every dimension and variant, not just its size: a header exported from an
// H = 2, d_attn = 16 model does not instantiate an H = 4, d_attn = 8 one.
// Floating-point scalars are written as hexadecimal literals (0x1.8p-3f, exact bits), int8
// weights as decimal integers, each tensor in storage order (mat is column-major; q8_mat rows).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/hana/accessors.hpp>
#include <boost/hana/unpack.hpp>

#include "../models/diagnose.hpp"
#include "../models/quantized.hpp"
#include "../params.hpp"
#include "../shape_error.hpp"
#include "atomic_file.hpp"
#include "checkpoint.hpp"  // detail::model_signature

namespace typeformer::io {

namespace detail {

// An exact C++ literal of v: hexadecimal, with the type's suffix.
template <class T>
std::string exact_literal(T v) {
    if (!std::isfinite(v))
        throw std::runtime_error("export_header: a parameter is not finite");
    char buf[64];
    char* p = buf;
    if (std::signbit(v))
        *p++ = '-';
    *p++ = '0', *p++ = 'x';
    const auto r = std::to_chars(p, buf + sizeof buf, std::fabs(v), std::chars_format::hex);
    if (r.ec != std::errc{})
        throw std::runtime_error("export_header: to_chars failed");
    std::string s(buf, r.ptr);
    if constexpr (std::is_same_v<T, float>)
        s += 'f';
    return s;
}

template <class X>
inline constexpr bool is_q8_model = false;
template <class cfg>
inline constexpr bool is_q8_model<quantized<DTransformer<float, cfg>>> = true;

// The float model a model stands for (itself, or the one a q8 model was quantized from).
template <class X>
struct float_model_of {
    using type = X;
};
template <class cfg>
struct float_model_of<quantized<DTransformer<float, cfg>>> {
    using type = DTransformer<float, cfg>;
};

template <class X>
inline constexpr bool is_q8_mat = false;
template <class R, class C>
inline constexpr bool is_q8_mat<q8_mat<R, C>> = true;

// The initialiser's text, written as the walk goes.
class initializer_writer {
public:
    std::string out;

    // n scalars as one braced list, 8 to a line.
    template <class T>
    void list(const T* v, std::size_t n) {
        out += '{';
        for (std::size_t i = 0; i < n; ++i) {
            out += i % 8 == 0 ? "\n" : " ";
            if constexpr (std::is_same_v<T, std::int8_t>)
                out += std::to_string(int{v[i]});
            else
                out += exact_literal(v[i]);
            out += ',';
        }
        out += '}';
    }

    // Any member of a model: a leaf, a Hana struct, a std::array, a q8_mat; `path` names it in a
    // comment above each tensor.
    template <class X>
    void value(const X& x, const std::string& path) {
        using U = std::remove_cvref_t<X>;
        if constexpr (param_leaf<U>) {
            out += "\n/* " + path + " */ {";  // vec and mat: {elems}
            list(x.data(), leaf_elements<U>);
            out += '}';
        } else if constexpr (is_q8_mat<U>) {
            out += "\n/* " + path + " (int8 rows, a scale each) */ {.q = ";
            list(x.q, U::rows * U::cols);
            out += ", .scale = ";
            list(x.scale, U::rows);
            out += '}';
        } else if constexpr (typeformer::detail::is_std_array_v<U>) {
            out += "{{";
            for (std::size_t i = 0; i < x.size(); ++i) {
                out += i == 0 ? "" : ",";
                value(x[i], path + (path.empty() ? "" : ".") + std::to_string(i));
            }
            out += "}}";
        } else if constexpr (boost::hana::Struct<U>::value) {
            out += '{';
            bool first = true;
            boost::hana::unpack(boost::hana::accessors<U>(),
                                [&](auto... acc) { (member(x, acc, path, first), ...); });
            out += '}';
        } else {
            static_assert(typeformer::detail::dependent_false<U>,
                          "export_header: a member that is no tensor, Hana struct or std::array");
        }
    }

    // One designated member `.name = value`; `path` names its tensors in the comments.
    template <class X>
    void designated(const char* name, const X& x, const std::string& path, bool& first) {
        out += first ? "" : ",";
        first = false;
        out += std::string("\n.") + name + " = ";
        value(x, path);
    }

    // {.name = value, …} from name, value pairs; `prefix` + name names each tensor.
    template <class... X>
    void members(const std::string& prefix, const X&... pairs) {
        bool first = true;
        out += '{';
        member_pairs(prefix, first, pairs...);
        out += '}';
    }

private:
    void member_pairs(const std::string&, bool&) {}
    template <class X, class... Rest>
    void member_pairs(const std::string& prefix, bool& first, const char* name, const X& x,
                      const Rest&... rest) {
        designated(name, x, prefix + name, first);
        member_pairs(prefix, first, rest...);
    }

    template <class S, class Accessor>
    void member(const S& s, Accessor acc, const std::string& path, bool& first) {
        const auto& m = boost::hana::second(acc)(s);
        const char* name = boost::hana::first(acc).c_str();
        // a flattened member adds no component (W_e, not embedding.W_e): params.hpp's names
        const bool flat = flatten_params<std::remove_cvref_t<decltype(m)>>;
        designated(name, m,
                   flat           ? path
                   : path.empty() ? std::string(name)
                                  : path + "." + name,
                   first);
    }
};

// The int8 model: a plain aggregate (models/quantized.hpp), written member by member.
template <class cfg>
void write_q8(initializer_writer& w, const quantized<DTransformer<float, cfg>>& m) {
    using model_type = quantized<DTransformer<float, cfg>>;
    bool first = true;
    w.out += '{';
    w.designated("embedding", m.embedding, "W_e (transposed)", first);
    w.designated("positional", m.positional, "", first);  // W_p, or nothing (sinusoidal)
    w.out += ",\n.layers = {{";
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const auto& g = m.layers[l];
        const std::string p = "layers." + std::to_string(l) + ".";
        const std::string a = p + "attn.", f = p + "mlp.";
        bool fl = true;
        w.out += l == 0 ? "{" : ",{";
        w.designated("ln1", g.ln1, p + "ln1", fl);
        w.out += ",\n.attn = ";
        w.members(a, "W_q", g.attn.W_q, "b_q", g.attn.b_q, "W_k", g.attn.W_k, "b_k", g.attn.b_k,
                  "W_v", g.attn.W_v, "b_v", g.attn.b_v, "W_o", g.attn.W_o, "b_o", g.attn.b_o);
        w.designated("ln2", g.ln2, p + "ln2", fl);
        w.out += ",\n.mlp = ";
        w.members(f, "W_1", g.mlp.W_1, "b_1", g.mlp.b_1, "W_2", g.mlp.W_2, "b_2", g.mlp.b_2);
        w.out += '}';
    }
    w.out += "}}";
    w.designated("ln_f", m.ln_f, "ln_f", first);
    if constexpr (!model_type::traits::tied)
        w.designated("unembedding", m.unembedding, "W_u", first);
    else
        w.out += ",\n.unembedding = {}";  // tied: W_u = W_eᵀ is `embedding`
    w.out += '}';
}

// The C++ spelling of the exported model's type, over the config struct `config`.
template <class Model>
std::string model_type_name(const std::string& config) {
    using T = typename Model::value_type;
    const std::string scalar = std::is_same_v<T, float> ? "float" : "double";
    if constexpr (is_q8_model<Model>)
        return "::typeformer::q8<::typeformer::DTransformer<float, " + config + ">>";
    else
        return "::typeformer::" + std::string(Model::name) + "<" + scalar + ", " + config + ">";
}

// The header that defines the model type: the architecture's own (or quantized.hpp).
template <class Model>
std::string model_header() {
    if constexpr (is_q8_model<Model>)
        return "models/quantized.hpp";
    else
        return "models/" + [] {
            std::string s(Model::name);
            for (char& c : s)
                c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            return s;
        }() + ".hpp";
}

// struct <name>_config: every member config_traits reads, so the exported type has the model's
// signature exactly.
template <class Model>
std::string config_struct(const std::string& config) {
    using tr = typename Model::traits;
    const auto n = [](std::size_t v) { return std::to_string(v); };
    std::string s = "struct " + config + " {\n";
    s += "    static constexpr std::size_t N_V = " + n(tr::N_V::size) +
         ", l_max = " + n(tr::l_max::size) + ", L = " + n(tr::L) + ", L_enc = " + n(tr::L_enc) +
         ", L_dec = " + n(tr::L_dec) + ",\n";
    s += "                                 H = " + n(tr::H::size) + ", d_e = " + n(tr::d_e::size) +
         ", d_mlp = " + n(tr::d_mlp::size) + ", d_attn = " + n(tr::d_attn::size) +
         ", d_mid = " + n(tr::d_mid::size) + ", d_f = " + n(tr::d_f::size) + ";\n";
    s += std::string("    static constexpr auto norm = ::typeformer::norm_kind::") +
         (tr::norm == norm_kind::layer_norm ? "layer_norm" : "rms_norm") + ";\n";
    s += std::string("    static constexpr auto positional = ::typeformer::positional_kind::") +
         (tr::positional == positional_kind::learned ? "learned" : "sinusoidal") + ";\n";
    s += std::string("    static constexpr bool tied = ") + (tr::tied ? "true" : "false") + ";\n";
    s += std::string("    static constexpr auto gelu = ::typeformer::gelu_kind::") +
         (tr::gelu == gelu_kind::erf ? "erf" : "tanh") + ";\n";
    s += "    static constexpr double eps = " + exact_literal(tr::eps) + ";  // layer-norm ε\n";
    return s + "};\n";
}

}  // namespace detail

// A model export_header writes: an architecture over float or double, or the int8 DTransformer.
template <class X>
concept exportable_model = detail::is_q8_model<X> ||
    (typeformer::detail::architecture<X>&& boost::hana::Struct<X>::value &&
     (std::is_same_v<typename X::value_type, float> ||
      std::is_same_v<typename X::value_type, double>));

namespace detail {
// What was passed instead of a model: something of a model's (its KV cache, workspace, Adam
// state, …) names the model it needs; anything else is listed as given.
template <class X>
constexpr auto export_diagnosis() {
    using B = typeformer::detail::belongs_to<X>;
    if constexpr (requires { typename B::model; })
        return typeformer::detail::what<typename B::template role<typename B::model>,
                                        needed<typename B::model>>{};
    else
        return typeformer::detail::what<arguments<X>>{};
}
}  // namespace detail

template <exportable_model Model>
void export_header(const Model& model, const std::filesystem::path& path, std::string_view name) {
    constexpr bool q8 = detail::is_q8_model<Model>;
    using float_model = typename detail::float_model_of<Model>::type;
    const std::string id(name);
    const std::string signature = detail::model_signature<float_model>() + (q8 ? " int8" : "");
    const std::string type = detail::model_type_name<Model>(id + "_config");

    detail::initializer_writer w;
    if constexpr (q8)
        detail::write_q8(w, model);
    else
        w.value(model, "");

    std::string out;
    out += "// Generated by typeformer::io::export_header: do not edit.\n";
    out += "// " + signature + "\n";
    out += "// " + std::to_string(sizeof(Model)) + " bytes on the exporting host" +
           (q8 ? " (int8 weights, float scales, biases and norms)" : "") + "\n";
    out += "#pragma once\n\n#include <cstddef>\n\n#include <typeformer/deploy/exported.hpp>\n";
    out += "#include <typeformer/" + detail::model_header<Model>() + ">\n\n";
    out += "// The exported model: every dimension and variant.\n";
    out += detail::config_struct<float_model>(id + "_config");
    out += "using " + id + "_type = " + type + ";\n";
    out += "inline constexpr char " + id + "_signature[] = \"" + signature + "\";\n\n";
    out += "// " + id + "<Model>: the parameters in flash (.rodata), for a Model with " + id +
           "_type's\n// signature (typeformer::deploy::exported_as checks it).\n";
    out +=
        "template <class Model,\n          std::size_t = "
        "sizeof(::typeformer::deploy::exported_as<Model, " +
        id + "_type>())>\ninline constexpr Model " + id + " = " + w.out + ";\n";

    try {
        write_file(path, out);  // atomic (atomic_file.hpp)
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("export_header: ") + e.what());
    }
}

// Anything but a model: declared only, its shape_error names what was given and what is needed.
template <class X>
    requires(!exportable_model<X>)
auto export_header(const X& x, const std::filesystem::path& path, std::string_view name)
    -> decltype(typeformer::detail::shape_error_of<in::export_header>(
        detail::export_diagnosis<X>()));

}  // namespace typeformer::io
