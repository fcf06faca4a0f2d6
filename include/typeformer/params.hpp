// Parameters θ as data: one generic walk over a model's named tensors.
//
// A model (and its gradient, which has the model's type) is a Boost.Hana struct:
//
//   struct layer_norm_params {
//       BOOST_HANA_DEFINE_STRUCT(layer_norm_params, (vec_de, gamma), (vec_de, beta));
//   };
//
// whose members are leaves (`vec<T, D>`, `mat<T, R, C>` with fixed dims), nested Hana
// structs, or `std::array`s of either (repeated layers, named `layers.{l}`, 0-based).
// The walk visits the leaves in declaration order and names them by their path:
// `W_e`, `layers.0.ln1.gamma`, `layers.3.attn.W_q`, `ln_f.beta`. A member whose struct
// declares `static constexpr bool flatten_params = true;` adds no component of its own
// (a `token_embedding embedding` member holding W_e is named `W_e`, not `embedding.W_e`).
//
//   for_each_param(model, f)            f(param_name const&, leaf&)
//   for_each_param(model, grads, f)     f(name, p, g), two same-typed objects in lockstep
//   for_each_param_zip(f, a, b, c, ...) any number of same-typed objects in lockstep
//   parameter_count<Model>              scalars (constexpr)
//   parameter_tensor_count<Model>       leaves (constexpr)
//   file_shape<Leaf>                    the leaf's shape in a weights file (the paper's)
//   zero(x), init(model, seed[, opt]), init_float(...), copy_params(src, dst), max_abs_diff(a, b),
//   bit_equal(a, b)
//   params_from<Model>(flat)            a model from its scalars in walk and storage order,
//                                       constexpr (io/export_header.hpp's headers: weights in flash)
//
// Shapes in files (row-major, the paper's matrix × column-vector convention):
//   vec<D>                [|D|]
//   vec<prod<A, B>>       [|A|, |B|]
//   mat<R, C>             [|R|, |C|]
//   mat<prod<A, B>, C>    [|A|, |B|, |C|]    e.g. W_q (H·d_attn, d_e) is [H, d_attn, d_e]
//   mat<R, prod<A, B>>    [|R|, |A|·|B|]     a product in the column dim stays flat (W_o)
// File element (r, c) in row-major order is mat(r, c); mat is column-major in memory.
//
// Core header: no heap, no exceptions, no RTTI, no iostream, no fmt.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/unpack.hpp>

#include "config.hpp"
#include "dim.hpp"
#include "kernels/diagnose.hpp"
#include "random.hpp"
#include "tensor.hpp"

namespace typeformer {

// ---- parameter names: a fixed-capacity string, built during the walk without allocation ----

template <std::size_t Capacity>
class basic_param_name {
public:
    static constexpr std::size_t capacity = Capacity;

    constexpr basic_param_name() noexcept = default;

    constexpr std::size_t size() const noexcept { return len_; }
    constexpr bool empty() const noexcept { return len_ == 0; }
    constexpr const char* c_str() const noexcept { return buf_; }
    constexpr const char* data() const noexcept { return buf_; }
    constexpr std::string_view view() const noexcept { return {buf_, len_}; }
    constexpr operator std::string_view() const noexcept { return view(); }

    // The last component: `W_q` for `layers.3.attn.W_q`.
    constexpr std::string_view leaf() const noexcept {
        const std::string_view v = view();
        const auto dot = v.rfind('.');
        // Not substr: its out-of-range throw would drag exception support into firmware.
        return dot == std::string_view::npos
                   ? v
                   : std::string_view(v.data() + dot + 1, v.size() - dot - 1);
    }

    friend constexpr bool operator==(const basic_param_name& a, std::string_view b) noexcept {
        return a.view() == b;
    }

