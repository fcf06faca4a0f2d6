// Mistake: prefilling a KV cache with tokens of another vocabulary.
// try_prefill(model, cache, prompt) runs Algorithm 10 on each prompt token; the prompt's type says
// N_V = 259, the model's is 64.
// Fix: ids of the model's own vocabulary (a tokenizer bound with tokenize::for_model<Model>).
// fixed: tf::tokenize::tokens<tf::N_V<259>>& prompt => tf::tokenize::tokens<tf::N_V<64>>& prompt
// covers: try_prefill(prompt m)
// expect: in::try_prefill
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

#include <typeformer/tokenize/byte.hpp>
namespace tf = typeformer;

void start(const tf::DTransformer<float, tiny>& model, tf::kv_cache<tf::DTransformer<float, tiny>>& c,
           const tf::tokenize::tokens<tf::N_V<259>>& prompt) {
    tf::try_prefill(model, c, prompt);  // error here
}
