// Mistake: a KV cache for a BERT (an ETransformer).
// A KV cache serves causal decoding one token at a time (Algorithms 14, 15): column t of a MaskΔ
// attention depends on the columns ≤ t only. A BERT's attention sees both sides (Mask ≡ 1): a new
// token changes every column, so there is nothing to cache.
// Fix: run forward(model, x, ws) over the whole sequence; a DTransformer for token-by-token
// decoding.
// fixed: kv_cache<typeformer::ETransformer<float, tiny>> => kv_cache<typeformer::DTransformer<float, tiny>>
// covers: kv_cache(Model)
// expect: kv_cache<typeformer::ETransformer<float, tiny>
// first-error: kv_cache<typeformer::ETransformer<float, tiny>
// max-lines: 3
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

typeformer::kv_cache<typeformer::ETransformer<float, tiny>> cache;  // error here