    // Building (the walk's job): push returns the old size, pop restores it.
    constexpr std::size_t push_member(std::string_view member) noexcept {
        const std::size_t old = len_;
        if (len_ != 0)
            append(".");
        append(member);
        return old;
    }
    constexpr std::size_t push_index(std::size_t i) noexcept {
        char digits[24]{};
        std::size_t n = 0;
        do {
            digits[n++] = static_cast<char>('0' + i % 10);
            i /= 10;
        } while (i != 0);
        char rev[24]{};
        for (std::size_t k = 0; k < n; ++k)
            rev[k] = digits[n - 1 - k];
        return push_member(std::string_view(rev, n));
    }
    constexpr void pop(std::size_t old_size) noexcept {
        len_ = old_size;
        buf_[len_] = '\0';
    }

private:
    constexpr void append(std::string_view s) noexcept {
        TYPEFORMER_CHECK(len_ + s.size() <= Capacity, "param_name: parameter name too long");
        for (char ch : s)
            buf_[len_++] = ch;
        buf_[len_] = '\0';
    }

    char buf_[Capacity + 1]{};
    std::size_t len_ = 0;
};

// 128 characters hold `decoder.layers.11.cross_attn.W_q` four times over; the walk
// static_asserts that every name of a model fits (max_param_name_length).
using param_name = basic_param_name<128>;

// ---- arrays of layers ----

// N layers numbered from First: the last N layers of a model with First + N layers, walked (and
// saved) as `layers.{First}` … `layers.{First + N − 1}` (train/trainable.hpp's train_last).
template <class E, std::size_t N, std::size_t First>
struct layers_from : std::array<E, N> {
    static constexpr std::size_t first_index = First;
};

// ---- what a parameter leaf is ----

namespace detail {
template <class X>
struct leaf_traits {
    static constexpr bool is_leaf = false;
};
template <class T, class D>
struct leaf_traits<vec<T, D>> {
    static constexpr bool is_leaf = true;
    static constexpr bool is_fixed = fixed_dimension<D>;
    static constexpr bool is_matrix = false;
};
template <class T, class R, class C>
struct leaf_traits<mat<T, R, C>> {
    static constexpr bool is_leaf = true;
    static constexpr bool is_fixed = fixed_dimension<R> && fixed_dimension<C>;
    static constexpr bool is_matrix = true;
};

template <class X>
inline constexpr bool is_std_array_v = false;
template <class E, std::size_t N>
inline constexpr bool is_std_array_v<std::array<E, N>> = true;
template <class E, std::size_t N, std::size_t First>
inline constexpr bool is_std_array_v<layers_from<E, N, First>> = true;
// The index of an array's first element in parameter names (0 but for layers_from).
template <class X>
inline constexpr std::size_t first_index_v = [] {
    if constexpr (requires { X::first_index; })
        return X::first_index;
    else
        return std::size_t{0};
}();

template <class>
inline constexpr bool dependent_false = false;
}  // namespace detail

// vec<T, D> or mat<T, R, C>; a parameter has fixed dims (the walk rejects bounded ones).
template <class X>
concept param_leaf = detail::leaf_traits<std::remove_cvref_t<X>>::is_leaf;

// A Hana struct (BOOST_HANA_DEFINE_STRUCT or BOOST_HANA_ADAPT_STRUCT).
template <class X>
concept param_struct = boost::hana::Struct<std::remove_cvref_t<X>>::value;

// A struct whose members are named as if they were its parent's: a member of such a type
// adds no name component (`model.embedding.W_e` is saved as `W_e`). Opt in with a member
// `static constexpr bool flatten_params = true;` or by specialising this variable.
// The names of a model must stay unique (a file with a name twice does not load).
template <class S>
inline constexpr bool flatten_params = [] {
    if constexpr (requires { S::flatten_params; })
        return static_cast<bool>(S::flatten_params);
    else
        return false;
}();

// Number of scalars a leaf stores: its contiguous storage is data()[0, leaf_elements).
template <param_leaf Leaf>
inline constexpr std::size_t leaf_elements = sizeof(std::remove_cvref_t<Leaf>::elems) /
                                             sizeof(std::remove_cvref_t<Leaf>::elems[0]);

namespace detail {
// The scalars [first, last) of a leaf of n that part `part` of `parts` takes when a walk over a
// model is split between threads: cut at multiples of 16 scalars, so for float the parts touch
// disjoint 64-byte lines; one part is all of it.
struct leaf_part {
    std::size_t first = 0, last = 0;

