// Control: a well-shaped program that MUST compile with the harness's exact command (with each
// compiler the cases run with). If it does not, the harness (compiler, flags, include dirs) is
// broken and the compile-fail cases prove nothing. It includes what the cases include and writes
// the correct form of each of their mistakes, at every level.
#include <typeformer/typeformer.hpp>

#include <span>
#include <utility>
#include <vector>

#include <typeformer/io.hpp>
#include <typeformer/models/quantized.hpp>
#include <typeformer/tokenize/byte.hpp>

using namespace typeformer;

// tensor.hpp: heads, relabel, copy, views
void tensors(mat<float, prod<H<4>, d_mid<16>>, l_x<8>>& Y,  // (H·d_mid, l_x)
             mat<float, d_attn<64>, l_x<8>>& K,              // (d_attn, l_x)
             const mat<float, d_e<8>, l_x<16>>& X,           // (d_e, l_x)
             mat<float, d_e<8>, l_z<16>>& Z,                 // (d_e, l_z)
             mat_view<float, d_e<8>, l_x<16>> Xw) {          // (d_e, l_x), writable
    auto Y_3 = head<3>(Y);                   // the last head
    auto V = relabel<d_mid<64>, l_x<8>>(K);  // equal sizes
    copy(relabel<d_e<8>, l_z<16>>(X), Z);    // l_x → l_z, explicitly
    Y_3(0, 0) = V(0, 0);
    Xw(0, 0) = 0.0f;
}

// kernels: the products, bias, residual, norm and softmax forms the cases get wrong
void kernels(const mat<float, d_attn<16>, d_x<8>>& W_q,           // (d_attn, d_x)
             const mat<float, d_x<8>, l_x<4>>& X,                 // (d_x, l_x)
             mat<float, d_attn<16>, l_x<4>>& Q,                   // (d_attn, l_x)
             mat<float, d_x<8>, l_x<4>>& dX,                      // (d_x, l_x)
             const mat<float, d_attn<16>, d_z<8>>& W_k,           // (d_attn, d_z)
             const mat<float, d_z<8>, l_z<6>>& Z,                 // (d_z, l_z)
             mat<float, d_attn<16>, l_z<6>>& K,                   // (d_attn, l_z)
             mat<float, l_z<6>, l_x<4>>& S,                       // (l_z, l_x)
             const vec<float, d_attn<16>>& b_q,                   // (d_attn)
             const vec<float, d_x<8>>& gamma,                     // (d_x)
             const vec<float, d_x<8>>& beta,                      // (d_x)
             vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd,  // (l_x)
             vec<float, d_attn<16>>& q) {                         // (d_attn)
    matmul(W_q, X, Q);
    add_bias(Q, b_q);
    matmul_add(transpose(W_q), Q, dX);
    matmul(W_k, Z, K);
    matmul(transpose(K), Q, S);
    softmax_columns(S, 0.25f, mask_unidirectional{});
    softmax_columns_backward(S, S, 0.25f, S);
    softmax_columns_backward(S, S, 0.25f, S, mask_unidirectional{});
    axpy(1.0f, X, dX);
    layer_norm(X, gamma, beta, 1e-5f, dX, mean, rstd);
    matvec(W_q, X.col(0), q);
}

// the blocks: Algorithms 1–7, the MLP, RMSnorm
using MLP = nn::mlp<float, d_e<32>, d_mlp<128>, nn::gelu>;
using stream = mat<float, d_e<32>, l_x<16>>;
using cross_attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using mh_attention = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using one_query = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;

void blocks(const MLP& mlp, const stream& X, stream& Y, MLP::cache<l_x<16>>& c, MLP& g,
            MLP::scratch<l_x<16>>& s, const nn::layer_norm<float, d_e<32>>& ln,
            nn::layer_norm<float, d_e<32>>::cache<l_x<16>>& ln_c,
            const nn::rms_norm<float, d_e<32>>& rn, nn::rms_norm<float, d_e<32>>& rn_g,
            nn::rms_norm<float, d_e<32>>::cache<l_x<16>>& rn_c, const cross_attention& a,
            const mat<float, d_x<8>, l_x<8>>& Xa, const mat<float, d_z<8>, l_z<8>>& Za,
            mat<float, d_out<8>, l_x<8>>& Va, mat<float, d_x<8>, l_x<8>>& dXa,
            mat<float, d_z<8>, l_z<8>>& dZa, cross_attention& a_g,
            cross_attention::cache<l_x<8>, l_z<8>>& a_c,
            cross_attention::scratch<l_x<8>, l_z<8>>& a_s, const mh_attention& m,
            const mat<float, d_e<16>, l_x<8>>& Xm, const mat<float, d_e<16>, l_z<8>>& Zm,
            mat<float, d_e<16>, l_x<8>>& Vm, mh_attention::cache<l_x<8>, l_z<8>>& m_c,
            const one_query& sq, const vec<float, d_in<8>>& e, const mat<float, d_in<8>, T<6>>& E,
            vec<float, d_out<16>>& v, nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>& sq_c,
            const unembedding<float, N_V<64>, d_e<32>>& u,
            const tied_unembedding<float, N_V<64>, d_e<32>>& tied,
            const token_embedding<float, d_e<32>, N_V<64>>& te,
            const positional_embedding<float, d_e<32>, l_max<16>>& pe,
            mat<float, N_V<64>, l_x<16>>& logits, std::span<const token> x) {
    nn::forward(mlp, X, Y, c);
    nn::forward(mlp, X, Y, c, X);  // Y = X + MLP(X): the residual in the epilogue
    nn::backward(mlp, X, Y, Y, g, c, s);
    nn::forward(ln, X, Y, ln_c, 1e-5f);
    nn::forward(rn, X, Y, rn_c, 1e-5f);
    nn::backward(rn, X, Y, Y, rn_g, rn_c);
    nn::forward(a, Xa, Za, mask_bidirectional{}, Va, a_c);
    nn::backward(a, Xa, Za, mask_bidirectional{}, Va, dXa, dZa, a_g, a_c, a_s);
    nn::forward(m, Xm, Zm, mask_bidirectional{}, Vm, m_c);
    nn::forward(m, Xm, Zm, mask_bidirectional{}, Vm, m_c, Xm);
    nn::forward(sq, e, E, v, sq_c);
    nn::forward(u, X, logits);
    nn::forward(tied, te, X, logits);
    nn::embed(te, pe, x, Y);
}

