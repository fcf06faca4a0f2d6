// A training step of a DTransformer (Algorithm 13, one sequence) in the memory a microcontroller
// has: which parameters train is a type (train/trainable.hpp), SGD can be applied in place as
// each gradient completes (no ∇ buffer), and the activations backward needs are kept small.
//
//   step_workspace<Model, S, Memory>      everything the step needs besides θ, at l_max (`sizeof`
//                                          is its cost; no allocation, ever)
//     S       train_all | train_gains_biases | train_last<k> | train_lora<r, targets, α>
//     Memory  recompute_activations (default): only each layer's input stream X_l is kept by the
//             forward pass; backward recomputes the layer from it
//             keep_activations: each layer's X̃₁, X_mid, X̃₂ and norm statistics are kept
//
//   sgd_step_in_place(θ, x, η, ws)              train_all: θ ← θ − η∇loss(θ), leaf by leaf
//   sgd_step_in_place(base, tr, x, η, ws)       a partial mode: tr ← tr − η∇_tr loss; base read only
//                                                (const, e.g. constexpr in flash)
//   loss_and_grad(θ, x, grads, ws)              train_all: ∇ += … (as today's loss_and_grad)
//   loss_and_grad(base, tr, x, grads, ws)       grads: trainable-typed, ADDS ∇_tr loss
//   loss(θ, x, ws), loss(base, tr, x, ws)       the loss alone (held-out text)
//   try_… forms return a status and change nothing on bad input; the plain forms stop as
//   loss_and_grad does (std::invalid_argument on a host, TYPEFORMER_CHECK otherwise).
//
// What is smaller than the plain training workspace (models/workspace.hpp), whatever S:
//   - the attention runs one head at a time, its Q, K, V, Y recomputed for that head in the
//     backward pass, and its probabilities A a tile of query_tile query columns at a time (each
//     column of A depends only on its own query: a tile is exact), so the scratch is three
//     (ℓ, query_tile) buffers, not H (ℓ, ℓ) ones per layer;
//   - the MLP runs a tile of mlp_tile hidden units at a time (W_1 X̃ + b_1, GELU and their
//     backward for those units only), so no (d_mlp, ℓ) buffer exists;
//   - the logits exist a tile of logit_tile columns at a time, unless W_u trains in place (its
//     update needs every column's ∂logits at once);
//   - buffers that are never live together share bytes (the top's logits and a layer's buffers;
//     one head's buffers and the MLP tile's).
// With recompute_activations a layer's forward pass runs twice (once more in backward; its heads
// a third time), about 1.4 forward passes more per step.
//
// In-place SGD (MCUNetV3's in-place update): every block reads a parameter (for dX, or to
// recompute) before it updates it (nn/gradient.hpp), the layers below are recomputed from θ that
// is not yet updated, and a tied W_e gets its unembedding update at the top and its embedding
// update at the bottom: the result equals loss_and_grad + sgd_step within float rounding
// (tests/train/step_test.cpp).
//
// The backward pass forms no weight gradient of a frozen parameter and stops at the lowest layer
// holding a trainable one (train_last<k>: layer L − k; the embeddings only under train_all).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include "../kernels.hpp"
#include "../models/diagnose.hpp"
#include "../models/dtransformer.hpp"
#include "../models/forward.hpp"
#include "../models/status.hpp"
#include "../nn/gradient.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "adam.hpp"
#include "trainable.hpp"

namespace typeformer {

// How a step keeps what its backward pass needs.
struct recompute_activations {
    static constexpr bool recompute = true;
    static constexpr const char* name = "recompute";
};
struct keep_activations {
    static constexpr bool recompute = false;
    static constexpr const char* name = "keep";
};
template <class M>
concept activation_memory =
    std::is_same_v<M, recompute_activations> || std::is_same_v<M, keep_activations>;

namespace detail {

// Consecutive runs of a T buffer, each rounded up to 64 bytes, as typed views. With base nullptr
// it only counts (the workspace's size is the count).
template <class T>
struct carver {
    T* base = nullptr;
    std::size_t used = 0;

    static constexpr std::size_t round(std::size_t n) noexcept {
        constexpr std::size_t a = tensor_alignment / sizeof(T);
        return (n + a - 1) / a * a;
    }
    constexpr T* take(std::size_t n) noexcept {
        T* p = base != nullptr ? base + used : nullptr;
        used += round(n);
        return p;
    }
    // rows × max_cols scalars seen as (R, C) with `cols` columns; ld = rows
    template <class R, class C>
    constexpr mat_view<T, R, C> mat(std::size_t rows, std::size_t max_cols,
                                    std::size_t cols) noexcept {
        return {take(rows * max_cols), rows, rows, cols};
    }
    template <class D>
    constexpr vec_view<T, D> vec(std::size_t capacity, std::size_t n) noexcept {
        return {take(capacity), n};
    }
};

template <std::size_t A, std::size_t B>
inline constexpr std::size_t max_of = A > B ? A : B;

// The sizes and choices of a step of Model under S and Memory.
template <class Model, class S, class Mem>
struct step_shape;
template <class T_, class cfg, class S, class Mem>
struct step_shape<DTransformer<T_, cfg>, S, Mem> {
    using T = T_;
    using config = cfg;
    using model = DTransformer<T, cfg>;
    using selection = S;
    using tr_type = trainable<model, S>;
    using layer = typename model::layer_type;
    using attn = typename layer::attn_type;
    using mlp = typename layer::mlp_type;
    using norm = typename layer::norm_type;
    using act = typename mlp::activation_type;
    using d_e = typename model::d_e;
    using N_V = typename model::N_V;
    using l_x = typename model::l_x;
    using qk = typename attn::qk_dim;
    using vd = typename attn::v_dim;
    using d_mlp = typename config_traits<cfg>::d_mlp;

    static constexpr std::size_t L = model::L, E = d_e::size, V = N_V::size;
    static constexpr std::size_t l_max = l_x::capacity, H = attn::n_heads;
    static constexpr std::size_t da = cfg::d_attn, dm = cfg::d_mid, M = d_mlp::size;
    static constexpr bool tied = model::traits::tied;
    static constexpr bool rms = model::traits::norm == norm_kind::rms_norm;
    static constexpr bool lora = is_lora<S>;
    static constexpr bool recompute = Mem::recompute;

    // hidden units per MLP tile; columns per tile of logits (all of them when W_u trains: an
    // in-place update of W_u needs every column's ∂logits)
    static constexpr std::size_t mlp_tile = M < 16 ? M : 16;
    static constexpr bool trains_unembedding = [] {
        if constexpr (std::is_same_v<S, train_all>)
            return true;
        else if constexpr (requires { S::k; })
            return !tied;
        else
            return false;
    }();
    static constexpr std::size_t logit_tile = trains_unembedding || l_max < 4 ? l_max : 4;
    // query columns per tile of an attention head's probabilities A: (ℓ, query_tile), not (ℓ, ℓ)
    static constexpr std::size_t query_tile = l_max < 8 ? l_max : 8;
    // the lowest layer the backward pass visits
    static constexpr std::size_t first_layer = [] {
        if constexpr (requires { S::k; })
            return L - S::k;
        else
            return std::size_t{0};
    }();
    static constexpr bool trains_embedding = std::is_same_v<S, train_all>;
    // The embedded sequence X_0 is recomputed for layer 0's backward (into X_1's storage, dead by
    // then) but when a tied W_e trains: its in-place update at the top would change it.
    static constexpr bool keeps_X0 = trains_embedding && tied;
    static constexpr std::size_t streams = keeps_X0 ? L + 1 : L;
    // the longest vector leaf (a gain or bias), for the sinks' vector scratch
    static constexpr std::size_t vec_max = max_of<max_of<E, H * da>, max_of<H * dm, M>>;

