// The libtorch peer of bench_models: the same GPT (Algorithm 10: pre-norm layers, GELU, biases on
// every linear map, final layer norm, W_u tied to W_e) written with libtorch's C++ tensor ops, in
// its own translation unit (torch_peer.cpp) so that libtorch's slow headers are compiled once and
// never meet typeformer's. This header includes no libtorch header.
//
//   torch_gpt(cfg, batch, seed)   parameters drawn N(0, 0.02) (biases 0, gains 1), AdamW
//   train_step(tokens)            forward + backward + AdamW on batch × l_max tokens; the loss
//                                 (mean over batch × (l_max − 1) predictions)
//   forward(tokens, batch)        logits of batch × l_max tokens, no autograd (InferenceMode)
//   prefill(tokens, n)            its own K/V cache (per layer H × l_max × d_attn) filled with n
//                                 tokens, one at a time
//   decode_at(position, token)    one token at `position` (the cache holds 0 … position − 1):
//                                 its logits; the newest column only, as a decoder runs
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace typeformer_bench {

struct gpt_shape {
    std::int64_t N_V, l_max, L, H, d_e, d_mlp;
};

class torch_gpt {
public:
    torch_gpt(gpt_shape shape, std::int64_t batch, std::uint64_t seed, bool trainable);
    ~torch_gpt();
    torch_gpt(const torch_gpt&) = delete;
    torch_gpt& operator=(const torch_gpt&) = delete;

    float train_step(const std::int64_t* tokens);
    float forward(const std::int64_t* tokens, std::int64_t batch);
    void prefill(const std::int64_t* tokens, std::int64_t n);
    float decode_at(std::int64_t position, std::int64_t token);

    // at::set_num_threads (process-wide: intra-op threads of every peer)
    static void set_threads(int threads);
    static int threads();

private:
    struct impl;
    std::unique_ptr<impl> p_;
};

}  // namespace typeformer_bench
