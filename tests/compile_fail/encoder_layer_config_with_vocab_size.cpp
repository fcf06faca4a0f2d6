// Mistake: a BERT encoder layer configured with Hugging Face's vocab_size for N_V.
// The paper's vocabulary size is N_V (its special tokens mask, bos, eos are its last three ids).
// Fix: static constexpr std::size_t N_V = 64.
// fixed: vocab_size = 64 => N_V = 64
// covers: encoder_layer(cfg)
// expect: model_config, cfg::N_V
// first-error: encoder_layer
// max-lines: 14
// clang-max-lines: 10
// clang-expect: cfg::N_V
// clang-first-error: encoder_layer, bert_config
#include <typeformer/typeformer.hpp>

struct bert_config {  // as in transformers.BertConfig
    static constexpr std::size_t vocab_size = 64, l_max = 32, L = 2, H = 2, d_e = 32,
                                 d_mlp = 128, d_attn = 16, d_mid = 16;
};

typeformer::encoder_layer<float, bert_config, typeformer::nn::gelu> layer;  // error here
