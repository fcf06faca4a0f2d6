// Mistake: fill-mask run in the workspace of a wider BERT.
// The workspace's stream X (d_e, l_max) and P (N_V, l_max) are those of the model it was made for:
// d_e = 64, not 32.
// Fix: inference_workspace<ETransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: fill_mask(ws)
// expect: in::fill_mask
// first-error: typeformer::workspace_of<typeformer::ETransformer<float, wide, typeformer::model<typeformer::ETransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

std::vector<tf::masked_prediction> complete(const tf::ETransformer<float, tiny>& bert,
                                            std::span<const tf::token> x_tilde,
                                            tf::inference_workspace<tf::ETransformer<float, wide>>& ws) {
    return tf::fill_mask(bert, x_tilde, 5, ws);  // error here
}
