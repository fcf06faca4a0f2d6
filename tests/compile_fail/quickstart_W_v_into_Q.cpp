// Mistake: Algorithm 10's attention (Algorithm 5) with the value projection W_v written into Q.
// The README's quickstart: W_q is (H·d_attn, d_e) and W_v is (H·d_mid, d_e); with d_attn = d_mid = 16
// (DESIGN's tiny GPT) the sizes agree, but Q ← W_q X is the queries' stack and W_v X the values'.
// Fix: matmul(attn.W_q, X, Q), or a (H·d_mid, l_x) matrix for W_v X.
// gallery: 14
// fixed: tf::matmul(attn.W_v, X, Q); => tf::matmul(attn.W_q, X, Q);
// covers: matmul(c a)
// expect: in::matmul
// first-error: C_rows<typeformer::prod<typeformer::H<2>, typeformer::d_attn<16>, A_rows<typeformer::prod<typeformer::H<2>, typeformer::d_mid<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

namespace tf = typeformer;

void queries(const tf::DTransformer<float, tiny>& model,
             const tf::mat<float, tf::d_e<32>, tf::l_x<32>>& X,
             tf::mat<float, tf::prod<tf::H<2>, tf::d_attn<16>>, tf::l_x<32>>& Q) {
    const auto& attn = model.layers[0].attn;
    tf::matmul(attn.W_v, X, Q);  // error here
}