    static constexpr leaf_part of(std::size_t n, std::size_t part, std::size_t parts) noexcept {
        auto cut = [&](std::size_t q) { return q >= parts ? n : n / 16 * q / parts * 16; };
        return {cut(part), cut(part + 1)};
    }
};
}  // namespace detail

// ---- shapes in a weights file ----

template <std::size_t Rank>
struct tensor_shape {
    static constexpr std::size_t rank = Rank;
    std::array<std::size_t, Rank> dims{};

    constexpr std::size_t operator[](std::size_t i) const noexcept { return dims[i]; }
    constexpr std::size_t elements() const noexcept {
        std::size_t n = 1;
        for (std::size_t d : dims)
            n *= d;
        return n;
    }
};

namespace detail {
// A product expands into its factors (recursively); any other dim is one axis.
template <class D>
struct dim_axes {
    static constexpr std::size_t rank = 1;
    static constexpr std::array<std::size_t, 1> dims{D::size};
};
template <class A, class B>
struct dim_axes<prod<A, B>> {
    static constexpr std::size_t rank = dim_axes<A>::rank + dim_axes<B>::rank;
    static constexpr std::array<std::size_t, rank> dims = [] {
        std::array<std::size_t, rank> r{};
        std::size_t k = 0;
        for (std::size_t d : dim_axes<A>::dims)
            r[k++] = d;
        for (std::size_t d : dim_axes<B>::dims)
            r[k++] = d;
        return r;
    }();
};

template <class Leaf>
struct file_shape_of;
template <class T, class D>
struct file_shape_of<vec<T, D>> {
    static constexpr tensor_shape<dim_axes<D>::rank> value{dim_axes<D>::dims};
};
template <class T, class R, class C>
struct file_shape_of<mat<T, R, C>> {
    static constexpr std::size_t rank = dim_axes<R>::rank + 1;
    static constexpr tensor_shape<rank> value = [] {
        tensor_shape<rank> s{};
        std::size_t k = 0;
        for (std::size_t d : dim_axes<R>::dims)
            s.dims[k++] = d;
        s.dims[k] = C::size;  // the column dim stays one axis, product or not
        return s;
    }();
};
}  // namespace detail

// The leaf's shape in a file: `file_shape<decltype(W_q)>.dims == {H, d_attn, d_e}`.
template <param_leaf Leaf>
inline constexpr auto file_shape = detail::file_shape_of<std::remove_cvref_t<Leaf>>::value;

// Element k of the file's row-major data is data()[file_to_storage_index<Leaf>(k)]:
// k = r·|C| + c is mat(r, c) = data()[r + c·|R|]; a vec is stored as written.
template <param_leaf Leaf>
constexpr std::size_t file_to_storage_index(std::size_t k) noexcept {
    using U = std::remove_cvref_t<Leaf>;
    if constexpr (detail::leaf_traits<U>::is_matrix) {
        constexpr std::size_t R = U::rows_dim::size, C = U::cols_dim::size;
        return k / C + (k % C) * R;
    } else {
        return k;
    }
}
template <param_leaf Leaf>
constexpr std::size_t storage_to_file_index(std::size_t i) noexcept {
    using U = std::remove_cvref_t<Leaf>;
    if constexpr (detail::leaf_traits<U>::is_matrix) {
        constexpr std::size_t R = U::rows_dim::size, C = U::cols_dim::size;
        return (i % R) * C + i / R;
    } else {
        return i;
    }
}

// ---- the walk ----

namespace detail {
namespace hana = boost::hana;

template <class S, class Accessor>
using member_t =
    std::remove_cvref_t<decltype(hana::second(std::declval<Accessor>())(std::declval<S&>()))>;

template <class U>
constexpr void check_walkable() {
    if constexpr (leaf_traits<U>::is_leaf) {
        static_assert(leaf_traits<U>::is_fixed,
                      "typeformer: a parameter has fixed dimensions only (a bounded length such "
                      "as l_x<Max> belongs in a workspace, not in the parameters)");
    } else if constexpr (!is_std_array_v<U> && !hana::Struct<U>::value) {
        static_assert(dependent_false<U>,
                      "typeformer: a parameter struct's members are vec/mat leaves, nested "
                      "BOOST_HANA_DEFINE_STRUCT structs, or std::arrays of them");
    }
}

template <class Name, class F, class X, class... Xs>
constexpr void walk(Name& name, F& f, X& x, Xs&... xs);

template <class Name, class F, class Accessor, class X, class... Xs>
constexpr void walk_member(Name& name, F& f, Accessor acc, X& x, Xs&... xs) {
    using M = member_t<std::remove_cvref_t<X>, Accessor>;
    const std::size_t old =
        flatten_params<M> ? name.size() : name.push_member(hana::first(acc).c_str());
    walk(name, f, hana::second(acc)(x), hana::second(acc)(xs)...);
    name.pop(old);
}

template <class Name, class F, class X, class... Xs>
constexpr void walk(Name& name, F& f, X& x, Xs&... xs) {
    using U = std::remove_cvref_t<X>;
    check_walkable<U>();
    if constexpr (leaf_traits<U>::is_leaf) {
        f(std::as_const(name), x, xs...);
    } else if constexpr (is_std_array_v<U>) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::size_t old = name.push_index(first_index_v<U> + i);
            walk(name, f, x[i], xs[i]...);
            name.pop(old);
        }
    } else if constexpr (hana::Struct<U>::value) {
        hana::unpack(hana::accessors<U>(),
                     [&](auto... acc) { (walk_member(name, f, acc, x, xs...), ...); });
    }
}

