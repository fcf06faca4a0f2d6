// Mistake: distillation between vocabularies: the teacher's byte-level tokens (N_V = 259) as the student's targets (N_V = 64).
// cross_entropy_backward(logits, targets, dlogits) sets dlogits = softmax(logits) − e_target per
// column: a target is a row of the student's logits (N_V, l_x), and byte-level ids go up to 258,
// past its 64 rows.
// Fix: map the teacher's tokens into the student's vocabulary first (a shared tokenizer, or a table),
// or distil on probabilities over one vocabulary.
// fourteen: 3 distillation between vocabularies
// fixed: tokenize::tokens<N_V<259>> => tokenize::tokens<N_V<64>>
// covers: cross_entropy_backward(targets logits)
// expect: in::cross_entropy_backward
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::logits_rows<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

namespace tf = typeformer;

using namespace tf;
float distil(const mat<float, N_V<64>, l_x<16>>& student_logits,
             const tokenize::tokens<N_V<259>>& teacher_tokens,
             mat<float, N_V<64>, l_x<16>>& dlogits) {
    return cross_entropy_backward(student_logits, teacher_tokens, dlogits);  // error here
}
