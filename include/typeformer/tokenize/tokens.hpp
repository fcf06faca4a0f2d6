// Token sequences that carry their vocabulary in their type (token.hpp's typed sequences, owning).
//
//   tokens<V>                  a std::vector<token> whose ids are of the vocabulary V (N_V<n>):
//                              byte_level::encode returns tokens<N_V<259>>; a model takes it only
//                              if its N_V is V (otherwise the call does not compile and names both)
//   for_model<Model>(tok)      a tokenizer whose vocabulary is known only at run time (BPE, GPT-2,
//                              one loaded from a checkpoint), checked once against Model's N_V:
//                              std::invalid_argument if the sizes differ; its encode then returns
//                              tokens<Model's N_V>. One whose vocabulary is a type (byte_level,
//                              a bound_tokenizer) is checked at compile time: another N_V is
//                              shape_error<in::for_model, tokens_of<N_V<259>>, model_N_V<...>>
//
// Host code (std::vector, exceptions), like the tokenizers.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../shape_error.hpp"
#include "../token.hpp"

namespace typeformer::tokenize {

template <class V>
struct tokens : std::vector<token> {
    using vocabulary = V;
    tokens() = default;
    // ids that the caller knows to be < |V| (a tokenizer of vocabulary V made them)
    explicit tokens(std::vector<token> ids) : std::vector<token>(std::move(ids)) {}
    // untyped ids, checked here, once: std::invalid_argument names the first id out of range
    static tokens checked(std::span<const token> ids) {
        for (std::size_t t = 0; t < ids.size(); ++t)
            if (ids[t] >= V::size)
                throw std::invalid_argument(
                    "token " + std::to_string(ids[t]) + " at position " + std::to_string(t) +
                    " is not in the vocabulary (N_V = " + std::to_string(V::size) + ")");
        return tokens(std::vector<token>(ids.begin(), ids.end()));
    }
    token_span<V> view() const noexcept { return token_span<V>(*this); }
};

// A tokenizer bound to the vocabulary V after one run-time check of its size.
template <class V, class Tokenizer>
class bound_tokenizer {
public:
    using vocabulary = V;

    explicit bound_tokenizer(Tokenizer tok) : tok_(std::move(tok)) {
        if (tok_.vocab_size() != V::size)
            throw std::invalid_argument(
                "tokenizer: its vocabulary has " + std::to_string(tok_.vocab_size()) +
                " tokens but the model's N_V is " + std::to_string(V::size) +
                " (ids, and the special tokens mask, bos, eos = N_V - 3, N_V - 2, N_V - 1, must "
                "mean the same to both)");
    }

    tokens<V> encode(std::string_view text) const {
        return tokens<V>(std::vector<token>(tok_.encode(text)));
    }
    std::string decode(std::span<const token> ids) const { return tok_.decode(ids); }
    std::string piece(token t) const { return tok_.piece(t); }
    std::size_t vocab_size() const noexcept { return V::size; }
    const Tokenizer& tokenizer() const noexcept { return tok_; }

private:
    Tokenizer tok_;
};

namespace detail {
// A tokenizer whose vocabulary is a type (byte_level's N_V<259>), known when for_model is named.
template <class Tokenizer>
concept typed_vocabulary = requires {
    typename Tokenizer::vocabulary;
};
}  // namespace detail

// The tokenizer bound to Model's vocabulary (Model::traits::N_V); throws if the sizes differ.
template <class Model, class Tokenizer>
    requires(!detail::typed_vocabulary<Tokenizer> ||
             std::is_same_v<typename Tokenizer::vocabulary, typename Model::traits::N_V>)
bound_tokenizer<typename Model::traits::N_V, Tokenizer> for_model(Tokenizer tok) {
    return bound_tokenizer<typename Model::traits::N_V, Tokenizer>(std::move(tok));
}

// ---- a tokenizer of a typed vocabulary other than the model's: both sizes are types ----

template <class Model, class Tokenizer>
    requires(detail::typed_vocabulary<Tokenizer> &&
             !std::is_same_v<typename Tokenizer::vocabulary, typename Model::traits::N_V>)
auto for_model(Tokenizer tok)
    -> shape_error<in::for_model, tokens_of<typename Tokenizer::vocabulary>,
                   model_N_V<typename Model::traits::N_V>>;

}  // namespace typeformer::tokenize
