// Fill-mask with an ETransformer (BERT, Algorithm 9): at every position where x̃ holds
// mask_token, the k most likely tokens of P[:, t], most likely first.
//
//   x̃ (ℓ)              the masked sequence (mask = N_V − 3)
//   P (N_V, ℓ)          ETransformer(x̃ | θ̂), in the caller's inference workspace
//   top (n_masked, k)   row i: the masked position's ids, P[top[i][0], t] ≥ P[top[i][1], t] ≥ …
//
//   try_fill_mask(model, x_tilde, k, ws, scratch, positions, top, n_masked)   core, no heap:
//        positions (≥ ℓ) receives the masked positions, top (≥ ℓ·k) their ids, row by row
//   fill_mask(model, x_tilde, k, ws)                                       host: a vector of
//        {position, ids}
// Ties are broken by the smaller id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

#include "../models/diagnose.hpp"
#include "../models/etransformer.hpp"
#include "../models/forward.hpp"
#include "../models/status.hpp"
#include "../token.hpp"
#include "sampling.hpp"

#if TYPEFORMER_HAS_EXCEPTIONS
#include <memory>
#include <vector>
#endif

namespace typeformer {

inline namespace typed {

template <class T, class cfg, workspace_kind K>
status try_fill_mask(const ETransformer<T, cfg>& model, tokens_for<ETransformer<T, cfg>> x_tilde,
                     std::size_t k, workspace<ETransformer<T, cfg>, K>& ws,
                     sampling_scratch<T, cfg::N_V>& scratch, std::span<std::size_t> positions,
                     std::span<token> top, std::size_t& n_masked) noexcept {
    constexpr std::size_t NV = cfg::N_V;
    n_masked = 0;
    if (k == 0 || k > NV)
        return status::invalid_top_k;
    if (positions.size() < x_tilde.size() || top.size() < x_tilde.size() * k)
        return status::output_too_small;
    if (const status s = try_forward(model, x_tilde, ws); s != status::ok)
        return s;
    const auto P = ws.out.view();  // P (N_V, ℓ)
    for (std::size_t t = 0; t < x_tilde.size(); ++t) {
        if (x_tilde[t] != mask_token<NV>)
            continue;
        for (std::size_t i = 0; i < NV; ++i) {
            scratch.q[i] = P(i, t);
            scratch.order[i] = static_cast<token>(i);
        }
        const detail::more_likely<T> cmp{scratch.q.data()};
        std::partial_sort(scratch.order.begin(), scratch.order.begin() + k, scratch.order.end(),
                          cmp);
        positions[n_masked] = t;
        std::copy_n(scratch.order.begin(), k, top.begin() + n_masked * k);
        ++n_masked;
    }
    return status::ok;
}

#if TYPEFORMER_HAS_EXCEPTIONS
struct masked_prediction {
    std::size_t position;    // t with x̃[t] = mask
    std::vector<token> top;  // the k most likely ids there, most likely first
};

template <class T, class cfg, workspace_kind K>
std::vector<masked_prediction> fill_mask(const ETransformer<T, cfg>& model,
                                         tokens_for<ETransformer<T, cfg>> x_tilde, std::size_t k,
                                         workspace<ETransformer<T, cfg>, K>& ws) {
    using model_type = ETransformer<T, cfg>;
    if (const input_report r = detail::inspect<model_type>(x_tilde, "x_tilde");
        r.code != status::ok)
        detail::require_valid<model_type>(r);
    auto scratch = std::make_unique<sampling_scratch<T, cfg::N_V>>();
    std::vector<std::size_t> positions(x_tilde.size());
    std::vector<token> top(x_tilde.size() * k);
    std::size_t n = 0;
    const status s =
        try_fill_mask(model, x_tilde, k, ws, *scratch, std::span(positions), std::span(top), n);
    if (s != status::ok) {
        input_report r{};
        r.code = s;
        detail::require_valid<model_type>(r);
    }
    std::vector<masked_prediction> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(
            {positions[i], std::vector<token>(top.begin() + i * k, top.begin() + (i + 1) * k)});
    return out;
}
#endif

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

TYPEFORMER_MODEL_FALLBACK(try_fill_mask, in::fill_mask,
                          detail::first_error(detail::check_architecture<ETransformer, Model>(),
                                              detail::model_call_error<Model, A...>()));
#if TYPEFORMER_HAS_EXCEPTIONS
TYPEFORMER_MODEL_FALLBACK(fill_mask, in::fill_mask,
                          detail::first_error(detail::check_architecture<ETransformer, Model>(),
                                              detail::model_call_error<Model, A...>()));
#endif

}  // namespace typeformer
