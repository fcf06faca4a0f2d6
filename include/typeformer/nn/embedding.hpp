// Algorithms 1 and 2: token and positional embeddings, and a sequence's initial embedding
// X[:, t] = W_e[:, x[t]] + W_p[:, t] (§5; line 2 of Algorithms 8–10).
//
//   W_e  (d_e, N_V)     token_embedding<T, E, V>: column v is token v's vector (v 0-based, < N_V)
//   W_p  (d_e, l_max)   positional_embedding<T, E, P>: column t is position t's vector
//                       (0-based; the paper's position t + 1)
//   sinusoidal_embedding<E, P>  the hard-coded W_p of §5, no parameters, any position
//   x    ℓ token ids    std::span<const token>
//   X    (d_e, C)       C a sequence length such as l_x<256>; the caller sets X.cols() == ℓ
//
// Template parameters are dimensions: E = d_e<384>, V = N_V<65>, P = l_max<256>.
//
// Sinusoidal W_p. The paper (1-based row and position t, 0 < i ≤ d_e/2):
//     W_p[2i−1, t] = sin(t / l_max^{2i/d_e}),   W_p[2i, t] = cos(t / l_max^{2i/d_e})
// In code, 0-based row r and 0-based column c:
//     t = c + 1 (the paper's 1-based position: column 0 is sin(1/…), not sin(0));
//     i = ⌊r/2⌋ + 1; r even → sin, r odd → cos; angle = (c + 1) / l_max^{2i/d_e}.
// For odd d_e the paper leaves its last row (1-based d_e, 0-based r = d_e − 1, even) undefined;
// the same rule continues it: sin with i = (d_e + 1)/2, exponent (d_e + 1)/d_e.
// l_max is only the base of the wavelengths (the paper's choice; [VSP+17] uses 10000 and
// 0-based i and t), not a bound: any position works.
//
// Arithmetic. On a host (value) each entry is computed in double with std::pow, std::sin and
// std::cos, then rounded to T. On a device (TYPEFORMER_DEVICE, config.hpp; value_float) no double
// is evaluated at run time: the turns per position of each row pair, ω_i/2π = l_max^{−2i/d_e}/2π,
// are 64-bit fixed-point constants computed by the compiler (d_e/2 of them), the phase of
// position t is their integer product with t (exact modulo one turn, so far positions lose
// nothing), and sin, cos come from float polynomials on [−π/4, π/4] after a quarter-turn
// reduction: within 2·10⁻⁷ of the double values, about 20 instructions per row pair on a
// Cortex-M4F and no table of l_max·d_e values in flash.
#pragma once

#include <array>
#include <boost/hana/define_struct.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../config.hpp"
#include "../kernels.hpp"
#include "../random.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

// Algorithm 1's parameters.
template <class T, fixed_dimension E, fixed_dimension V>
struct token_embedding {
    using W_e_type = mat<T, E, V>;  // (d_e, N_V)
    BOOST_HANA_DEFINE_STRUCT(token_embedding, (W_e_type, W_e));
    static constexpr bool flatten_params = true;  // the file says W_e, as the paper does
};

// Algorithm 2's parameters (learned).
template <class T, fixed_dimension E, fixed_dimension P>
struct positional_embedding {
    using W_p_type = mat<T, E, P>;  // (d_e, l_max)
    BOOST_HANA_DEFINE_STRUCT(positional_embedding, (W_p_type, W_p));
    static constexpr bool flatten_params = true;  // W_p
};

namespace detail {

// sin and cos of 2π·phase/2^64 in float arithmetic only. The nearest quarter turn k is taken in
// integers; the rest r (|x| ≤ π/4) goes to float as two 24-bit parts, so x keeps float's
// relative precision even near 0, and into Cephes' single-precision minimax polynomials (sinf,
// cosf), whose error on [−π/4, π/4] is below an ulp.
struct sin_cos {
    float s, c;
};
constexpr sin_cos sin_cos_of_turns(std::uint64_t phase) noexcept {
    const std::uint64_t k = (phase + (std::uint64_t{1} << 61)) >> 62;  // nearest quarter turn
    const auto r = static_cast<std::int64_t>(phase - (k << 62));       // [−2^61, 2^61): the rest
    const auto hi = static_cast<std::int32_t>(r >> 37);                // [−2^24, 2^24)
    const auto lo = static_cast<std::int32_t>((r >> 13) & 0xFFFFFF);   // the next 24 bits, ≥ 0
    // x = r · (π/2)/2^62 = (hi + lo·2^-24) · (π/2)·2^-25                         |x| ≤ π/4
    const float x =
        static_cast<float>(hi) * 0x1.921fb6p-25f + static_cast<float>(lo) * 0x1.921fb6p-49f;
    const float z = x * x;
    const float s =
        x + x * z * (-1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f));
    const float c =
        1.0f - 0.5f * z +
        z * z * (4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f));
    switch (k & 3) {  // sin, cos of x + k·π/2
        case 0:
            return {s, c};
        case 1:
            return {c, -s};
        case 2:
            return {-s, -c};
        default:
            return {-c, s};
    }
}

}  // namespace detail

