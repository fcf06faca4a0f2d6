// Mistake: encoding the context into the KV cache of a wider seq2seq model (the throwing form).
// encode(m, c, z) writes Z and every decoder layer's cross-attention K, V (H·d_attn, l_z) into the
// cache of the model it was made for.
// Fix: kv_cache<EDTransformer<float, translator>>.
// fixed: float, wider> => float, translator>
// covers: encode(c m)
// expect: in::encode
// first-error: kv_cache_of<typeformer::EDTransformer<float, wider>, model<typeformer::EDTransformer<float, translator>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {  // the same seq2seq model with a wider stream
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

void start(const tf::EDTransformer<float, translator>& model,
           tf::kv_cache<tf::EDTransformer<float, wider>>& cache, std::span<const tf::token> z) {
    tf::encode(model, cache, z);  // error here
}
