// Input validation of the models' public functions, done before any work.
//
//   status                      ok | empty_sequence | sequence_too_long | token_out_of_range |
//                               length_mismatch
//   status_message(s)           a fixed sentence per status (no allocation, MCU-safe)
//   check_input<Model>(x)       status of a token sequence for Model (ED: check_input<Model>(z, x))
//
// A model's functions come in two forms (DESIGN.md "Embedded"):
//   try_forward(...), try_loss_and_grad(...)   return the status; nothing is touched unless ok
//   forward(...), loss_and_grad(...)           host builds (exceptions on) throw
//                                              std::invalid_argument with a sentence naming the
//                                              model, the sequence and the numbers, e.g.
//                                              "DTransformer: sequence x of length 300 exceeds
//                                              l_max = 256"; -fno-exceptions builds stop at
//                                              TYPEFORMER_CHECK with status_message(s)
#pragma once

#include <cstddef>
#include <cstdio>
#include <span>

#include "../config.hpp"
#include "../token.hpp"
#include "diagnose.hpp"

#if TYPEFORMER_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace typeformer {

enum class status {
    ok,
    empty_sequence,       // a model needs at least one token (Algorithms 8–10, line 1: ℓ ≥ 1)
    sequence_too_long,    // ℓ > l_max: W_p has l_max columns, the workspace l_max slots
    token_out_of_range,   // a token id ≥ N_V (W_e has N_V columns)
    length_mismatch,      // Algorithm 12: x̃ and x must have the same length
    invalid_temperature,  // Algorithms 14, 15: τ must be ≥ 0 (0 is argmax) and not NaN
    invalid_top_k,        // top-k must be in [1, N_V] (sampling::all: no top-k filter)
    invalid_top_p,        // top-p (nucleus) must be in (0, 1]
    context_full,         // prompt + generation reached l_max (context_policy::error)
    output_too_small,     // the caller's output buffer cannot hold the result
    no_context,           // EDTransformer decoding before encode(z)
    invalid_learning_rate,     // Algorithms 11–13: η must be finite and > 0
    invalid_p_mask,            // Algorithm 12: p_mask must be in (0, 1)
    invalid_adam_options,      // Adam: β1, β2 ∈ [0, 1), ε > 0, weight decay ≥ 0, all finite
    invalid_training_options,  // batch_size ≥ 1, clip_norm ≥ 0 and finite, min_lr ≥ 0
    non_finite,                // a loss or gradient was NaN or ∞: the step was not applied
    infinite_temperature,  // Algorithms 14, 15: τ = +∞ (q would be uniform): τ must be finite
};

constexpr const char* status_message(status s) noexcept {
    switch (s) {
        case status::ok:
            return "ok";
        case status::empty_sequence:
            return "empty sequence (a model needs at least one token)";
        case status::sequence_too_long:
            return "sequence longer than l_max";
        case status::token_out_of_range:
            return "token id out of range (must be < N_V)";
        case status::length_mismatch:
            return "sequences of different lengths (x_tilde and x)";
        case status::invalid_temperature:
            return "temperature tau must be >= 0 (0 is argmax) and not NaN";
        case status::invalid_top_k:
            return "top_k must be between 1 and N_V";
        case status::invalid_top_p:
            return "top_p must be in (0, 1]";
        case status::context_full:
            return "the context is full: prompt plus generated tokens reached l_max";
        case status::output_too_small:
            return "the output buffer is too small";
        case status::no_context:
            return "no context: call encode(model, cache, z) before decoding";
        case status::invalid_learning_rate:
            return "the learning rate eta must be finite and > 0";
        case status::invalid_p_mask:
            return "p_mask must be in (0, 1)";
        case status::invalid_adam_options:
            return "Adam needs beta1, beta2 in [0, 1), eps > 0 and weight_decay >= 0, all finite";
        case status::invalid_training_options:
            return "training needs batch_size >= 1, a finite clip_norm >= 0 and min_lr >= 0";
        case status::non_finite:
            return "NaN or infinity in the loss or the gradient: the step was not applied";
        case status::infinite_temperature:
            return "temperature tau is infinite (q = p^(1/tau) would be uniform): give a finite "
                   "tau >= 0";
    }
    return "unknown status";
}