    static constexpr std::size_t rank = [] {
        if constexpr (lora)
            return S::rank;
        else
            return std::size_t{1};
    }();
    using lr = lora_r<rank>;
    static constexpr bool adapts(lora_target t) noexcept {
        if constexpr (lora)
            return has_target(S::targets, t);
        else
            return false;
    }
};

// One layer's values the backward pass reads besides its input stream: X̃₁ = ln1(X) and its
// statistics, X_mid = X + MHAttention(X̃₁), X̃₂ = ln2(X_mid) and its statistics.
template <class Sh>
struct layer_values {
    using T = typename Sh::T;
    mat_view<T, typename Sh::d_e, typename Sh::l_x> Xt1{}, X_mid{}, Xt2{};
    vec_view<T, typename Sh::l_x> mean1{}, rstd1{}, mean2{}, rstd2{};
};

// One head's buffers (Algorithm 4 for head h, and its backward): rows of H·d_attn, H·d_mid that
// hold one head (the nn helpers index heads of stacked buffers); A and its gradients for a tile
// of query_tile query columns at a time, against every key before them.
template <class Sh>
struct head_buffers {
    using T = typename Sh::T;
    using l_x = typename Sh::l_x;
    mat_view<T, typename Sh::qk, l_x> Q{}, K{}, dQ{}, dK{};
    mat_view<T, typename Sh::vd, l_x> V{}, Y{}, dY{}, dV{};
    mat_view<T, l_x, l_x> A{}, dA{}, dS{};

    static constexpr head_buffers carve(carver<T>& c, std::size_t l) noexcept {
        head_buffers b;
        for (auto* m : {&b.Q, &b.K, &b.dQ, &b.dK})
            *m = c.template mat<typename Sh::qk, l_x>(Sh::da, Sh::l_max, l);
        for (auto* m : {&b.V, &b.Y, &b.dY, &b.dV})
            *m = c.template mat<typename Sh::vd, l_x>(Sh::dm, Sh::l_max, l);
        for (auto* m : {&b.A, &b.dA, &b.dS})  // (ℓ, query_tile) in an (l_max, query_tile) run
            *m = c.template mat<l_x, l_x>(Sh::l_max, Sh::query_tile, Sh::query_tile);
        return b;
    }
};

// A tile of the MLP's hidden units: W_1 X̃ + b_1, GELU of it, and their gradients.
template <class Sh>
struct mlp_tile_buffers {
    using T = typename Sh::T;
    mat_view<T, typename Sh::d_mlp, typename Sh::l_x> pre{}, act{}, dAct{}, d_pre{};

    static constexpr mlp_tile_buffers carve(carver<T>& c, std::size_t l) noexcept {
        mlp_tile_buffers b;
        for (auto* m : {&b.pre, &b.act, &b.dAct, &b.d_pre})
            *m = c.template mat<typename Sh::d_mlp, typename Sh::l_x>(Sh::mlp_tile, Sh::l_max, l);
        return b;
    }
};

// The low-rank adapters' (r, ℓ) buffers of one layer, per adapted W_q, W_k, W_v, W_o, W_1, W_2
// (index 0–5): AX = s·A·(the matrix's input), and BdY = Bᵀ·∂(its output) summed over the heads
// or MLP tiles; tmp holds a scaled copy.
template <class Sh>
struct lora_buffers {
    using T = typename Sh::T;
    using view = mat_view<T, typename Sh::lr, typename Sh::l_x>;
    std::array<view, 6> AX{}, BdY{};
    view tmp{};

    static constexpr lora_buffers carve(carver<T>& c, std::size_t l) noexcept {
        lora_buffers b;
        if constexpr (Sh::lora) {
            constexpr lora_target t[6] = {lora_target::W_q, lora_target::W_k, lora_target::W_v,
                                          lora_target::W_o, lora_target::W_1, lora_target::W_2};
            auto one = [&] {
                return c.template mat<typename Sh::lr, typename Sh::l_x>(Sh::rank, Sh::l_max, l);
            };
            for (std::size_t k = 0; k < 6; ++k)
                if (Sh::adapts(t[k])) {
                    b.AX[k] = one();
                    b.BdY[k] = one();
                }
            b.tmp = one();
        }
        return b;
    }
};

// Every buffer of a step as views into the workspace's arena, for a sequence of length l.
// Layout (each run 64-byte aligned), recompute_activations:
//   the streams X_1 … X_L (d_e, ℓ) (X_0 too when keeps_X0; else it is in dX during the forward
//   pass), dX, dX̃ (d_e, ℓ), ln_f's mean and rstd (ℓ), the sinks' two vectors,
//   then, sharing bytes, either
//     the top:    logits (N_V, logit_tile)
//     a layer:    X̃₁, X_mid, four statistics (ℓ), the adapters' buffers, then either
//                   one head's buffers (its forward, then its backward), or
//                   X̃₂ and an MLP tile's buffers
// keep_activations: X̃₁, X_mid, X̃₂ and the statistics of every layer follow the vectors; a layer's
// part is then the adapters' buffers and either a head's or an MLP tile's buffers.
template <class Sh>
struct step_views {
    using T = typename Sh::T;
    using d_e = typename Sh::d_e;
    using l_x = typename Sh::l_x;

    std::array<mat_view<T, d_e, l_x>, Sh::streams> X{};  // X_1 … X_L (and X_0, keeps_X0)
    mat_view<T, d_e, l_x> dX{}, dXt{};
    vec_view<T, l_x> mean_f{}, rstd_f{};
    nn::detail::vector_scratch<T> vectors{};
    std::array<layer_values<Sh>, Sh::recompute ? 1 : Sh::L> values{};
    mat_view<T, typename Sh::N_V, l_x> logits{};
    lora_buffers<Sh> lora{};
    head_buffers<Sh> head{};
    mlp_tile_buffers<Sh> tile{};
    std::size_t size = 0;  // scalars

    constexpr step_views(T* base, std::size_t l) noexcept {
        carver<T> c{base, 0};
        for (auto& s : X)
            s = stream(c, l);
        dX = stream(c, l);
        dXt = stream(c, l);
        mean_f = c.template vec<l_x>(Sh::l_max, l);
        rstd_f = c.template vec<l_x>(Sh::l_max, l);
        vectors = {c.take(2 * Sh::vec_max), Sh::vec_max};
        if constexpr (!Sh::recompute)
            for (auto& v : values) {
                v = values_of(c, l);
                v.Xt2 = stream(c, l);
            }
        const std::size_t phases = c.used;
        logits = c.template mat<typename Sh::N_V, l_x>(Sh::V, Sh::logit_tile, 0);
        std::size_t end = c.used;
        c.used = phases;
        if constexpr (Sh::recompute)
            values[0] = values_of(c, l);
        lora = lora_buffers<Sh>::carve(c, l);
        const std::size_t inner = c.used;
        head = head_buffers<Sh>::carve(c, l);
        end = end > c.used ? end : c.used;
        c.used = inner;
        if constexpr (Sh::recompute)
            values[0].Xt2 = stream(c, l);
        tile = mlp_tile_buffers<Sh>::carve(c, l);
        size = end > c.used ? end : c.used;
    }

    // the stream X_i, i ≥ 1 (or keeps_X0)
    constexpr const mat_view<T, d_e, l_x>& stream(std::size_t i) const noexcept {
        return X[Sh::keeps_X0 ? i : i - 1];
    }
    // layer i's kept values (recompute_activations: the one set, refilled per layer)
    constexpr const layer_values<Sh>& of(std::size_t i) const noexcept {
        return values[Sh::recompute ? 0 : i];
    }

private:
    static constexpr mat_view<T, d_e, l_x> stream(carver<T>& c, std::size_t l) noexcept {
        return c.template mat<d_e, l_x>(Sh::E, Sh::l_max, l);
    }
    static constexpr layer_values<Sh> values_of(carver<T>& c, std::size_t l) noexcept {
        layer_values<Sh> v{};
        v.Xt1 = stream(c, l);
        v.X_mid = stream(c, l);
        v.mean1 = c.template vec<l_x>(Sh::l_max, l);
        v.rstd1 = c.template vec<l_x>(Sh::l_max, l);
        v.mean2 = c.template vec<l_x>(Sh::l_max, l);
        v.rstd2 = c.template vec<l_x>(Sh::l_max, l);
        return v;
    }
};

template <class Sh>
inline constexpr std::size_t step_scalars = step_views<Sh>(nullptr, 0).size;

// A layer without adapters.
struct no_layer_adapters {
    struct {
        no_adapter<0> W_q;
        no_adapter<1> W_k;
        no_adapter<2> W_v;
        no_adapter<3> W_o;
    } attn;
    struct {
        no_adapter<4> W_1;
        no_adapter<5> W_2;
    } mlp;
};
inline constexpr no_layer_adapters no_layer_adapters_v{};

// Where a step reads each block: the frozen base, or the trainable copy (train_all: θ is both).
template <class Sh>
struct step_params {
    using model = typename Sh::model;
    using tr_type = typename Sh::tr_type;
    using S = typename Sh::selection;
    const model& base;
    const tr_type& tr;

