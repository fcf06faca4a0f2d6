// What happens to a parameter's gradient: the one abstraction every block's backward shares, so
// the same backward serves training with a model-typed ∇, partial training (a trainable subset)
// and SGD applied in place, without a copy of any block's backward per mode.
//
// A block's backward never names a gradient tensor. For each parameter it calls its sink g:
//
//   g.update(leaf::W_2, [&](auto dW, auto alpha) { ... dW += alpha·∂loss/∂W_2 ... })
//   g.update_always([&](auto dgamma, auto dbeta) { ... }, leaf::gamma, leaf::beta)
//   g.sub(leaf::attn), g.at(i)          the sink of a member block, of element i of an array
//
// `leaf::W_2` selects a member by name, in the block and in whatever the sink writes to. f adds
// alpha times the gradient into dst, a view of the leaf's shape. For a matrix, alpha is
// unit_scale (known to be 1 at compile time) or a T; a product's contribution is written
//     f = [&](auto dW, auto a) { scale_scratch(dY, a); matmul_add(dY, transpose(X), dW); }
// where dY is a scratch operand the backward does not read again, so a T alpha scales it in place
// and no α is needed in the product (θ += (−η·dY)·Xᵀ). For a vector alpha is always unit_scale.
// update_always is for vectors whose gradient comes out of a call that also computes what the
// backward needs (layer norm's kernel gives dX, dγ and dβ together): f runs whatever the sink.
//
// The sinks (each with the object it writes to):
//   accumulate_into(grads)        dst = grads.leaf, alpha = unit_scale: ∇ += ∂ (loss_and_grad's
//                                 convention; with the model's type, exactly the calls of a plain
//                                 backward)
//   sgd_in_place(theta, eta, tmp) matrices: dst = theta.leaf, alpha = −η (θ += −η·∂ as soon as the
//                                 leaf's gradient is complete, no ∇ buffer); vectors: into tmp,
//                                 then θ.leaf += −η·tmp
//   frozen_params(tmp)            nothing (f is not called), but update_always's f, into tmp
// The object written to may hold only some of the block's leaves (a trainable subset with the same
// member names): a leaf it lacks is frozen, decided at compile time (`trains(g, leaf::W_q)`).
//
// Order, which the in-place sink relies on: a block reads a parameter (for dX, or to recompute)
// before it updates it, and a leaf gets its gradient in one update per call of a block's backward.
// All of it is nn::detail: the blocks' and train/step.hpp's mechanism, not an entry point.
//
//   tmp    vector_scratch<T>: two vectors of the longest vector leaf, for in-place and frozen
//          vectors (nullptr where only accumulate_into is used)
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../kernels.hpp"
#include "../tensor.hpp"

namespace typeformer::nn::detail {

// α = 1, known at compile time: a product scaled by it is the plain matmul_add.
struct unit_scale {};

// X *= a on a scratch operand before its product is added into a gradient (nothing for α = 1).
template <class M, class A>
constexpr void scale_scratch(M&& m, A a) noexcept {
    if constexpr (!std::is_same_v<A, unit_scale>)
        scale(m, a);
}

// Member selectors: leaf::W_q(b) is b.W_q for any struct b with a member W_q, and no function
// for one without it (SFINAE), which is how a sink tells a frozen leaf.
namespace leaf {
#define TYPEFORMER_LEAF(name) \
    inline constexpr auto name = [](auto& b) noexcept -> decltype((b.name)) { return b.name; }
TYPEFORMER_LEAF(W_e);
TYPEFORMER_LEAF(W_p);
TYPEFORMER_LEAF(W_u);
TYPEFORMER_LEAF(W_f);
TYPEFORMER_LEAF(b_f);
TYPEFORMER_LEAF(gamma);
TYPEFORMER_LEAF(beta);
TYPEFORMER_LEAF(W_q);
TYPEFORMER_LEAF(b_q);
TYPEFORMER_LEAF(W_k);
TYPEFORMER_LEAF(b_k);
TYPEFORMER_LEAF(W_v);
TYPEFORMER_LEAF(b_v);
TYPEFORMER_LEAF(W_o);
TYPEFORMER_LEAF(b_o);
TYPEFORMER_LEAF(W_1);
TYPEFORMER_LEAF(b_1);
TYPEFORMER_LEAF(W_2);
TYPEFORMER_LEAF(b_2);
TYPEFORMER_LEAF(A);  // a low-rank adapter's factors (train/trainable.hpp)
TYPEFORMER_LEAF(B);
// blocks
TYPEFORMER_LEAF(embedding);
TYPEFORMER_LEAF(positional);
TYPEFORMER_LEAF(unembedding);
TYPEFORMER_LEAF(projection);
TYPEFORMER_LEAF(layers);
TYPEFORMER_LEAF(ln1);
TYPEFORMER_LEAF(ln2);
TYPEFORMER_LEAF(ln3);
TYPEFORMER_LEAF(ln_f);
TYPEFORMER_LEAF(attn);
TYPEFORMER_LEAF(self_attn);
TYPEFORMER_LEAF(cross_attn);
TYPEFORMER_LEAF(mlp);
TYPEFORMER_LEAF(encoder);
TYPEFORMER_LEAF(decoder);
#undef TYPEFORMER_LEAF
}  // namespace leaf

// Two vectors of `capacity` scalars: where an in-place or frozen sink puts a vector's gradient.
template <class T>
struct vector_scratch {
    T* data = nullptr;
    std::size_t capacity = 0;