// Type-level folds over the same structure (no object needed).
struct type_stats {
    std::size_t scalars = 0;
    std::size_t tensors = 0;
    std::size_t name_suffix = 0;  // longest ".a.b.c" below this node, with the leading dot
};

template <class U>
constexpr type_stats stats_of() {
    check_walkable<U>();
    if constexpr (leaf_traits<U>::is_leaf) {
        return {leaf_elements<U>, 1, 0};
    } else if constexpr (is_std_array_v<U>) {
        using E = typename U::value_type;
        constexpr std::size_t N = std::tuple_size_v<U>;
        type_stats e = stats_of<E>();
        std::size_t digits = 1;
        for (std::size_t n = N == 0 ? 0 : first_index_v<U> + N - 1; n >= 10; n /= 10)
            ++digits;
        return {N * e.scalars, N * e.tensors, 1 + digits + e.name_suffix};
    } else if constexpr (!hana::Struct<U>::value) {
        return {};  // check_walkable has reported it
    } else {
        return hana::unpack(hana::accessors<U>(), [](auto... acc) {
            type_stats r{};
            auto add = [&r](type_stats s, std::size_t name_len) {
                r.scalars += s.scalars;
                r.tensors += s.tensors;
                const std::size_t n = 1 + name_len + s.name_suffix;
                if (n > r.name_suffix)
                    r.name_suffix = n;
            };
            auto add_member = [&add](auto a) {
                using M = member_t<U, decltype(a)>;
                if constexpr (flatten_params<M>) {
                    const type_stats s = stats_of<M>();
                    add({s.scalars, s.tensors, 0}, s.name_suffix == 0 ? 0 : s.name_suffix - 1);
                } else {
                    add(stats_of<M>(), std::string_view(hana::first(a).c_str()).size());
                }
            };
            (add_member(acc), ...);
            (void)add_member;  // a struct without members
            return r;
        });
    }
}
}  // namespace detail

// Scalars in a model: the sum of its leaves' sizes.
template <class Model>
inline constexpr std::size_t parameter_count =
    detail::stats_of<std::remove_cvref_t<Model>>().scalars;

