// Firmware: what one token of KV-cache decoding costs on the core. Two GPTs decode the same 28
// tokens (positions 12–27 are measured, as gpt_infer's "per generated token"):
//
//   tiny    DESIGN's tiny GPT (30,592 parameters), the trained weights in flash (tiny_trained.hpp)
//   mid     N_V 256, l_max 32, L 8, H 4, d_e 48, d_mlp 192 (252,160 parameters), tf::init_float
//           on the device (float arithmetic, bit-equal to the host's) into RAM
//
// each with float weights, with int8 weights (q8<Model>), with int8 weights and activations
// (q8a8<Model>: int8 × int8 products, int32 sums), and through plain_gpt.c, the loops a
// firmware engineer writes by hand (row-major copies of the same weights, the same flags). Every
// decoded token is one profile region (profile.hpp), which measure.py turns into instructions per
// token, per multiply-add and estimated cycles, per kernel. Then tiny takes two SGD and two Adam
// training steps on 32 tokens (a region each: the backward products and the optimisers), and one
// SGD step through plain_train.c (the hand-written training loops). The program checks that the
// plain C logits equal typeformer's (1e-4 + 1e-4·|x|), and its loss and gradient typeformer's
// (1e-4 + 1e-3·|g|), and prints a few logits per step for run_qemu.py's comparison with the host
// build.
#include <cstddef>
#include <cstdint>
#include <span>

#include "board/board.hpp"
#include "profile/plain_gpt.h"
#include "profile/plain_train.h"
#include "profile/profile.hpp"
#include "tiny.hpp"
#include "tiny_trained.hpp"

namespace tf = typeformer;

TYPEFORMER_BOARD_STACK(16384);  // the board support puts it in the stack region

