// Mistake: the loss of 64-way logits against targets tokenized byte by byte (N_V = 259).
// Algorithm 13's loss −Σ log P[x[t+1], t] reads row x[t+1] of the logits; byte-level ids go up to
// 258, and the logits have N_V = 64 rows.
// Fix: targets from the model's own tokenizer (tokenize::for_model<Model>), or a model with N_V =
// 259.
// fourteen: 11 cross_entropy of targets of another vocabulary
// fixed: tokenize::tokens<N_V<259>>& targets => tokenize::tokens<N_V<64>>& targets
// covers: cross_entropy(logits targets)
// expect: in::cross_entropy
// first-error: tokens_of<typeformer::N_V<259>, logits_rows<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
// gallery: 23
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

using namespace typeformer;

float nll(const mat<float, N_V<64>, l_x<8>>& logits, const tokenize::tokens<N_V<259>>& targets) {
    return cross_entropy(logits, targets);  // error here
}
