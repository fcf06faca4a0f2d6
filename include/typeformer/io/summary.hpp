// A model summary like torchinfo's or Keras': every parameter with its named shape, count and
// bytes, then the footprint per kind.
//
//   tf::parameter_table<Model>   constexpr std::array of {name, rank, dims, rows, cols, count,
//                                bytes}, one per parameter tensor in walk (file) order; the dims'
//                                names (rows = "H·d_attn", cols = "d_e"), from the type alone
//   tf::summary(model)           the table as text (fmt), then parameters, gradients, Adam
//                                state, activations at l_max (training), inference activations
//
//   static_assert(tf::parameter_table<M>[0].count == N_V * d_e);
//
// Host only for summary (fmt); the table itself needs no fmt and no object of the model type
// (a GPT-2-sized model is never constructed at compile time).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "../params.hpp"
#include "../train/footprint.hpp"
#include "format.hpp"

namespace typeformer {

struct parameter_entry {
    std::array<char, param_name::capacity + 1> name_buf{};
    std::size_t name_len = 0;
    std::size_t rank = 0;
    std::array<std::size_t, 4> dims{};            // the file shape (file_shape<Leaf>)
    std::array<char, 64> rows_buf{}, cols_buf{};  // dim names: "H·d_attn", "d_e"; cols "" for vec
    std::size_t rows = 0, cols = 0;               // sizes of those dims (cols 1 for vec)
    std::size_t count = 0, bytes = 0;

    constexpr std::string_view name() const noexcept { return {name_buf.data(), name_len}; }
    constexpr std::string_view rows_name() const noexcept { return rows_buf.data(); }
    constexpr std::string_view cols_name() const noexcept { return cols_buf.data(); }
};

namespace detail {

template <class D>
constexpr void append_dim_name(std::array<char, 64>& out, std::size_t& n) {
    if constexpr (is_prod_v<D>) {
        append_dim_name<typename D::outer>(out, n);
        for (char c : std::string_view("·"))
            out[n++] = c;
        append_dim_name<typename D::inner>(out, n);
    } else {
        for (char c : std::string_view(D::label))
            out[n++] = c;
    }
}

// The walk of params.hpp over types only: f.template operator()<Leaf>(name).
template <class U, class Name, class F>
constexpr void walk_types(Name& name, F& f) {
    check_walkable<U>();
    if constexpr (leaf_traits<U>::is_leaf) {
        f.template operator()<U>(std::as_const(name));
    } else if constexpr (is_std_array_v<U>) {
        for (std::size_t i = 0; i < std::tuple_size_v<U>; ++i) {
            const std::size_t old = name.push_index(i);
            walk_types<typename U::value_type>(name, f);
            name.pop(old);
        }
    } else if constexpr (hana::Struct<U>::value) {
        hana::unpack(hana::accessors<U>(), [&](auto... acc) {
            auto one = [&](auto a) {
                using M = member_t<U, decltype(a)>;
                const std::size_t old =
                    flatten_params<M> ? name.size() : name.push_member(hana::first(a).c_str());
                walk_types<M>(name, f);
                name.pop(old);
            };
            (one(acc), ...);
            (void)one;
        });
    }
}

}  // namespace detail

template <class Model>
inline constexpr auto parameter_table = [] {
    std::array<parameter_entry, parameter_tensor_count<Model>> t{};
    std::size_t i = 0;
    param_name name;
    auto f = [&]<class Leaf>(const param_name& n) {
        parameter_entry& e = t[i++];
        for (char c : n.view())
            e.name_buf[e.name_len++] = c;
        constexpr auto shape = file_shape<Leaf>;
        e.rank = shape.rank;
        for (std::size_t k = 0; k < shape.rank; ++k)
            e.dims[k] = shape.dims[k];
        std::size_t r = 0, c = 0;
        if constexpr (detail::leaf_traits<Leaf>::is_matrix) {
            detail::append_dim_name<typename Leaf::rows_dim>(e.rows_buf, r);
            detail::append_dim_name<typename Leaf::cols_dim>(e.cols_buf, c);
            e.rows = Leaf::rows_dim::size;
            e.cols = Leaf::cols_dim::size;
        } else {
            detail::append_dim_name<typename Leaf::dim_type>(e.rows_buf, r);
            e.rows = Leaf::dim_type::size;
            e.cols = 1;
        }
        e.count = leaf_elements<Leaf>;
        e.bytes = sizeof(Leaf::elems);
    };
    detail::walk_types<std::remove_cvref_t<Model>>(name, f);
    return t;
}();

namespace detail {

// `H·d_attn` with sizes `2·16`.
template <class D>
std::string dim_sizes() {
    if constexpr (is_prod_v<D>)
        return dim_sizes<typename D::outer>() + "·" + dim_sizes<typename D::inner>();
    else
        return std::to_string(D::size);
}

inline std::string human_bytes(std::size_t b) {
    if (b >= std::size_t{1} << 20)
        return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
    if (b >= std::size_t{1} << 10)
        return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1 << 10));
    return fmt::format("{} B", b);
}

}  // namespace detail

