// What a model is deployed for, and the buffers each use needs: the sizes are the sizeof of the
// objects the program holds (alignment padding included), known at compile time.
//
//   use            buffers (written: RAM; read only: flash or RAM)          what runs
//   inference      weights (read), inference_workspace (written)             forward / logits
//   decoding       weights (read), kv_cache (written)                        try_prefill, try_append
//   sgd_training   weights, gradients, training_workspace (all written)      loss_and_grad, sgd_step
//   adam_training  the same and adam_state (written)                         …, adam_step
//   step_sgd<S, Memory>   train_all: weights, step_workspace (written)        sgd_step_in_place
//                         a partial S: weights (read: flash), trainable,      (train/step.hpp)
//                         step_workspace (written)
//   step_adam<S, Memory>  the same and the trainable part's gradients and     loss_and_grad with
//                         adam_state (written)                                a step_workspace,
//                                                                             adam_step
//   (S: train_all, train_gains_biases, train_last<k>, train_lora<r, …>: train/trainable.hpp;
//   Memory: recompute_activations or keep_activations; DTransformer only)
//
//   use_buffers<Use, Model>::type       type_list<need<buffer::…, bytes, written>…>
//   has_use<Use, Model>                 whether Model can be deployed for Use (an int8 model
//                                       decodes; it does not train)
//   default_stack_bytes<Use>            the stack a placement declares unless it says otherwise
//
// The stack and the program's code are not a model's buffers: a placement (deploy/deployment.hpp)
// declares them, and the firmware measures them (examples/firmware: the stack's high-water mark
// must stay within the declared stack, sizes.py the code).
//
// Core header: no heap, no exceptions, no fmt.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../infer/kv_cache.hpp"
#include "../models/workspace.hpp"
#include "../train/adam.hpp"
#include "../train/step.hpp"
#include "../train/trainable.hpp"
#include "board.hpp"

namespace typeformer::deploy {

// The buffers' names: tags, so a diagnostic names the buffer.
namespace buffer {
struct weights;              // θ: the model object
struct gradients;            // ∇θ, the model's type
struct adam_state;           // m, v, t
struct trainable;            // a partial mode's trainable part (train/trainable.hpp)
struct step_workspace;       // train/step.hpp's step: streams, one head's or one tile's buffers
struct training_workspace;   // the activations of every layer and backward's scratch
struct inference_workspace;  // one layer's activations, reused by every layer
struct kv_cache;             // K, V per layer at l_max, the tokens, one step's memory
struct stack;                // the call stack (declared by the placement, measured on the device)
struct code;                 // the program's code and constants (declared, measured)
}  // namespace buffer

// One buffer of a use: what it is, its bytes, and whether the use writes it (then it cannot be
// in flash).
template <class What, std::size_t Bytes, bool Written>
struct need {
    using what = What;
    static constexpr std::size_t bytes = Bytes;
    static constexpr bool written = Written;
};

struct inference {};      // one forward pass at l_max with an inference_workspace
struct decoding {};       // KV-cache decoding up to l_max tokens
struct sgd_training {};   // a training step at l_max: Algorithm 13's loss and gradient, SGD
struct adam_training {};  // the same with Adam's moments
// A step of train/step.hpp (one sequence at l_max) training S, with SGD applied in place as each
// gradient completes (no ∇ buffer), or with the trainable part's ∇ and Adam's moments.
template <trainable_selection S = train_all, activation_memory Memory = recompute_activations>
struct step_sgd {};
template <trainable_selection S = train_all, activation_memory Memory = recompute_activations>
struct step_adam {};

template <class Use, class Model>
struct use_buffers;  // ::type, for the uses Model has; specialised by each use

template <class Model>
struct use_buffers<inference, Model> {
    using type =
        type_list<need<buffer::weights, sizeof(Model), false>,
                  need<buffer::inference_workspace, sizeof(inference_workspace<Model>), true>>;
};
template <class Model>
    requires requires {
        sizeof(typeformer::kv_cache<Model>);
    }
struct use_buffers<decoding, Model> {
    using type = type_list<need<buffer::weights, sizeof(Model), false>,
                           need<buffer::kv_cache, sizeof(typeformer::kv_cache<Model>), true>>;
};

namespace detail {
// A training step's buffers, then More (an optimiser's state).
template <class Model, class... More>
struct training_buffers {
    using type = type_list<
        need<buffer::weights, sizeof(Model), true>, need<buffer::gradients, sizeof(Model), true>,
        need<buffer::training_workspace, sizeof(training_workspace<Model>), true>, More...>;
};
}  // namespace detail

template <class Model>
    requires requires {
        sizeof(training_workspace<Model>);
    }
struct use_buffers<sgd_training, Model> : detail::training_buffers<Model> {};
template <class Model>
    requires requires {
        sizeof(training_workspace<Model>);
    }
struct use_buffers<adam_training, Model>
    : detail::training_buffers<
          Model, need<buffer::adam_state, sizeof(typeformer::adam_state<Model>), true>> {};

namespace detail {
// train/step.hpp's buffers of Model under S: the weights (written only when every parameter
// trains: otherwise the frozen base, only read), the trainable part, the workspace; then More.
template <class Model, class S, class Memory, class... More>
struct step_buffers {
    static constexpr bool all = std::is_same_v<S, train_all>;
    using workspace =
        need<buffer::step_workspace, sizeof(typeformer::step_workspace<Model, S, Memory>), true>;
    using type = std::conditional_t<
        all, type_list<need<buffer::weights, sizeof(Model), true>, workspace, More...>,
        type_list<need<buffer::weights, sizeof(Model), false>,
                  need<buffer::trainable, sizeof(typeformer::trainable<Model, S>), true>, workspace,
                  More...>>;
};
}  // namespace detail

template <class Model, class S, class Memory>
    requires requires {
        sizeof(typeformer::step_workspace<Model, S, Memory>);
    }
struct use_buffers<step_sgd<S, Memory>, Model> : detail::step_buffers<Model, S, Memory> {};
template <class Model, class S, class Memory>
    requires requires {
        sizeof(typeformer::step_workspace<Model, S, Memory>);
    }
struct use_buffers<step_adam<S, Memory>, Model>
    : detail::step_buffers<
          Model, S, Memory, need<buffer::gradients, sizeof(typeformer::trainable<Model, S>), true>,
          need<buffer::adam_state, sizeof(typeformer::adam_state<typeformer::trainable<Model, S>>),
               true>> {};

template <class Use, class Model>
concept has_use = requires {
    typename use_buffers<Use, Model>::type;
};

// The stack a placement declares by default: the firmware's measured high-water marks on a
// Cortex-M4F (GCC 12 -O2) are about 1 KiB for decoding and 2.2 KiB for an SGD and Adam step
// (docs/embedded.md); a run whose stack outgrows its declared size fails (board support).
template <class Use>
inline constexpr std::size_t default_stack_bytes =
    std::is_same_v<Use, inference> || std::is_same_v<Use, decoding> ? 2 * KiB : 4 * KiB;

namespace detail {
// The bytes of a use's buffers that are read only (flash) and written (RAM).
template <class List>
struct split_bytes;
template <class... N>
struct split_bytes<type_list<N...>> {
    static constexpr std::size_t read_only = ((N::written ? 0 : N::bytes) + ... + 0);
    static constexpr std::size_t written = ((N::written ? N::bytes : 0) + ... + 0);
};
}  // namespace detail

}  // namespace typeformer::deploy