    template <class Leaf>
    constexpr auto slot(std::size_t k) const noexcept {  // zeroed, shaped as Leaf
        using D = typename std::remove_cvref_t<Leaf>::dim_type;
        TYPEFORMER_CHECK(data != nullptr && D::size <= capacity,
                         "gradient sink: no vector scratch, or a vector leaf longer than it");
        T* p = data + k * capacity;
        for (std::size_t i = 0; i < D::size; ++i)
            p[i] = T(0);
        return vec_view<T, D>{p, D::size};
    }
};

// Rows [r0, r1) of a matrix, or entries [r0, r1) of a vector, as a view of the same dimensions
// (a block of heads of H·d_attn, a tile of d_mlp's hidden units); columns [c0, c1) likewise.
template <class X>
constexpr auto rows(X&& x, std::size_t r0, std::size_t r1) noexcept {
    auto v = as_view(x);
    if constexpr (matrix<decltype(v)>) {
        TYPEFORMER_CHECK(r0 <= r1 && r1 <= v.n_rows, "rows: outside the matrix");
        return decltype(v){v.ptr + r0, v.ld, r1 - r0, v.n_cols};
    } else {
        TYPEFORMER_CHECK(r0 <= r1 && r1 <= v.n, "rows: outside the vector");
        return decltype(v){v.ptr + r0, r1 - r0};
    }
}
template <class X>
constexpr auto cols(X&& x, std::size_t c0, std::size_t c1) noexcept {
    auto v = as_view(x);
    TYPEFORMER_CHECK(c0 <= c1 && c1 <= v.n_cols, "cols: outside the matrix");
    return decltype(v){v.ptr + c0 * v.ld, v.ld, v.n_rows, c1 - c0};
}

template <class X>
inline constexpr bool is_array_like = false;
template <class E, std::size_t N>
inline constexpr bool is_array_like<std::array<E, N>> = true;

// Element i of an array of blocks; an array that starts at a later index (the last k layers of a
// model, train/trainable.hpp's layers_from) numbers its elements from there.
template <class A>
constexpr auto& element(A& a, std::size_t i) noexcept {
    using U = std::remove_cvref_t<A>;
    if constexpr (requires { U::first_index; }) {
        TYPEFORMER_CHECK(i >= U::first_index && i - U::first_index < a.size(),
                         "gradient sink: a layer below the trainable ones");
        return a[i - U::first_index];
    } else {
        return a[i];
    }
}

// Backward of rows [r0, r1) of a linear map Y = W X + b 1ᵀ (a block of heads, a tile of hidden
// units, or all rows): dX += W[r0:r1]ᵀ dY, then the gradients of b[r0:r1] (dY 1) and of
// W[r0:r1, :] (dY Xᵀ) to the sink g, after W's last read. dY (r1 − r0, C) is scratch afterwards
// (an in-place sink scales it). sel_b nullptr: a map without a bias.
template <class Wm, class SelW, class SelB, class Xv, class DYv, class DXv, class G>
constexpr void projection_backward(const Wm& W, SelW sel_W, SelB sel_b, std::size_t r0,
                                   std::size_t r1, const Xv& X, const DYv& dY, const DXv& dX,
                                   const G& g) noexcept {
    if constexpr (!std::is_same_v<SelB, std::nullptr_t>)
        g.update(sel_b, [&](auto db, auto) { add_bias_grad(dY, rows(db, r0, r1)); });  // db += dY 1
    matmul_add(transpose(rows(W, r0, r1)), dY, dX);  // dX += Wᵀ dY
    g.update(sel_W, [&](auto dW, auto a) {           // dW += dY Xᵀ
        scale_scratch(dY, a);
        matmul_add(dY, transpose(X), rows(dW, r0, r1));
    });
}

template <class T>
class frozen_params;

// Does the sink hold (train) this leaf or block?
template <class G, class Sel>
constexpr bool trains(const G&, Sel) noexcept {
    if constexpr (requires { typename G::target_type; })
        return requires(typename G::target_type & d, Sel s) {
            s(d);
        };
    else
        return false;
}

struct no_leaves {};  // what a frozen sink writes to: nothing
// update_always's destination k for leaf `sel` of block p: the sink's own leaf, or scratch slot k.
template <class T, class Dst, class P, class Sel>
constexpr auto always_target(Dst* dst, const P& p, Sel sel, vector_scratch<T> tmp,
                             std::size_t k) noexcept {
    if constexpr (requires { sel(*dst); })
        return as_view(sel(*dst));
    else
        return tmp.template slot<decltype(sel(p))>(k);
}
template <class T, class Dst, class P, class... Sel>
constexpr auto always_targets(Dst* dst, const P& p, vector_scratch<T> tmp, Sel... sel) noexcept {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
        return std::make_tuple(always_target(dst, p, sel, tmp, K)...);
    }
    (std::index_sequence_for<Sel...>{});
}

