// Adam and AdamW (Kingma & Ba 2015; Loshchilov & Hutter 2019), with PyTorch's semantics.
//
//   adam_state<Model>      m, v (the model's type) and the step count t
//   adam_options           {lr, beta1, beta2, eps, weight_decay, decay}
//   adam_step(model, grads, state, options)
//
// The state is three times the model's size: on a host allocate it once on the heap,
// like the model (`auto st = std::make_unique<tf::adam_state<Model>>();`, zeroed); on a
// microcontroller make it a static object. adam_step allocates nothing.
//
// One step, element-wise, exactly as torch.optim.AdamW / torch.optim.Adam (PyTorch 1.13,
// amsgrad=False, maximize=False) order the operations, in the parameters' precision
// (kernels/scalar/adam.hpp; kernels/simd/adam.hpp a batch at a time):
//   t ← t + 1
//   ∇ ← grad_scale·∇                          as it is read (1 unless the caller scales)
//   θ ← θ·(1 − lr·λ)                          decoupled decay (AdamW, the default)
//   g ← ∇ + λ·θ                               or L2 decay (torch.optim.Adam's weight_decay)
//   m ← β1·m + (1 − β1)·g
//   v ← β2·v + (1 − β2)·g²
//   θ ← θ − (lr / (1 − β1^t)) · m / (√v / √(1 − β2^t) + ε)
// With weight_decay = 0 (the default) both are plain Adam. decay_gains_and_biases = false leaves
// the layer norms' γ, β and every bias b_* undecayed (PyTorch: a second parameter group with
// weight_decay 0), as GPT-2-style training does; true (the default here) decays every tensor.
//
// The options and the per-step scalars (1 − β^t, lr/(1 − β1^t), 1 − lr·λ) are step_real
// (config.hpp): double on a host, computed as PyTorch computes them in Python (std::pow), then
// rounded once to the parameters' type; float on a device (TYPEFORMER_DEVICE), where β^t is
// taken by repeated squaring in two-float precision, so a firmware's Adam step links no
// soft-float double and no libm pow.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../shape_error.hpp"

#include "../config.hpp"
#include "../kernels/backend.hpp"

#include "../models/diagnose.hpp"
#include "../params.hpp"

