// The MLP's nonlinearity as a type (a template parameter of nn::mlp), wrapping the kernels.
//
//   relu        max(x, 0)                                    Algorithm 8 (EDTransformer)
//   gelu        x·Φ(x) = 0.5·x·(1 + erf(x/√2)), exact        Algorithms 9, 10 (the paper's GELU)
//   gelu_tanh   0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))     GPT-2's approximation, an option
//
// Each has   static void forward(X, Y)          Y = f(X) elementwise (Y may be X)
//            static void backward(X, dY, dX)    dX += dY ⊙ f′(X)   (X is the pre-activation)
// on any vec/mat or view of the same dims. They are not re-exported into `typeformer`, where
// the kernels' functions relu, gelu, gelu_tanh live. A mis-shaped call is the kernel's own error
// (shape_error<in::gelu, Y_rows<...>, X_rows<...>>): the declared-only forms return its type.
#pragma once

#include <concepts>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"

namespace typeformer::nn {

// A policy over the kernels' act(X, Y) and act_backward(X, dY, dX); a mis-shaped call is the
// kernel's own error, the declared-only forms returning its type.
#define TYPEFORMER_NN_ACTIVATION(act)                                                          \
    struct act {                                                                               \
        static constexpr const char* name = #act;                                              \
        template <class X, class Y>                                                            \
            requires activation_operands<X, std::remove_reference_t<Y>>                        \
        static constexpr void forward(const X& x, Y&& y) noexcept { ::typeformer::act(x, y); } \
        template <class X, class DY, class DX>                                                 \
            requires activation_backward_operands<X, DY, std::remove_reference_t<DX>>          \
        static void backward(const X& x, const DY& dy, DX&& dx) noexcept {                     \
            ::typeformer::act##_backward(x, dy, dx);                                           \
        }                                                                                      \
        template <class X, class Y>                                                            \
            requires(!activation_operands<X, std::remove_reference_t<Y>>)                      \
        static auto forward(const X& x, Y&& y) noexcept -> decltype(::typeformer::act(x, y));  \
        template <class X, class DY, class DX>                                                 \
            requires(!activation_backward_operands<X, DY, std::remove_reference_t<DX>>)        \
        static auto backward(const X& x, const DY& dy, DX&& dx) noexcept                       \
            -> decltype(::typeformer::act##_backward(x, dy, dx));                              \
    }

TYPEFORMER_NN_ACTIVATION(relu);
TYPEFORMER_NN_ACTIVATION(gelu);
TYPEFORMER_NN_ACTIVATION(gelu_tanh);

#undef TYPEFORMER_NN_ACTIVATION

// What nn::mlp needs of its Act: a name and elementwise forward/backward on its (d_mlp, C) tensors.
template <class A>
concept activation = requires(vec<float, d_mlp<1>>& x) {
    { A::name } -> std::convertible_to<const char*>;
    A::forward(x, x);
    A::backward(x, x, x);
};

}  // namespace typeformer::nn
