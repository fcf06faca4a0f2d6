// Mistake: the dimensions of a model read through config_traits of the model, not of its config.
// config_traits<cfg> turns a config's numbers (N_V, l_max, H, d_e, ...) into the paper's dimension
// types; a model already carries them as Model::traits, which is config_traits of its config.
// Fix: config_traits<tiny>, or DTransformer<float, tiny>::traits.
// fixed: tf::config_traits<tf::DTransformer<float, tiny>> => tf::config_traits<tiny>
// covers: config_traits(cfg)
// expect: in::config_traits
// first-error: template_argument<typeformer::DTransformer<float, tiny>, needed<typeformer::a_model_config>
// max-lines: 10
// clang-max-lines: 19
#include <typeformer/typeformer.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using d_e = tf::config_traits<tf::DTransformer<float, tiny>>::d_e;  // error here