    constexpr const typename Sh::layer& layer(std::size_t i) const noexcept {
        if constexpr (std::is_same_v<S, train_all>)
            return tr.layers[i];
        else if constexpr (requires { S::k; })
            return i >= Sh::first_layer ? tr.layers[i - Sh::first_layer] : base.layers[i];
        else
            return base.layers[i];
    }
    // where layer i's gains and biases are read
    constexpr const auto& vectors(std::size_t i) const noexcept {
        if constexpr (std::is_same_v<S, train_gains_biases>)
            return tr.layers[i];
        else
            return layer(i);
    }
    constexpr const auto& adapters(std::size_t i) const noexcept {
        if constexpr (Sh::lora)
            return tr.layers[i];
        else
            return no_layer_adapters_v;
    }
    constexpr const auto& ln_f() const noexcept {
        if constexpr (Sh::lora)
            return base.ln_f;
        else
            return tr.ln_f;
    }
    // the model whose W_e, W_p the step reads (the unembedding too when tied)
    constexpr const model& embeddings() const noexcept {
        if constexpr (std::is_same_v<S, train_all>)
            return tr;
        else
            return base;
    }
    constexpr const auto& unembedding() const noexcept {
        if constexpr (Sh::trains_unembedding && !Sh::tied)
            return tr.unembedding;
        else
            return base.unembedding;
    }
};

// The sinks of a step's blocks from its root sink g (over the trainable struct: θ, a trainable
// copy, or a gradient of either's type). Under LoRA g holds the adapters and the base is frozen.
template <class Sh, class G>
constexpr auto layer_sink(const G& g, std::size_t i) noexcept {
    if constexpr (Sh::lora)
        return nn::detail::frozen_params<typename Sh::T>(g.scratch());
    else
        return g.sub(nn::detail::leaf::layers).at(i);
}
template <class Sh, class G>
constexpr auto adapter_sink(const G& g, std::size_t i) noexcept {
    if constexpr (Sh::lora)
        return g.sub(nn::detail::leaf::layers).at(i);
    else
        return nn::detail::frozen_params<typename Sh::T>(g.scratch());
}

// The algorithm, block by block (the paper's line numbers are Algorithm 10's).
template <class Sh>
struct step_algorithm {
    using T = typename Sh::T;
    using act = typename Sh::act;
    using views = step_views<Sh>;
    using values = layer_values<Sh>;
    using params = step_params<Sh>;
    static constexpr T eps = eps_of<T, typename Sh::config>;

    template <class Nv, class Xv, class Yv, class Sv>
    static void norm_forward(const Nv& v, const Xv& X, const Yv& Y, const Sv& mean,
                             const Sv& rstd) noexcept {
        if constexpr (Sh::rms)
            ::typeformer::rms_norm(X, v.gamma, eps, Y, rstd);
        else
            ::typeformer::layer_norm(X, v.gamma, v.beta, eps, Y, mean, rstd);
    }
    template <class Nv, class Xv, class DYv, class DXv, class G, class Sv>
    static void norm_backward(const Nv& v, const Xv& X, const DYv& dY, const DXv& dX, const G& g,
                              const Sv& mean, const Sv& rstd) noexcept {
        if constexpr (Sh::rms)
            nn::detail::rms_norm_backward(v, X, dY, dX, g, rstd);
        else
            nn::detail::layer_norm_backward(v, X, dY, dX, g, mean, rstd);
    }

    // Alg. 4 lines 1–3 for head h: Q^h, K^h, V^h with W_q^h, W_k^h, W_v^h (+ s·B^h·A of an
    // adapter).
    template <class P, class Vb, class Ad>
    static void head_projections(const P& p, const Vb& v, const Ad& ad, std::size_t h,
                                 const mat_view<T, typename Sh::d_e, typename Sh::l_x>& Xt1,
                                 const lora_buffers<Sh>& lb, const head_buffers<Sh>& hb) noexcept {
        using kernels::detail::matmul_impl;
        constexpr kernels::gemm_epilogue<T> none{};
        const std::size_t q0 = h * Sh::da, q1 = q0 + Sh::da, v0 = h * Sh::dm, v1 = v0 + Sh::dm;
        // Alg. 4 lines 1–3: Q^h ← W_q^h X̃ + b_q^h 1ᵀ, K^h, V^h likewise      (d_attn, ℓ), (d_mid, ℓ)
        matmul_impl(nn::detail::rows(p.W_q, q0, q1), Xt1, hb.Q, false, {},
                    none.with_bias(v.b_q.data() + q0));
        matmul_impl(nn::detail::rows(p.W_k, q0, q1), Xt1, hb.K, false, {},
                    none.with_bias(v.b_k.data() + q0));
        matmul_impl(nn::detail::rows(p.W_v, v0, v1), Xt1, hb.V, false, {},
                    none.with_bias(v.b_v.data() + v0));
        if constexpr (is_adapter<std::remove_cvref_t<decltype(ad.W_q)>>)
            matmul_add(nn::detail::rows(ad.W_q.B, q0, q1), lb.AX[0], hb.Q);  // + s·B^h·(A X̃)
        if constexpr (is_adapter<std::remove_cvref_t<decltype(ad.W_k)>>)
            matmul_add(nn::detail::rows(ad.W_k.B, q0, q1), lb.AX[1], hb.K);
        if constexpr (is_adapter<std::remove_cvref_t<decltype(ad.W_v)>>)
            matmul_add(nn::detail::rows(ad.W_v.B, v0, v1), lb.AX[2], hb.V);
    }
    // Algorithm 5, line 2 for head h: its projections, then A and Y^h a tile of queries at a time.
    template <class P, class Vb, class Ad>
    static void head_forward(const P& p, const Vb& v, const Ad& ad, std::size_t h,
                             const mat_view<T, typename Sh::d_e, typename Sh::l_x>& Xt1,
                             const lora_buffers<Sh>& lb, const head_buffers<Sh>& hb) noexcept {
        head_projections(p, v, ad, h, Xt1, lb, hb);
        for_each_query_tile(hb.Q.n_cols,
                            [&](std::size_t t0, std::size_t t1) { head_tile_forward(hb, t0, t1); });
    }

    // f(t0, t1) for the tiles [t0, t1) of the ℓ query columns
    template <class F>
    static void for_each_query_tile(std::size_t l, F&& f) noexcept {
        for (std::size_t t0 = 0; t0 < l; t0 += Sh::query_tile)
            f(t0, t0 + Sh::query_tile < l ? t0 + Sh::query_tile : l);
    }
    // The query tile's probabilities against the keys 0 … t1 − 1 (the later ones are masked), in
    // A's storage, as an (t1, t1 − t0) view
    static mat_view<T, typename Sh::l_x, typename Sh::l_x> tile_of(
        const mat_view<T, typename Sh::l_x, typename Sh::l_x>& M, std::size_t t0,
        std::size_t t1) noexcept {
        return {M.ptr, M.ld, t1, t1 - t0};
    }
    // Alg. 4 lines 4–6 for the queries [t0, t1): A (their columns), Y^h[:, t0:t1] = V^h·A. The
    // mask with offset t0: key t_z attends query t0 + j when t_z ≤ t0 + j.
    static void head_tile_forward(const head_buffers<Sh>& hb, std::size_t t0,
                                  std::size_t t1) noexcept {
        using nn::detail::attention_cview;
        using nn::detail::cols;
        nn::detail::attention_core_forward(cols(head(attention_cview(hb.Q), 0), t0, t1),
                                           cols(head(attention_cview(hb.K), 0), 0, t1),
                                           cols(head(attention_cview(hb.V), 0), 0, t1),
                                           mask_unidirectional{t0}, tile_of(hb.A, t0, t1),
                                           cols(head(hb.Y, 0), t0, t1));
    }