// §5's hard-coded positional embedding: a Hana struct with no members, so a model holding it
// (and its gradient, of the same type) has no W_p to initialise, train or save.
template <fixed_dimension E, fixed_dimension P>
struct sinusoidal_embedding {
    BOOST_HANA_DEFINE_STRUCT(sinusoidal_embedding);

    // W_p[r, c], 0-based row r < d_e and column c (the paper's position c + 1), in double
    static double value(std::size_t r, std::size_t c) noexcept {
        const double i = static_cast<double>(r / 2 + 1);
        const double wavelength =
            std::pow(static_cast<double>(P::size), 2.0 * i / static_cast<double>(E::size));
        const double angle = static_cast<double>(c + 1) / wavelength;
        return r % 2 == 0 ? std::sin(angle) : std::cos(angle);  // rows 2i−1: sin, 2i: cos
    }

    // Row pair j = i − 1 (rows 2j, 2j + 1) turns ω_i/2π per position, as round(ω_i/2π · 2^64):
    // evaluated by the compiler in double (~1e-15 relative), never at run time.
    static constexpr std::size_t pairs = (E::size + 1) / 2;
    static constexpr std::array<std::uint64_t, pairs> turns = [] {
        using kernels::detail::cmath::constant::exp;
        constexpr double two_pi = 6.28318530717958647692;
        const double ln_l_max = prng::detail::log_scaled<double>(P::size, 0);
        std::array<std::uint64_t, pairs> f{};
        for (std::size_t j = 0; j < pairs; ++j) {
            const double i = static_cast<double>(j + 1);
            const double per_position = exp(-2.0 * i * ln_l_max / static_cast<double>(E::size));
            f[j] = static_cast<std::uint64_t>(per_position / two_pi * 0x1p64);
        }
        return f;
    }();

    // The same entry in float arithmetic only (what a device build adds; see the top of the file)
    static constexpr float value_float(std::size_t r, std::size_t c) noexcept {
        const detail::sin_cos v = detail::sin_cos_of_turns(turns[r / 2] * (c + std::uint64_t{1}));
        return r % 2 == 0 ? v.s : v.c;
    }

    // e ← e + W_p[:, c] (d_e entries): value in double on a host, value_float on a device.
    template <class T>
    static void add_column(std::size_t c, T* e) noexcept {
#if TYPEFORMER_DEVICE
        const std::uint64_t t = c + std::uint64_t{1};
        for (std::size_t j = 0; j < pairs; ++j) {
            const detail::sin_cos v = detail::sin_cos_of_turns(turns[j] * t);
            e[2 * j] += static_cast<T>(v.s);
            if (2 * j + 1 < E::size)
                e[2 * j + 1] += static_cast<T>(v.c);
        }
#else
        for (std::size_t r = 0; r < E::size; ++r)
            e[r] += static_cast<T>(value(r, c));
#endif
    }
};

