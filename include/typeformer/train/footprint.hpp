// footprint<Model>: the bytes a model costs, known at compile time, so a static_assert can prove
// that it fits a device.
//
// Per use, by where the bytes live (deploy/use.hpp's uses, with their default placement):
//
//   inference   flash  θ (only read)                  ram  inference_workspace     stack
//   decoding    flash  θ                              ram  kv_cache                stack
//   sgd_step    flash  0                              ram  θ + ∇ + activations      stack
//   adam_step   flash  0                              ram  θ + ∇ + activations + m, v   stack
//
//   .flash   the buffers the use only reads: on a microcontroller, in flash (.rodata)
//   .ram     the buffers it writes: in RAM
//   .stack   the declared stack (deploy::default_stack_bytes<Use>): the firmware measures its
//            high-water mark and fails a run that outgrows it (examples/firmware)
//   .ram_with_stack()   what the use needs of RAM
//
//   static_assert(tf::footprint<gpt>.decoding.ram_with_stack() <= 128 * 1024);   // the KV cache
//
// tf::deploy::check (deploy/deployment.hpp) places the same buffers region by region on a board
// type and names the one that does not fit. A use the model does not have (an ETransformer does
// not decode) is all zeros.
//
// The sizes of the objects, wherever they live (a host's view: everything in RAM):
//
//   parameters             sizeof(Model)                          θ
//   gradients              sizeof(Model)                          ∇ has the model's type
//   adam_state             sizeof(adam_state<Model>)              m, v (the model's type), t
//   activations            sizeof(training_workspace<Model>)      forward + backward at l_max
//   inference_activations  sizeof(inference_workspace<Model>)     forward only, one layer slot
//   kv_cache               sizeof(kv_cache<Model>)                K, V per layer at l_max + one step's
//                                                                 memory (D and ED; 0 for E)
//   total                  parameters + gradients + adam_state + activations   (training with Adam)
//   adam_step_total        the same (an Adam step's whole set-up)
//   sgd_step_total         parameters + gradients + activations                (training with SGD)
//   inference_total        parameters + inference_activations  (θ and the workspace, flash + RAM)
//   decoding_total         parameters + kv_cache               (θ and the cache, flash + RAM)
//
// Each number is the sizeof of the object it describes (alignment padding included), which is
// what the object occupies in RAM or flash.
#pragma once

#include <cstddef>

#include "../deploy/use.hpp"
#include "../infer/kv_cache.hpp"
#include "../models/workspace.hpp"
#include "adam.hpp"  // adam_state<Model>: the optimiser's share of a training set-up

namespace typeformer {

// One use's bytes by where they live.
struct use_footprint {
    std::size_t flash = 0;  // buffers the use only reads (the weights of inference, decoding)
    std::size_t ram = 0;    // buffers it writes
    std::size_t stack = 0;  // declared: deploy::default_stack_bytes<Use>

    constexpr std::size_t ram_with_stack() const noexcept { return ram + stack; }
};

struct footprint_bytes {
    std::size_t parameters = 0;
    std::size_t gradients = 0;
    std::size_t adam_state = 0;
    std::size_t activations = 0;
    std::size_t inference_activations = 0;
    std::size_t kv_cache = 0;
    std::size_t total = 0;
    std::size_t adam_step_total = 0;
    std::size_t sgd_step_total = 0;
    std::size_t inference_total = 0;
    std::size_t decoding_total = 0;

    use_footprint inference{};
    use_footprint decoding{};
    use_footprint sgd_step{};
    use_footprint adam_step{};
};

namespace detail {
template <class Use, class Model>
constexpr use_footprint use_footprint_of() {
    if constexpr (deploy::has_use<Use, Model>) {
        using split = deploy::detail::split_bytes<typename deploy::use_buffers<Use, Model>::type>;
        return {split::read_only, split::written, deploy::default_stack_bytes<Use>};
    } else {
        return {};
    }
}
}  // namespace detail

template <class Model>
inline constexpr footprint_bytes footprint = [] {
    footprint_bytes f{};
    f.parameters = sizeof(Model);
    f.gradients = sizeof(Model);
    f.adam_state = sizeof(adam_state<Model>);
    f.activations = sizeof(training_workspace<Model>);
    f.inference_activations = sizeof(inference_workspace<Model>);
    if constexpr (requires { sizeof(typeformer::kv_cache<Model>); })
        f.kv_cache = sizeof(typeformer::kv_cache<Model>);
    f.total = f.parameters + f.gradients + f.adam_state + f.activations;
    f.adam_step_total = f.total;
    f.sgd_step_total = f.parameters + f.gradients + f.activations;
    f.inference_total = f.parameters + f.inference_activations;
    f.decoding_total = f.kv_cache ? f.parameters + f.kv_cache : 0;
    f.inference = detail::use_footprint_of<deploy::inference, Model>();
    f.decoding = detail::use_footprint_of<deploy::decoding, Model>();
    f.sgd_step = detail::use_footprint_of<deploy::sgd_training, Model>();
    f.adam_step = detail::use_footprint_of<deploy::adam_training, Model>();
    return f;
}();

}  // namespace typeformer
