// Mistake: a model's input sequence over 64 tokens named directly and made of byte-level tokens (N_V = 259).
// input_tokens<V> is what a model's functions take as a sequence over its vocabulary V: typed ids
// of another vocabulary index another W_e, so they are no such sequence.
// Fix: tokens of V's vocabulary (tokenize::for_model<Model>), or untyped ids, checked where the model
// reads them.
// fixed: const tokenize::tokens<N_V<259>>& bytes => const tokenize::tokens<N_V<64>>& bytes
// covers: input_tokens::input_tokens<V>(ids)
// expect: in::input_tokens
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::needed<typeformer::tokens_of<typeformer::N_V<64
// max-lines: 12
// clang-max-lines: 17
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

namespace tf = typeformer;

using namespace tf;
std::size_t count(const tokenize::tokens<N_V<259>>& bytes) {
    const input_tokens<N_V<64>> x(bytes);  // error here
    return x.size();
}
