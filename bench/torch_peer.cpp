// The libtorch peer of bench_models (see torch_peer.hpp): plain tensor ops and autograd, as a
// libtorch user writes a GPT (the nanoGPT / llm.c reference model), float, row-major (B, T, d).
#include "torch_peer.hpp"

#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

namespace typeformer_bench {

namespace {

struct layer {
    at::Tensor ln1_g, ln1_b, W_qkv, b_qkv, W_o, b_o, ln2_g, ln2_b, W_1, b_1, W_2, b_2;
    at::Tensor K, V;  // the decoder's cache: (H, l_max, d_attn)
};

}  // namespace

struct torch_gpt::impl {
    gpt_shape s;
    std::int64_t batch;
    at::Tensor wte, wpe, lnf_g, lnf_b;
    std::vector<layer> layers;
    at::Tensor causal;  // (l_max, l_max), true above the diagonal: the masked scores
    std::unique_ptr<torch::optim::AdamW> opt;

    impl(gpt_shape shape, std::int64_t b, std::uint64_t seed, bool trainable) : s(shape), batch(b) {
        torch::manual_seed(seed);
        const auto d = s.d_e;
        auto normal = [&](std::int64_t rows, std::int64_t cols) {
            return torch::randn({rows, cols}) * 0.02f;
        };
        std::vector<at::Tensor> params;
        auto keep = [&](at::Tensor t) {
            t.set_requires_grad(trainable);
            params.push_back(t);
            return t;
        };
        wte = keep(normal(s.N_V, d));
        wpe = keep(normal(s.l_max, d));
        for (std::int64_t l = 0; l < s.L; ++l) {
            layer y;
            y.ln1_g = keep(torch::ones({d}));
            y.ln1_b = keep(torch::zeros({d}));
            y.W_qkv = keep(normal(3 * d, d));
            y.b_qkv = keep(torch::zeros({3 * d}));
            y.W_o = keep(normal(d, d));
            y.b_o = keep(torch::zeros({d}));
            y.ln2_g = keep(torch::ones({d}));
            y.ln2_b = keep(torch::zeros({d}));
            y.W_1 = keep(normal(s.d_mlp, d));
            y.b_1 = keep(torch::zeros({s.d_mlp}));
            y.W_2 = keep(normal(d, s.d_mlp));
            y.b_2 = keep(torch::zeros({d}));
            y.K = torch::zeros({s.H, s.l_max, d / s.H});
            y.V = torch::zeros({s.H, s.l_max, d / s.H});
            layers.push_back(y);
        }
        lnf_g = keep(torch::ones({d}));
        lnf_b = keep(torch::zeros({d}));
        causal = torch::ones({s.l_max, s.l_max}, torch::kBool).triu(1);
        if (trainable)
            opt = std::make_unique<torch::optim::AdamW>(
                params, torch::optim::AdamWOptions(1e-3).weight_decay(0.01));
    }

