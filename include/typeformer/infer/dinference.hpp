// Algorithm 14: y ← DInference(x, θ̂), prompting a trained DTransformer (GPT) and sampling its
// continuation token by token through the KV cache.
//
//   x (ℓ)        the prompt, 1 ≤ ℓ ≤ l_max, ids < N_V
//   y (ℓ_gen)    the continuation: y[i] sampled from q ∝ P[:, ℓ + i − 1]^{1/τ} (0-based: the column
//                of the newest token), each new token appended to the context
//   opt          sampling: τ (0 = argmax), top-k, top-p, stop tokens, what to do at l_max
//
//   try_DInference(model, cache, x, l_gen, opt, gen, y, n_out[, on_token])   core, no heap:
//                y is the caller's buffer (≥ l_gen), n_out the tokens written; on_token(token)
//                is called as each token is sampled (streaming) and may return false to stop
//   DInference(model, cache, x, l_gen, opt, gen[, on_token])                 host: a vector;
//                bad options or input throw std::invalid_argument, a full context throws
//                context_full_error, which holds the tokens generated (tokens(), count())
//
// Each new token costs one column through the layers (infer/kv_cache.hpp), not a full forward
// pass over the growing sequence as line 3 reads literally; the tokens are the same.
// Generation ends after l_gen tokens, after a stop token (which is included in y), when on_token
// returns false, or at l_max: status::context_full under context_policy::error (y keeps what was
// generated), or a sliding window under context_policy::sliding_window.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "../models/diagnose.hpp"
#include "../models/dtransformer.hpp"
#include "../models/status.hpp"
#include "../random.hpp"
#include "../token.hpp"
#include "kv_cache.hpp"
#include "sampling.hpp"

#if TYPEFORMER_HAS_EXCEPTIONS
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#endif

