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
#include <string>
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

template <class F, class X, class... Xs>
void walk(const std::string& name, F& f, X& x, Xs&... xs) {
    using U = std::remove_cvref_t<X>;
    if constexpr (param_leaf<U>) {
        f(name, x, xs...);
    } else if constexpr (is_array<U>) {
        for (std::size_t i = 0; i < x.size(); ++i)
            walk(name + (name.empty() ? "" : ".") + std::to_string(i), f, x[i], xs[i]...);
    } else {
        hana::for_each(hana::accessors<U>(), [&](auto acc) {
            using M = std::remove_cvref_t<decltype(hana::second(acc)(x))>;
            const std::string member = hana::to<const char*>(hana::first(acc));
            walk(is_flattened<M> ? name : name + (name.empty() ? "" : ".") + member, f,
                 hana::second(acc)(x), hana::second(acc)(xs)...);
        });
    }
}

// f(name, leaf, leaves...) for every parameter tensor of same-typed models, in lockstep.
template <class F, class M, class... Ms>
void for_each_named(F&& f, M& m, Ms&... ms) {
    walk(std::string{}, f, m, ms...);
}

// Every scalar of a leaf (its whole storage: parameters have fixed dims).
template <class Leaf>
auto leaf_span(Leaf& p) {
    using U = std::remove_cvref_t<Leaf>;
    return std::span(p.data(), leaf_elements<U>);
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

// A leaf as an oracle array in the paper's orientation: vec (n), mat (rows, cols).
template <class Leaf>
array leaf_array(const Leaf& p) {
    return to_array(p);
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

template <class Model>
void write_case(bundle& in, const std::string& pre, const Model& model, const sequences& s) {
    using tr = typename Model::traits;
    in[pre + "arch"] = scalar_array(static_cast<double>(arch_of<Model>()));
    in[pre + "H"] = scalar_array(static_cast<double>(tr::H::size));
    in[pre + "eps"] = scalar_array(tr::eps);
    in[pre + "rms"] = scalar_array(tr::norm == norm_kind::rms_norm ? 1 : 0);
    in[pre + "tied"] = scalar_array(tr::tied ? 1 : 0);
    in[pre + "sinusoidal"] = scalar_array(tr::positional == positional_kind::sinusoidal ? 1 : 0);
    in[pre + "gelu_tanh"] = scalar_array(tr::gelu == gelu_kind::tanh ? 1 : 0);
    in[pre + "L"] = scalar_array(static_cast<double>(tr::L));
    in[pre + "L_enc"] = scalar_array(static_cast<double>(tr::L_enc));
    in[pre + "L_dec"] = scalar_array(static_cast<double>(tr::L_dec));
    in[pre + "l_max"] = scalar_array(static_cast<double>(tr::l_max::size));
    in[pre + "x"] = to_array(s.x);
    if (!s.x_tilde.empty())
        in[pre + "x_tilde"] = to_array(s.x_tilde);
    if (!s.z.empty())
        in[pre + "z"] = to_array(s.z);
    for_each_named(
        [&](const std::string& name, const auto& leaf) { in[pre + "W." + name] = to_array(leaf); },
        model);
}

// A leaf against an oracle array of the same shape, per entry (see allclose_ratio): rtol = tol,
// atol = atol_for(tol, scale); `scale` defaults to the reference's largest entry. ≤ 1 passes.
template <class Leaf>
double leaf_diff(const Leaf& leaf, const array& ref, double tol, double scale = -1) {
    const array mine = to_array(leaf);
    if (scale < 0)
        scale = max_abs(ref.data);
    return allclose_ratio(mine.data, ref.data, tol, atol_for(tol, scale));
}

}  // namespace typeformer::testing