// ∇ += ∂loss/∂θ into `dst` (a gradient of the block's type, or a subset of its leaves).
template <class Dst, class T>
class accumulate_into {
public:
    using target_type = Dst;
    constexpr explicit accumulate_into(Dst& dst, vector_scratch<T> tmp = {}) noexcept
        : dst_(&dst), tmp_(tmp) {}

    template <class Sel, class F>
    constexpr void update(Sel sel, F&& f) const {
        if constexpr (requires { sel(*dst_); })
            f(as_view(sel(*dst_)), unit_scale{});
    }
    // p: the block whose leaves sel... select (their shapes, for a leaf dst lacks)
    template <class P, class F, class... Sel>
    constexpr void update_always(const P& p, F&& f, Sel... sel) const {
        std::apply(f, always_targets(dst_, p, tmp_, sel...));
    }
    template <class Sel>
    constexpr auto sub(Sel sel) const noexcept {
        if constexpr (requires { sel(*dst_); })
            return accumulate_into<std::remove_reference_t<decltype(sel(*dst_))>, T>(sel(*dst_),
                                                                                     tmp_);
        else
            return frozen_params<T>(tmp_);
    }
    constexpr auto at(std::size_t i) const noexcept {
        auto& e = element(*dst_, i);
        return accumulate_into<std::remove_reference_t<decltype(e)>, T>(e, tmp_);
    }
    constexpr vector_scratch<T> scratch() const noexcept { return tmp_; }

private:
    Dst* dst_;
    vector_scratch<T> tmp_;
};

// θ += −η·∂loss/∂θ, leaf by leaf as each gradient completes (batch size 1, no ∇ buffer).
template <class Dst, class T>
class sgd_in_place {
public:
    using target_type = Dst;
    constexpr sgd_in_place(Dst& theta, T eta, vector_scratch<T> tmp) noexcept
        : dst_(&theta), eta_(eta), tmp_(tmp) {}

    template <class Sel, class F>
    constexpr void update(Sel sel, F&& f) const {
        if constexpr (requires { sel(*dst_); }) {
            auto& p = sel(*dst_);
            if constexpr (matrix<std::remove_cvref_t<decltype(p)>>) {
                f(as_view(p), T(-eta_));  // θ += (−η·dY)·Xᵀ
            } else {
                const auto d = tmp_.template slot<decltype(p)>(0);
                f(d, unit_scale{});
                axpy(T(-eta_), d, p);  // θ ← θ − η·∂
            }
        }
    }
    template <class P, class F, class... Sel>
    constexpr void update_always(const P& p, F&& f, Sel... sel) const {
        // every gradient into the scratch (a present leaf is read by f: γ), then θ += −η·∂
        const auto d = always_targets(static_cast<no_leaves*>(nullptr), p, tmp_, sel...);
        std::apply(f, d);
        apply_all(d, std::index_sequence_for<Sel...>{}, sel...);
    }
    template <class Sel>
    constexpr auto sub(Sel sel) const noexcept {
        if constexpr (requires { sel(*dst_); })
            return sgd_in_place<std::remove_reference_t<decltype(sel(*dst_))>, T>(sel(*dst_), eta_,
                                                                                  tmp_);
        else
            return frozen_params<T>(tmp_);
    }
    constexpr auto at(std::size_t i) const noexcept {
        auto& e = element(*dst_, i);
        return sgd_in_place<std::remove_reference_t<decltype(e)>, T>(e, eta_, tmp_);
    }
    constexpr vector_scratch<T> scratch() const noexcept { return tmp_; }

private:
    template <class D, std::size_t... K, class... Sel>
    constexpr void apply_all(const D& d, std::index_sequence<K...>, Sel... sel) const {
        (apply_one(sel, std::get<K>(d)), ...);
    }
    template <class Sel, class V>
    constexpr void apply_one(Sel sel, const V& d) const {
        if constexpr (requires { sel(*dst_); })
            axpy(T(-eta_), d, sel(*dst_));
    }

    Dst* dst_;
    T eta_;
    vector_scratch<T> tmp_;
};

// Nothing trains: no gradient is formed (a frozen block of a partial mode).
template <class T>
class frozen_params {
public:
    constexpr explicit frozen_params(vector_scratch<T> tmp = {}) noexcept : tmp_(tmp) {}

    template <class Sel, class F>
    constexpr void update(Sel, F&&) const noexcept {}
    template <class P, class F, class... Sel>
    constexpr void update_always(const P& p, F&& f, Sel... sel) const {
        std::apply(f, always_targets(static_cast<no_leaves*>(nullptr), p, tmp_, sel...));
    }
    template <class Sel>
    constexpr frozen_params sub(Sel) const noexcept {
        return *this;
    }
    constexpr frozen_params at(std::size_t) const noexcept { return *this; }
    constexpr vector_scratch<T> scratch() const noexcept { return tmp_; }

private:
    vector_scratch<T> tmp_;
};

}  // namespace typeformer::nn::detail
