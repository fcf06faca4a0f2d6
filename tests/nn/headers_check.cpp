// Compiled with -fno-exceptions -fno-rtti (tests/nn/CMakeLists.txt): the blocks of
// Algorithms 1, 2, 6, 7 and the MLP, instantiated in float, must build for a microcontroller.
#include <typeformer/nn/activation.hpp>
#include <typeformer/nn/embedding.hpp>
#include <typeformer/nn/layer_norm.hpp>
#include <typeformer/nn/mlp.hpp>
#include <typeformer/nn/unembedding.hpp>

namespace tf = typeformer;
namespace nn = typeformer::nn;

namespace {
using E = tf::d_e<8>;
using V = tf::N_V<11>;
using P = tf::l_max<6>;
using M = tf::d_mlp<12>;
using C = tf::l_x<6>;

nn::token_embedding<float, E, V> te, dte;
nn::positional_embedding<float, E, P> pe, dpe;
nn::sinusoidal_embedding<E, P> se, dse;
nn::layer_norm<float, E> ln, dln;
nn::layer_norm<float, E>::cache<C> ln_cache;
nn::rms_norm<float, E> rn, drn;
nn::rms_norm<float, E>::cache<C> rn_cache;
nn::mlp<float, E, M, nn::relu> mlp_relu, dmlp_relu;
nn::mlp<float, E, M, nn::relu>::cache<C> mlp_relu_cache;
nn::mlp<float, E, M, nn::relu>::scratch<C> mlp_relu_scratch;
nn::mlp<float, E, M, nn::gelu> mlp_gelu, dmlp_gelu;
nn::mlp<float, E, M, nn::gelu>::cache<C> mlp_gelu_cache;
nn::mlp<float, E, M, nn::gelu>::scratch<C> mlp_gelu_scratch;
nn::mlp<float, E, M, nn::gelu_tanh> mlp_tanh, dmlp_tanh;
nn::mlp<float, E, M, nn::gelu_tanh>::cache<C> mlp_tanh_cache;
nn::mlp<float, E, M, nn::gelu_tanh>::scratch<C> mlp_tanh_scratch;
nn::unembedding<float, V, E> un, dun;
nn::tied_unembedding<float, V, E> tied;
tf::mat<float, E, C> X, Y, dX, dY;
tf::mat<float, V, C> logits, dlogits;
}  // namespace

void typeformer_nn_basic_headers_check(std::span<const tf::token> x) {
    X.resize_cols(x.size()), Y.resize_cols(x.size()), dX.resize_cols(x.size());
    dY.resize_cols(x.size()), logits.resize_cols(x.size()), dlogits.resize_cols(x.size());
    embed(te, pe, x, X);
    embed(te, se, x, X, 3);
    embed_backward(te, pe, x, dX, dte, dpe);
    embed_backward(te, se, x, dX, dte, dse, 3);
    forward(ln, X, Y, ln_cache, 1e-5f);
    backward(ln, X, dY, dX, dln, ln_cache);
    forward(rn, X.view(), Y.view(), rn_cache, 1e-5f);
    backward(rn, X.view(), dY.view(), dX.view(), drn, rn_cache);
    forward(mlp_relu, X, Y, mlp_relu_cache);
    backward(mlp_relu, X, dY, dX, dmlp_relu, mlp_relu_cache, mlp_relu_scratch);
    forward(mlp_gelu, X, Y, mlp_gelu_cache);
    backward(mlp_gelu, X, dY, dX, dmlp_gelu, mlp_gelu_cache, mlp_gelu_scratch);
    forward(mlp_tanh, X, Y, mlp_tanh_cache);
    backward(mlp_tanh, X, dY, dX, dmlp_tanh, mlp_tanh_cache, mlp_tanh_scratch);
    forward(un, X, logits);
    probabilities(un, X, logits);
    backward(un, X, dlogits, dX, dun);
    forward(tied, te, X, logits);
    probabilities(tied, te, X, logits);
    backward(tied, te, X, dlogits, dX, dte);
}
