// What Algorithms 8, 9 and 10 share: a sequence embedded into a stream (lines 1–3; Algorithm 8
// also 10–12) and a stack of self-contained residual blocks run over it (line 4's loop), with
// their backward. The blocks' own lines (5–8) stay in gpt_layer.hpp and encoder_layer.hpp;
// Algorithm 8's decoder, whose blocks also read Z, keeps its loop in edtransformer.hpp.
//
//   x          ℓ tokens
//   X, dX      the stack's streams (d_e, ℓ) in a workspace, laid out by stack_slots<K, L>;
//              dX (d_e, ℓ) walks down the stack in backward
//   acts       the layers' activations: one slot per layer (training) or one (inference)
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "../nn/embedding.hpp"
#include "../token.hpp"
#include "encoder_layer.hpp"
#include "forward.hpp"
#include "gpt_layer.hpp"
#include "workspace.hpp"

namespace typeformer::detail {

// ℓ ← length(x);  for t ∈ [ℓ]: e_t ← W_e[:, x[t]] + W_p[:, t];  X ← [e_1, e_2, … e_ℓ]
template <class Model, class Streams>
constexpr void embed_sequence(const Model& m, std::span<const token> x, Streams& X) noexcept {
    for (auto& stream : X)
        stream.resize_cols(x.size());
    nn::embed(m.embedding, m.positional, x, X[0]);
}

// dW_e[:, x[t]] += dX[:, t], dW_p[:, t] += dX[:, t]
template <class Model, class DX>
void embed_sequence_backward(const Model& m, std::span<const token> x, const DX& dX,
                             Model& grads) noexcept {
    nn::embed_backward(m.embedding, m.positional, x, dX, grads.embedding, grads.positional);
}

// for l = 1, 2, …, L: X ← layers[l](X)
template <workspace_kind K, class Layer, std::size_t L, class Streams, class Acts, class T>
constexpr void forward_stack(const std::array<Layer, L>& layers, Streams& X, Acts& acts,
                             T eps) noexcept {
    using S = stack_slots<K, L>;
    for (std::size_t i = 0; i < L; ++i)
        typeformer::forward(layers[i], cview(X[S::input(i)]), X[S::output(i)].view(),
                            acts[S::slot(i)], eps);
}

// l = L, …, 1: dX holds ∂loss/∂(the stack's output) on entry and ∂loss/∂(its input) on return;
// the layers' gradients are accumulated into grads, s is shared by all layers.
template <class Layer, std::size_t L, class Streams, class Acts, class DX, class Scratch>
void backward_stack(const std::array<Layer, L>& layers, const Streams& X, const Acts& acts, DX& dX,
                    std::array<Layer, L>& grads, Scratch& s) noexcept {
    using S = stack_slots<workspace_kind::training, L>;
    for (std::size_t i = L; i-- > 0;)
        typeformer::backward(layers[i], cview(X[S::input(i)]), acts[S::slot(i)], dX.view(),
                             grads[i], s);
}

}  // namespace typeformer::detail