// Leaves (named tensors) in a model.
template <class Model>
inline constexpr std::size_t parameter_tensor_count =
    detail::stats_of<std::remove_cvref_t<Model>>().tensors;

// Longest parameter name the walk builds.
template <class Model>
inline constexpr std::size_t max_param_name_length = [] {
    const std::size_t s = detail::stats_of<std::remove_cvref_t<Model>>().name_suffix;
    return s == 0 ? 0 : s - 1;  // the root's members have no leading dot
}();

// f(name, leaf) for every leaf, in declaration order. A const model gives const leaves.
template <class Model, class F>
    requires(param_struct<Model> || param_leaf<Model>)
constexpr void for_each_param(Model&& model, F&& f) {
    static_assert(max_param_name_length<Model> <= param_name::capacity,
                  "typeformer: a parameter name is longer than param_name::capacity");
    param_name name;
    detail::walk(name, f, model);
}

// f(name, p, g) for two objects of the same type (model and gradients) in lockstep.
template <class Model, class Grads, class F>
    requires std::is_same_v<std::remove_cvref_t<Model>, std::remove_cvref_t<Grads>>
constexpr void for_each_param(Model&& model, Grads&& grads, F&& f) {
    static_assert(max_param_name_length<Model> <= param_name::capacity,
                  "typeformer: a parameter name is longer than param_name::capacity");
    param_name name;
    detail::walk(name, f, model, grads);
}

// f(name, a_leaf, xs_leaf...) for any number of same-typed objects in lockstep
// (an optimiser walks parameters, gradients and its moment estimates together).
template <class F, class X, class... Xs>
    requires(std::is_same_v<std::remove_cvref_t<X>, std::remove_cvref_t<Xs>>&&...)
constexpr void for_each_param_zip(F&& f, X&& x, Xs&&... xs) {
    static_assert(max_param_name_length<X> <= param_name::capacity,
                  "typeformer: a parameter name is longer than param_name::capacity");
    param_name name;
    detail::walk(name, f, x, xs...);
}

// ---- whole-model helpers ----

// Sets every scalar of a model (or of one leaf) to zero.
template <class X>
    requires(param_struct<X> || param_leaf<X>)
constexpr void zero(X& x) noexcept {
    for_each_param(x, [](const param_name&, auto& p) {
        using T = typename std::remove_cvref_t<decltype(p)>::value_type;
        T* d = p.data();
        for (std::size_t i = 0; i < leaf_elements<decltype(p)>; ++i)
            d[i] = T(0);
    });
}

struct init_options {
    double std = 0.02;  // standard deviation of the weights
};
// init_float's: the same in float.
struct init_options_float {
    float std = 0.02f;  // standard deviation of the weights
};

// The initial value rule, by the leaf's own name (the last component).
enum class init_kind { normal, zeros, ones };
constexpr init_kind init_kind_of(std::string_view leaf) noexcept {
    if (leaf == "gamma")
        return init_kind::ones;
    if (leaf == "beta" || leaf == "b" || leaf.starts_with("b_"))
        return init_kind::zeros;
    return init_kind::normal;
}

namespace detail {

template <class Sampler, class Model, class Scale>
void init_with(Model& model, std::uint64_t seed, Scale std) noexcept {
    for_each_param(model, [&](const param_name& name, auto& p) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        using T = typename Leaf::value_type;
        T* d = p.data();
        constexpr std::size_t n = leaf_elements<Leaf>;
        switch (init_kind_of(name.leaf())) {
            case init_kind::ones:
                for (std::size_t i = 0; i < n; ++i)
                    d[i] = T(1);
                break;
            case init_kind::zeros:
                for (std::size_t i = 0; i < n; ++i)
                    d[i] = T(0);
                break;
            case init_kind::normal: {
                auto gen = prng::stream_for(seed, name.view());
                Sampler normal;
                for (std::size_t k = 0; k < n; ++k)
                    d[file_to_storage_index<Leaf>(k)] = static_cast<T>(std * normal(gen));
                break;
            }
        }
    });
}

}  // namespace detail

