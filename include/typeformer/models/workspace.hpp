// Where a model's activations live: a workspace whose type, and size at l_max, follow from the
// model's type. Nothing is allocated in forward or backward.
//
//   workspace<Model, Kind>          specialised by each model header (DTransformer, ...)
//   training_workspace<Model>       one activation slot per layer (backward reads every layer's
//                                   activations) + backward's scratch (dX, dlogits, the blocks'
//                                   scratch), which all layers share
//   inference_workspace<Model>      one slot, reused by every layer (the residual stream is
//                                   updated in place, X ← X + …, as the pseudocode writes it),
//                                   and attention in tiles: no l_x·l_z probabilities are kept
//
// A training workspace also serves forward. On a host put workspaces on the heap once
// (`auto ws = std::make_unique<tf::training_workspace<Model>>();`); on a microcontroller make them
// static objects. The views that forward / logits return point into the workspace and stay valid
// until the next call that uses it. A workspace belongs to its caller: the library keeps none of its
// own (no thread_local, no static), so two models or two threads never share one unless the caller
// passes the same object; give each thread its own.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../config.hpp"

namespace typeformer {

enum class workspace_kind { inference, training };

template <class Model, workspace_kind Kind>
struct workspace;  // each model header specialises it

template <class Model>
using training_workspace = workspace<Model, workspace_kind::training>;
template <class Model>
using inference_workspace = workspace<Model, workspace_kind::inference>;

namespace detail {

// The residual stream of a stack of `Layers` layers in a workspace of kind K:
//   training   streams X[0..Layers]: layer l reads X[l], writes X[l+1] (every input kept)
//   inference  one stream X[0], updated in place by every layer
template <workspace_kind K, std::size_t Layers>
struct stack_slots {
    static constexpr bool training = K == workspace_kind::training;
    static constexpr std::size_t activations = training ? Layers : 1;  // per-layer caches
    static constexpr std::size_t streams = training ? Layers + 1 : 1;
    static constexpr std::size_t slot(std::size_t l) noexcept { return training ? l : 0; }
    static constexpr std::size_t input(std::size_t l) noexcept { return training ? l : 0; }
    static constexpr std::size_t output(std::size_t l) noexcept { return training ? l + 1 : 0; }
    static constexpr std::size_t last = training ? Layers : 0;  // the stack's output stream
};

// Placeholder for a member a workspace kind does not need (held [[no_unique_address]]).
struct nothing {};

// Backward's scratch S in a training workspace; nothing in an inference one.
template <workspace_kind K, class S>
using training_only = std::conditional_t<K == workspace_kind::training, S, nothing>;

// A layer's MHAttention activations: the cache backward reads (the probabilities A^h, l_x·l_z
// per head) in a training workspace; the inference cache (attention in tiles, no A^h) in an
// inference one.
template <workspace_kind K, class Attn, class Lx, class Lz>
using attention_cache_of =
    std::conditional_t<K == workspace_kind::training, typename Attn::template cache<Lx, Lz>,
                       typename Attn::template inference_cache<Lx, Lz>>;

// A's type is Layer::activations<L..., K> for a workspace kind K (a layer's forward takes either).
template <class A, class Layer, class... L>
concept activations_of =
    std::is_same_v<A, typename Layer::template activations<L..., workspace_kind::training>> ||
    std::is_same_v<A, typename Layer::template activations<L..., workspace_kind::inference>>;

}  // namespace detail

}  // namespace typeformer