namespace typeformer {

template <class Model>
struct adam_state {
    Model m{};               // first-moment estimates, the model's type
    Model v{};               // second-moment estimates
    std::uint64_t step = 0;  // t: completed steps
};

enum class weight_decay_mode {
    decoupled,  // AdamW: θ ← θ(1 − lr·λ) before the Adam update (torch.optim.AdamW)
    l2,         // Adam with an L2 term: g ← ∇ + λθ (torch.optim.Adam's weight_decay)
};

struct adam_options {
    step_real lr = 1e-3;
    step_real beta1 = 0.9;
    step_real beta2 = 0.999;
    step_real eps = 1e-8;
    step_real weight_decay = 0.0;  // λ
    weight_decay_mode decay = weight_decay_mode::decoupled;
    bool decay_gains_and_biases = true;
    step_real grad_scale = 1.0;  // the step uses grad_scale·∇ (a mean's 1/B, a clipping factor),
                                 // rounded to the parameters' type, without a pass over ∇
};

// The status of Adam's hyperparameters: lr > 0, β1, β2 ∈ [0, 1), ε > 0, λ ≥ 0, all finite.
constexpr bool valid_adam_options(const adam_options& o) noexcept {
    auto finite = [](step_real v) { return v == v && v - v == step_real(0); };
    return finite(o.lr) && o.lr > 0 && finite(o.beta1) && o.beta1 >= 0 && o.beta1 < 1 &&
           finite(o.beta2) && o.beta2 >= 0 && o.beta2 < 1 && finite(o.eps) && o.eps > 0 &&
           finite(o.weight_decay) && o.weight_decay >= 0 && finite(o.grad_scale);
}

namespace detail {

// 1 − β^t, t ≥ 1. A host: std::pow in double, as Python's float ** (PyTorch computes the bias
// corrections so). A device: float arithmetic only, no libm. Plain repeated squaring in float
// would double the relative error at each squaring (β^1000 off by ~1e-5), so β^{2^k} and the
// product are carried as unevaluated sums hi + lo of two floats (Dekker's products through
// fma): 1 − β^t then comes out within an ulp of float.
template <class R>
R adam_bias_correction(R beta, std::uint64_t t) noexcept {
    if constexpr (sizeof(R) > sizeof(float)) {
        return 1 - std::pow(beta, static_cast<R>(t));
    } else {
        struct pair {
            float hi, lo;
        };
        auto times = [](pair a, pair b) {  // (a.hi + a.lo)(b.hi + b.lo) to ~2^-44 relative
            const float p = a.hi * b.hi;
            const float e = std::fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi);
            const float hi = p + e;
            return pair{hi, e - (hi - p)};
        };
        pair result{1.0f, 0.0f}, square{beta, 0.0f};
        for (; t != 0 && result.hi != 0.0f; t >>= 1, square = times(square, square))
            if (t & 1)
                result = times(result, square);
        return (1.0f - result.hi) - result.lo;
    }
}

// The update of the scalars that part `part` of `parts` takes of every leaf (detail::leaf_part)
// with the step count state.step, which the caller has advanced: the training loop runs the
// parts on its threads. The update is element-wise, so any split gives the same bits.
template <class Model>
void adam_update(Model& model, const Model& grads, adam_state<Model>& state,
                 const adam_options& opt, std::size_t part, std::size_t parts) noexcept {
    using R = step_real;
    // The per-step scalars in step_real, then one rounding to the parameters' type.
    const R bias_correction1 = adam_bias_correction(opt.beta1, state.step);
    const R bias_correction2_sqrt = std::sqrt(adam_bias_correction(opt.beta2, state.step));
    const R step_size = opt.lr / bias_correction1;
    const bool decoupled = opt.decay == weight_decay_mode::decoupled && opt.weight_decay != R(0);
    const bool l2 = opt.decay == weight_decay_mode::l2 && opt.weight_decay != R(0);

    for_each_param_zip(
        [&](const param_name& name, auto& p, const auto& g, auto& m, auto& v) {
            using Leaf = std::remove_cvref_t<decltype(p)>;
            using T = typename Leaf::value_type;
            const bool decays = opt.decay_gains_and_biases ||
                                init_kind_of(name.leaf()) == init_kind::normal;  // not γ, β, b_*
            const kernels::adam_coefficients<T> c{
                .beta1 = static_cast<T>(opt.beta1),
                .one_minus_beta1 = static_cast<T>(R(1) - opt.beta1),
                .beta2 = static_cast<T>(opt.beta2),
                .one_minus_beta2 = static_cast<T>(R(1) - opt.beta2),
                .bc2_sqrt = static_cast<T>(bias_correction2_sqrt),
                .eps = static_cast<T>(opt.eps),
                .neg_step = static_cast<T>(-step_size),
                .lambda = static_cast<T>(opt.weight_decay),
                .keep = static_cast<T>(R(1) - opt.lr * opt.weight_decay),
                .grad_scale = static_cast<T>(opt.grad_scale),
                .decoupled = decoupled && decays,
                .l2 = l2 && decays};
            const auto [i, e] = leaf_part::of(leaf_elements<Leaf>, part, parts);
            kernels::backend::adam(e - i, c, p.data() + i, g.data() + i, m.data() + i,
                                   v.data() + i);
        },
        model, grads, state.m, state.v);
}

}  // namespace detail

inline namespace typed {

// One Adam(W) step: θ is updated in place; m, v and t in `state`. grads is read only.
template <class Model>
void adam_step(Model& model, const Model& grads, adam_state<Model>& state,
               const adam_options& opt = {}) noexcept {
    state.step += 1;
    detail::adam_update(model, grads, state, opt, 0, 1);
}

}  // namespace typed

// ---- a call of no form above: grads or state of another model (shape_error.hpp) ----

namespace detail {
template <class Model>
struct belongs_to<adam_state<Model>> {
    using model = Model;
    template <class M>
    using role = adam_state_of<M>;
};
template <class... A>
concept adam_step_accepts = requires(A&&... a) {
    typed::adam_step(static_cast<A&&>(a)...);
};
}  // namespace detail
// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
template <class Model, class Grads, class State>
    requires(!detail::adam_step_accepts<Model&, const Grads&, State, const adam_options&>)
auto adam_step(Model& model, const Grads& grads, State&& state, const adam_options& opt = {})
    -> decltype(detail::shape_error_of<in::adam_step>(
        detail::or_arguments<Model, Grads, State>(detail::first_error(
            detail::check_same_model<typeformer::grads, Grads, std::remove_const_t<Model>>(),
            detail::check_belongs<std::remove_const_t<Model>, State>()))));

}  // namespace typeformer
