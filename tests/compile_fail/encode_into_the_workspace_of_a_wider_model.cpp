// Mistake: encoding the context into the workspace of a wider seq2seq model.
// encode writes Z (d_e, l_z) into the workspace: its buffers are those of the model it was made
// for, whose d_e is 32, not 16.
// Fix: inference_workspace<EDTransformer<float, translator>>.
// fixed: float, wider> => float, translator>
// covers: encode(ws)
// expect: in::encode
// first-error: workspace_of<typeformer::EDTransformer<float, wider>, model<typeformer::EDTransformer<float, translator>
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

void start(const tf::EDTransformer<float, translator>& model, std::span<const tf::token> z,
           tf::inference_workspace<tf::EDTransformer<float, wider>>& ws) {
    auto Z = tf::encode(model, z, ws);  // error here
    (void)Z;
}