    // Lines 5–7 of layer (p, v, ad) from its input X: X̃₁, X_mid (a head at a time), X̃₂.
    template <class P, class Vb, class Ad>
    static void layer_front(const P& p, const Vb& v, const Ad& ad,
                            const mat_view<T, typename Sh::d_e, typename Sh::l_x>& X,
                            const values& lv, const views& w) noexcept {
        const auto& a = p.attn;
        const auto& ada = ad.attn;
        norm_forward(v.ln1, X, lv.Xt1, lv.mean1, lv.rstd1);  // 5: X̃ ← layer_norm(X | γ¹, β¹)
        // 6: X_mid ← X + W_o [Y¹; …; Y^H] + b_o 1ᵀ, one head's Y^h at a time
        copy(X, lv.X_mid);
        add_bias(lv.X_mid, v.attn.b_o);
        lora_inputs(ada, lv.Xt1, w.lora);
        for (std::size_t h = 0; h < Sh::H; ++h) {
            head_forward(a, v.attn, ada, h, lv.Xt1, w.lora, w.head);
            const std::size_t v0 = h * Sh::dm, v1 = v0 + Sh::dm;
            matmul_add(nn::detail::cols(a.W_o, v0, v1), w.head.Y, lv.X_mid);  // + W_o^h Y^h
            if constexpr (is_adapter<std::remove_cvref_t<decltype(ada.W_o)>>)
                matmul_add(nn::detail::cols(ada.W_o.A, v0, v1), w.head.Y, w.lora.AX[3]);  // A_o Y
        }
        if constexpr (is_adapter<std::remove_cvref_t<decltype(ada.W_o)>>) {
            scale(w.lora.AX[3], lora_scale<T, typename Sh::selection>);
            matmul_add(ada.W_o.B, w.lora.AX[3], lv.X_mid);  // + s·B_o·(A_o Y)
        }
        norm_forward(v.ln2, lv.X_mid, lv.Xt2, lv.mean2, lv.rstd2);  // 7: X̃ ← layer_norm(X_mid)
    }

    // AX = s·A·X̃ of the adapted W_q, W_k, W_v (their input X̃₁); W_o's A·Y starts at 0.
    template <class Ad>
    static void lora_inputs(const Ad& ada,
                            const mat_view<T, typename Sh::d_e, typename Sh::l_x>& Xt,
                            const lora_buffers<Sh>& lb) noexcept {
        if constexpr (Sh::lora) {
            constexpr T s = lora_scale<T, typename Sh::selection>;
            auto in = [&](const auto& adapter, const auto& AX) {
                if constexpr (is_adapter<std::remove_cvref_t<decltype(adapter)>>) {
                    matmul(adapter.A, Xt, AX);
                    scale(AX, s);
                }
            };
            in(ada.W_q, lb.AX[0]);
            in(ada.W_k, lb.AX[1]);
            in(ada.W_v, lb.AX[2]);
            if constexpr (is_adapter<std::remove_cvref_t<decltype(ada.W_o)>>)
                fill(lb.AX[3], T(0));
        }
    }

    template <class Ad>
    static constexpr bool adapts_W_1 = is_adapter<std::remove_cvref_t<decltype(Ad::W_1)>>;
    template <class Ad>
    static constexpr bool adapts_W_2 = is_adapter<std::remove_cvref_t<decltype(Ad::W_2)>>;

    // 8: X_out ← X_mid + W_2 GELU(W_1 X̃₂ + b_1 1ᵀ) + b_2 1ᵀ (+ s·B·A of the MLP's adapters), a
    // tile of hidden units at a time.
    template <class P, class Vb, class Ad>
    static void mlp_forward(const P& p, const Vb& v, const Ad& ad, const values& lv,
                            const mat_view<T, typename Sh::d_e, typename Sh::l_x>& X_out,
                            const lora_buffers<Sh>& lb, const mlp_tile_buffers<Sh>& tb) noexcept {
        copy(lv.X_mid, X_out);
        add_bias(X_out, v.b_2);
        mlp_lora_inputs(ad, lv.Xt2, lb);
        for_each_mlp_tile([&](std::size_t r0, std::size_t r1) {
            const auto pre = nn::detail::rows(tb.pre, 0, r1 - r0),
                       a = nn::detail::rows(tb.act, 0, r1 - r0);
            mlp_pre(p, v, ad, lb, lv, r0, r1, pre, a);
            matmul_add(nn::detail::cols(p.W_2, r0, r1), a, X_out);  // + W_2[:, tile] GELU(·)
            if constexpr (adapts_W_2<Ad>)  // A_2 GELU(·), summed over the tiles
                matmul_add(nn::detail::cols(ad.W_2.A, r0, r1), a, lb.AX[5]);
        });
        if constexpr (adapts_W_2<Ad>) {
            scale(lb.AX[5], lora_scale<T, typename Sh::selection>);
            matmul_add(ad.W_2.B, lb.AX[5], X_out);  // + s·B_2·(A_2 GELU(·))
        }
    }
    // f(r0, r1) for the tiles [r0, r1) of the d_mlp hidden units
    template <class F>
    static void for_each_mlp_tile(F&& f) noexcept {
        for (std::size_t r0 = 0; r0 < Sh::M; r0 += Sh::mlp_tile)
            f(r0, r0 + Sh::mlp_tile < Sh::M ? r0 + Sh::mlp_tile : Sh::M);
    }
    // AX₄ = s·A_1·X̃₂ of an adapted W_1; W_2's A_2·GELU(·) starts at 0.
    template <class Ad>
    static void mlp_lora_inputs(const Ad& ad,
                                const mat_view<T, typename Sh::d_e, typename Sh::l_x>& Xt2,
                                const lora_buffers<Sh>& lb) noexcept {
        if constexpr (adapts_W_1<Ad>) {
            matmul(ad.W_1.A, Xt2, lb.AX[4]);
            scale(lb.AX[4], lora_scale<T, typename Sh::selection>);
        }
        if constexpr (adapts_W_2<Ad>)
            fill(lb.AX[5], T(0));
    }
    // hidden units [r0, r1): pre ← W_1 X̃₂ + b_1 1ᵀ (+ s·B_1·A_1 X̃₂), a ← GELU(pre)
    template <class P, class Vb, class Ad, class Pre>
    static void mlp_pre(const P& p, const Vb& v, const Ad& ad, const lora_buffers<Sh>& lb,
                        const values& lv, std::size_t r0, std::size_t r1, const Pre& pre,
                        const Pre& a) noexcept {
        kernels::detail::matmul_impl(nn::detail::rows(p.W_1, r0, r1), lv.Xt2, pre, false, {},
                                     kernels::gemm_epilogue<T>{}.with_bias(v.b_1.data() + r0));
        if constexpr (adapts_W_1<Ad>)
            matmul_add(nn::detail::rows(ad.W_1.B, r0, r1), lb.AX[4], pre);
        act::forward(pre, a);
    }

    // Backward of lines 8–5 of layer (p, v, ad): dX holds ∂loss/∂X_out on entry, ∂loss/∂X on
    // return; g, ga the sinks of the layer's parameters and adapters.
    template <class P, class Vb, class Ad, class G, class GA>
    static void layer_backward(const P& p, const Vb& v, const Ad& ad,
                               const mat_view<T, typename Sh::d_e, typename Sh::l_x>& X,
                               const values& lv, const views& w, const G& g,
                               const GA& ga) noexcept {
        if constexpr (Sh::recompute)
            layer_front(p, v, ad, X, lv, w);
        const auto& dX = w.dX;
        const auto& dXt = w.dXt;
        // 8: X_out = X_mid + mlp(X̃₂)  ⇒  ∂X_mid = ∂X_out + ln2ᵀ(mlpᵀ(∂X_out))
        const auto gm = g.sub(nn::detail::leaf::mlp);
        gm.update(nn::detail::leaf::b_2,
                  [&](auto db, auto) { add_bias_grad(dX, db); });  // db_2 += dY 1
        fill(dXt, T(0));
        mlp_adapted_backward(p.mlp, v.mlp, ad.mlp, lv, w, gm, ga.sub(nn::detail::leaf::mlp));
        norm_backward(v.ln2, lv.X_mid, dXt, dX, g.sub(nn::detail::leaf::ln2), lv.mean2,
                      lv.rstd2);  // 7
        // 6: X_mid = X + MHAttention(X̃₁)  ⇒  ∂X = ∂X_mid + ln1ᵀ(attnᵀ(∂X_mid)), a head at a time
        attention_backward(p.attn, v.attn, ad.attn, lv, w, g.sub(nn::detail::leaf::attn),
                           ga.sub(nn::detail::leaf::attn));
        norm_backward(v.ln1, X, dXt, dX, g.sub(nn::detail::leaf::ln1), lv.mean1, lv.rstd1);  // 5
    }

