// Test support for tests/models: a parameter walk that names tensors as the weights file does,
// random models, and the exchange with torch_models.py (the PyTorch reference of Algorithms
// 8–13, written from the paper, not from this library).
//
// The walk here is the tests' own (a model's parameters must reach the oracle under their file
// names whatever the library's walk does); test_models_api checks that typeformer's walk
// (params.hpp) produces the same names.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/hana.hpp>

#include <typeformer/typeformer.hpp>

#include "support/oracle.hpp"

namespace typeformer::testing {

namespace hana = boost::hana;

// ---- the walk: leaves by file name ----

// A module whose members are named without its own prefix (W_e, not embedding.W_e) declares
// `static constexpr bool flatten_params = true;` (the convention params.hpp honours).
template <class M>
constexpr bool is_flattened = [] {
    if constexpr (requires { M::flatten_params; })
        return static_cast<bool>(M::flatten_params);
    else
        return false;
}();

template <class X>
inline constexpr bool is_array = false;
template <class E, std::size_t N>
inline constexpr bool is_array<std::array<E, N>> = true;

// A leaf as the walk records it: its file name and its storage (column-major, like mat).
template <class T>
struct leaf_ref {
    std::string name;
    T* data;
    std::size_t rows, cols, ld;  // a vec: rows = its size, cols = 1
    bool is_matrix;
};

// "parent.member" (out of line: the walk passes here once per member of every struct).
[[gnu::noinline]] inline std::string child_name(const std::string& parent, const char* member) {
    return parent.empty() ? std::string(member) : parent + "." + member;
}

template <class T, class X>
void walk(const std::string& name, X& x, std::vector<leaf_ref<T>>& out) {
    using U = std::remove_cvref_t<X>;
    if constexpr (param_leaf<U>) {
        auto v = as_view(x);
        if constexpr (matrix<decltype(v)>)
            out.push_back({name, v.data(), v.rows(), v.cols(), v.stride(), true});
        else
            out.push_back({name, v.data(), v.size(), 1, v.size(), false});
    } else if constexpr (is_array<U>) {
        for (std::size_t i = 0; i < x.size(); ++i)
            walk(child_name(name, std::to_string(i).c_str()), x[i], out);
    } else {
        hana::for_each(hana::accessors<U>(), [&](auto acc) {
            using M = std::remove_cvref_t<decltype(hana::second(acc)(x))>;
            walk(is_flattened<M> ? name : child_name(name, hana::to<const char*>(hana::first(acc))),
                 hana::second(acc)(x), out);
        });
    }
}

// Every parameter tensor of a model, in the order of its weights file.
template <class M>
auto leaves_of(M& m) {
    using T = std::conditional_t<std::is_const_v<M>, const typename std::remove_cv_t<M>::value_type,
                                 typename std::remove_cv_t<M>::value_type>;
    std::vector<leaf_ref<T>> out;
    walk(std::string{}, m, out);
    return out;
}

// The leaves reach f as views with one pair of stand-in dimensions: f is then compiled once for
// vectors and once for matrices per scalar type, not once per tensor type at every member the
// walk passes (that inlined copy per member was most of each model test's object code and
// compile time).
struct any_dim {
    static constexpr std::size_t capacity = 0;
    static constexpr bool is_bounded = false;
    static constexpr const char* label = "leaf";
};
template <class T>
mat_view<T, any_dim, any_dim> matrix_of(const leaf_ref<T>& l) {
    return {l.data, l.ld, l.rows, l.cols};
}
template <class T>
vec_view<T, any_dim> vector_of(const leaf_ref<T>& l) {
    return {l.data, l.rows};
}

// f(name, leaf, leaves...) for every parameter tensor of same-typed models, in lockstep.
template <class F, class M, class... Ms>
void for_each_named(F&& f, M& m, Ms&... ms) {
    const auto first = leaves_of(m);
    const auto rest = std::make_tuple(leaves_of(ms)...);
    for (std::size_t k = 0; k < first.size(); ++k) {
        std::apply(
            [&](const auto&... others) {
                if (first[k].is_matrix) {
                    auto a = matrix_of(first[k]);
                    auto bs = std::make_tuple(matrix_of(others[k])...);
                    std::apply([&](auto&... b) { f(first[k].name, a, b...); }, bs);
                } else {
                    auto a = vector_of(first[k]);
                    auto bs = std::make_tuple(vector_of(others[k])...);
                    std::apply([&](auto&... b) { f(first[k].name, a, b...); }, bs);
                }
            },
            rest);
    }
}

// Every scalar of a leaf (its whole storage: parameters have fixed dims).
template <class Leaf>
auto leaf_span(Leaf& p) {
    using U = std::remove_cvref_t<Leaf>;
    if constexpr (param_leaf<U>)
        return std::span(p.data(), leaf_elements<U>);
    else if constexpr (matrix<U>)
        return std::span(p.data(), p.stride() * p.cols());
    else
        return std::span(p.data(), p.size());
}

// ---- random models ----

// Weights ~ N(0, scale²); γ ~ 1 + N(0, 0.1²); biases and β ~ N(0, 0.1²). Scales large enough
// that every nonlinearity is exercised (masks, GELU's curve, ReLU's kink, softmax's spread).
template <class Model>
void randomize(Model& model, std::uint64_t seed, double scale = 0.5) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    for_each_named(
        [&](const std::string& name, auto& leaf) {
            const std::string last = name.substr(name.rfind('.') + 1);
            using T = typename std::remove_cvref_t<decltype(leaf)>::value_type;
            for (auto& v : leaf_span(leaf)) {
                double r = normal(rng);
                if (last == "gamma")
                    r = 1.0 + 0.1 * r;
                else if (last == "beta" || last.starts_with("b_"))
                    r = 0.1 * r;
                else
                    r = scale * r;
                v = static_cast<T>(r);
            }
        },
        model);
}

