// The public entry points every model shares; each model header supplies the algorithm itself
// (detail::model_impl<Model>::logits and ::backward, with the paper's line numbers).
//
// One input sequence (DTransformer, ETransformer):
//   P      = forward(model, x, ws)       P (N_V, ℓ), a view into ws: P[:, t] a distribution
//   P      = forward(model, x)           host builds: owns its result (an owned_output holding the
//                                        workspace it allocated for this call: one allocation)
//   logits = logits(model, x, ws)        W_u X before the softmax (N_V, ℓ), a view into ws
//   status = try_forward(model, x, ws)   P is then ws.out; try_logits likewise
//   backward(model, x, ws, grads)        training workspace: from ws.scratch.dlogits (∂loss/∂logits,
//                                        set by the caller after logits(model, x, ws)) to every
//                                        parameter; ACCUMULATES into grads
// Two (EDTransformer, Algorithm 8): the same with (z, x) for x.
//
// forward and logits share the workspace's one (N_V, l_max) output buffer `out`: after forward
// it holds P, after logits the logits. Returned views are valid until the next call with ws.
// Plain forms throw std::invalid_argument on bad input (host builds) or stop at
// TYPEFORMER_CHECK (-fno-exceptions); try_ forms return the status and touch nothing.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "diagnose.hpp"
#include "status.hpp"
#include "workspace.hpp"

#if TYPEFORMER_HAS_EXCEPTIONS
#include <memory>
#endif

