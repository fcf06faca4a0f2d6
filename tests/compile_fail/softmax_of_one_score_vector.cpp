// Mistake: softmax_columns applied to one query's scores, a vector.
// softmax_columns normalises each column of S (l_z, l_x): column t is the distribution of query t
// over the context. One query's scores are a vec (Algorithm 3's softmax), not a matrix.
// Fix: keep the scores as a (l_z, 1) matrix, or use nn::forward of single_query_attention
// (Algorithm 3).
// fixed: vec<float, l_z<8>>& s => mat<float, l_z<8>, l_x<1>>& s
// covers: softmax_columns(s)
// expect: in::softmax_columns
// first-error: S_is_not_a_matrix<typeformer::vec<float, typeformer::l_z<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void attention_weights(vec<float, l_z<8>>& s) {
    softmax_columns(s, 0.25f, mask_bidirectional{});  // error here
}