    // logits (B, T, N_V) of tokens (B, T)
    at::Tensor logits(const at::Tensor& idx) {
        const auto B = idx.size(0), T = idx.size(1), d = s.d_e, H = s.H, dh = d / H;
        const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
        at::Tensor x = wte.index_select(0, idx.reshape({-1})).view({B, T, d}) + wpe.narrow(0, 0, T);
        const at::Tensor mask = causal.narrow(0, 0, T).narrow(1, 0, T);
        for (const layer& y : layers) {
            const at::Tensor h = at::layer_norm(x, {d}, y.ln1_g, y.ln1_b, 1e-5);
            const auto qkv = at::linear(h, y.W_qkv, y.b_qkv).split(d, 2);
            const at::Tensor q = qkv[0].view({B, T, H, dh}).transpose(1, 2);
            const at::Tensor k = qkv[1].view({B, T, H, dh}).transpose(1, 2);
            const at::Tensor v = qkv[2].view({B, T, H, dh}).transpose(1, 2);
            const at::Tensor att = (at::matmul(q, k.transpose(-2, -1)) * scale)
                                       .masked_fill(mask, -std::numeric_limits<float>::infinity())
                                       .softmax(-1);
            const at::Tensor o = at::matmul(att, v).transpose(1, 2).reshape({B, T, d});
            x = x + at::linear(o, y.W_o, y.b_o);
            const at::Tensor h2 = at::layer_norm(x, {d}, y.ln2_g, y.ln2_b, 1e-5);
            x = x + at::linear(at::gelu(at::linear(h2, y.W_1, y.b_1)), y.W_2, y.b_2);
        }
        x = at::layer_norm(x, {d}, lnf_g, lnf_b, 1e-5);
        return at::matmul(x, wte.t());  // tied W_u
    }
};

torch_gpt::torch_gpt(gpt_shape shape, std::int64_t batch, std::uint64_t seed, bool trainable)
    : p_(std::make_unique<impl>(shape, batch, seed, trainable)) {}

torch_gpt::~torch_gpt() = default;

float torch_gpt::train_step(const std::int64_t* tokens) {
    auto& m = *p_;
    const auto T = m.s.l_max;
    const at::Tensor idx =
        torch::from_blob(const_cast<std::int64_t*>(tokens), {m.batch, T}, torch::kLong);
    const at::Tensor logits = m.logits(idx);
    const at::Tensor loss = at::cross_entropy_loss(
        logits.narrow(1, 0, T - 1).reshape({-1, m.s.N_V}), idx.narrow(1, 1, T - 1).reshape({-1}));
    m.opt->zero_grad();
    loss.backward();
    m.opt->step();
    return loss.item<float>();
}

float torch_gpt::forward(const std::int64_t* tokens, std::int64_t batch) {
    c10::InferenceMode guard;
    auto& m = *p_;
    const at::Tensor idx =
        torch::from_blob(const_cast<std::int64_t*>(tokens), {batch, m.s.l_max}, torch::kLong);
    return m.logits(idx).data_ptr<float>()[0];
}

float torch_gpt::decode_at(std::int64_t position, std::int64_t token) {
    c10::InferenceMode guard;
    auto& m = *p_;
    const auto d = m.s.d_e, H = m.s.H, dh = d / H, n = position + 1;
    const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
    at::Tensor x = (m.wte[token] + m.wpe[position]).view({1, d});
    for (layer& y : m.layers) {
        const at::Tensor h = at::layer_norm(x, {d}, y.ln1_g, y.ln1_b, 1e-5);
        const at::Tensor qkv = at::linear(h, y.W_qkv, y.b_qkv).view({3, H, dh});
        y.K.select(1, position).copy_(qkv[1]);  // k_t, v_t appended to the cache
        y.V.select(1, position).copy_(qkv[2]);
        const at::Tensor att =
            (at::bmm(y.K.narrow(1, 0, n), qkv[0].unsqueeze(-1)) * scale).softmax(1);  // (H, n, 1)
        const at::Tensor o = at::bmm(y.V.narrow(1, 0, n).transpose(1, 2), att);       // (H, dh, 1)
        x = x + at::linear(o.view({1, d}), y.W_o, y.b_o);
        const at::Tensor h2 = at::layer_norm(x, {d}, y.ln2_g, y.ln2_b, 1e-5);
        x = x + at::linear(at::gelu(at::linear(h2, y.W_1, y.b_1)), y.W_2, y.b_2);
    }
    x = at::layer_norm(x, {d}, m.lnf_g, m.lnf_b, 1e-5);
    return at::matmul(x, m.wte.t()).data_ptr<float>()[0];
}

void torch_gpt::prefill(const std::int64_t* tokens, std::int64_t n) {
    for (std::int64_t t = 0; t < n; ++t)
        decode_at(t, tokens[t]);
}

void torch_gpt::set_threads(int threads) {
    at::set_num_threads(threads);
}

int torch_gpt::threads() {
    return at::get_num_threads();
}

}  // namespace typeformer_bench
