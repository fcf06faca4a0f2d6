// fmt formatters for dimensions, tensors and parameter names, and a model summary.
//
//   fmt::format("{}", d_attn<64>{})            d_attn<64>
//   fmt::format("{}", l_x<256>{})              l_x<≤256>
//   fmt::format("{}", prod<H<4>, d_mid<16>>{}) H<4>·d_mid<16>      ("{:n}": H·d_mid, names only)
//   fmt::format("{:.3f}", W_q)                 mat<H<2>·d_attn<3>, d_e<4>> then its rows;
//                                              the element spec applies to each entry
//   summary(model)                             one line per parameter (name, shape, count), total
//
// A tensor of at most `full_print_limit` entries prints every entry; a larger one prints
// its first and last `edge_items` rows/columns around "...", like NumPy. Host only (fmt).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>  // to turn its range formatter off for vec (which has begin/end)

#include "../dim.hpp"
#include "../params.hpp"
#include "../tensor.hpp"

namespace typeformer::io {

inline constexpr std::size_t full_print_limit = 64;
inline constexpr std::size_t edge_items = 3;

// `d_attn<64>`, `l_x<≤256>`, `H<4>·d_mid<16>`; with names_only: `d_attn`, `l_x`, `H·d_mid`.
template <dimension D>
std::string dim_string(bool names_only = false) {
    if constexpr (is_prod_v<D>) {
        return dim_string<typename D::outer>(names_only) + "·" +
               dim_string<typename D::inner>(names_only);
    } else if (names_only) {
        return D::label;
    } else if constexpr (D::is_bounded) {
        return fmt::format("{}<≤{}>", D::label, D::capacity);
    } else {
        return fmt::format("{}<{}>", D::label, D::size);
    }
}

// `vec<d_e<384>>`, `mat<H<6>·d_attn<64>, d_e<384>>` (the scalar type is left out).
template <class X>
std::string tensor_type_string(bool names_only = false) {
    using U = std::remove_cvref_t<X>;
    if constexpr (matrix<U>)
        return fmt::format("mat<{}, {}>", dim_string<typename U::rows_dim>(names_only),
                           dim_string<typename U::cols_dim>(names_only));
    else
        return fmt::format("vec<{}>", dim_string<typename U::dim_type>(names_only));
}

// 1234567 → "1,234,567".
inline std::string group_thousands(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// One line per parameter (name, file shape, dims, count) and the total, like torchinfo.
template <class Model>
    requires param_struct<Model> std::string summary(const Model& model) {
        struct row {
            std::string name, shape, dims, count;
        };
        std::vector<row> rows;
        std::size_t scalar_bytes = 0;
        for_each_param(model, [&](const param_name& name, const auto& leaf) {
            using Leaf = std::remove_cvref_t<decltype(leaf)>;
            constexpr auto shape = file_shape<Leaf>;
            std::string dims;
            if constexpr (matrix<Leaf>)
                dims = dim_string<typename Leaf::rows_dim>(true) + " × " +
                       dim_string<typename Leaf::cols_dim>(true);
            else
                dims = dim_string<typename Leaf::dim_type>(true);
            rows.push_back({std::string(name.view()),
                            fmt::format("[{}]", fmt::join(shape.dims, ", ")), std::move(dims),
                            group_thousands(leaf_elements<Leaf>)});
            scalar_bytes += sizeof(leaf.elems);
        });
        constexpr std::size_t total = parameter_count<Model>;
        const std::string total_count = group_thousands(total);
        // Display widths: "·" and "×" are 2 bytes but one column.
        auto width = [](const std::string& s) {
            std::size_t w = 0;
            for (unsigned char c : s)
                w += (c & 0xC0) != 0x80;
            return w;
        };
        std::size_t w_name = 9, w_shape = 5, w_dims = 4,
                    w_count = std::max<std::size_t>(5, total_count.size());
        for (const auto& r : rows) {
            w_name = std::max(w_name, width(r.name));
            w_shape = std::max(w_shape, width(r.shape));
            w_dims = std::max(w_dims, width(r.dims));
            w_count = std::max(w_count, width(r.count));
        }
        auto pad = [&](const std::string& s, std::size_t w) {
            return s + std::string(w - std::min(w, width(s)), ' ');
        };
        auto lpad = [&](const std::string& s, std::size_t w) {
            return std::string(w - std::min(w, width(s)), ' ') + s;
        };
        const std::size_t line_width = w_name + w_shape + w_dims + w_count + 6;
        std::string out;
        out += pad("parameter", w_name) + "  " + pad("shape", w_shape) + "  " +
               pad("dims", w_dims) + "  " + lpad("count", w_count) + "\n";
        out += std::string(line_width, '-') + "\n";
        for (const auto& r : rows)
            out += pad(r.name, w_name) + "  " + pad(r.shape, w_shape) + "  " + pad(r.dims, w_dims) +
                   "  " + lpad(r.count, w_count) + "\n";
        out += std::string(line_width, '-') + "\n";
        out += fmt::format("total: {} parameters in {} tensors, {} bytes\n", total_count,
                           parameter_tensor_count<Model>, group_thousands(scalar_bytes));
        return out;
    }

TYPEFORMER_PARAMETERS_FALLBACK(summary, in::summary);

namespace detail {
// The entries of a tensor, rows summarised beyond full_print_limit; `elem` formats one.
template <class View, class Elem>
auto format_entries(const View& v, Elem&& elem, fmt::format_context::iterator out) {
    if constexpr (matrix<View>) {
        const std::size_t R = v.rows(), C = v.cols();
        const bool full = R * C <= full_print_limit;
        auto row = [&](std::size_t i) {
            *out++ = '[';
            for (std::size_t j = 0; j < C; ++j) {
                if (!full && C > 2 * edge_items && j == edge_items) {
                    out = fmt::format_to(out, ", ...");
                    j = C - edge_items;
                }
                if (j != 0)
                    out = fmt::format_to(out, ", ");
                out = elem(v(i, j), out);
            }
            *out++ = ']';
        };
        *out++ = '[';
        for (std::size_t i = 0; i < R; ++i) {
            if (!full && R > 2 * edge_items && i == edge_items) {
                out = fmt::format_to(out, "\n ...,");
                i = R - edge_items;
            }
            if (i != 0)
                out = fmt::format_to(out, "\n ");
            row(i);
            if (i + 1 != R)
                *out++ = ',';
        }
        *out++ = ']';
    } else {
        const std::size_t n = v.size();
        const bool full = n <= full_print_limit;
        *out++ = '[';
        for (std::size_t i = 0; i < n; ++i) {
            if (!full && n > 2 * edge_items && i == edge_items) {
                out = fmt::format_to(out, ", ...");
                i = n - edge_items;
            }
            if (i != 0)
                out = fmt::format_to(out, ", ");
            out = elem(v[i], out);
        }
        *out++ = ']';
    }
    return out;
}

// Prints "<type>" (with run-time extents of bounded dims) then the entries; the format
// spec, if any, is the element's.
template <class Tensor>
struct tensor_formatter {
    using T = std::remove_const_t<typename tensor_traits<Tensor>::value_type>;
    fmt::formatter<T> elem_;
    bool default_spec_ = true;

    constexpr auto parse(fmt::format_parse_context& ctx) {
        auto it = ctx.begin();
        if (it == ctx.end() || *it == '}')
            return it;
        default_spec_ = false;
        return elem_.parse(ctx);
    }

    auto format(const Tensor& x, fmt::format_context& ctx) const {
        const auto v = as_view(x);
        auto out = fmt::format_to(ctx.out(), "{}", tensor_type_string<Tensor>());
        using V = std::remove_cvref_t<decltype(v)>;
        if constexpr (matrix<V>) {
            if constexpr (V::rows_dim::is_bounded || V::cols_dim::is_bounded)
                out = fmt::format_to(out, "({}×{})", v.rows(), v.cols());
        } else if constexpr (V::dim_type::is_bounded) {
            out = fmt::format_to(out, "({})", v.size());
        }
        out = fmt::format_to(out, "{}", matrix<V> ? "\n" : " ");
        ctx.advance_to(out);
        return format_entries(
            v,
            [&](const T& e, fmt::format_context::iterator o) {
                if (default_spec_)
                    return fmt::format_to(o, "{:.6g}", e);
                ctx.advance_to(o);
                return elem_.format(e, ctx);
            },
            out);
    }
};
}  // namespace detail

}  // namespace typeformer::io

template <class D>
    requires typeformer::dimension<D>
struct fmt::formatter<D, char> {
    bool names_only = false;
    constexpr auto parse(fmt::format_parse_context& ctx) {
        auto it = ctx.begin();
        if (it != ctx.end() && *it == 'n') {
            names_only = true;
            ++it;
        }
        if (it != ctx.end() && *it != '}')
            FMT_THROW(fmt::format_error("typeformer: a dimension's format is {} or {:n}"));
        return it;
    }
    auto format(const D&, fmt::format_context& ctx) const {
        return fmt::format_to(ctx.out(), "{}", typeformer::io::dim_string<D>(names_only));
    }
};

// vec and vec_view have begin()/end(): without this, fmt/ranges.h's formatter and ours
// would both match (an ambiguity), and fmt documents specialising is_range to opt out.
template <class T, class D>
struct fmt::is_range<typeformer::vec<T, D>, char> : std::false_type {};
template <class T, class D>
struct fmt::is_range<typeformer::vec_view<T, D>, char> : std::false_type {};

template <class T, class D>
struct fmt::formatter<typeformer::vec<T, D>, char>
    : typeformer::io::detail::tensor_formatter<typeformer::vec<T, D>> {};
template <class T, class R, class C>
struct fmt::formatter<typeformer::mat<T, R, C>, char>
    : typeformer::io::detail::tensor_formatter<typeformer::mat<T, R, C>> {};
template <class T, class D>
struct fmt::formatter<typeformer::vec_view<T, D>, char>
    : typeformer::io::detail::tensor_formatter<typeformer::vec_view<T, D>> {};
template <class T, class R, class C>
struct fmt::formatter<typeformer::mat_view<T, R, C>, char>
    : typeformer::io::detail::tensor_formatter<typeformer::mat_view<T, R, C>> {};

template <std::size_t N>
struct fmt::formatter<typeformer::basic_param_name<N>, char> : fmt::formatter<std::string_view> {
    auto format(const typeformer::basic_param_name<N>& name, fmt::format_context& ctx) const {
        return fmt::formatter<std::string_view>::format(name.view(), ctx);
    }
};
