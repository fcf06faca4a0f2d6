// Mistake: a typed view over the model's 64-token vocabulary made of byte-level tokens (N_V = 259).
// token_span<V> is the boundary where untyped ids are checked against V once; typed ids of another
// vocabulary index another table (byte-level ids go up to 258), so they are no view of V's ids,
// whatever their values.
// Fix: tokens of V's vocabulary (tokenize::for_model<Model>), or token_span<N_V<259>> for the byte-
// level model.
// fixed: const tokenize::tokens<N_V<259>>& bytes => const tokenize::tokens<N_V<64>>& bytes
// covers: token_span::token_span<V>(r)
// expect: in::token_span
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::needed<typeformer::tokens_of<typeformer::N_V<64
// max-lines: 12
// clang-max-lines: 17
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

namespace tf = typeformer;

using namespace tf;
std::size_t count(const tokenize::tokens<N_V<259>>& bytes) {
    const token_span<N_V<64>> x(bytes);  // error here
    return x.size();
}