// Every parameter: name, named shape `(H·d_attn, d_e) = (2·16, 32)`, count, bytes; then the
// footprint per kind (train/footprint.hpp), with the KV cache and the decoding total for the
// models that decode token by token (D and ED).
template <class Model>
    requires param_struct<Model> std::string summary(const Model& model) {
        std::string out = fmt::format("{:<32} {:<44} {:>12} {:>12}\n", "parameter",
                                      "shape (named) = sizes", "count", "bytes");
        for_each_param(model, [&](const param_name& name, const auto& leaf) {
            using Leaf = std::remove_cvref_t<decltype(leaf)>;
            std::string shape;
            if constexpr (detail::leaf_traits<Leaf>::is_matrix)
                shape = fmt::format("({}, {}) = ({}, {})",
                                    io::dim_string<typename Leaf::rows_dim>(true),
                                    io::dim_string<typename Leaf::cols_dim>(true),
                                    detail::dim_sizes<typename Leaf::rows_dim>(),
                                    detail::dim_sizes<typename Leaf::cols_dim>());
            else
                shape = fmt::format("({}) = ({})", io::dim_string<typename Leaf::dim_type>(true),
                                    detail::dim_sizes<typename Leaf::dim_type>());
            // "·" is 2 bytes, one column: pad by display width.
            std::size_t w = 0;
            for (unsigned char c : shape)
                w += (c & 0xC0) != 0x80;
            out += fmt::format("{:<32} {}{} {:>12} {:>12}\n", name.view(), shape,
                               std::string(w < 44 ? 44 - w : 0, ' '),
                               io::group_thousands(leaf_elements<Leaf>),
                               io::group_thousands(sizeof(leaf.elems)));
        });
        constexpr footprint_bytes f = footprint<Model>;
        out +=
            fmt::format("total: {} parameters in {} tensors\n",
                        io::group_thousands(parameter_count<Model>), parameter_tensor_count<Model>);
        auto kind = [&](std::string_view what, std::size_t b) {
            out += fmt::format("{:<34} {:>16} ({})\n", what, io::group_thousands(b),
                               detail::human_bytes(b));
        };
        kind("parameters", f.parameters);
        kind("gradients", f.gradients);
        kind("Adam state (m, v)", f.adam_state);
        kind("activations at l_max (training)", f.activations);
        kind("training total", f.total);
        kind("inference activations at l_max", f.inference_activations);
        kind("inference total", f.inference_total);
        if (f.kv_cache != 0) {
            kind("KV cache at l_max (decoding)", f.kv_cache);
            kind("decoding total", f.decoding_total);
        }
        return out;
    }

TYPEFORMER_PARAMETERS_FALLBACK(summary, in::summary);

}  // namespace typeformer
