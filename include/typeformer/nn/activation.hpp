// The MLP's nonlinearity as a type (a template parameter of nn::mlp), wrapping the kernels.
//
//   relu        max(x, 0)                                    Algorithm 8 (EDTransformer)
//   gelu        x·Φ(x) = 0.5·x·(1 + erf(x/√2)), exact        Algorithms 9, 10 (the paper's GELU)
//   gelu_tanh   0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))     GPT-2's approximation, an option
//
// Each has   static void forward(X, Y)          Y = f(X) elementwise (Y may be X)
//            static void backward(X, dY, dX)    dX += dY ⊙ f′(X)   (X is the pre-activation)
// on any vec/mat or view of the same dims. They are not re-exported into `typeformer`, where
// the kernels' functions relu, gelu, gelu_tanh live.
#pragma once

#include <concepts>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"

namespace typeformer::nn {

struct relu {
    static constexpr const char* name = "relu";
    template <class X, class Y>
    static constexpr void forward(const X& x, Y&& y) noexcept {
        ::typeformer::relu(x, y);
    }
    template <class X, class DY, class DX>
    static void backward(const X& x, const DY& dy, DX&& dx) noexcept {
        ::typeformer::relu_backward(x, dy, dx);
    }
};

struct gelu {
    static constexpr const char* name = "gelu";
    template <class X, class Y>
    static constexpr void forward(const X& x, Y&& y) noexcept {
        ::typeformer::gelu(x, y);
    }
    template <class X, class DY, class DX>
    static void backward(const X& x, const DY& dy, DX&& dx) noexcept {
        ::typeformer::gelu_backward(x, dy, dx);
    }
};

struct gelu_tanh {
    static constexpr const char* name = "gelu_tanh";
    template <class X, class Y>
    static constexpr void forward(const X& x, Y&& y) noexcept {
        ::typeformer::gelu_tanh(x, y);
    }
    template <class X, class DY, class DX>
    static void backward(const X& x, const DY& dy, DX&& dx) noexcept {
        ::typeformer::gelu_tanh_backward(x, dy, dx);
    }
};

// What nn::mlp needs of its Act: a name and elementwise forward/backward on its (d_mlp, C) tensors.
template <class A>
concept activation = requires(vec<float, d_mlp<1>>& x) {
    { A::name } -> std::convertible_to<const char*>;
    A::forward(x, x);
    A::backward(x, x, x);
};

}  // namespace typeformer::nn
