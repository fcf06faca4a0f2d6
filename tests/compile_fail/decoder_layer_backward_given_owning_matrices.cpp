// Mistake: a decoder layer's backward given matrices where it takes views.
// The layers take the stream as mat_view (the model's workspace slices); a mat converts to a view,
// but not while the view's column dimension is still being deduced.
// Fix: pass X.view(), Z.view(), dX.view(), dZ.view().
// fixed: backward(p, X, Z, a, dX, dZ, g, s); => backward(p, X.view(), Z.view(), a, dX.view(), dZ.view(), g, s);
// covers: backward[decoder_layer](X p)
// expect: in::decoder_layer_backward
// first-error: X_is<typeformer::mat<float, typeformer::d_e<16>, typeformer::l_x<8, needed<typeformer::mat_view<const float, typeformer::d_e<16>, typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using layer = tf::decoder_layer<float, translator>;
using X_t = tf::mat<float, tf::d_e<16>, tf::l_x<8>>;
using Z_t = tf::mat<float, tf::d_e<16>, tf::l_z<8>>;

void back(const layer& p, const X_t& X, const Z_t& Z, const layer::activations<tf::l_x<8>, tf::l_z<8>>& a,
          X_t& dX, Z_t& dZ, layer& g, layer::scratch<tf::l_x<8>, tf::l_z<8>>& s) {
    backward(p, X, Z, a, dX, dZ, g, s);  // error here
}