namespace detail {

// Precondition of every sequence embedding: ℓ ≤ X's capacity, X's extent ℓ, ids < N_V.
template <class V, class C>
constexpr void check_sequence(std::span<const token> x, std::size_t x_cols) noexcept {
    TYPEFORMER_CHECK(x.size() <= C::capacity,
                     "embed: more tokens than X's column capacity (the sequence is too long)");
    TYPEFORMER_CHECK(x.size() == x_cols,
                     "embed: X.cols() must equal the number of tokens (resize_cols first)");
    for (std::size_t t = 0; t < x.size(); ++t)
        TYPEFORMER_CHECK(x[t] < V::size, "embed: token id >= N_V");
    (void)x;
    (void)x_cols;  // unused when TYPEFORMER_NO_CHECKS strips the checks
}

// Columns [first, first + n) of W_p as a (d_e, C) view: the positions of W_p are the positions
// of X, so this relabelling of l_max as X's length is the meaning of line 2, not a shortcut.
template <class C, class M>
constexpr auto positions(M&& W_p, std::size_t first, std::size_t n) noexcept {
    auto v = as_view(W_p);
    [[maybe_unused]] constexpr std::size_t l_max = decltype(v)::cols_dim::size;
    TYPEFORMER_CHECK(first <= l_max && n <= l_max - first,
                     "embed: position >= l_max (the learned W_p has l_max columns)");
    using Elem = std::remove_pointer_t<decltype(v.data())>;
    return mat_view<Elem, typename decltype(v)::rows_dim, C>{v.data() + first * v.stride(),
                                                             v.stride(), v.rows(), n};
}

// α as a T (1 for unit_scale).
template <class T, class A>
constexpr T alpha_value(A a) noexcept {
    if constexpr (std::is_same_v<A, unit_scale>)
        return T(1);
    else
        return a;
}

// dW_e[:, x[t]] += dX[:, t] through the sink g of the token embedding (a token that occurs twice
// receives both columns).
template <class DXv, class G>
void token_embedding_backward(std::span<const token> x, const DXv& dX, const G& g) noexcept {
    using T = typename DXv::value_type;
    g.update(leaf::W_e, [&](auto dW, auto a) {
        for (std::size_t t = 0; t < x.size(); ++t)
            axpy(alpha_value<T>(a), dX.col(t), dW.col(x[t]));
    });
}

// dW_p[:, first_position + t] += dX[:, t] through the sink g of the positional embedding.
template <class DXv, class G>
void positional_embedding_backward(const DXv& dX, const G& g,
                                   std::size_t first_position = 0) noexcept {
    using T = typename DXv::value_type;
    g.update(leaf::W_p, [&](auto dW, auto a) {
        axpy(alpha_value<T>(a), dX,
             positions<typename DXv::cols_dim>(dW, first_position, dX.cols()));
    });
}
}  // namespace detail