// What was wrong, with the numbers for a message.
struct input_report {
    status code = status::ok;
    const char* which = "";        // "x", "z", "x_tilde"
    std::size_t length = 0;        // the sequence's length
    std::size_t position = 0;      // token_out_of_range: where
    token value = 0;               // token_out_of_range: what
    std::size_t other_length = 0;  // length_mismatch: the other sequence's length
};

namespace detail {

template <std::size_t NV, std::size_t Lmax>
constexpr input_report inspect_sequence(std::span<const token> x, const char* which) noexcept {
    input_report r{};
    r.which = which;
    r.length = x.size();
    if (x.empty()) {
        r.code = status::empty_sequence;
    } else if (x.size() > Lmax) {
        r.code = status::sequence_too_long;
    } else {
        for (std::size_t t = 0; t < x.size(); ++t)
            if (x[t] >= NV) {
                r.code = status::token_out_of_range;
                r.position = t;
                r.value = x[t];
                break;
            }
    }
    return r;
}

// The sentence of a report, e.g. "DTransformer: sequence x of length 300 exceeds l_max = 256".
inline void describe(char* buf, std::size_t n, const char* model, const input_report& r,
                     std::size_t n_v, std::size_t l_max) noexcept {
    switch (r.code) {
        case status::ok:
            std::snprintf(buf, n, "%s: ok", model);
            break;
        case status::empty_sequence:
            std::snprintf(buf, n, "%s: sequence %s is empty (a model needs at least one token)",
                          model, r.which);
            break;
        case status::sequence_too_long:
            std::snprintf(buf, n, "%s: sequence %s of length %zu exceeds l_max = %zu", model,
                          r.which, r.length, l_max);
            break;
        case status::token_out_of_range:
            std::snprintf(buf, n,
                          "%s: token %lu at position %zu of sequence %s is out of range "
                          "(N_V = %zu, ids are 0 .. %zu)",
                          model, static_cast<unsigned long>(r.value), r.position, r.which, n_v,
                          n_v - 1);
            break;
        case status::length_mismatch:
            std::snprintf(buf, n,
                          "%s: x_tilde has length %zu but x has length %zu (Algorithm 12 "
                          "masks x position by position)",
                          model, r.length, r.other_length);
            break;
        default:
            std::snprintf(buf, n, "%s: %s", model, status_message(r.code));
            break;
    }
}

// The plain (non-try_) functions' reaction to a bad input.
template <class Model>
void require_valid(const input_report& r) {
    if (r.code == status::ok)
        return;
#if TYPEFORMER_HAS_EXCEPTIONS
    char buf[256];
    describe(buf, sizeof buf, Model::name, r, Model::traits::N_V::size, Model::traits::l_max::size);
    throw std::invalid_argument(buf);
#else
    TYPEFORMER_CHECK(r.code == status::ok, status_message(r.code));
#endif
}

}  // namespace detail

// The status of one sequence as input to Model (DTransformer, ETransformer: x).
template <class Model>
constexpr status check_input(input_tokens<typename Model::traits::N_V> x) noexcept {
    return detail::inspect_sequence<Model::traits::N_V::size, Model::traits::l_max::size>(x, "x")
        .code;
}

// The status of a pair (EDTransformer: context z, primary x); z is checked first.
template <class Model>
constexpr status check_input(input_tokens<typename Model::traits::N_V> z,
                             input_tokens<typename Model::traits::N_V> x) noexcept {
    const status s = check_input<Model>(z);
    return s != status::ok ? s : check_input<Model>(x);
}

// ---- a call of no form above: a typed sequence of another vocabulary (shape_error.hpp) ----

template <class Model, class... X>
    requires(sizeof...(X) > 0 &&
             !(sizeof...(X) <= 2 &&
               (std::is_convertible_v<const X&, input_tokens<typename Model::traits::N_V>> && ...)))
auto check_input(const X&... x) noexcept
    -> decltype(detail::shape_error_of<in::check_input>(detail::or_arguments<const X&...>(
        detail::first_error(detail::what<>{}, detail::check_vocabulary<Model, X>()...))));

}  // namespace typeformer