namespace typeformer {

#if TYPEFORMER_HAS_EXCEPTIONS
// What DInference and EDInference throw when prompt and generated tokens reach l_max under
// context_policy::error (status::context_full): the sentence names the count, and the tokens
// generated so far (DInference's y, EDInference's x̂ from bos) are kept, not lost with the call.
// An std::invalid_argument, as every other refused input of the host forms.
class context_full_error : public std::invalid_argument {
public:
    context_full_error(const std::string& what, std::vector<token> generated)
        : std::invalid_argument(what), tokens_(std::move(generated)) {}
    const std::vector<token>& tokens() const noexcept { return tokens_; }
    std::size_t count() const noexcept { return tokens_.size(); }

private:
    std::vector<token> tokens_;
};

namespace detail {
// Throws context_full_error with tokens and the sentence printf(format, args...).
template <class... A>
[[noreturn]] void throw_context_full(std::vector<token> tokens, const char* format, A... args) {
    char what[320];
    std::snprintf(what, sizeof what, format, args...);
    throw context_full_error(what, std::move(tokens));
}
}  // namespace detail
#endif

namespace detail {

struct keep_going {
    constexpr bool operator()(token) const noexcept { return true; }
};

inline bool is_stop(std::span<const token> stop, token y) noexcept {
    for (const token s : stop)
        if (s == y)
            return true;
    return false;
}

// context_policy::sliding_window: keep the newest half of l_max tokens, re-encoded from
// position 0, so the model has room to go on.
template <class Model>
void slide_window(const Model& m, kv_cache<Model>& c) noexcept {
    constexpr std::size_t l_max = Model::l_max::size;
    const std::size_t keep = l_max / 2 > 0 ? l_max / 2 : 1;
    std::array<token, Model::l_max::size> kept{};
    const std::size_t first = c.n - keep;
    for (std::size_t i = 0; i < keep; ++i)
        kept[i] = c.x[first + i];
    reset(c);
    for (std::size_t i = 0; i < keep; ++i)
        decode_step(m, c, kept[i]);
}

}  // namespace detail

namespace detail {

// Lines 1–8 for a decoder-only model, float or int8 (models/quantized.hpp).
template <class Model, class Gen, class OnToken>
status dinference(const Model& model, kv_cache<Model>& cache, tokens_for<Model> x,
                  std::size_t l_gen, const sampling& opt, Gen& gen, std::span<token> y,
                  std::size_t& n_out, OnToken&& on_token) noexcept {
    n_out = 0;
    if (const status s = check_sampling(opt, Model::N_V::size); s != status::ok)
        return s;
    if (y.size() < l_gen)
        return status::output_too_small;
    if (const status s = try_prefill(model, cache, x); s != status::ok)  // 1: ℓ ← length(x)
        return s;
    for (std::size_t i = 0; i < l_gen; ++i) {  // 2: for i = 1, 2, …, ℓ_gen
        // 3–4: p ← P[:, ℓ + i − 1], the newest column (its logits are in the cache)
        // 5: sample a token y from q ∝ p^{1/τ}
        const token next = sample_token(detail::logits_span(cache), opt, gen, cache.sampler);
        y[n_out++] = next;
        if (detail::is_stop(opt.stop, next) || !on_token(next) || i + 1 == l_gen)
            return status::ok;
        if (cache.n == Model::l_max::size) {
            if (opt.when_full == context_policy::error)
                return status::context_full;
            detail::slide_window(model, cache);
        }
        detail::decode_step(model, cache, next);  // 6: x ← [x, y]
    }
    return status::ok;  // 8: return y = x[ℓ + 1 : ℓ + ℓ_gen]
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class Model, class Gen, class OnToken>
std::vector<token> dinference_host(const Model& model, kv_cache<Model>& cache, tokens_for<Model> x,
                                   std::size_t l_gen, const sampling& opt, Gen& gen,
                                   OnToken&& on_token) {
    if (const input_report r = detail::inspect<Model>(x, "x"); r.code != status::ok)
        detail::require_valid<Model>(r);
    std::vector<token> y(l_gen);
    std::size_t n = 0;
    const status s = dinference(model, cache, x, l_gen, opt, gen, std::span<token>(y), n,
                                std::forward<OnToken>(on_token));
    y.resize(n);
    if (s == status::context_full)
        throw_context_full(std::move(y),
                           "%s: the context is full: the prompt's %zu tokens and %zu generated "
                           "reached l_max = %zu before the %zu asked for; the %zu generated tokens "
                           "are in context_full_error::tokens() (context_policy::sliding_window "
                           "goes on)",
                           Model::name, x.size(), n, Model::l_max::size, l_gen, n);
    detail::require_ok<Model>(s);
    return y;
}
#endif

}  // namespace detail

inline namespace typed {

template <class T, class cfg, class Gen, class OnToken = detail::keep_going>
status try_DInference(const DTransformer<T, cfg>& model, kv_cache<DTransformer<T, cfg>>& cache,
                      tokens_for<DTransformer<T, cfg>> x, std::size_t l_gen, const sampling& opt,
                      Gen& gen, std::span<token> y, std::size_t& n_out,
                      OnToken&& on_token = {}) noexcept {
    return detail::dinference(model, cache, x, l_gen, opt, gen, y, n_out,
                              std::forward<OnToken>(on_token));
}

// The same over int8 weights.
template <class cfg, class Gen, class OnToken = detail::keep_going>
status try_DInference(const quantized<DTransformer<float, cfg>>& model,
                      kv_cache<quantized<DTransformer<float, cfg>>>& cache,
                      tokens_for<DTransformer<float, cfg>> x, std::size_t l_gen,
                      const sampling& opt, Gen& gen, std::span<token> y, std::size_t& n_out,
                      OnToken&& on_token = {}) noexcept {
    return detail::dinference(model, cache, x, l_gen, opt, gen, y, n_out,
                              std::forward<OnToken>(on_token));
}

#if TYPEFORMER_HAS_EXCEPTIONS
// Host form: the continuation as a vector (it owns its tokens); a bad input throws
// std::invalid_argument. Reaching l_max under context_policy::error throws context_full_error
// (an std::invalid_argument): its message names how many tokens were generated, and tokens()
// holds them.
template <class T, class cfg, class Gen, class OnToken = detail::keep_going>
std::vector<token> DInference(const DTransformer<T, cfg>& model,
                              kv_cache<DTransformer<T, cfg>>& cache,
                              tokens_for<DTransformer<T, cfg>> x, std::size_t l_gen,
                              const sampling& opt, Gen& gen, OnToken&& on_token = {}) {
    return detail::dinference_host(model, cache, x, l_gen, opt, gen,
                                   std::forward<OnToken>(on_token));
}
template <class cfg, class Gen, class OnToken = detail::keep_going>
std::vector<token> DInference(const quantized<DTransformer<float, cfg>>& model,
                              kv_cache<quantized<DTransformer<float, cfg>>>& cache,
                              tokens_for<DTransformer<float, cfg>> x, std::size_t l_gen,
                              const sampling& opt, Gen& gen, OnToken&& on_token = {}) {
    return detail::dinference_host(model, cache, x, l_gen, opt, gen,
                                   std::forward<OnToken>(on_token));
}
#endif

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
namespace detail {
template <class... A>
concept try_DInference_accepts = requires(A&&... a) {
    typed::try_DInference(static_cast<A&&>(a)...);
};
}  // namespace detail
template <class Model, class Cache, class X, class... A>
    requires(
        detail::architecture<Model> &&
        !detail::try_DInference_accepts<const Model&, Cache, X, std::size_t, const sampling&, A...>)
auto try_DInference(const Model& model, Cache&& cache, X&& x, std::size_t l_gen,
                    const sampling& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_14_DInference>(detail::first_error(
        detail::check_architecture<DTransformer, Model>(), detail::check_tokens<Model, X>(),
        detail::model_call_error<Model, Cache, X, A...>())));
#if TYPEFORMER_HAS_EXCEPTIONS
namespace detail {
template <class... A>
concept DInference_accepts = requires(A&&... a) {
    typed::DInference(static_cast<A&&>(a)...);
};
}  // namespace detail
template <class Model, class Cache, class X, class... A>
    requires(
        detail::architecture<Model> &&
        !detail::DInference_accepts<const Model&, Cache, X, std::size_t, const sampling&, A...>)
auto DInference(const Model& model, Cache&& cache, X&& x, std::size_t l_gen, const sampling& opt,
                A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_14_DInference>(detail::first_error(
        detail::check_architecture<DTransformer, Model>(), detail::check_tokens<Model, X>(),
        detail::model_call_error<Model, Cache, X, A...>())));
#endif

}  // namespace typeformer