namespace typeformer {

namespace detail {

// Specialised by each model header: static logits(model, x[, z], ws) and backward(...).
template <class Model>
struct model_impl;

template <class M>
constexpr auto cview(const M& m) noexcept {
    return m.view();
}

template <class Model>
constexpr input_report inspect(std::span<const token> x, const char* which) noexcept {
    return inspect_sequence<Model::traits::N_V::size, Model::traits::l_max::size>(x, which);
}

template <class Model>
constexpr input_report inspect_pair(std::span<const token> z, std::span<const token> x) noexcept {
    const input_report rz = inspect<Model>(z, "z");
    return rz.code != status::ok ? rz : inspect<Model>(x, "x");
}

}  // namespace detail

// What a model's functions take as a sequence: untyped ids, or ids typed with the model's N_V
// (token.hpp). The type is not deduced from, so std::vector<token> and spans convert to it.
template <class Model>
using tokens_for = input_tokens<typename Model::traits::N_V>;

template <class Model>
concept one_sequence_model = (Model::sequences == 1);
template <class Model>
concept two_sequence_model = (Model::sequences == 2);

// Z, the encoder's output for a context z (Algorithm 8, lines 1–9), typed by the model that made
// it: an EDTransformer's forward and logits take a Z only of their own model type, so a Z from
// another model's encoder (another d_e, l_max, ...) does not compile. A view into the workspace
// that encode() used, valid until that workspace's next use.
template <class Model>
struct encoded_context {
    using model_type = Model;
    mat_view<const typename Model::value_type, typename Model::d_e, typename Model::l_z> Z;
};
namespace detail {
template <class Model>
struct belongs_to<encoded_context<Model>> {
    using model = Model;
    template <class M>
    using role = Z_of<M>;
};
}  // namespace detail

// The type of P and of the logits: (N_V, l_x), read-only.
template <class Model>
using output_view = mat_view<const typename Model::value_type, typename Model::traits::N_V,
                             typename Model::traits::l_x>;

inline namespace typed {

// ---- one sequence: DTransformer (Algorithm 10), ETransformer (Algorithm 9) ----

template <one_sequence_model Model, workspace_kind K>
constexpr status try_logits(const Model& model, tokens_for<Model> x,
                            workspace<Model, K>& ws) noexcept {
    const input_report r = detail::inspect<Model>(x, "x");
    if (r.code != status::ok)
        return r.code;
    detail::model_impl<Model>::logits(model, x, ws);
    return status::ok;
}

template <one_sequence_model Model, workspace_kind K>
constexpr status try_forward(const Model& model, tokens_for<Model> x,
                             workspace<Model, K>& ws) noexcept {
    const status s = try_logits(model, x, ws);
    if (s == status::ok)
        softmax_columns(ws.out, typename Model::value_type(1),
                        mask_bidirectional{});  // P = softmax(W_u X)
    return s;
}

template <one_sequence_model Model, workspace_kind K>
output_view<Model> logits(const Model& model, tokens_for<Model> x, workspace<Model, K>& ws) {
    detail::require_valid<Model>(detail::inspect<Model>(x, "x"));
    detail::model_impl<Model>::logits(model, x, ws);
    return detail::cview(ws.out);
}

template <one_sequence_model Model, workspace_kind K>
output_view<Model> forward(const Model& model, tokens_for<Model> x, workspace<Model, K>& ws) {
    logits(model, x, ws);
    softmax_columns(ws.out, typename Model::value_type(1),
                    mask_bidirectional{});  // P = softmax(W_u X)
    return detail::cview(ws.out);
}

#if TYPEFORMER_HAS_EXCEPTIONS
// What the convenience forms return (host builds): P, owned by the caller. It holds the inference
// workspace its call allocated (one heap allocation per call, so keep a workspace of your own
// for a loop), so no other call, model or thread can overwrite it.
template <class Model>
class owned_output {
public:
    using value_type = typename Model::value_type;
    explicit owned_output(std::unique_ptr<inference_workspace<Model>> ws) noexcept
        : ws_(std::move(ws)) {}
    output_view<Model> view() const noexcept { return detail::cview(ws_->out); }
    operator output_view<Model>() const noexcept { return view(); }
    const value_type& operator()(std::size_t i, std::size_t j) const noexcept {
        return ws_->out(i, j);
    }
    std::size_t rows() const noexcept { return ws_->out.rows(); }
    std::size_t cols() const noexcept { return ws_->out.cols(); }

private:
    std::unique_ptr<inference_workspace<Model>> ws_;
};

// The convenience overload (DESIGN.md's `auto P = tf::forward(*model, x)`): P owned by the caller.
template <one_sequence_model Model>
owned_output<Model> forward(const Model& model, tokens_for<Model> x) {
    auto ws = std::make_unique<inference_workspace<Model>>();
    forward(model, x, *ws);
    return owned_output<Model>(std::move(ws));
}
#endif

template <one_sequence_model Model>
void backward(const Model& model, tokens_for<Model> x, training_workspace<Model>& ws,
              Model& grads) noexcept {
    TYPEFORMER_CHECK(
        ws.out.cols() == x.size() && ws.scratch.dlogits.cols() == x.size(),
        "backward: run logits(model, x, ws) and set ws.scratch.dlogits for this x first");
    detail::model_impl<Model>::backward(model, x, ws, grads);
}

// ---- two sequences: EDTransformer (Algorithm 8), context z and primary x ----

template <two_sequence_model Model, workspace_kind K>
status try_logits(const Model& model, tokens_for<Model> z, tokens_for<Model> x,
                  workspace<Model, K>& ws) noexcept {
    const input_report r = detail::inspect_pair<Model>(z, x);
    if (r.code != status::ok)
        return r.code;
    detail::model_impl<Model>::logits(model, z, x, ws);
    return status::ok;
}

template <two_sequence_model Model, workspace_kind K>
status try_forward(const Model& model, tokens_for<Model> z, tokens_for<Model> x,
                   workspace<Model, K>& ws) noexcept {
    const status s = try_logits(model, z, x, ws);
    if (s == status::ok)
        softmax_columns(ws.out, typename Model::value_type(1), mask_bidirectional{});
    return s;
}

template <two_sequence_model Model, workspace_kind K>
output_view<Model> logits(const Model& model, tokens_for<Model> z, tokens_for<Model> x,
                          workspace<Model, K>& ws) {
    detail::require_valid<Model>(detail::inspect_pair<Model>(z, x));
    detail::model_impl<Model>::logits(model, z, x, ws);
    return detail::cview(ws.out);
}

template <two_sequence_model Model, workspace_kind K>
output_view<Model> forward(const Model& model, tokens_for<Model> z, tokens_for<Model> x,
                           workspace<Model, K>& ws) {
    logits(model, z, x, ws);
    softmax_columns(ws.out, typename Model::value_type(1),
                    mask_bidirectional{});  // 21: P = softmax(W_u X)
    return detail::cview(ws.out);
}

// The encoder once, the decoder for any number of primary sequences: Z ← encode(model, z, ws), then
// logits / forward(model, Z, x, ws2) (ws2 may be ws: the decoder does not write Z).
template <two_sequence_model Model, workspace_kind K>
encoded_context<Model> encode(const Model& model, tokens_for<Model> z, workspace<Model, K>& ws) {
    detail::require_valid<Model>(detail::inspect<Model>(z, "z"));
    detail::model_impl<Model>::encode(model, z, ws);
    return {detail::cview(ws.Z[detail::stack_slots<K, Model::L_enc>::last])};
}

template <two_sequence_model Model, workspace_kind K>
output_view<Model> logits(const Model& model, const encoded_context<Model>& Z, tokens_for<Model> x,
                          workspace<Model, K>& ws) {
    detail::require_valid<Model>(detail::inspect<Model>(x, "x"));
    detail::model_impl<Model>::decode(model, Z.Z, x, ws);
    return detail::cview(ws.out);
}

template <two_sequence_model Model, workspace_kind K>
output_view<Model> forward(const Model& model, const encoded_context<Model>& Z, tokens_for<Model> x,
                           workspace<Model, K>& ws) {
    logits(model, Z, x, ws);
    softmax_columns(ws.out, typename Model::value_type(1),
                    mask_bidirectional{});  // 21: P = softmax(W_u X)
    return detail::cview(ws.out);
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <two_sequence_model Model>
owned_output<Model> forward(const Model& model, tokens_for<Model> z, tokens_for<Model> x) {
    auto ws = std::make_unique<inference_workspace<Model>>();
    forward(model, z, x, *ws);
    return owned_output<Model>(std::move(ws));
}
#endif

template <two_sequence_model Model>
void backward(const Model& model, tokens_for<Model> z, tokens_for<Model> x,
              training_workspace<Model>& ws, Model& grads) noexcept {
    TYPEFORMER_CHECK(ws.out.cols() == x.size() && ws.scratch.dlogits.cols() == x.size() &&
                         ws.Z[0].cols() == z.size(),
                     "backward: run logits(model, z, x, ws) and set ws.scratch.dlogits first");
    detail::model_impl<Model>::backward(model, z, x, ws, grads);
}

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

TYPEFORMER_MODEL_FALLBACK(forward, in::forward, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(logits, in::logits, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_forward, in::try_forward, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_logits, in::try_logits, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(backward, in::backward, detail::model_call_error<Model, A...>());

}  // namespace typeformer