    // dX̃₂ += mlpᵀ(∂X_out) in w.dXt (∂X_out in w.dX), a tile of hidden units at a time, each
    // recomputed; with the MLP's adapters (the base frozen): W_2's path A_2ᵀ(s·B_2ᵀ ∂X_out) joins
    // ∂GELU, W_1's B_1ᵀ ∂pre adds up over the tiles (as W_o's and W_q's do over the heads).
    template <class P, class Vb, class Ad, class G, class GA>
    static void mlp_adapted_backward(const P& p, const Vb& v, const Ad& ad, const values& lv,
                                     const views& w, const G& gm, const GA& gam) noexcept {
        constexpr T s = Sh::lora ? lora_scale<T, typename Sh::selection> : T(1);
        const auto& dX = w.dX;
        const auto& lb = w.lora;
        const auto& tb = w.tile;
        mlp_lora_inputs(ad, lv.Xt2, lb);
        if constexpr (adapts_W_1<Ad>)
            fill(lb.BdY[4], T(0));
        if constexpr (adapts_W_2<Ad>) {
            matmul(transpose(ad.W_2.B), dX, lb.BdY[5]);  // s·B_2ᵀ ∂X_out
            scale(lb.BdY[5], s);
        }
        for_each_mlp_tile([&](std::size_t r0, std::size_t r1) {
            const std::size_t n = r1 - r0;
            const auto pre = nn::detail::rows(tb.pre, 0, n), a = nn::detail::rows(tb.act, 0, n);
            mlp_pre(p, v, ad, lb, lv, r0, r1, pre, a);
            if constexpr (adapts_W_2<Ad>)  // A_2 GELU(·), for dB_2 below
                matmul_add(nn::detail::cols(ad.W_2.A, r0, r1), a, lb.AX[5]);
            // dAct += A_2[:, tile]ᵀ (s·B_2ᵀ ∂X_out); then dA_2[:, tile] += (s·B_2ᵀ ∂X_out) GELU(·)ᵀ
            auto adapter_path = [&](const auto& dAct) {
                if constexpr (adapts_W_2<Ad>) {
                    matmul_add(transpose(nn::detail::cols(ad.W_2.A, r0, r1)), lb.BdY[5], dAct);
                    gam.sub(nn::detail::leaf::W_2)
                        .update(nn::detail::leaf::A, [&](auto dA, auto al) {
                            copy(lb.BdY[5], lb.tmp);
                            nn::detail::scale_scratch(lb.tmp, al);
                            matmul_add(lb.tmp, transpose(a), nn::detail::cols(dA, r0, r1));
                        });
                }
            };
            const auto d_pre = nn::detail::rows(tb.d_pre, 0, n);
            nn::detail::mlp_units_backward<act>(p, r0, r1, lv.Xt2, dX, w.dXt, gm, pre, a,
                                                nn::detail::rows(tb.dAct, 0, n), d_pre,
                                                adapter_path);
            // W_1's adapter: B_1ᵀ ∂pre summed, dB_1[tile] += ∂pre (s·A_1 X̃₂)ᵀ
            lora_rows_backward(ad.W_1, gam.sub(nn::detail::leaf::W_1), r0, r1, d_pre, lb.AX[4],
                               lb.BdY[4], lb.tmp);
        });
        // W_1's A: dX̃₂ += s·A_1ᵀ(B_1ᵀ ∂pre), dA_1 += …; W_2's B: dB_2 += ∂X_out (s·A_2 GELU(·))ᵀ
        lora_input_backward(ad.W_1, gam.sub(nn::detail::leaf::W_1), lv.Xt2, lb.BdY[4], w.dXt);
        if constexpr (adapts_W_2<Ad>)
            gam.sub(nn::detail::leaf::W_2).update(nn::detail::leaf::B, [&](auto dB, auto al) {
                scale(lb.AX[5], s);
                nn::detail::scale_scratch(lb.AX[5], al);
                matmul_add(dX, transpose(lb.AX[5]), dB);
            });
    }

