// Compiled with -fno-exceptions -fno-rtti (tests/nn/CMakeLists.txt): Algorithms 3, 4, 5,
// instantiated in float (self and cross, both masks), must build for a microcontroller.
#include <typeformer/nn/attention.hpp>
#include <typeformer/nn/mh_attention.hpp>
#include <typeformer/nn/single_query_attention.hpp>

namespace tf = typeformer;
namespace nn = typeformer::nn;

namespace {
using E = tf::d_e<8>;
using Dz = tf::d_z<6>;
using Da = tf::d_attn<3>;
using Dm = tf::d_mid<5>;
using Lx = tf::l_x<6>;
using Lz = tf::l_z<7>;
using Tc = tf::T<6>;

using self_mh = nn::MHAttention<float, E, E, Da, Dm, E, tf::H<2>>;
using cross_mh = nn::MHAttention<float, E, Dz, Da, Dm, E, tf::H<2>>;
using cross_attention = nn::Attention<float, E, Dz, Da, E>;
using sqa = nn::single_query_attention<float, E, Da, E>;

self_mh sm, dsm;
self_mh::cache<Lx, Lx> sm_cache;
self_mh::scratch<Lx, Lx> sm_scratch;
cross_mh cm, dcm;
cross_mh::cache<Lx, Lz> cm_cache;
cross_mh::scratch<Lx, Lz> cm_scratch;
cross_attention ca, dca;
cross_attention::cache<Lx, Lz> ca_cache;
cross_attention::scratch<Lx, Lz> ca_scratch;
sqa sq, dsq;
nn::single_query_cache<float, Da, E, Tc> sq_cache;
nn::single_query_scratch<float, Da, E, Tc> sq_scratch;
tf::mat<float, E, Lx> X, Y, dX, dY;
tf::mat<float, Dz, Lz> Z, dZ;
tf::mat<float, E, Tc> C, dC;
tf::vec<float, E> e, v, de, dv;
}  // namespace

void typeformer_nn_attention_headers_check(std::size_t l_x, std::size_t l_z) {
    X.resize_cols(l_x), Y.resize_cols(l_x), dX.resize_cols(l_x), dY.resize_cols(l_x);
    Z.resize_cols(l_z), dZ.resize_cols(l_z), C.resize_cols(l_x), dC.resize_cols(l_x);
    forward(sm, X, X, tf::mask_unidirectional{}, Y, sm_cache);
    backward(sm, X, X, tf::mask_unidirectional{}, dY, dX, dX, dsm, sm_cache, sm_scratch);
    forward(cm, X.view(), Z.view(), tf::mask_bidirectional{}, Y.view(), cm_cache);
    backward(cm, X, Z, tf::mask_bidirectional{}, dY, dX, dZ, dcm, cm_cache, cm_scratch);
    forward(ca, X, Z, tf::mask_unidirectional{2}, Y, ca_cache);
    backward(ca, X, Z, tf::mask_unidirectional{2}, dY, dX, dZ, dca, ca_cache, ca_scratch);
    forward(sq, e, C, v, sq_cache);
    backward(sq, e, C, dv, de, dC, dsq, sq_cache, sq_scratch);
}
