// Mistake: the embeddings' backward with the sinusoidal positions of a wider model as their gradient.
// Sinusoidal positions have no parameters, but their type names the d_e and l_max of the stream
// they are added to: d_e = 32 here, 16 in W_e.
// Fix: sinusoidal_embedding<d_e<16>, l_max<8>>, the model's.
// fixed: sinusoidal_embedding<d_e<32>, l_max<8>>& dpe => SE& dpe
// covers: nn::embed_backward(#6)
// expect: in::Algorithm_1_2_embed_backward
// first-error: typeformer::grads<typeformer::nn::sinusoidal_embedding<typeformer::d_e<32>, typeformer::l_max<8, typeformer::block<typeformer::nn::sinusoidal_embedding<typeformer::d_e<16>, typeformer::l_max<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using SE = sinusoidal_embedding<d_e<16>, l_max<8>>;
using X_t = mat<float, d_e<16>, l_x<8>>;

 void f(const TE& te, const SE& pe, std::span<const token> x, const X_t& dX, TE& dte,
        sinusoidal_embedding<d_e<32>, l_max<8>>& dpe) {
     nn::embed_backward(te, pe, x, dX, dte, dpe);  // error here
 }