    // dX̃₁ ← attnᵀ(∂X_mid) in w.dXt (∂X_mid in w.dX); each head recomputed, then its backward.
    template <class P, class Vb, class Ada, class G, class GA>
    static void attention_backward(const P& a, const Vb& v, const Ada& ada, const values& lv,
                                   const views& w, const G& g, const GA& ga) noexcept {
        using nn::detail::attention_cview;
        constexpr T s = Sh::lora ? lora_scale<T, typename Sh::selection> : T(1);
        const auto& dX = w.dX;  // ∂X_mid = dṼ
        const auto& dXt = w.dXt;
        const auto& hb = w.head;
        const auto& lb = w.lora;
        constexpr bool adapt_o = is_adapter<std::remove_cvref_t<decltype(ada.W_o)>>;
        fill(dXt, T(0));
        g.update(nn::detail::leaf::b_o,
                 [&](auto db, auto) { add_bias_grad(dX, db); });  // db_o += dṼ 1
        if constexpr (!Sh::recompute)
            lora_inputs(ada, lv.Xt1, lb);
        if constexpr (Sh::lora) {
            for (std::size_t k = 0; k < 3; ++k)
                if (lb.BdY[k].ptr != nullptr)
                    fill(lb.BdY[k], T(0));
            if constexpr (adapt_o) {
                matmul(transpose(ada.W_o.B), dX, lb.BdY[3]);  // s·B_oᵀ dṼ
                scale(lb.BdY[3], s);
                fill(lb.AX[3], T(0));  // A_o Y, summed over the heads below
            }
        }
        for (std::size_t h = 0; h < Sh::H; ++h) {
            const std::size_t q0 = h * Sh::da, q1 = q0 + Sh::da, v0 = h * Sh::dm, v1 = v0 + Sh::dm;
            head_projections(a, v, ada, h, lv.Xt1, lb, hb);
            // 4: dY^h = W_o^hᵀ dṼ (+ A_o^hᵀ (s·B_oᵀ dṼ)), W_o^h and A_o^h read before any update
            nn::detail::output_projection_dY(a.W_o, v0, v1, dX, hb.dY);
            if constexpr (adapt_o)
                matmul_add(transpose(nn::detail::cols(ada.W_o.A, v0, v1)), lb.BdY[3], hb.dY);
            // Alg. 4 lines 4–6 and back, a tile of queries at a time: the tile's A again and
            // Y^h's columns, dQ^h's columns, dK^h and dV^h summed over the tiles
            fill(head(hb.dK, 0), T(0));
            fill(head(hb.dV, 0), T(0));
            for_each_query_tile(hb.Q.n_cols, [&](std::size_t t0, std::size_t t1) {
                using nn::detail::cols;
                head_tile_forward(hb, t0, t1);
                nn::detail::attention_core_backward(
                    cols(head(attention_cview(hb.Q), 0), t0, t1),
                    cols(head(attention_cview(hb.K), 0), 0, t1),
                    cols(head(attention_cview(hb.V), 0), 0, t1),
                    attention_cview(tile_of(hb.A, t0, t1)), mask_unidirectional{t0},
                    cols(head(attention_cview(hb.dY), 0), t0, t1), cols(head(hb.dQ, 0), t0, t1),
                    cols(head(hb.dK, 0), 0, t1), cols(head(hb.dV, 0), 0, t1),
                    tile_of(hb.dA, t0, t1), tile_of(hb.dS, t0, t1), true);
            });
            // Y^h is complete: A_o Y and A_o^h's gradient (s·B_oᵀ dṼ) Y^hᵀ, then W_o^h's
            // gradient dṼ Y^hᵀ (which may scale Y^h)
            if constexpr (adapt_o) {
                matmul_add(nn::detail::cols(ada.W_o.A, v0, v1), hb.Y, lb.AX[3]);
                ga.sub(nn::detail::leaf::W_o).update(nn::detail::leaf::A, [&](auto dA, auto al) {
                    copy(lb.BdY[3], lb.tmp);
                    nn::detail::scale_scratch(lb.tmp, al);
                    matmul_add(lb.tmp, transpose(hb.Y), nn::detail::cols(dA, v0, v1));
                });
            }
            nn::detail::output_projection_grad(v0, v1, dX, hb.Y, g);
            // the adapters' B^h: Bᵀ dQ summed, dB^h += dQ^h (s·A X̃)ᵀ; then the base's rows
            lora_rows_backward(ada.W_q, ga.sub(nn::detail::leaf::W_q), q0, q1, hb.dQ, lb.AX[0],
                               lb.BdY[0], lb.tmp);
            lora_rows_backward(ada.W_k, ga.sub(nn::detail::leaf::W_k), q0, q1, hb.dK, lb.AX[1],
                               lb.BdY[1], lb.tmp);
            lora_rows_backward(ada.W_v, ga.sub(nn::detail::leaf::W_v), v0, v1, hb.dV, lb.AX[2],
                               lb.BdY[2], lb.tmp);
            // 2, Alg. 4 lines 3–1: db += dQ 1, dX̃ += Wᵀ dQ, dW += dQ X̃ᵀ for V, K, Q of head h
            nn::detail::projection_backward(a.W_v, nn::detail::leaf::W_v, nn::detail::leaf::b_v, v0,
                                            v1, lv.Xt1, hb.dV, dXt, g);
            nn::detail::projection_backward(a.W_k, nn::detail::leaf::W_k, nn::detail::leaf::b_k, q0,
                                            q1, lv.Xt1, hb.dK, dXt, g);
            nn::detail::projection_backward(a.W_q, nn::detail::leaf::W_q, nn::detail::leaf::b_q, q0,
                                            q1, lv.Xt1, hb.dQ, dXt, g);
        }
        // the adapters' A: dX̃ += s·Aᵀ(Bᵀ dQ), dA += s·(Bᵀ dQ) X̃ᵀ; W_o's B: dB_o += dṼ (s·A_o Y)ᵀ
        lora_input_backward(ada.W_q, ga.sub(nn::detail::leaf::W_q), lv.Xt1, lb.BdY[0], dXt);
        lora_input_backward(ada.W_k, ga.sub(nn::detail::leaf::W_k), lv.Xt1, lb.BdY[1], dXt);
        lora_input_backward(ada.W_v, ga.sub(nn::detail::leaf::W_v), lv.Xt1, lb.BdY[2], dXt);
        if constexpr (adapt_o)
            ga.sub(nn::detail::leaf::W_o).update(nn::detail::leaf::B, [&](auto dB, auto al) {
                scale(lb.AX[3], s);
                nn::detail::scale_scratch(lb.AX[3], al);
                matmul_add(dX, transpose(lb.AX[3]), dB);
            });
    }

    // rows [r0, r1) of an adapted matrix's output: BdY += B[r0:r1]ᵀ dY, then dB[r0:r1] += dY·AXᵀ
    // (AX = s·A·input; scaled by α into tmp, so AX serves the next heads).
    template <class Adapter, class GA, class DY, class V>
    static void lora_rows_backward(const Adapter& ad, const GA& ga, std::size_t r0, std::size_t r1,
                                   const DY& dY, const V& AX, const V& BdY, const V& tmp) noexcept {
        if constexpr (is_adapter<Adapter>) {
            matmul_add(transpose(nn::detail::rows(ad.B, r0, r1)), dY, BdY);
            ga.update(nn::detail::leaf::B, [&](auto dB, auto al) {
                if constexpr (std::is_same_v<decltype(al), nn::detail::unit_scale>) {
                    matmul_add(dY, transpose(AX), nn::detail::rows(dB, r0, r1));
                } else {
                    copy(AX, tmp);
                    scale(tmp, al);
                    matmul_add(dY, transpose(tmp), nn::detail::rows(dB, r0, r1));
                }
            });
        }
    }
    // after the heads: BdY ← s·BdY; dX += Aᵀ BdY; dA += BdY·Xᵀ (BdY is scratch afterwards)
    template <class Adapter, class GA, class Xv, class V, class DX>
    static void lora_input_backward(const Adapter& ad, const GA& ga, const Xv& X, const V& BdY,
                                    const DX& dX) noexcept {
        if constexpr (is_adapter<Adapter>) {
            scale(BdY, lora_scale<T, typename Sh::selection>);
            matmul_add(transpose(ad.A), BdY, dX);
            ga.update(nn::detail::leaf::A, [&](auto dA, auto al) {
                nn::detail::scale_scratch(BdY, al);
                matmul_add(BdY, transpose(X), dA);
            });
        }
    }

    // 10–11 and the loss (Algorithm 13, line 5) from the stack's output X[L]: returns the loss;
    // with a sink, leaves ∂loss/∂X[L] in w.dX and hands ln_f's and the unembedding's gradients
    // to it. The logits exist logit_tile columns at a time; the last column has no target.
    template <class G>
    static T top(const params& P, std::span<const token> x, const views& w, token* targets,
                 const G* g) noexcept {
        const std::size_t l = x.size();
        const auto& X = w.stream(Sh::L);
        const auto& Xt = w.dX;                              // X̃ = ln_f(X) until dX is needed
        norm_forward(P.ln_f(), X, Xt, w.mean_f, w.rstd_f);  // 10
        if (g != nullptr)
            fill(w.dXt, T(0));
        T loss = T(0);
        for (std::size_t c0 = 0; c0 + 1 < l; c0 += Sh::logit_tile) {
            const std::size_t c1 = c0 + Sh::logit_tile < l - 1 ? c0 + Sh::logit_tile : l - 1;
            const std::size_t n = c1 - c0;
            const mat_view<T, typename Sh::N_V, typename Sh::l_x> lg{w.logits.ptr, w.logits.ld,
                                                                     Sh::V, n};  // (N_V, n)
            const auto Xc = nn::detail::cols(Xt, c0, c1);
            if constexpr (Sh::tied)  // 11: W_u X̃ (W_u = W_eᵀ when tied)
                matmul(transpose(P.embeddings().embedding.W_e), Xc, lg);
            else
                matmul(P.unembedding().W_u, Xc, lg);
            for (std::size_t t = 0; t < n; ++t)
                targets[t] = x[c0 + t + 1];  // column t predicts token t + 1
            const std::span<const token> tg(targets, n);
            loss += cross_entropy(lg, tg);  // −Σ_t log softmax(W_u X̃)[x[t+1], t]
            if (g != nullptr) {             // ∂logits = softmax − onehot, in place
                softmax_columns(lg, T(1), mask_bidirectional{});
                for (std::size_t t = 0; t < n; ++t)
                    lg(tg[t], t) -= T(1);
                if constexpr (Sh::tied)
                    nn::detail::tied_unembedding_backward(P.embeddings().embedding, Xc, lg,
                                                          nn::detail::cols(w.dXt, c0, c1),
                                                          g->sub(nn::detail::leaf::embedding));
                else
                    nn::detail::unembedding_backward(P.unembedding(), Xc, lg,
                                                     nn::detail::cols(w.dXt, c0, c1),
                                                     g->sub(nn::detail::leaf::unembedding));
            }
        }
        if (g != nullptr) {  // 10: ∂X = ln_fᵀ(∂X̃)
            fill(w.dX, T(0));
            norm_backward(P.ln_f(), X, w.dXt, w.dX, g->sub(nn::detail::leaf::ln_f), w.mean_f,
                          w.rstd_f);
        }
        return loss;
    }

