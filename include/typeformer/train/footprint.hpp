// footprint<Model>: the bytes a model costs, known at compile time, so a static_assert can prove
// that it fits a device.
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
//   inference_total        parameters + inference_activations                 (one forward pass)
//   decoding_total         parameters + kv_cache                              (KV-cache decoding)
//
//   static_assert(tf::footprint<tf::DTransformer<float, tiny>>.inference_total <= 192 * 1024);
//
// Each number is the sizeof of the object it describes (alignment padding included), which is
// what the object occupies in RAM or flash.
#pragma once

#include <cstddef>

#include "../infer/kv_cache.hpp"
#include "../models/workspace.hpp"
#include "adam.hpp"  // adam_state<Model>: the optimiser's share of a training set-up

namespace typeformer {

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
};

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
    return f;
}();

}  // namespace typeformer
