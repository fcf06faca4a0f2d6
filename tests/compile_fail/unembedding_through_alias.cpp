// Mistake: the unembedding applied to the MLP's hidden activations, through the program's alias.
// Algorithm 7: p = softmax(W_u e) with W_u (N_V, d_e); the message names d_mlp and d_e although the
// program calls the block U.
// Fix: the final layer norm's output (d_e, l_x).
// fixed: using activations = tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>; => using activations = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;
// covers: nn::forward[unembedding](X p)
// expect: in::Algorithm_7_unembedding
// first-error: X_rows<typeformer::d_mlp<128>, W_u_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
using U = tf::nn::unembedding<float, tf::N_V<64>, tf::d_e<32>>;
using activations = tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>;
using logits_t = tf::mat<float, tf::N_V<64>, tf::l_x<8>>;

void unembed(const U& u, const activations& H, logits_t& logits) {
    tf::nn::forward(u, H, logits);  // error here
}