    static void embed(const params& P, std::span<const token> x,
                      const mat_view<T, typename Sh::d_e, typename Sh::l_x>& X) noexcept {
        nn::embed(P.embeddings().embedding, P.embeddings().positional, x, X);
    }

    // The step: forward (lines 1–11), the loss, and with a sink the backward pass into it.
    template <class G>
    static T run(const params& P, std::span<const token> x, const views& w, token* targets,
                 const G* g) noexcept {
        // 1–3: X ← [W_e[:, x[t]] + W_p[:, t]] (in dX, free until the top, unless kept)
        const auto& X0 = Sh::keeps_X0 ? w.X[0] : w.dX;
        embed(P, x, X0);
        for (std::size_t i = 0; i < Sh::L; ++i) {  // 4: lines 5–8 per layer
            const auto& lv = w.of(i);
            const auto& X = i == 0 ? X0 : w.stream(i);
            layer_front(P.layer(i), P.vectors(i), P.adapters(i), X, lv, w);
            mlp_forward(P.layer(i).mlp, P.vectors(i).mlp, P.adapters(i).mlp, lv, w.stream(i + 1),
                        w.lora, w.tile);
        }
        const T loss = top(P, x, w, targets, g);
        if (g != nullptr) {
            for (std::size_t i = Sh::L; i-- > Sh::first_layer;) {  // 4: l = L, …, first trained
                if (i == 0 && !Sh::keeps_X0)
                    embed(P, x, w.stream(1));  // X_0 again, where X_1 was (not needed any more)
                const auto& X = i == 0 ? (Sh::keeps_X0 ? w.X[0] : w.stream(1)) : w.stream(i);
                layer_backward(P.layer(i), P.vectors(i), P.adapters(i), X, w.of(i), w,
                               layer_sink<Sh>(*g, i), adapter_sink<Sh>(*g, i));
            }
            if constexpr (Sh::trains_embedding) {  // 2: dW_e[:, x[t]], dW_p[:, t] += dX[:, t]
                nn::detail::token_embedding_backward(x, w.dX, g->sub(nn::detail::leaf::embedding));
                nn::detail::positional_embedding_backward(w.dX,
                                                          g->sub(nn::detail::leaf::positional));
            }
        }
        return loss;
    }
};

}  // namespace detail

// Everything a step needs besides the parameters, for sequences up to l_max (see the top of
// this file). A static object on a microcontroller; on a host allocate it once. A step is
// Algorithm 10's: the workspace of another architecture is one error naming the DTransformer.
template <class Model, trainable_selection S = train_all,
          activation_memory Memory = recompute_activations>
struct step_workspace {
    static_assert(sizeof(decltype(detail::shape_error_of<in::step_workspace>(
        detail::check_architecture<DTransformer, Model>()))));
};

template <class T, class cfg, class S, class Memory>
struct step_workspace<DTransformer<T, cfg>, S, Memory> {
    using model_type = DTransformer<T, cfg>;
    using selection = S;
    using memory = Memory;
    using shape = detail::step_shape<model_type, S, Memory>;
    static constexpr std::size_t scalars = detail::step_scalars<shape>;

    alignas(tensor_alignment) T arena[scalars];
    std::array<token, shape::logit_tile> targets;  // one tile's targets
};

namespace detail {

template <class Model, class S, class Mem>
struct belongs_to<step_workspace<Model, S, Mem>> {
    using model = Model;
    template <class M>
    using role = workspace_of<M>;
};

// η is finite and > 0, checked in T (a device links no double).
template <class T>
constexpr bool valid_eta(T eta) noexcept {
    return eta > T(0) && eta - eta == T(0);
}

// The step on the workspace's arena. sink(vectors): the root sink over the views' vector scratch,
// or nullptr for the loss alone (no backward pass).
template <class Model, class Tr, class S, class Mem, class MakeSink>
typename Model::value_type run_step(const Model& base, const Tr& tr, std::span<const token> x,
                                    step_workspace<Model, S, Mem>& ws, MakeSink sink) noexcept {
    using Sh = step_shape<Model, S, Mem>;
    const step_views<Sh> w(ws.arena, x.size());
    const step_params<Sh> P{base, tr};
    if constexpr (std::is_same_v<MakeSink, std::nullptr_t>) {
        return step_algorithm<Sh>::run(
            P, x, w, ws.targets.data(),
            static_cast<const nn::detail::frozen_params<typename Model::value_type>*>(nullptr));
    } else {
        const auto g = sink(w.vectors);
        return step_algorithm<Sh>::run(P, x, w, ws.targets.data(), &g);
    }
}

template <class Model, class Tr, class S, class Mem>
typename Model::value_type run_sgd(const Model& base, Tr& tr, std::span<const token> x,
                                   typename Model::value_type eta,
                                   step_workspace<Model, S, Mem>& ws) noexcept {
    using T = typename Model::value_type;
    return run_step(base, tr, x, ws, [&](nn::detail::vector_scratch<T> v) {
        return nn::detail::sgd_in_place<Tr, T>(tr, eta, v);
    });
}

template <class Model, class Tr, class S, class Mem>
typename Model::value_type run_grad(const Model& base, const Tr& tr, std::span<const token> x,
                                    Tr& grads, step_workspace<Model, S, Mem>& ws) noexcept {
    using T = typename Model::value_type;
    return run_step(base, tr, x, ws, [&](nn::detail::vector_scratch<T> v) {
        return nn::detail::accumulate_into<Tr, T>(grads, v);
    });
}

template <class Model, class Tr, class S, class Mem>
typename Model::value_type run_loss(const Model& base, const Tr& tr, std::span<const token> x,
                                    step_workspace<Model, S, Mem>& ws) noexcept {
    return run_step(base, tr, x, ws, nullptr);
}

}  // namespace detail

// What a step of Model under S and Memory costs, in bytes (each the sizeof of its object):
//   parameters       θ: the model (under a partial mode, the frozen base: flash if it is const)
//   trainable        what the step writes: θ under train_all, else trainable<Model, S>
//   gradients        a trainable-typed ∇ for loss_and_grad (0 is needed by sgd_step_in_place)
//   adam_state       Adam's m, v of the trainable part
//   workspace        step_workspace<Model, S, Memory>
//   sgd_in_place     RAM of an in-place SGD step: trainable + workspace (a partial mode's base
//                    stays in flash)
//   adam             RAM of loss_and_grad + adam_step: trainable + gradients + adam_state +
//                    workspace
//   flash            the frozen base a partial mode reads (0 under train_all: θ is in RAM)
// The stack is the caller's to add (a step's own frames: docs/training.md).
struct step_footprint_bytes {
    std::size_t parameters = 0;
    std::size_t trainable = 0;
    std::size_t gradients = 0;
    std::size_t adam_state = 0;
    std::size_t workspace = 0;
    std::size_t sgd_in_place = 0;
    std::size_t adam = 0;
    std::size_t flash = 0;
};

template <class Model, trainable_selection S = train_all,
          activation_memory Memory = recompute_activations>
inline constexpr step_footprint_bytes step_footprint = [] {
    using Tr = trainable<Model, S>;
    step_footprint_bytes f{};
    f.parameters = sizeof(Model);
    f.trainable = sizeof(Tr);
    f.gradients = sizeof(Tr);
    f.adam_state = sizeof(adam_state<Tr>);
    f.workspace = sizeof(step_workspace<Model, S, Memory>);
    f.sgd_in_place = f.trainable + f.workspace;
    f.adam = f.trainable + f.gradients + f.adam_state + f.workspace;
    f.flash = std::is_same_v<S, train_all> ? 0 : f.parameters;
    return f;
}();

namespace detail {
// The status of a step's input: the sequence, then η (checked in T: a device links no double).
template <class Model>
constexpr status step_status(std::span<const token> x, typename Model::value_type eta) noexcept {
    const input_report r = inspect<Model>(x, "x");
    return r.code != status::ok ? r.code
           : valid_eta(eta)     ? status::ok
                                : status::invalid_learning_rate;
}
// The plain forms: stop on bad input as loss_and_grad does.
template <class Model>
void require_step_input(std::span<const token> x, typename Model::value_type eta) {
    require_valid<Model>(inspect<Model>(x, "x"));
    TYPEFORMER_CHECK(valid_eta(eta), "sgd_step_in_place: η must be finite and > 0");
}
}  // namespace detail

// The trainable part of Model under a partial mode (not train_all, whose part is Model itself).
template <class Tr, class Model>
concept partial_trainable = trainable_of_model<Tr, Model> && !std::is_same_v<Tr, Model>;

inline namespace typed {

// ---- train_all: θ is the one model ----

// θ ← θ − η·∇loss(θ) for one sequence (Algorithm 13 with B = 1), each leaf as its gradient
// completes; loss: the loss at θ before the step.
template <class T, class cfg, class Mem>
status try_sgd_step_in_place(DTransformer<T, cfg>& theta, tokens_for<DTransformer<T, cfg>> x,
                             std::type_identity_t<T> eta,
                             step_workspace<DTransformer<T, cfg>, train_all, Mem>& ws,
                             T& loss) noexcept {
    const status s = detail::step_status<DTransformer<T, cfg>>(x, eta);
    if (s == status::ok)
        loss = detail::run_sgd(theta, theta, x, eta, ws);
    return s;
}

template <class T, class cfg, class Mem>
T sgd_step_in_place(DTransformer<T, cfg>& theta, tokens_for<DTransformer<T, cfg>> x,
                    std::type_identity_t<T> eta,
                    step_workspace<DTransformer<T, cfg>, train_all, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, eta);
    return detail::run_sgd(theta, theta, x, eta, ws);
}

// ∇ += ∇loss(θ) (loss_and_grad's convention) with a step workspace; returns the loss.
template <class T, class cfg, class Mem>
status try_loss_and_grad(const DTransformer<T, cfg>& theta, tokens_for<DTransformer<T, cfg>> x,
                         DTransformer<T, cfg>& grads,
                         step_workspace<DTransformer<T, cfg>, train_all, Mem>& ws,
                         T& loss) noexcept {
    const status s = detail::step_status<DTransformer<T, cfg>>(x, T(1));
    if (s == status::ok)
        loss = detail::run_grad(theta, theta, x, grads, ws);
    return s;
}

template <class T, class cfg, class Mem>
T loss_and_grad(const DTransformer<T, cfg>& theta, tokens_for<DTransformer<T, cfg>> x,
                DTransformer<T, cfg>& grads,
                step_workspace<DTransformer<T, cfg>, train_all, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, T(1));
    return detail::run_grad(theta, theta, x, grads, ws);
}