inline namespace typed {

// ---- one token, one position ----

// Algorithm 1: the vector of token v.
template <class T, class E, class V>
constexpr vec_view<const T, E> embed_token(const token_embedding<T, E, V>& p, token v) noexcept {
    TYPEFORMER_CHECK(v < V::size, "embed_token: token id >= N_V");
    return p.W_e.col(v);  // 1: return e = W_e[:, v]
}

// Algorithm 2: the vector of 0-based position t (the paper's ℓ = t + 1).
template <class T, class E, class P>
constexpr vec_view<const T, E> embed_position(const positional_embedding<T, E, P>& p,
                                              std::size_t t) noexcept {
    TYPEFORMER_CHECK(t < P::size, "embed_position: position >= l_max");
    return p.W_p.col(t);  // 1: return e_p = W_p[:, ℓ]
}

// ---- a sequence: X[:, t] = W_e[:, x[t]] (+ W_p[:, first_position + t]) ----
// first_position > 0 embeds a continuation at its absolute positions (incremental decoding).

// Token embedding only: X[:, t] = W_e[:, x[t]].
template <class T, class E, class V, class Xt>
    requires matrix_operand<Xt> && rows_are<detail::rows_of<Xt>, E> &&
        same_value_type<detail::value_of<Xt>, T> && writable<detail::element_of<Xt>>
constexpr void embed(const token_embedding<T, E, V>& te, std::span<const token> x,
                     Xt&& X) noexcept {
    const auto Xv = as_view(X);  // (d_e, C)
    detail::check_sequence<V, detail::cols_of<Xt>>(x, Xv.cols());
    for (std::size_t t = 0; t < x.size(); ++t)
        copy(te.W_e.col(x[t]), Xv.col(t));  // W_e[:, x[t]]
}

// Algorithms 8–10, line 2: e_t ← W_e[:, x[t]] + W_p[:, t], X ← [e_1, …, e_ℓ].
template <class T, class E, class V, class P, class Xt>
    requires matrix_operand<Xt> && rows_are<detail::rows_of<Xt>, E> &&
        same_value_type<detail::value_of<Xt>, T> && writable<detail::element_of<Xt>>
constexpr void embed(const token_embedding<T, E, V>& te, const positional_embedding<T, E, P>& pe,
                     std::span<const token> x, Xt&& X, std::size_t first_position = 0) noexcept {
    const auto Xv = as_view(X);  // (d_e, C)
    embed(te, x, Xv);
    const auto Wp = detail::positions<detail::cols_of<Xt>>(pe.W_p, first_position, x.size());
    axpy(T(1), Wp, Xv);  // + W_p[:, t]
}

// The same with §5's sinusoidal W_p (see the top of this file for the index mapping).
template <class T, class E, class V, class P, class Xt>
    requires matrix_operand<Xt> && rows_are<detail::rows_of<Xt>, E> &&
        same_value_type<detail::value_of<Xt>, T> && writable<detail::element_of<Xt>>
void embed(const token_embedding<T, E, V>& te, const sinusoidal_embedding<E, P>& pe,
           std::span<const token> x, Xt&& X, std::size_t first_position = 0) noexcept {
    const auto Xv = as_view(X);  // (d_e, C)
    embed(te, x, Xv);
    for (std::size_t t = 0; t < x.size(); ++t)
        pe.add_column(first_position + t, Xv.col(t).data());  // + W_p[:, t]
}

// ---- backward (accumulates) ----

// dW_e[:, x[t]] += dX[:, t]   (a token that occurs twice receives both columns)
template <class T, class E, class V, class DXt>
    requires matrix_operand<DXt> && rows_are<detail::rows_of<DXt>, E> &&
        same_value_type<detail::value_of<DXt>, T>
void embed_backward(const token_embedding<T, E, V>&, std::span<const token> x, const DXt& dX,
                    token_embedding<T, E, V>& te_grads) noexcept {
    const auto dXv = as_view(dX);  // (d_e, C)
    detail::check_sequence<V, detail::cols_of<DXt>>(x, dXv.cols());
    detail::token_embedding_backward(
        x, dXv, detail::accumulate_into<token_embedding<T, E, V>, T>(te_grads));
}

// dW_e[:, x[t]] += dX[:, t],  dW_p[:, first_position + t] += dX[:, t]
template <class T, class E, class V, class P, class DXt>
    requires matrix_operand<DXt> && rows_are<detail::rows_of<DXt>, E> &&
        same_value_type<detail::value_of<DXt>, T>
void embed_backward(const token_embedding<T, E, V>& te, const positional_embedding<T, E, P>&,
                    std::span<const token> x, const DXt& dX, token_embedding<T, E, V>& te_grads,
                    positional_embedding<T, E, P>& pe_grads,
                    std::size_t first_position = 0) noexcept {
    const auto dXv = as_view(dX);  // (d_e, C)
    embed_backward(te, x, dXv, te_grads);
    detail::positional_embedding_backward(
        dXv, detail::accumulate_into<positional_embedding<T, E, P>, T>(pe_grads), first_position);
}

// Sinusoidal: only W_e has a gradient. pe_grads (the same empty type) keeps the call the same
// shape as the learned one, so a model's backward need not know which it holds.
template <class T, class E, class V, class P, class DXt>
    requires matrix_operand<DXt> && rows_are<detail::rows_of<DXt>, E> &&
        same_value_type<detail::value_of<DXt>, T>
void embed_backward(const token_embedding<T, E, V>& te, const sinusoidal_embedding<E, P>&,
                    std::span<const token> x, const DXt& dX, token_embedding<T, E, V>& te_grads,
                    sinusoidal_embedding<E, P>& /*pe_grads*/,
                    std::size_t /*first_position*/ = 0) noexcept {
    embed_backward(te, x, dX, te_grads);
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace detail {

// A positional or token embedding, and the d_e of its vectors.
template <class X>
struct embedding_kind {
    static constexpr bool positional = false, tokens = false;
};
template <class T, class E, class P>
struct embedding_kind<positional_embedding<T, E, P>> {
    static constexpr bool positional = true, tokens = false;
    using d_e = E;
};
template <class E, class P>
struct embedding_kind<sinusoidal_embedding<E, P>> {
    static constexpr bool positional = true, tokens = false;
    using d_e = E;
};
template <class T, class E, class V>
struct embedding_kind<token_embedding<T, E, V>> {
    static constexpr bool positional = false, tokens = true;
    using d_e = E;
};
template <class X>
inline constexpr bool is_positional = embedding_kind<X>::positional;
template <class X>
inline constexpr bool is_token_embedding = embedding_kind<X>::tokens;

// The positional embedding of a call has the token embedding's d_e (and scalar type).
template <class T, class E, class Pe>
constexpr auto check_positional() {
    if constexpr (requires { typename Pe::W_p_type; }) {
        using Wp = typename Pe::W_p_type;  // (d_e, l_max)
        return first_error(check_rows<role::W_p, Wp, E, W_e_rows<E>>(),
                           check_scalar<role::W_p, Wp, T, W_e_scalar<T>>());
    } else {
        return what<>{};  // sinusoidal: E is checked by the form's deduction, nothing else to say
    }
}

// embed(te, [pe,] x, X[, first_position]), embed_backward(te, [pe,] x, dX, te_grads[, ...]): the
// stream X (or dX) has W_e's d_e rows; Out is X's role.
template <class T, class E, class V, class RoleOut, bool Write, class... A>
constexpr auto embed_error() {
    if constexpr (sizeof...(A) < 2) {
        return what<arguments<bare_t<A>...>>{};
    } else if constexpr (is_positional<arg_t<0, A...>>) {
        if constexpr (sizeof...(A) < 3) {
            return what<arguments<bare_t<A>...>>{};
        } else {
            // backward: te_grads and pe_grads (args 3, 4) have the types of te and pe; checked
            // before x and dX, whose check answers arguments<x, dX> when they are right
            auto grads = [] {
                if constexpr (!Write && sizeof...(A) >= 5)
                    return first_error(check_grads<arg_t<3, A...>, token_embedding<T, E, V>>(),
                                       check_grads<arg_t<4, A...>, bare_t<arg_t<0, A...>>>());
                else
                    return what<>{};
            };
            return or_arguments<A...>(first_error(
                check_positional<T, E, arg_t<0, A...>>(), grads(),
                embed_error<T, E, V, RoleOut, Write, arg_ref_t<1, A...>, arg_ref_t<2, A...>>()));
        }
    } else {
        using X = arg_ref_t<1, A...>;
        constexpr bool tokens = std::is_convertible_v<arg_ref_t<0, A...>, std::span<const token>>;
        auto write = [] {
            if constexpr (Write)
                return check_writable<RoleOut, X>();
            else
                return what<>{};
        };
        auto grads = [] {  // backward: te_grads (arg 2) has te's type
            if constexpr (!Write && sizeof...(A) >= 3)
                return check_grads<arg_t<2, A...>, token_embedding<T, E, V>>();
            else
                return what<>{};
        };
        return or_arguments<A...>(
            first_error(std::conditional_t<tokens, what<>, what<arguments<bare_t<A>...>>>{},
                        check_matrix<RoleOut, X>(), check_rows<RoleOut, X, E, W_e_rows<E>>(),
                        check_scalar<RoleOut, X, T, W_e_scalar<T>>(), write(), grads()));
    }
}

}  // namespace detail

template <class T, class E, class V, class... A>
    requires(!requires(const token_embedding<T, E, V>& te, A&&... a) {
        typed::embed(te, static_cast<A&&>(a)...);
    })
auto embed(const token_embedding<T, E, V>& te, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_1_2_embed>(
        detail::embed_error<T, E, V, role::X, true, A...>()));
template <class T, class E, class V, class... A>
    requires(!requires(const token_embedding<T, E, V>& te, A&&... a) {
        typed::embed_backward(te, static_cast<A&&>(a)...);
    })
auto embed_backward(const token_embedding<T, E, V>& te, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_1_2_embed_backward>(
        detail::embed_error<T, E, V, role::dX, false, A...>()));
// One token's or one position's vector of another block (W_p for W_e, or the reverse): the block
// given, and the embedding the algorithm reads, of its d_e.
template <class P, class... A>
    requires(detail::is_positional<P> &&
             !requires(const P& p, A&&... a) { typed::embed_token(p, static_cast<A&&>(a)...); })
auto embed_token(const P& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_1_token_embedding>(
        typeformer::detail::what<P, needed<W_e_rows<typename detail::embedding_kind<P>::d_e>>>{}));
template <class P, class... A>
    requires(detail::is_token_embedding<P> &&
             !requires(const P& p, A&&... a) { typed::embed_position(p, static_cast<A&&>(a)...); })
auto embed_position(const P& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_2_positional_embedding>(
        typeformer::detail::what<P, needed<W_p_rows<typename detail::embedding_kind<P>::d_e>>>{}));

}  // namespace typeformer::nn

namespace typeformer {
using nn::positional_embedding;
using nn::sinusoidal_embedding;
using nn::token_embedding;
}  // namespace typeformer
