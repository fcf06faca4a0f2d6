// Mistake: importing GPT-2's weights (Hugging Face layout) into a BERT (an ETransformer).
// GPT-2 is a decoder-only, pre-norm transformer (Algorithm 10); an ETransformer is post-norm with
// a final projection W_f (Algorithm 9): its tensors have no counterpart in the file.
// Fix: import into a DTransformer whose config has gelu = tanh, layer norm, learned positions and
// d_attn = d_mid = d_e / H.
// fixed: tf::ETransformer<float, tiny>& bert => tf::DTransformer<float, tiny>& bert
// covers: io::import_hf_gpt2(model)
// expect: in::import_hf_gpt2
// first-error: model<typeformer::ETransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void from_hub(tf::ETransformer<float, tiny>& bert) {
    tf::io::import_hf_gpt2(bert, "model.safetensors");  // error here
}