template <class T, class cfg, class Mem>
T loss(const DTransformer<T, cfg>& theta, tokens_for<DTransformer<T, cfg>> x,
       step_workspace<DTransformer<T, cfg>, train_all, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, T(1));
    return detail::run_loss(theta, theta, x, ws);
}

// ---- a partial mode: a frozen base and its trainable part tr ----

// tr ← tr − η·∇_tr loss for one sequence; base is only read (it may be const data in flash).
template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Mem>
status try_sgd_step_in_place(const DTransformer<T, cfg>& base, Tr& tr,
                             tokens_for<DTransformer<T, cfg>> x, std::type_identity_t<T> eta,
                             step_workspace<DTransformer<T, cfg>, selection_of<Tr>, Mem>& ws,
                             T& loss) noexcept {
    const status s = detail::step_status<DTransformer<T, cfg>>(x, eta);
    if (s == status::ok)
        loss = detail::run_sgd(base, tr, x, eta, ws);
    return s;
}

template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Mem>
T sgd_step_in_place(const DTransformer<T, cfg>& base, Tr& tr, tokens_for<DTransformer<T, cfg>> x,
                    std::type_identity_t<T> eta,
                    step_workspace<DTransformer<T, cfg>, selection_of<Tr>, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, eta);
    return detail::run_sgd(base, tr, x, eta, ws);
}

// grads += ∇_tr loss (grads: the trainable part's type); then sgd_step(tr, grads, η) or
// adam_step(tr, grads, adam_state<Tr>, …) as for a whole model.
template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Mem>
status try_loss_and_grad(const DTransformer<T, cfg>& base, const Tr& tr,
                         tokens_for<DTransformer<T, cfg>> x, Tr& grads,
                         step_workspace<DTransformer<T, cfg>, selection_of<Tr>, Mem>& ws,
                         T& loss) noexcept {
    const status s = detail::step_status<DTransformer<T, cfg>>(x, T(1));
    if (s == status::ok)
        loss = detail::run_grad(base, tr, x, grads, ws);
    return s;
}

template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Mem>
T loss_and_grad(const DTransformer<T, cfg>& base, const Tr& tr, tokens_for<DTransformer<T, cfg>> x,
                Tr& grads, step_workspace<DTransformer<T, cfg>, selection_of<Tr>, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, T(1));
    return detail::run_grad(base, tr, x, grads, ws);
}

// The loss of the adapted (or partly retrained) model on x.
template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Mem>
T loss(const DTransformer<T, cfg>& base, const Tr& tr, tokens_for<DTransformer<T, cfg>> x,
       step_workspace<DTransformer<T, cfg>, selection_of<Tr>, Mem>& ws) {
    detail::require_step_input<DTransformer<T, cfg>>(x, T(1));
    return detail::run_loss(base, tr, x, ws);
}

}  // namespace typed

// ---- a call of no form above: the part, workspace or gradient of another model or mode ----

namespace detail {

template <class X>
inline constexpr bool is_step_workspace = false;
template <class Model, class S, class Mem>
inline constexpr bool is_step_workspace<step_workspace<Model, S, Mem>> = true;

// The selection a step call trains: its first trainable part's (an argument after the model),
// else train_all.
template <class... A>
struct call_selection {
    using selection = train_all;
};
template <class A0, class... A>
struct call_selection<A0, A...> {
    using selection =
        typename std::conditional_t<is_trainable_part<bare_t<A0>>, trainable_traits<bare_t<A0>>,
                                    call_selection<A...>>::selection;
};

// A step's workspace, or a second trainable part (its gradient), is for the call's selection S.
template <class S, class A>
constexpr auto check_step_selection() {
    using U = bare_t<A>;
    if constexpr (is_step_workspace<U>) {
        if constexpr (!std::is_same_v<typename U::selection, S>)
            return what<workspace_trains<typename U::selection>, part_trains<S>>{};
        else
            return what<>{};
    } else if constexpr (is_trainable_part<U>) {
        if constexpr (!std::is_same_v<selection_of<U>, S>)
            return what<grads_train<selection_of<U>>, part_trains<S>>{};
        else
            return what<>{};
    } else {
        return what<>{};
    }
}

// f(model, args...) of a step (train/step.hpp) or loss_and_grad: an argument of another model or
// vocabulary (model_call_error's checks), or of another trainable selection.
template <class M, class... A>
constexpr auto step_call_error() {
    using S = typename call_selection<A...>::selection;
    return or_arguments<A...>(
        first_error(what<>{}, first_error(check_belongs<M, A>(), check_vocabulary<M, A>(),
                                          check_step_selection<S, A>())...));
}

template <class... A>
concept sgd_step_in_place_accepts = requires(A&&... a) {
    typed::sgd_step_in_place(static_cast<A&&>(a)...);
};
template <class... A>
concept try_sgd_step_in_place_accepts = requires(A&&... a) {
    typed::try_sgd_step_in_place(static_cast<A&&>(a)...);
};
}  // namespace detail

template <class Model, class... A>
    requires(detail::architecture<std::remove_const_t<Model>> &&
             !detail::sgd_step_in_place_accepts<Model&, A...>)
auto sgd_step_in_place(Model& model, A&&... args)
    -> decltype(detail::shape_error_of<in::sgd_step_in_place>(
        detail::step_call_error<std::remove_const_t<Model>, A...>()));
template <class Model, class... A>
    requires(detail::architecture<std::remove_const_t<Model>> &&
             !detail::try_sgd_step_in_place_accepts<Model&, A...>)
auto try_sgd_step_in_place(Model& model, A&&... args)
    -> decltype(detail::shape_error_of<in::try_sgd_step_in_place>(
        detail::step_call_error<std::remove_const_t<Model>, A...>()));

}  // namespace typeformer