namespace {

struct mid {
    static constexpr std::size_t N_V = 256, l_max = 32, L = 8, H = 4, d_e = 48, d_mlp = 192,
                                 d_attn = 12, d_mid = 12;
};
using gpt_tiny = firmware::gpt;
using gpt_mid = tf::DTransformer<float, mid>;

constexpr char text[] = "the license of this text is ";  // 28 tokens: 12 prompt, 16 measured
constexpr std::size_t prompt = 12, steps = sizeof text - 1;
static_assert(steps == 28);

template <class Model>
constexpr std::uint64_t macs_at(std::size_t t) {  // multiply-adds of the step at position t
    using c = typename Model::traits;
    const std::uint64_t d_e = c::d_e::size, dq = c::H::size * c::d_attn::size,
                        dv = c::H::size * c::d_mid::size, d_mlp = c::d_mlp::size;
    const std::uint64_t layer =
        (2 * dq + dv) * d_e + d_e * dv + 2 * d_e * d_mlp + (t + 1) * (dq + dv);
    return Model::L * layer + c::N_V::size * d_e;
}

template <class Model>
tf::token token_at(std::size_t t) {
    const char c = text[t];
    if constexpr (Model::N_V::size == firmware::tiny::N_V)
        return firmware::encode(c);
    else
        return static_cast<tf::token>(static_cast<unsigned char>(c));
}

// ---- the plain C reference's weights: row-major copies in RAM ----
float arena[290'000];  // mid's 252,160 parameters and tiny's 30,592
std::size_t arena_used = 0;

template <class M>
const float* rows_of(const M& m) {  // m (R, C) -> R rows of C
    float* out = arena + arena_used;
    for (std::size_t r = 0; r < m.rows(); ++r)
        for (std::size_t c = 0; c < m.cols(); ++c)
            out[r * m.cols() + c] = m(r, c);
    arena_used += m.rows() * m.cols();
    return out;
}
template <class M>
const float* columns_of(const M& m) {  // m (R, C) -> C rows of R (W_e's tokens, W_p's positions)
    float* out = arena + arena_used;
    for (std::size_t c = 0; c < m.cols(); ++c)
        for (std::size_t r = 0; r < m.rows(); ++r)
            out[c * m.rows() + r] = m(r, c);
    arena_used += m.rows() * m.cols();
    return out;
}

template <class Model>
struct plain_model {
    using c = typename Model::traits;
    static constexpr std::size_t L = Model::L, l_max = c::l_max::size,
                                 dq = c::H::size * c::d_attn::size,
                                 dv = c::H::size * c::d_mid::size;
    plain_layer layers[L];
    plain_gpt g;
    float K[L * l_max * dq], V[L * l_max * dv];
    float x[c::d_e::size], xn[c::d_e::size], q[dq], scores[l_max], y[dv], h[c::d_mlp::size];
    plain_state s;

    void load(const Model& m) {
        for (std::size_t l = 0; l < L; ++l) {
            const auto& p = m.layers[l];
            layers[l] = {
                p.ln1.gamma.data(),  p.ln1.beta.data(), rows_of(p.attn.W_q), p.attn.b_q.data(),
                rows_of(p.attn.W_k), p.attn.b_k.data(), rows_of(p.attn.W_v), p.attn.b_v.data(),
                rows_of(p.attn.W_o), p.attn.b_o.data(), p.ln2.gamma.data(),  p.ln2.beta.data(),
                rows_of(p.mlp.W_1),  p.mlp.b_1.data(),  rows_of(p.mlp.W_2),  p.mlp.b_2.data()};
        }
        g = {static_cast<int>(c::N_V::size),
             static_cast<int>(l_max),
             static_cast<int>(L),
             static_cast<int>(c::H::size),
             static_cast<int>(c::d_e::size),
             static_cast<int>(c::d_attn::size),
             static_cast<int>(c::d_mid::size),
             static_cast<int>(c::d_mlp::size),
             static_cast<float>(c::eps),
             columns_of(m.embedding.W_e),
             columns_of(m.positional.W_p),
             layers,
             m.ln_f.gamma.data(),
             m.ln_f.beta.data(),
             rows_of(m.unembedding.W_u)};
        s = {K, V, x, xn, q, scores, y, h};
    }
};

// 8 logits: enough to compare with the host. `step8` for a decoding with int8 activations or an
// int8 cache: a code whose value lies within an ulp of a rounding boundary can round the other way
// on the host (its float layer norm and softmax differ in the last bits), one step of its grid,
// so run_qemu.py compares those lines within a code's effect (examples/firmware/profile/
// CMakeLists.txt), the float lines at 1e-4.
void print_step(std::size_t t, const float* logits, bool coded = false) {
    board::detail::put(coded ? "step8" : "step");
    board::write(" ", 1);
    board::detail::put(static_cast<std::uint64_t>(t));
    for (std::size_t i = 0; i < 8; ++i)
        board::write(" ", 1), board::detail::put(logits[i]);
    board::write("\n", 1);
}

template <class Model, class Cache>
constexpr bool int8_coded = [] {
    if constexpr (requires { typename Model::activations; })
        if constexpr (!std::is_same_v<typename Model::activations, tf::float_activations>)
            return true;
    return std::is_same_v<Cache, tf::kv_cache<Model, tf::kv_int8<>>>;
}();

// Decodes the text with the KV cache; positions >= prompt are one region each. Every step's
// logits go to `all` (steps x N_V) unless it is null.
template <class Model, class Cache>
bool decode(const Model& theta, Cache& cache, const char* label, float* all) {
    constexpr std::size_t N_V = Model::N_V::size;
    tf::reset(cache);
    for (std::size_t t = 0; t < steps; ++t) {
        if (t >= prompt)
            profile::begin();
        const tf::status s = tf::try_append(theta, cache, token_at<Model>(t));
        if (t >= prompt)
            profile::end(label, 1, macs_at<Model>(t));
        if (s != tf::status::ok)
            return false;
        const auto l = tf::logits(cache);
        float first[8];
        for (std::size_t i = 0; i < N_V; ++i) {
            if (all)
                all[t * N_V + i] = l[i];
            if (i < 8)
                first[i] = l[i];
        }
        print_step(t, first, int8_coded<Model, Cache>);
    }
    return true;
}

// The same through plain_gpt.c; its logits must equal `ref` (typeformer's float decoding).
template <class Model>
bool decode_plain(plain_model<Model>& p, const char* label, const float* ref) {
    constexpr std::size_t N_V = Model::N_V::size;
    float logits[N_V];
    float worst = 0;
    bool ok = true;
    for (std::size_t t = 0; t < steps; ++t) {
        if (t >= prompt)
            profile::begin();
        plain_gpt_step(&p.g, &p.s, static_cast<int>(token_at<Model>(t)), static_cast<int>(t),
                       logits);
        if (t >= prompt)
            profile::end(label, 1, macs_at<Model>(t));
        for (std::size_t i = 0; i < N_V; ++i) {
            const float r = ref[t * N_V + i], d = logits[i] > r ? logits[i] - r : r - logits[i];
            const float a = r < 0 ? -r : r;
            ok = ok && d <= 1e-4f + 1e-4f * a;
            worst = d > worst ? d : worst;
        }
    }
    board::print("info plain_c_max_abs_diff", worst);
    board::print("plain_c_equals_typeformer", ok ? 1u : 0u);
    return ok;
}

// tiny's int8 weights, quantized by the compiler (as gpt_infer_q8 does)
template <class Quantized, class Model>
inline constexpr Quantized tiny_quantized = [] {
    Quantized q{};
    tf::quantize(tiny_trained<Model>, q);
    return q;
}();

constinit tf::kv_cache<gpt_tiny> tiny_cache{};
constinit tf::kv_cache<tf::q8<gpt_tiny>> tiny_q8_cache{};
constinit tf::kv_cache<tf::q8a8<gpt_tiny>> tiny_q8a8_cache{};
constinit tf::kv_cache<gpt_tiny, tf::kv_int8<>> tiny_kv8_cache{};
constinit tf::kv_cache<tf::q8a8<gpt_tiny>, tf::kv_int8<>> tiny_q8a8_kv8_cache{};
constinit plain_model<gpt_tiny> tiny_plain{};
constinit gpt_mid mid_theta{};
constinit tf::q8<gpt_mid> mid_q8{};
constinit tf::kv_cache<gpt_mid> mid_cache{};
constinit tf::kv_cache<tf::q8<gpt_mid>> mid_q8_cache{};
constinit tf::q8a8<gpt_mid> mid_q8a8{};
constinit tf::kv_cache<tf::q8a8<gpt_mid>> mid_q8a8_cache{};
constinit tf::kv_cache<gpt_mid, tf::kv_int8<>> mid_kv8_cache{};
constinit tf::kv_cache<tf::q8a8<gpt_mid>, tf::kv_int8<>> mid_q8a8_kv8_cache{};
constinit plain_model<gpt_mid> mid_plain{};
float tiny_logits[steps * firmware::tiny::N_V], mid_logits[steps * mid::N_V];

// ---- training: one step of Algorithm 13 on a 32-token sequence, then SGD or Adam ----
constinit gpt_tiny train_theta{};
constinit gpt_tiny train_grads{};
constinit tf::training_workspace<gpt_tiny> train_ws{};
constinit tf::adam_state<gpt_tiny> train_adam{};

// A step's multiply-adds: the forward pass (causal attention: keys up to each query) and twice
// its products for the backward pass (each product's two gradients).
constexpr std::uint64_t train_macs(std::size_t l) {
    std::uint64_t forward = 0;
    for (std::size_t t = 0; t < l; ++t)
        forward += macs_at<gpt_tiny>(t);
    return 3 * forward;
}

template <class Update>
bool train(const char* label, std::span<const tf::token> x, Update update) {
    tf::copy_params(tiny_trained<gpt_tiny>, train_theta);
    float loss = 0;
    for (int step = 0; step < 2; ++step) {
        tf::zero(train_grads);
        profile::begin();
        const tf::status s = tf::try_loss_and_grad(train_theta, x, train_grads, train_ws, loss);
        update();
        profile::end(label, x.size(), train_macs(x.size()));
        if (s != tf::status::ok)
            return false;
        board::print("loss", label, step, loss);
    }
    return true;
}

// ---- the plain C training step (plain_train.c) beside typeformer's, on the same θ and tokens ----
template <class V>
const float* vec_of(const V& v) {  // a vector's entries appended to the arena
    float* out = arena + arena_used;
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = v.data()[i];
    arena_used += v.size();
    return out;
}

// m in plain_train.h's flat layout, in the arena: its first entry
float* flat_of(const gpt_tiny& m) {
    float* start = arena + arena_used;
    columns_of(m.embedding.W_e);
    columns_of(m.positional.W_p);
    for (const auto& p : m.layers) {
        vec_of(p.ln1.gamma), vec_of(p.ln1.beta), rows_of(p.attn.W_q), vec_of(p.attn.b_q);
        rows_of(p.attn.W_k), vec_of(p.attn.b_k), rows_of(p.attn.W_v), vec_of(p.attn.b_v);
        rows_of(p.attn.W_o), vec_of(p.attn.b_o), vec_of(p.ln2.gamma), vec_of(p.ln2.beta);
        rows_of(p.mlp.W_1), vec_of(p.mlp.b_1), rows_of(p.mlp.W_2), vec_of(p.mlp.b_2);
    }
    vec_of(m.ln_f.gamma), vec_of(m.ln_f.beta), rows_of(m.unembedding.W_u);
    return start;
}

constexpr plain_dims tiny_dims{
    firmware::tiny::N_V,   firmware::tiny::l_max, firmware::tiny::L,
    firmware::tiny::H,     firmware::tiny::d_e,   firmware::tiny::d_attn,
    firmware::tiny::d_mid, firmware::tiny::d_mlp, static_cast<float>(gpt_tiny::traits::eps)};
// One SGD step of plain_train.c from tiny's trained θ (a region), checked against typeformer's
// loss and gradient at the same θ (1e-4 + 1e-3·|g| per entry: the sums run in other orders).
// Its θ, ∇ and scratch live in the arena, whose plain decoding copies are done with by then.
bool train_plain(std::span<const tf::token> x) {
    const int n = plain_train_params(&tiny_dims), l = static_cast<int>(x.size());
    arena_used = 0;
    if (n != static_cast<int>(tf::parameter_count<gpt_tiny>) ||
        3 * n + plain_train_scratch(&tiny_dims, l) > static_cast<int>(std::size(arena)))
        return false;
    tf::copy_params(tiny_trained<gpt_tiny>, train_theta);
    tf::zero(train_grads);
    float loss = 0;
    if (tf::try_loss_and_grad(train_theta, x, train_grads, train_ws, loss) != tf::status::ok)
        return false;
    const float* ref = flat_of(train_grads);
    float* theta = flat_of(train_theta);
    float *plain_grad = arena + arena_used, *plain_scratch = plain_grad + n;
    int tokens[firmware::tiny::l_max];
    for (int t = 0; t < l; ++t)
        tokens[t] = static_cast<int>(x[t]);
    profile::begin();
    const float plain_loss =
        plain_sgd_step(&tiny_dims, theta, plain_grad, tokens, l, 0.01f, plain_scratch);
    profile::end("tiny_plain_c_sgd_step", x.size(), train_macs(x.size()));
    float worst = 0;
    bool ok = plain_loss - loss <= 1e-4f * loss && loss - plain_loss <= 1e-4f * loss;
    for (int i = 0; i < n; ++i) {
        const float d = plain_grad[i] > ref[i] ? plain_grad[i] - ref[i] : ref[i] - plain_grad[i];
        const float a = ref[i] < 0 ? -ref[i] : ref[i];
        ok = ok && d <= 1e-4f + 1e-3f * a;
        worst = d > worst ? d : worst;
    }
    board::print("info plain_train_loss", plain_loss, "typeformer", loss);
    board::print("info plain_train_max_abs_grad_diff", worst);
    board::print("plain_train_equals_typeformer", ok ? 1u : 0u);
    return ok;
}

}  // namespace

int main() {
    profile::calibrate();
    const gpt_tiny& tiny = tiny_trained<gpt_tiny>;
    board::print("info macs_per_token_tiny", macs_at<gpt_tiny>(20));
    board::print("info macs_per_token_mid", macs_at<gpt_mid>(20));
    if (!decode(tiny, tiny_cache, "tiny_float", tiny_logits))
        return 1;
    if (!decode(tiny_quantized<tf::q8<gpt_tiny>, gpt_tiny>, tiny_q8_cache, "tiny_q8", nullptr) ||
        !decode(tiny_quantized<tf::q8a8<gpt_tiny>, gpt_tiny>, tiny_q8a8_cache, "tiny_q8a8",
                nullptr) ||
        !decode(tiny, tiny_kv8_cache, "tiny_kv8", nullptr) ||
        !decode(tiny_quantized<tf::q8a8<gpt_tiny>, gpt_tiny>, tiny_q8a8_kv8_cache, "tiny_q8a8_kv8",
                nullptr))
        return 1;
    tiny_plain.load(tiny);
    bool ok = decode_plain(tiny_plain, "tiny_plain_c", tiny_logits);

    tf::init_float(mid_theta, 7);
    tf::quantize(mid_theta, mid_q8);
    tf::quantize(mid_theta, mid_q8a8);
    if (!decode(mid_theta, mid_cache, "mid_float", mid_logits))
        return 1;
    if (!decode(mid_q8, mid_q8_cache, "mid_q8", nullptr) ||
        !decode(mid_q8a8, mid_q8a8_cache, "mid_q8a8", nullptr) ||
        !decode(mid_theta, mid_kv8_cache, "mid_kv8", nullptr) ||
        !decode(mid_q8a8, mid_q8a8_kv8_cache, "mid_q8a8_kv8", nullptr))
        return 1;
    mid_plain.load(mid_theta);
    ok = decode_plain(mid_plain, "mid_plain_c", mid_logits) && ok;

    tf::token x[firmware::tiny::l_max];
    const std::span<const tf::token> seq(x,
                                         firmware::encode("the quick brown fox jumps over a", x));
    if (!train("tiny_sgd_step", seq, [] { tf::sgd_step(train_theta, train_grads, 0.01f); }) ||
        !train("tiny_adam_step", seq,
               [] { tf::adam_step(train_theta, train_grads, train_adam, {.lr = 1e-2}); }))
        return 1;
    ok = train_plain(seq) && ok;
    return ok ? 0 : 1;
}
