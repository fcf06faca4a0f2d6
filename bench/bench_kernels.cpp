// The matrix products of every DESIGN.md benchmark configuration, against the peers.
//
//   config  N_V    l_max  H   d_e  d_mlp   d_attn = d_mid = d_e/H
//   tiny    64     32     2   32   128     forward + backward
//   small   256    128    4   128  512     forward + backward
//   baby    65     256    6   384  1536    forward + backward
//   gpt2    50257  1024   12  768  3072    forward (inference) only
//
// Every product runs at l = l_max, column-major, in the shapes the model's layers use:
//   Y ← W·X        (m, l) = (m, k)·(k, l)   forward of a linear map
//   dX += Wᵀ·G     (k, l) = (m, k)ᵀ·(m, l)  backward, input gradient   (training configs)
//   dW += G·Xᵀ     (m, k) = (m, l)·(k, l)ᵀ  backward, weight gradient  (training configs)
// for W_qkv (3·d_e, d_e), W_o (d_e, H·d_mid), W_mlp1 (d_mlp, d_e), W_mlp2 (d_e, d_mlp),
// W_u (N_V, d_e), plus one head's S ← KᵀQ (l, l) and Ṽ ← V·A (d_mid, l).
//
// <config>/attention_head/{causal,full} (training configs): one head's lines 4–6 of Algorithm 4
// and their backward (six products of 2·l²·d FLOPs, two softmax passes) under a causal and a
// bidirectional mask, the same operands; the causal row skips the masked half (gemm_band).
// FLOPS counts the six full products for both rows, so their ratio is the skip's gain.
//
// <config>/mlp_block/{fused,passes} (training configs): one MLP block's forward with the residual
// add, its biases and residual in the products' epilogues or as separate passes.
//
// <config>/attention_fwd/{untiled,tiled}: one head's lines 4–6, forward only, causal: the
// training path (A kept) and the inference path (tiles with an online softmax); FLOPS counts
// the two full products for both.
//
// Implementations, all on the same operands in the same run:
//   ours         typeformer::matmul / matmul_add (kernels::backend, SIMD unless forced scalar)
//   scalar       kernels::scalar::gemm_* (tiny and small only)
//   openblas_1t  cblas_sgemm, same layout and transposes, openblas_set_num_threads(1)
//   openblas_2t  the same with 2 threads (registered last, so its spinning threads cannot
//                disturb the single-threaded figures)
// and peak_fma/<arch>: independent FMA chains in registers, the single-core limit.
//
// Counters: FLOPS (2·m·n·k per iteration, as a rate) and pct_peak (FLOPS / the peak measured
// once at start-up, in %). Single-threaded runs are timed in thread CPU time, openblas_2t in
// wall-clock time. Before a product's first timing ours is checked against cblas_sgemm (a
// mismatch is reported as that benchmark's error). bench/report.py turns the JSON output into
// markdown tables; bench/README.md has the commands and the figures.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/kernels.hpp>  // (first: it includes xsimd under GCC 12's AVX-512 workaround)
#include <typeformer/nn/attention.hpp>
#include <typeformer/nn/mlp.hpp>

#include "peak_fma.hpp"

namespace tf = typeformer;

