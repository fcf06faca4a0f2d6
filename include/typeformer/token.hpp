// A token id: 0-based index into the vocabulary [0, N_V).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "config.hpp"

namespace typeformer {

using token = std::uint32_t;

// The paper's special tokens (§3), 0-based: its 1-based N_V−2, N_V−1, N_V.
template <std::size_t NV>
inline constexpr token mask_token = static_cast<token>(NV - 3);
template <std::size_t NV>
inline constexpr token bos_token = static_cast<token>(NV - 2);
template <std::size_t NV>
inline constexpr token eos_token = static_cast<token>(NV - 1);

// A target that contributes nothing to a loss (e.g. an unmasked position in
// Algorithm 12).
inline constexpr token no_target = static_cast<token>(-1);

// ---- typed sequences: the vocabulary in the type ----
//
// A tokenizer whose vocabulary is fixed at compile time returns ids whose type carries it
// (tokenize::byte_level::encode gives tokenize::tokens<N_V<259>>), and a model takes such a
// sequence only if the vocabulary is its own N_V: byte tokens fed to a model with N_V = 99 do not
// compile (shape_error<in::forward, tokens_of<N_V<259>>, model_N_V<N_V<99>>>). Untyped sequences
// (std::span<const token>, std::vector<token>) are taken as before, their ids checked at run time.

// A sequence that names its vocabulary V (a dimension N_V<n>) as a member type `vocabulary`.
template <class X>
concept names_vocabulary = requires {
    typename std::remove_cvref_t<X>::vocabulary;
};
template <class X>
concept typed_token_sequence =
    names_vocabulary<X> && std::is_convertible_v<std::remove_cvref_t<X>, std::span<const token>>;

// shape_error.hpp's names that token_span's error uses (declared here too: token.hpp is below the
// umbrella's first include, shape_error.hpp, and includes nothing of the library but config.hpp)
template <class Where, class... What>
struct shape_error;
namespace in {
struct token_span;
struct input_tokens;
}  // namespace in
template <class Vocabulary>
struct tokens_of;
template <class... What>
struct needed;

// A typed view of ids: made from untyped ids once, at a boundary, where each id is checked < |V|.
template <class V>
struct token_span : std::span<const token> {
    using vocabulary = V;
    constexpr token_span() noexcept = default;
    constexpr explicit token_span(std::span<const token> ids) noexcept
        : std::span<const token>(ids) {
        for ([[maybe_unused]] const token t : ids)
            TYPEFORMER_CHECK(t < V::size, "token_span: an id is not in the vocabulary (>= N_V)");
    }
    // A view of a typed sequence of the same vocabulary.
    template <typed_token_sequence R>
        requires(std::is_same_v<typename std::remove_cvref_t<R>::vocabulary, V> &&
                 !std::is_same_v<std::remove_cvref_t<R>, token_span>)
    constexpr token_span(const R& r) noexcept : std::span<const token>(r) {}
    // A typed sequence of another vocabulary: its ids index another table, so it is no view of
    // V's ids (the explicit constructor above would take it as untyped ids and check them only
    // at run time). Its error names both vocabularies.
    template <typed_token_sequence R>
        requires(!std::is_same_v<typename std::remove_cvref_t<R>::vocabulary, V>)
    explicit token_span([[maybe_unused]] const R& r) noexcept {
        using given = tokens_of<typename std::remove_cvref_t<R>::vocabulary>;
        static_assert(sizeof(shape_error<in::token_span, given, needed<tokens_of<V>>>) > 0);
    }
};

// What a model's function takes as a sequence over the vocabulary V: an untyped sequence, or a
// typed one of vocabulary V (one of another vocabulary converts to nothing here, so the call
// falls through to the function's shape_error form, which names both vocabularies).
template <class V>
struct input_tokens : std::span<const token> {
    constexpr input_tokens() noexcept = default;  // {}: the empty sequence
    template <class R>
        requires(!typed_token_sequence<R> && std::is_convertible_v<R&&, std::span<const token>>)
    constexpr input_tokens(R&& ids) noexcept
        : std::span<const token>(std::span<const token>(static_cast<R&&>(ids))) {}
    template <typed_token_sequence R>
        requires std::is_same_v<typename std::remove_cvref_t<R>::vocabulary, V>
    constexpr input_tokens(const R& ids) noexcept : std::span<const token>(ids) {}
    // Named directly, input_tokens<V>(x) of another vocabulary: explicit, so a call that converts
    // (f(model, x) of a model's function) still falls through to the function's own error.
    template <typed_token_sequence R>
        requires(!std::is_same_v<typename std::remove_cvref_t<R>::vocabulary, V>)
    explicit input_tokens([[maybe_unused]] const R& ids) noexcept {
        using given = tokens_of<typename std::remove_cvref_t<R>::vocabulary>;
        static_assert(sizeof(shape_error<in::input_tokens, given, needed<tokens_of<V>>>) > 0);
    }
};

}  // namespace typeformer
