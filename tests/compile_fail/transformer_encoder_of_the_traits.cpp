// Mistake: Algorithm 8's encoder stack made of a config's traits instead of the config.
// transformer_encoder<T, cfg> reads the config's numbers (d_e, L_enc, ...) itself, as
// EDTransformer<T, cfg> does; config_traits<cfg> has their dimension types, not the numbers.
// Fix: transformer_encoder<float, seq2seq>.
// fixed: tf::config_traits<seq2seq>> => seq2seq>
// covers: transformer_encoder(cfg)
// expect: in::transformer_encoder
// first-error: template_argument<typeformer::config_traits<seq2seq>, needed<typeformer::a_model_config>
// max-lines: 9
// clang-max-lines: 12
#include <typeformer/typeformer.hpp>

struct seq2seq {
    static constexpr std::size_t N_V = 64, l_max = 16, L = 2, H = 2, d_e = 32, d_mlp = 64,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::transformer_encoder<float, tf::config_traits<seq2seq>> encoder;  // error here