// Weights ~ N(0, std²) (GPT-2's 0.02 by default), biases (`b_*`) and `beta` 0, `gamma` 1.
// Deterministic and platform-independent: each weight tensor draws, in its file
// (row-major) order, from prng::stream_for(seed, name) through prng::normal_sampler
template <class Model>
    requires param_struct<Model>
void init(Model& model, std::uint64_t seed, init_options opt = {}) noexcept {
    detail::init_with<prng::normal_sampler>(model, seed, opt.std);
}

// init in float arithmetic only (prng::normal_sampler_float), for a device without a double
// unit (a Cortex-M4F), where init's sampler runs in soft-float: the same rules and distribution,
// other numbers (also the same on every platform), and no double code linked.
template <class Model>
    requires param_struct<Model>
void init_float(Model& model, std::uint64_t seed, init_options_float opt = {}) noexcept {
    detail::init_with<prng::normal_sampler_float>(model, seed, opt.std);
}

// dst ← src, leaf by leaf.
template <class Model>
    requires param_struct<Model>
constexpr void copy_params(const Model& src, Model& dst) noexcept {
    for_each_param(src, dst, [](const param_name&, const auto& s, auto& d) {
        for (std::size_t i = 0; i < leaf_elements<decltype(s)>; ++i)
            d.data()[i] = s.data()[i];
    });
}

// A model from parameter_count<Model> scalars, leaf after leaf in walk order, each leaf in its
// storage order (what io::export_header writes). constexpr, so `constexpr Model theta =
// params_from<Model>(data);` is constant-initialised and lands in .rodata (flash on a
// microcontroller); `data` itself is only read by the compiler and never emitted.
namespace detail {
template <class Model, std::size_t N>
constexpr bool is_flat_of() {
    if constexpr (param_struct<Model>)
        return N == parameter_count<Model>;
    else
        return false;
}
}  // namespace detail

template <class Model, class T, std::size_t N>
    requires(detail::is_flat_of<Model, N>())
constexpr Model params_from(const T (&flat)[N]) noexcept {
    Model m{};
    std::size_t k = 0;
    for_each_param(m, [&](const param_name&, auto& p) {
        for (std::size_t i = 0; i < leaf_elements<decltype(p)>; ++i)
            p.data()[i] = flat[k++];
    });
    return m;
}

// max |a − b| over every scalar (0 for identical models; NaN-propagating).
template <class Model>
    requires param_struct<Model>
double max_abs_diff(const Model& a, const Model& b) noexcept {
    double m = 0.0;
    for_each_param(a, b, [&m](const param_name&, const auto& x, const auto& y) {
        for (std::size_t i = 0; i < leaf_elements<decltype(x)>; ++i) {
            const double d =
                std::fabs(static_cast<double>(x.data()[i]) - static_cast<double>(y.data()[i]));
            if (!(d <= m))
                m = d;  // NaN wins
        }
    });
    return m;
}

// Every scalar has the same bits in a and b.
template <class Model>
    requires param_struct<Model>
bool bit_equal(const Model& a, const Model& b) noexcept {
    bool eq = true;
    for_each_param(a, b, [&eq](const param_name&, const auto& x, const auto& y) {
        if (std::memcmp(x.data(), y.data(), sizeof(x.elems)) != 0)
            eq = false;
    });
    return eq;
}

// ---- a call of no form above: not parameters, or two models that differ (shape_error.hpp) ----

namespace detail {
// X is a struct of parameters (a model, a block, a gradient); a pointer to one is the model not
// dereferenced (`init(model, seed)` with a std::unique_ptr<Model>): needed<Model>.
template <class X>
constexpr auto check_parameters() {
    using U = std::remove_cvref_t<X>;
    if constexpr (param_struct<U> || param_leaf<U>)
        return what<>{};
    else if constexpr (std::is_pointer_v<U> && param_struct<std::remove_pointer_t<U>>)
        return what<model<U>, needed<std::remove_cv_t<std::remove_pointer_t<U>>>>{};
    else if constexpr (requires { requires param_struct<typename U::element_type>; })
        return what<model<U>, needed<std::remove_cv_t<typename U::element_type>>>{};
    else
        return what<model<U>, needed<model_parameters>>{};
}
// B, the second struct of a call over two (copy_params(src, dst), ...), is A's type.
template <class A, class B>
constexpr auto check_same_parameters() {
    return first_error(
        check_parameters<A>(), check_parameters<B>(),
        check_same_model<other_model, std::remove_cvref_t<B>, std::remove_cvref_t<A>>());
}
}  // namespace detail