template <class Model>
std::unique_ptr<Model> random_model(std::uint64_t seed, double scale = 0.5) {
    auto m = std::make_unique<Model>();
    randomize(*m, seed, scale);
    return m;
}

inline std::vector<token> random_tokens(std::size_t n, std::size_t n_v, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, n_v - 1);
    std::vector<token> x(n);
    for (auto& t : x)
        t = static_cast<token>(pick(rng));
    return x;
}

// ---- the oracle bundle (torch_models.py's format) ----

enum class arch { D = 0, E = 1, ED = 2 };

template <class Model>
constexpr arch arch_of() {
    if constexpr (Model::sequences == 2)
        return arch::ED;
    else if constexpr (requires { typename Model::d_f; })
        return arch::E;
    else
        return arch::D;
}

// The tokens of one case: D uses x; E uses x_tilde (input) and x (targets); ED uses z and x.
struct sequences {
    std::vector<token> x, x_tilde, z;

    static sequences D(std::vector<token> x) { return {std::move(x), {}, {}}; }
    static sequences E(std::vector<token> x_tilde, std::vector<token> x) {
        return {std::move(x), std::move(x_tilde), {}};
    }
    static sequences ED(std::vector<token> z, std::vector<token> x) {
        return {std::move(x), {}, std::move(z)};
    }
};

// A model's configuration, as torch_models.py reads it (key, value).
using case_header = std::vector<std::pair<const char*, double>>;

inline void write_case(bundle& in, const std::string& pre, const case_header& header,
                       const sequences& s) {
    for (const auto& [key, value] : header)
        in[pre + key] = scalar_array(value);
    in[pre + "x"] = to_array(s.x);
    if (!s.x_tilde.empty())
        in[pre + "x_tilde"] = to_array(s.x_tilde);
    if (!s.z.empty())
        in[pre + "z"] = to_array(s.z);
}

template <class Model>
void write_case(bundle& in, const std::string& pre, const Model& model, const sequences& s) {
    using tr = typename Model::traits;
    write_case(in, pre,
               {{"arch", static_cast<double>(arch_of<Model>())},
                {"H", static_cast<double>(tr::H::size)},
                {"eps", tr::eps},
                {"rms", tr::norm == norm_kind::rms_norm ? 1 : 0},
                {"tied", tr::tied ? 1 : 0},
                {"sinusoidal", tr::positional == positional_kind::sinusoidal ? 1 : 0},
                {"gelu_tanh", tr::gelu == gelu_kind::tanh ? 1 : 0},
                {"L", static_cast<double>(tr::L)},
                {"L_enc", static_cast<double>(tr::L_enc)},
                {"L_dec", static_cast<double>(tr::L_dec)},
                {"l_max", static_cast<double>(tr::l_max::size)}},
               s);
    for_each_named(
        [&](const std::string& name, const auto& leaf) { in[pre + "W." + name] = to_array(leaf); },
        model);
}

}  // namespace typeformer::testing
