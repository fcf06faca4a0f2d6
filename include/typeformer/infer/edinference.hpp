// Algorithm 15: x̂ ← EDInference(z, θ̂), using a trained seq2seq EDTransformer for prediction.
//
//   z (ℓ_z)      the input sequence, 1 ≤ ℓ_z ≤ l_max
//   x̂            [bos, y_1, y_2, …, eos]: each y sampled from q ∝ P[:, length(x̂)]^{1/τ}
//   opt          sampling: τ (0 = argmax), top-k, top-p (stop tokens: eos always stops)
//
//   try_EDInference(model, cache, z, opt, gen, x_hat, n_out)   core, no heap: x_hat is the
//                caller's buffer (≥ l_max + 1 holds every outcome), n_out the tokens written
//   EDInference(model, cache, z, opt, gen)                     host: a vector (a full context
//                throws context_full_error with x̂ so far)
//
// The encoder runs once (try_encode); each new token is one column through the decoder with the
// cross-attention keys and values of Z cached. The paper's loop runs until eos; here it is bounded
// by l_max: a sequence that reaches l_max tokens without eos returns status::context_full with
// x̂ as far as it got.
#pragma once

#include <cstddef>
#include <span>

#include "../models/diagnose.hpp"
#include "../models/edtransformer.hpp"
#include "../models/status.hpp"
#include "../token.hpp"
#include "dinference.hpp"
#include "kv_cache.hpp"
#include "sampling.hpp"

#if TYPEFORMER_HAS_EXCEPTIONS
#include <utility>
#include <vector>
#endif

namespace typeformer {

inline namespace typed {

template <class T, class cfg, class Gen>
status try_EDInference(const EDTransformer<T, cfg>& model, kv_cache<EDTransformer<T, cfg>>& cache,
                       tokens_for<EDTransformer<T, cfg>> z, const sampling& opt, Gen& gen,
                       std::span<token> x_hat, std::size_t& n_out) noexcept {
    using model_type = EDTransformer<T, cfg>;
    constexpr std::size_t NV = model_type::N_V::size;
    n_out = 0;
    if (const status s = check_sampling(opt, NV); s != status::ok)
        return s;
    if (x_hat.size() < 2)
        return status::output_too_small;
    if (const status s = try_encode(model, cache, z); s != status::ok)
        return s;
    x_hat[n_out++] = bos_token<NV>;                    // 1: x̂ ← [bos_token]
    detail::decode_step(model, cache, bos_token<NV>);  // 4: P's column of x̂'s last token
    for (;;) {                                         // 3: while y ≠ eos_token
        // 5: p ← P[:, length(x̂)];  6: sample a token y from q ∝ p^{1/τ}
        const token y = sample_token(detail::logits_span(cache), opt, gen, cache.sampler);
        if (n_out == x_hat.size())
            return status::output_too_small;
        x_hat[n_out++] = y;  // 7: x̂ ← [x̂, y]
        if (y == eos_token<NV> || detail::is_stop(opt.stop, y))
            return status::ok;  // 9: return x̂
        if (cache.n == model_type::l_max::size)
            return status::context_full;  // no eos within l_max
        detail::decode_step(model, cache, y);
    }
}

#if TYPEFORMER_HAS_EXCEPTIONS
// Host form: x̂ as a vector, [bos, …, eos]; bad input throws std::invalid_argument; reaching
// l_max without eos throws context_full_error (dinference.hpp), which holds x̂ as far as it got.
template <class T, class cfg, class Gen>
std::vector<token> EDInference(const EDTransformer<T, cfg>& model,
                               kv_cache<EDTransformer<T, cfg>>& cache,
                               tokens_for<EDTransformer<T, cfg>> z, const sampling& opt, Gen& gen) {
    using model_type = EDTransformer<T, cfg>;
    if (const input_report r = detail::inspect<model_type>(z, "z"); r.code != status::ok)
        detail::require_valid<model_type>(r);
    std::vector<token> x_hat(model_type::l_max::size + 1);
    std::size_t n = 0;
    const status s = try_EDInference(model, cache, z, opt, gen, std::span<token>(x_hat), n);
    x_hat.resize(n);
    if (s == status::context_full)
        detail::throw_context_full(std::move(x_hat),
                                   "%s: the context is full: x_hat reached l_max = %zu tokens "
                                   "(bos and %zu generated) without eos; the %zu tokens of x_hat "
                                   "are in context_full_error::tokens()",
                                   model_type::name, model_type::l_max::size, n - 1, n);
    detail::require_ok<model_type>(s);
    return x_hat;
}
#endif

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
namespace detail {
template <class... A>
concept try_EDInference_accepts = requires(A&&... a) {
    typed::try_EDInference(static_cast<A&&>(a)...);
};
}  // namespace detail
template <class Model, class Cache, class Z, class... A>
    requires(detail::architecture<Model> &&
             !detail::try_EDInference_accepts<const Model&, Cache, Z, const sampling&, A...>)
auto try_EDInference(const Model& model, Cache&& cache, Z&& z, const sampling& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_15_EDInference>(detail::first_error(
        detail::check_architecture<EDTransformer, Model>(), detail::check_tokens<Model, Z>(),
        detail::model_call_error<Model, Cache, Z, A...>())));
#if TYPEFORMER_HAS_EXCEPTIONS
namespace detail {
template <class... A>
concept EDInference_accepts = requires(A&&... a) {
    typed::EDInference(static_cast<A&&>(a)...);
};
}  // namespace detail
template <class Model, class Cache, class Z, class... A>
    requires(detail::architecture<Model> &&
             !detail::EDInference_accepts<const Model&, Cache, Z, const sampling&, A...>)
auto EDInference(const Model& model, Cache&& cache, Z&& z, const sampling& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_15_EDInference>(detail::first_error(
        detail::check_architecture<EDTransformer, Model>(), detail::check_tokens<Model, Z>(),
        detail::model_call_error<Model, Cache, Z, A...>())));
#endif

}  // namespace typeformer