namespace {

// The fused Q, K, V projection's output rows (3·d_e); the model's other dims are the paper's.
TYPEFORMER_DIM(d_qkv);

using namespace typeformer_bench;

double g_peak_flops = 0;  // measured once in main, before any benchmark

template <class Chains>
void bm_peak_fma(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(Chains::run());
    state.counters["FLOPS"] =
        benchmark::Counter(Chains::flops_per_call, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["pct_peak"] = benchmark::Counter(100.0 * Chains::flops_per_call / g_peak_flops,
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

// ---------------------------------------------------------------------------------------------
// One matrix product: the typed call (ours) and the same product on raw storage (scalar, BLAS).
// ---------------------------------------------------------------------------------------------

enum class form { nn, tn, nt };  // A·B, Aᵀ·B, A·Bᵀ

// C (m, n) ←/+= op(A)·op(B) on column-major storage, exactly what ours computes.
struct gemm_call {
    form f;
    std::size_t m, n, k;
    const float* A;
    std::size_t lda;
    const float* B;
    std::size_t ldb;
    float* C;
    std::size_t ldc;
    bool accumulate;

    double flops() const {
        return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    }
};

struct problem {
    virtual ~problem() = default;
    virtual void ours() = 0;
    virtual gemm_call call() = 0;
};

// Owning tensors are aggregates of their storage, so the large ones live on the heap; value
// initialisation zeroes them, a bounded length (l_x) is sized to its capacity l_max, then a cheap
// LCG fills the matrix with values in [−1, 1).
template <class R, class C>
std::unique_ptr<tf::mat<float, R, C>> operand(std::uint32_t seed) {
    auto x = std::make_unique<tf::mat<float, R, C>>();
    if constexpr (tf::bounded_dimension<R>)
        x->resize_rows(R::capacity);
    if constexpr (tf::bounded_dimension<C>)
        x->resize_cols(C::capacity);
    std::uint32_t s = seed * 2654435761u + 1u;
    for (std::size_t j = 0; j < x->cols(); ++j)
        for (std::size_t i = 0; i < x->rows(); ++i) {
            s = s * 1664525u + 1013904223u;
            (*x)(i, j) = static_cast<float>(s >> 8) * (2.0f / 16777216.0f) - 1.0f;
        }
    return x;
}

// Y ← W·X: W (R, K), X (K, Len), Y (R, Len).
template <class R, class K, class Len>
struct linear_fwd final : problem {
    std::unique_ptr<tf::mat<float, R, K>> W = operand<R, K>(1);
    std::unique_ptr<tf::mat<float, K, Len>> X = operand<K, Len>(2);
    std::unique_ptr<tf::mat<float, R, Len>> Y = operand<R, Len>(3);
    void ours() override { tf::matmul(*W, *X, *Y); }
    gemm_call call() override {
        return {form::nn,  Y->rows(),   Y->cols(), W->cols(),   W->data(), W->stride(),
                X->data(), X->stride(), Y->data(), Y->stride(), false};
    }
};

// dX += Wᵀ·G: W (R, K), G (R, Len), dX (K, Len).
template <class R, class K, class Len>
struct linear_bwd_data final : problem {
    std::unique_ptr<tf::mat<float, R, K>> W = operand<R, K>(4);
    std::unique_ptr<tf::mat<float, R, Len>> G = operand<R, Len>(5);
    std::unique_ptr<tf::mat<float, K, Len>> dX = operand<K, Len>(6);
    void ours() override { tf::matmul_add(tf::transpose(*W), *G, *dX); }
    gemm_call call() override {
        return {form::tn,  dX->rows(),  dX->cols(), W->rows(),    W->data(), W->stride(),
                G->data(), G->stride(), dX->data(), dX->stride(), true};
    }
};

// dW += G·Xᵀ: G (R, Len), X (K, Len), dW (R, K).
template <class R, class K, class Len>
struct linear_bwd_weight final : problem {
    std::unique_ptr<tf::mat<float, R, Len>> G = operand<R, Len>(7);
    std::unique_ptr<tf::mat<float, K, Len>> X = operand<K, Len>(8);
    std::unique_ptr<tf::mat<float, R, K>> dW = operand<R, K>(9);
    void ours() override { tf::matmul_add(*G, tf::transpose(*X), *dW); }
    gemm_call call() override {
        return {form::nt,  dW->rows(),  dW->cols(), G->cols(),    G->data(), G->stride(),
                X->data(), X->stride(), dW->data(), dW->stride(), true};
    }
};

// One head's scores, S ← KᵀQ (Algorithm 4 line 4 up to the scale): K, Q (D, Len), S (Len, Len).
template <class D, class Len>
struct attention_scores final : problem {
    std::unique_ptr<tf::mat<float, D, Len>> K = operand<D, Len>(10);
    std::unique_ptr<tf::mat<float, D, Len>> Q = operand<D, Len>(11);
    std::unique_ptr<tf::mat<float, Len, Len>> S = operand<Len, Len>(12);
    void ours() override { tf::matmul(tf::transpose(*K), *Q, *S); }
    gemm_call call() override {
        return {form::tn,  S->rows(),   S->cols(), K->rows(),   K->data(), K->stride(),
                Q->data(), Q->stride(), S->data(), S->stride(), false};
    }
};

// One head's output, Ṽ ← V·A (Algorithm 4 line 6): V (D, Len), A (Len, Len), Ṽ (D, Len).
template <class D, class Len>
struct attention_mix final : problem {
    std::unique_ptr<tf::mat<float, D, Len>> V = operand<D, Len>(13);
    std::unique_ptr<tf::mat<float, Len, Len>> A = operand<Len, Len>(14);
    std::unique_ptr<tf::mat<float, D, Len>> Vt = operand<D, Len>(15);
    void ours() override { tf::matmul(*V, *A, *Vt); }
    gemm_call call() override {
        return {form::nn,  Vt->rows(),  Vt->cols(), V->cols(),    V->data(), V->stride(),
                A->data(), A->stride(), Vt->data(), Vt->stride(), false};
    }
};

// One head's lines 4–6 and their backward at l = l_max (nn::detail::attention_core_*).
template <class D, class Len>
struct attention_head {
    std::unique_ptr<tf::mat<float, D, Len>> Q = operand<D, Len>(16), K = operand<D, Len>(17),
                                            V = operand<D, Len>(18), dVt = operand<D, Len>(19),
                                            Vt = operand<D, Len>(20), dQ = operand<D, Len>(21),
                                            dK = operand<D, Len>(22), dV = operand<D, Len>(23);
    std::unique_ptr<tf::mat<float, Len, Len>> A = operand<Len, Len>(24), dA = operand<Len, Len>(25),
                                              dS = operand<Len, Len>(26);
    template <class Mask>
    void run(Mask mask) {
        namespace nd = tf::nn::detail;
        nd::attention_core_forward(nd::attention_cview(*Q), nd::attention_cview(*K),
                                   nd::attention_cview(*V), mask, A->view(), Vt->view());
        nd::attention_core_backward(nd::attention_cview(*Q), nd::attention_cview(*K),
                                    nd::attention_cview(*V), nd::attention_cview(*A), mask,
                                    nd::attention_cview(*dVt), dQ->view(), dK->view(), dV->view(),
                                    dA->view(), dS->view());
    }
    void run(bool causal) {
        if (causal)
            run(tf::mask_unidirectional{});
        else
            run(tf::mask_bidirectional{});
    }
    static double flops() { return 6 * 2.0 * double(Len::capacity) * Len::capacity * D::size; }
    static std::string label(bool) {
        return "l=" + std::to_string(Len::capacity) + " d=" + std::to_string(D::size);
    }
};

// One head's lines 4–6, forward only, at l = l_max under MaskΔ: the training path
// (attention_core_forward, which keeps A (l, l) for backward) and the inference path
// (attention_core_forward_tiled: keys in tiles with an online softmax, no A), same operands.
template <class D, class Len>
struct attention_fwd {
    std::unique_ptr<tf::mat<float, D, Len>> Q = operand<D, Len>(27), K = operand<D, Len>(28),
                                            V = operand<D, Len>(29), Vt = operand<D, Len>(30);
    std::unique_ptr<tf::mat<float, Len, Len>> A = operand<Len, Len>(31);
    std::unique_ptr<tf::nn::detail::attention_tile_for<float, Len, Len>> tile =
        std::make_unique<tf::nn::detail::attention_tile_for<float, Len, Len>>();
    void run(bool tiled) {
        namespace nd = tf::nn::detail;
        if (tiled)
            nd::attention_core_forward_tiled(nd::attention_cview(*Q), nd::attention_cview(*K),
                                             nd::attention_cview(*V), tf::mask_unidirectional{},
                                             Vt->view(), *tile);
        else
            nd::attention_core_forward(nd::attention_cview(*Q), nd::attention_cview(*K),
                                       nd::attention_cview(*V), tf::mask_unidirectional{},
                                       A->view(), Vt->view());
    }
    static double flops() { return 2 * 2.0 * double(Len::capacity) * Len::capacity * D::size; }
    static std::string label(bool tiled) {
        using tile = tf::nn::detail::attention_tile_for<float, Len, Len>;
        return "l=" + std::to_string(Len::capacity) + " d=" + std::to_string(D::size) +
               (tiled ? " tile=" + std::to_string(tile::keys) + "x" + std::to_string(tile::queries)
                      : "");
    }
};

// A head benchmark (attention_head, attention_fwd): run(flag) per iteration on operands shared
// by both rows of a configuration (built on first use), FLOPS and pct_peak from Head::flops().
template <class Head>
void bm_head(benchmark::State& state, bool flag) {
    static Head h;
    for (auto _ : state) {
        h.run(flag);
        benchmark::ClobberMemory();
    }
    state.SetLabel(Head::label(flag));
    state.counters["FLOPS"] =
        benchmark::Counter(Head::flops(), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["pct_peak"] = benchmark::Counter(100.0 * Head::flops() / g_peak_flops,
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

// One MLP block's forward with its residual add at l = l_max, Y = R + W_2·GELU(W_1·X + b_1) + b_2:
// `fused` is nn::forward(mlp, X, Y, cache, R) (the biases and R in the products' epilogues),
// `passes` the same products followed by add_bias, gelu, add_bias and axpy, as the models ran it
// before the epilogue. Same operands, same results bit for bit.
template <class E, class M, class Len>
struct mlp_block {
    using block = tf::nn::mlp<float, E, M, tf::nn::gelu>;
    std::unique_ptr<block> p = [] {
        auto b = std::make_unique<block>();
        b->W_1 = *operand<M, E>(30);
        b->W_2 = *operand<E, M>(31);
        tf::copy(operand<M, tf::l_x<1>>(32)->col(0), b->b_1);
        tf::copy(operand<E, tf::l_x<1>>(33)->col(0), b->b_2);
        return b;
    }();
    std::unique_ptr<typename block::template cache<Len>> c =
        std::make_unique<typename block::template cache<Len>>();
    std::unique_ptr<tf::mat<float, E, Len>> X = operand<E, Len>(34), R = operand<E, Len>(35),
                                            Y = operand<E, Len>(36);
    void run(bool fused) {
        if (fused) {
            tf::nn::forward(*p, *X, *Y, *c, *R);
            return;
        }
        c->pre.resize_cols(Len::capacity);
        c->act.resize_cols(Len::capacity);
        tf::matmul(p->W_1, *X, c->pre);
        tf::add_bias(c->pre, p->b_1);
        tf::gelu(c->pre, c->act);
        tf::matmul(p->W_2, c->act, *Y);
        tf::add_bias(*Y, p->b_2);
        tf::axpy(1.0f, *R, *Y);
    }
    static double flops() { return 2 * 2.0 * double(Len::capacity) * E::size * M::size; }
};

template <class E, class M, class Len>
void bm_mlp_block(benchmark::State& state, bool fused) {
    static mlp_block<E, M, Len> b;  // shared by both rows, built on first use
    for (auto _ : state) {
        b.run(fused);
        benchmark::ClobberMemory();
    }
    state.SetLabel("l=" + std::to_string(Len::capacity) + " d_e=" + std::to_string(E::size) +
                   " d_mlp=" + std::to_string(M::size));
    state.counters["FLOPS"] = benchmark::Counter(mlp_block<E, M, Len>::flops(),
                                                 benchmark::Counter::kIsIterationInvariantRate);
    state.counters["pct_peak"] =
        benchmark::Counter(100.0 * mlp_block<E, M, Len>::flops() / g_peak_flops,
                           benchmark::Counter::kIsIterationInvariantRate);
}

void run_scalar(const gemm_call& c) {
    namespace ks = tf::kernels::scalar;
    switch (c.f) {
        case form::nn:
            ks::gemm_nn(c.m, c.n, c.k, c.A, c.lda, c.B, c.ldb, c.C, c.ldc, c.accumulate);
            break;
        case form::tn:
            ks::gemm_tn(c.m, c.n, c.k, c.A, c.lda, c.B, c.ldb, c.C, c.ldc, c.accumulate);
            break;
        case form::nt:
            ks::gemm_nt(c.m, c.n, c.k, c.A, c.lda, c.B, c.ldb, c.C, c.ldc, c.accumulate);
            break;
    }
}

void run_blas(const gemm_call& c) {
    const auto ta = c.f == form::tn ? CblasTrans : CblasNoTrans;
    const auto tb = c.f == form::nt ? CblasTrans : CblasNoTrans;
    auto i = [](std::size_t v) { return static_cast<blasint>(v); };
    cblas_sgemm(CblasColMajor, ta, tb, i(c.m), i(c.n), i(c.k), 1.0f, c.A, i(c.lda), c.B, i(c.ldb),
                c.accumulate ? 1.0f : 0.0f, c.C, i(c.ldc));
}

// A timing of a wrong product means nothing: before the first timing of a product, ours and
// OpenBLAS compute it from the same C and must agree (|Δ| ≤ 1e-5·(k + |c|), inputs in [−1, 1)).
// Returns the largest violation's description, or an empty string.
std::string check_against_blas(problem& p) {
    const gemm_call c = p.call();
    std::vector<float> c0(c.ldc * c.n), ours(c.ldc * c.n);
    std::copy_n(c.C, c0.size(), c0.begin());
    p.ours();
    std::copy_n(c.C, ours.size(), ours.begin());
    std::copy_n(c0.begin(), c0.size(), c.C);
    run_blas(c);
    double worst = 0;
    std::size_t wi = 0, wj = 0;
    for (std::size_t j = 0; j < c.n; ++j)
        for (std::size_t i = 0; i < c.m; ++i) {
            const double ref = c.C[i + j * c.ldc];
            const double err = std::abs(ours[i + j * c.ldc] - ref) /
                               (1e-5 * (static_cast<double>(c.k) + std::abs(ref)));
            if (err > worst)
                worst = err, wi = i, wj = j;
        }
    if (worst <= 1.0)
        return {};
    return "ours differs from cblas_sgemm at (" + std::to_string(wi) + ", " + std::to_string(wj) +
           "): " + std::to_string(ours[wi + wj * c.ldc]) + " vs " +
           std::to_string(c.C[wi + wj * c.ldc]);
}

// Operands are built on first use (a --benchmark_filter that skips gpt2 never allocates its
// 360 MB) and shared by every implementation of the same product.
using problem_factory = std::function<std::unique_ptr<problem>()>;
struct lazy_problem {
    problem_factory make;
    std::unique_ptr<problem> p;
    std::string error;
    problem& get() {
        if (!p) {
            p = make();
            error = check_against_blas(*p);
        }
        return *p;
    }
};

enum class impl { ours, scalar, openblas_1t, openblas_2t };

void bm_gemm(benchmark::State& state, std::shared_ptr<lazy_problem> lp, impl which) {
    problem& p = lp->get();
    if (!lp->error.empty()) {
        state.SkipWithError(lp->error.c_str());
        return;
    }
    const gemm_call c = p.call();
    if (c.flops() == 0) {
        state.SkipWithError("empty product: an operand's extent is 0");
        return;
    }
    if (which == impl::openblas_2t)
        openblas_set_num_threads(2);
    for (auto _ : state) {
        switch (which) {
            case impl::ours:
                p.ours();
                break;
            case impl::scalar:
                run_scalar(c);
                break;
            case impl::openblas_1t:
            case impl::openblas_2t:
                run_blas(c);
                break;
        }
        benchmark::ClobberMemory();
    }
    if (which == impl::openblas_2t)
        openblas_set_num_threads(1);
    const char* forms[] = {"nn", "tn", "nt"};
    state.SetLabel(std::string(forms[static_cast<int>(c.f)]) + " m=" + std::to_string(c.m) +
                   " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k));
    state.counters["FLOPS"] =
        benchmark::Counter(c.flops(), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["pct_peak"] = benchmark::Counter(100.0 * c.flops() / g_peak_flops,
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

struct named_problem {
    std::string name;  // "<config>/<product>"
    std::shared_ptr<lazy_problem> lp;
    bool scalar;
};
std::vector<named_problem> g_problems;
std::vector<std::pair<std::string, std::function<void(benchmark::State&)>>> g_heads;

template <class P>
void add(const std::string& config, const std::string& product, bool scalar) {
    g_problems.push_back(
        {config + "/" + product,
         std::make_shared<lazy_problem>(lazy_problem{[] { return std::make_unique<P>(); }, {}, {}}),
         scalar});
}

// The products one layer (and the unembedding) of a configuration performs at l = l_max.
template <std::size_t NV, std::size_t Lmax, std::size_t Hn, std::size_t De, std::size_t Dmlp>
void add_config(const std::string& name, bool training, bool scalar) {
    static_assert(De % Hn == 0, "d_attn = d_e / H must be whole");
    using Len = tf::l_x<Lmax>;
    using E = tf::d_e<De>;
    using HD = tf::prod<tf::H<Hn>, tf::d_mid<De / Hn>>;  // the heads' stacked outputs
    using Q = d_qkv<3 * De>;
    using M = tf::d_mlp<Dmlp>;
    using V = tf::N_V<NV>;
    add<linear_fwd<Q, E, Len>>(name, "qkv.fwd", scalar);
    add<attention_scores<tf::d_attn<De / Hn>, Len>>(name, "scores.fwd", scalar);
    add<attention_mix<tf::d_mid<De / Hn>, Len>>(name, "mix.fwd", scalar);
    add<linear_fwd<E, HD, Len>>(name, "attn_out.fwd", scalar);
    add<linear_fwd<M, E, Len>>(name, "mlp_up.fwd", scalar);
    add<linear_fwd<E, M, Len>>(name, "mlp_down.fwd", scalar);
    add<linear_fwd<V, E, Len>>(name, "unembed.fwd", scalar);
    for (const bool tiled : {false, true})
        g_heads.push_back({name + "/attention_fwd/" + (tiled ? "tiled" : "untiled"),
                           [tiled](benchmark::State& st) {
                               bm_head<attention_fwd<tf::d_attn<De / Hn>, Len>>(st, tiled);
                           }});
    if (!training)
        return;
    for (const bool fused : {true, false})
        g_heads.push_back({name + "/mlp_block/" + (fused ? "fused" : "passes"),
                           [fused](benchmark::State& st) { bm_mlp_block<E, M, Len>(st, fused); }});
    for (const bool causal : {true, false})
        g_heads.push_back({name + "/attention_head/" + (causal ? "causal" : "full"),
                           [causal](benchmark::State& st) {
                               bm_head<attention_head<tf::d_attn<De / Hn>, Len>>(st, causal);
                           }});
    add<linear_bwd_data<Q, E, Len>>(name, "qkv.dX", scalar);
    add<linear_bwd_weight<Q, E, Len>>(name, "qkv.dW", scalar);
    add<linear_bwd_data<E, HD, Len>>(name, "attn_out.dX", scalar);
    add<linear_bwd_weight<E, HD, Len>>(name, "attn_out.dW", scalar);
    add<linear_bwd_data<M, E, Len>>(name, "mlp_up.dX", scalar);
    add<linear_bwd_weight<M, E, Len>>(name, "mlp_up.dW", scalar);
    add<linear_bwd_data<E, M, Len>>(name, "mlp_down.dX", scalar);
    add<linear_bwd_weight<E, M, Len>>(name, "mlp_down.dW", scalar);
    add<linear_bwd_data<V, E, Len>>(name, "unembed.dX", scalar);
    add<linear_bwd_weight<V, E, Len>>(name, "unembed.dW", scalar);
}

}  // namespace

int main(int argc, char** argv) {
    openblas_set_num_threads(1);
    g_peak_flops = measure_peak_flops<peak_default>();

    // clang-format off
    //         N_V    l_max  H   d_e  d_mlp            training  scalar
    add_config<64,    32,    2,  32,  128> ("tiny",  true,     true);
    add_config<256,   128,   4,  128, 512> ("small", true,     true);
    add_config<65,    256,   6,  384, 1536>("baby",  true,     false);
    add_config<50257, 1024,  12, 768, 3072>("gpt2",  false,    false);
    // clang-format on

    benchmark::RegisterBenchmark(("peak_fma/" + std::string(xsimd::default_arch::name())).c_str(),
                                 bm_peak_fma<peak_default>);
#if XSIMD_WITH_AVX2 && XSIMD_WITH_FMA3_AVX2
    benchmark::RegisterBenchmark("peak_fma/fma3<avx2>",
                                 bm_peak_fma<fma_chains<xsimd::fma3<xsimd::avx2>, 12>>);
#endif
    // Single-threaded runs are timed in this thread's CPU time (Google Benchmark's default), so
    // time spent descheduled by other processes does not count; 2 threads need wall-clock time.
    for (const auto& p : g_problems) {
        benchmark::RegisterBenchmark((p.name + "/ours").c_str(), bm_gemm, p.lp, impl::ours);
        if (p.scalar)
            benchmark::RegisterBenchmark((p.name + "/scalar").c_str(), bm_gemm, p.lp, impl::scalar);
        benchmark::RegisterBenchmark((p.name + "/openblas_1t").c_str(), bm_gemm, p.lp,
                                     impl::openblas_1t);
    }
    for (const auto& [name, fn] : g_heads)
        benchmark::RegisterBenchmark(name.c_str(), fn);
    for (const auto& p : g_problems)
        benchmark::RegisterBenchmark((p.name + "/openblas_2t").c_str(), bm_gemm, p.lp,
                                     impl::openblas_2t)
            ->UseRealTime();

    benchmark::AddCustomContext("peak_fma_gflops", std::to_string(g_peak_flops * 1e-9));
    benchmark::AddCustomContext("xsimd_arch", xsimd::default_arch::name());
    benchmark::AddCustomContext("typeformer_backend", TYPEFORMER_SIMD ? "simd" : "scalar");
    benchmark::AddCustomContext("openblas_core", openblas_get_corename());
    benchmark::AddCustomContext("openblas_config", openblas_get_config());

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