// the architectures, their optimisers, training and inference
struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct bytes {  // byte-level tokens: N_V = 259
    static constexpr std::size_t N_V = tokenize::byte_level::N_V, l_max = 32, L = 1, H = 2,
                                 d_e = 16, d_mlp = 32, d_attn = 8, d_mid = 8;
};
struct translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
using gpt = DTransformer<float, tiny>;
using seq2seq = EDTransformer<float, translator>;

void models(gpt& model, gpt& grads, std::span<const token> x, adam_state<gpt>& state,
            inference_workspace<gpt>& ws, training_workspace<gpt>& tws, kv_cache<gpt>& cache,
            rng& gen, training_state<gpt>& st, const std::vector<std::vector<token>>& data,
            const DTransformer<float, bytes>& byte_model, training_state<DTransformer<float, bytes>>& bst,
            DTransformer<float, bytes>& byte_model_w, const seq2seq& ed,
            inference_workspace<seq2seq>& ed_ws, kv_cache<seq2seq>& ed_cache,
            const ETransformer<float, tiny>& bert, ETransformer<float, tiny>& bert_w,
            training_state<ETransformer<float, tiny>>& bert_st,
            const mat<float, d_e<32>, l_x<32>>& X,
            mat<float, prod<H<2>, d_attn<16>>, l_x<32>>& Q) {
    loss_and_grad(model, x, grads, tws);
    sgd_step(model, grads, 0.1f);
    adam_step(model, grads, state, {.lr = 1e-3});
    auto P = forward(model, x, ws);
    backward(model, x, tws, grads);
    auto y = DInference(model, cache, x, 16, {}, gen);
    try_prefill(model, cache, x);
    DTraining(model, data, {}, st);
    ETraining(bert_w, data, {}, bert_st);
    // typed sequences of the model's own vocabulary
    const auto bx = tokenize::byte_level::encode("hello");
    auto Pb = forward(byte_model, bx);
    const std::vector<tokenize::tokens<N_V<259>>> byte_data = {bx};
    DTraining(byte_model_w, byte_data, {}, bst);
    // an encoded context Z of the model that decodes it
    const auto Z = encode(ed, x, ed_ws);
    auto Pz = forward(ed, Z, x, ed_ws);
    auto x_hat = EDInference(ed, ed_cache, x, {}, gen);
    (void)forward(bert, x);
    matmul(model.layers[0].attn.W_q, X, Q);
    (void)P, (void)y, (void)Pb, (void)Pz, (void)x_hat;
}

// inference and training with the architecture each algorithm takes, and the arguments' kinds
using translator_model = EDTransformer<float, translator>;
void algorithms(const gpt& model, kv_cache<gpt>& cache, vec<float, N_V<64>>& P,
                const ETransformer<float, tiny>& bert, inference_workspace<ETransformer<float, tiny>>& ws,
                translator_model& ed, kv_cache<translator_model>& ed_cache,
                training_state<translator_model>& ed_st, rng& gen, q8<gpt>& q) {
    probabilities(cache, P);                      // P over the model's N_V
    auto top = fill_mask(bert, std::vector<token>{1, mask_token<64>, 2}, 3, ws);  // an ETransformer
    const std::vector<token> z = {1, 2, 3};
    auto x_hat = EDInference(ed, ed_cache, z, {}, gen);  // the tokens z
    const std::vector<std::pair<std::vector<token>, std::vector<token>>> pairs = {{z, z}};
    EDTraining(ed, pairs, {}, ed_st);  // pairs of the model's vocabulary
    quantize(model, q);                // a float DTransformer into its int8 form
    io::export_header(model, "control_unused.hpp", "control");  // the float model
    (void)top, (void)x_hat;
}