// Every form above takes a struct of parameters first: one error for anything else.
#define TYPEFORMER_PARAMETERS_FALLBACK(f, where)                                 \
    template <class X, class... A>                                               \
        requires(!::typeformer::param_struct<X> && !::typeformer::param_leaf<X>) \
    auto f(X&& x, A&&... args)                                                   \
        ->decltype(::typeformer::detail::shape_error_of<::typeformer::where>(    \
            ::typeformer::detail::check_parameters<X>()))
TYPEFORMER_PARAMETERS_FALLBACK(zero, in::zero);
TYPEFORMER_PARAMETERS_FALLBACK(init, in::init);
TYPEFORMER_PARAMETERS_FALLBACK(init_float, in::init_float);
TYPEFORMER_PARAMETERS_FALLBACK(for_each_param, in::for_each_param);

// params_from<Model>(flat) with a Model that is not one, or flat not its parameter count.
namespace detail {
template <class Model, std::size_t N>
constexpr auto params_from_error() {
    if constexpr (!param_struct<Model>)
        return check_parameters<Model>();
    else
        return what<model<Model>, flat_scalars<N>, model_scalars<parameter_count<Model>>>{};
}
}  // namespace detail
template <class Model, class T, std::size_t N>
    requires(!detail::is_flat_of<Model, N>())
auto params_from(const T (&flat)[N]) noexcept
    -> decltype(detail::shape_error_of<in::params_from>(detail::params_from_error<Model, N>()));

// The forms over two structs of one type.
template <class S, class D>
    requires(!std::is_same_v<std::remove_cvref_t<S>, std::remove_cvref_t<D>> || !param_struct<S>)
auto copy_params(const S& src, D& dst) noexcept
    -> decltype(detail::shape_error_of<in::copy_params>(detail::check_same_parameters<D, S>()));
template <class A, class B>
    requires(!std::is_same_v<std::remove_cvref_t<A>, std::remove_cvref_t<B>> || !param_struct<A>)
auto max_abs_diff(const A& a, const B& b) noexcept
    -> decltype(detail::shape_error_of<in::max_abs_diff>(detail::check_same_parameters<A, B>()));
template <class A, class B>
    requires(!std::is_same_v<std::remove_cvref_t<A>, std::remove_cvref_t<B>> || !param_struct<A>)
auto bit_equal(const A& a, const B& b) noexcept
    -> decltype(detail::shape_error_of<in::bit_equal>(detail::check_same_parameters<A, B>()));
template <class Model, class Grads, class F>
    requires((
        param_struct<Model> ||
        param_leaf<Model>)&&!std::is_same_v<std::remove_cvref_t<Model>, std::remove_cvref_t<Grads>>)
auto for_each_param(Model&& model, Grads&& grads, F&& f)
    -> decltype(detail::shape_error_of<in::for_each_param>(
        detail::check_same_parameters<Model, Grads>()));
template <class F, class X, class... Xs>
    requires(!(std::is_same_v<std::remove_cvref_t<X>, std::remove_cvref_t<Xs>> && ...))
auto for_each_param_zip(F&& f, X&& x, Xs&&... xs)
    -> decltype(detail::shape_error_of<in::for_each_param_zip>(
        detail::first_error(detail::check_same_parameters<X, Xs>()...)));

}  // namespace typeformer

template <class E, std::size_t N, std::size_t First>
struct std::tuple_size<typeformer::layers_from<E, N, First>>
    : std::integral_constant<std::size_t, N> {};
