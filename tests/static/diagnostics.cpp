// Static tests of what a mis-shaped call reports (shape_error.hpp). decltype of the call is the
// shape_error type the compiler's first error line prints, so each diagnosis is checked exactly
// here, and a requires-expression that tries the call is false (generic code can still ask).
// tests/compile_fail makes the same mistakes as real calls and checks the compilers' text.
// Passes by compiling.
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <typeformer/models/quantized.hpp>
#include <typeformer/tokenize/byte.hpp>
#include <typeformer/typeformer.hpp>

namespace {
using namespace typeformer;

template <class X>
X& ref();  // an lvalue of X in an unevaluated operand
using span_t = std::span<const token>;

// ---- kernels ----
using W_q_t = mat<float, d_attn<16>, d_x<8>>;
static_assert(
    std::is_same_v<decltype(matmul(ref<const W_q_t>(), ref<const mat<float, d_e<12>, l_x<4>>>(),
                                   ref<mat<float, d_attn<16>, l_x<4>>>())),
                   shape_error<in::matmul, A_cols<d_x<8>>, B_rows<d_e<12>>>>);
static_assert(
    std::is_same_v<decltype(matmul(ref<const W_q_t>(), ref<const mat<float, d_x<8>, l_x<4>>>(),
                                   ref<mat<float, d_e<8>, l_x<4>>>())),
                   shape_error<in::matmul, C_rows<d_e<8>>, A_rows<d_attn<16>>>>);
static_assert(
    std::is_same_v<decltype(matmul(ref<const W_q_t>(), ref<const mat<float, d_x<8>, l_x<4>>>(),
                                   ref<mat<float, d_attn<16>, l_z<4>>>())),
                   shape_error<in::matmul, C_cols<l_z<4>>, B_cols<l_x<4>>>>);
static_assert(
    std::is_same_v<decltype(matmul(ref<const W_q_t>(), ref<const mat<double, d_x<8>, l_x<4>>>(),
                                   ref<mat<float, d_attn<16>, l_x<4>>>())),
                   shape_error<in::matmul, B_scalar<double>, A_scalar<float>>>);
static_assert(std::is_same_v<
              decltype(matmul(transpose(ref<const mat<float, d_x<8>, d_attn<16>>>()),
                              transpose(ref<const mat<float, l_x<4>, d_x<8>>>()),
                              ref<mat<float, d_attn<16>, l_x<4>>>())),
              shape_error<in::matmul,
                          both_transposed<transposed<mat_view<const float, d_x<8>, d_attn<16>>>,
                                          transposed<mat_view<const float, l_x<4>, d_x<8>>>>>>);
static_assert(std::is_same_v<decltype(axpy(1.0f, ref<const mat<float, d_e<8>, l_x<4>>>(),
                                           ref<mat<float, d_e<8>, l_z<4>>>())),
                             shape_error<in::axpy, y_cols<l_z<4>>, x_cols<l_x<4>>>>);
static_assert(std::is_same_v<decltype(add_bias(ref<mat<float, d_mid<16>, l_x<4>>>(),
                                               ref<const vec<float, d_attn<16>>>())),
                             shape_error<in::add_bias, b_rows<d_attn<16>>, Y_rows<d_mid<16>>>>);
static_assert(std::is_same_v<decltype(copy(ref<const mat<float, d_e<8>, l_x<16>>>(),
                                           ref<mat<float, d_e<8>, l_z<16>>>())),
                             shape_error<in::copy, dst_cols<l_z<16>>, src_cols<l_x<16>>>>);
static_assert(
    std::is_same_v<decltype(relabel<d_mid<32>, l_x<8>>(ref<mat<float, d_attn<64>, l_x<8>>>())),
                   shape_error<in::relabel, relabel_from<d_attn<64>>, relabel_to<d_mid<32>>>>);
static_assert(std::is_same_v<decltype(head<4>(ref<mat<float, prod<H<4>, d_mid<16>>, l_x<8>>>())),
                             shape_error<in::head, head_index<4>, heads<H<4>>>>);

// ---- blocks ----
using MLP = nn::mlp<float, d_e<32>, d_mlp<128>, nn::gelu>;
using stream = mat<float, d_e<32>, l_x<16>>;
using hidden = mat<float, d_mlp<128>, l_x<16>>;
static_assert(std::is_same_v<decltype(nn::forward(ref<const MLP>(), ref<const hidden>(),
                                                  ref<stream>(), ref<MLP::cache<l_x<16>>>())),
                             shape_error<in::MLP, X_rows<d_mlp<128>>, W_1_cols<d_e<32>>>>);
static_assert(std::is_same_v<decltype(nn::forward(ref<const MLP>(), ref<const stream>(),
                                                  ref<stream>(), ref<MLP::cache<l_z<16>>>())),
                             shape_error<in::MLP, cache_given<MLP::cache<l_z<16>>>,
                                         cache_expected<MLP::cache<l_x<16>>>>>);
static_assert(std::is_same_v<decltype(nn::forward(ref<const MLP>(), ref<const stream>(),
                                                  ref<const stream>(), ref<MLP::cache<l_x<16>>>())),
                             shape_error<in::MLP, Y_is_read_only<stream>>>);
static_assert(std::is_same_v<decltype(nn::forward(ref<const MLP>(), ref<const stream>())),
                             shape_error<in::MLP, arguments<stream>>>);
using U = nn::unembedding<float, N_V<32>, d_e<8>>;
static_assert(
    std::is_same_v<decltype(forward(ref<const U>(), ref<const mat<float, d_f<8>, l_x<4>>>(),
                                    ref<mat<float, N_V<32>, l_x<4>>>())),
                   shape_error<in::Algorithm_7_unembedding, X_rows<d_f<8>>, W_u_cols<d_e<8>>>>);
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
static_assert(std::is_same_v<
              decltype(nn::forward(ref<const attention>(), ref<const mat<float, d_x<8>, l_x<8>>>(),
                                   ref<const mat<float, d_z<8>, l_z<8>>>(), mask_bidirectional{},
                                   ref<mat<float, d_out<8>, l_z<8>>>(),
                                   ref<attention::cache<l_x<8>, l_z<8>>>())),
              shape_error<in::Algorithm_4_attention, V_tilde_cols<l_z<8>>, X_cols<l_x<8>>>>);

// backward forms (Algorithms 1–7, the MLP, RMSnorm): each names its operands too
using LN = nn::layer_norm<float, d_e<32>>;
static_assert(
    std::is_same_v<
        decltype(nn::backward(ref<const LN>(), ref<const stream>(), ref<const hidden>(),
                              ref<stream>(), ref<LN>(), ref<const LN::cache<l_x<16>>>())),
        shape_error<in::Algorithm_6_layer_norm_backward, dY_rows<d_mlp<128>>, X_rows<d_e<32>>>>);
using RN = nn::rms_norm<float, d_e<32>>;
static_assert(std::is_same_v<decltype(nn::backward(ref<const RN>(), ref<const stream>(),
                                                   ref<const stream>(), ref<stream>(), ref<LN>(),
                                                   ref<const RN::cache<l_x<16>>>())),
                             shape_error<in::RMSnorm_backward, grads<LN>, block<RN>>>);
static_assert(std::is_same_v<
              decltype(nn::backward(ref<const U>(), ref<const mat<float, d_e<8>, l_x<4>>>(),
                                    ref<const mat<float, N_V<32>, l_x<4>>>(),
                                    ref<mat<float, d_e<8>, l_z<4>>>(), ref<U>())),
              shape_error<in::Algorithm_7_unembedding_backward, dX_cols<l_z<4>>, X_cols<l_x<4>>>>);
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
static_assert(std::is_same_v<
              decltype(nn::backward(
                  ref<const MHA>(), ref<const mat<float, d_e<16>, l_x<8>>>(),
                  ref<const mat<float, d_e<16>, l_x<8>>>(), mask_unidirectional{},
                  ref<const mat<float, d_mid<16>, l_x<8>>>(), ref<mat<float, d_e<16>, l_x<8>>>(),
                  ref<mat<float, d_e<16>, l_x<8>>>(), ref<MHA>(),
                  ref<const MHA::cache<l_x<8>, l_x<8>>>(), ref<MHA::scratch<l_x<8>, l_x<8>>>())),
              shape_error<in::Algorithm_5_MHAttention_backward, dV_tilde_rows<d_mid<16>>,
                          W_o_rows<d_e<16>>>>);
using SQ = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;
static_assert(
    std::is_same_v<decltype(nn::backward(
                       ref<const SQ>(), ref<const vec<float, d_in<8>>>(),
                       ref<const mat<float, d_in<8>, T<6>>>(), ref<const vec<float, d_attn<16>>>(),
                       ref<vec<float, d_in<8>>>(), ref<mat<float, d_in<8>, T<6>>>(), ref<SQ>(),
                       ref<const nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>>(),
                       ref<nn::single_query_scratch<float, d_attn<16>, d_out<16>, T<6>>>())),
                   shape_error<in::Algorithm_3_single_query_attention_backward,
                               dv_tilde_rows<d_attn<16>>, W_v_rows<d_out<16>>>>);
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;
static_assert(
    std::is_same_v<
        decltype(nn::embed_backward(ref<const TE>(), ref<const PE>(), ref<span_t>(),
                                    ref<const mat<float, d_mid<16>, l_x<8>>>(), ref<TE>(),
                                    ref<PE>())),
        shape_error<in::Algorithm_1_2_embed_backward, dX_rows<d_mid<16>>, W_e_rows<d_e<16>>>>);
static_assert(
    std::is_same_v<decltype(nn::embed(ref<const TE>(),
                                      ref<const positional_embedding<float, d_e<8>, l_max<8>>>(),
                                      ref<span_t>(), ref<mat<float, d_e<16>, l_x<8>>>())),
                   shape_error<in::Algorithm_1_2_embed, W_p_rows<d_e<8>>, W_e_rows<d_e<16>>>>);

// ---- architectures, optimisers, training, inference ----
struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = DTransformer<float, tiny>;
using gpt_wide = DTransformer<float, wide>;
using bert = ETransformer<float, tiny>;
static_assert(std::is_same_v<decltype(loss_and_grad(ref<const gpt>(), ref<span_t>(), ref<bert>())),
                             shape_error<in::loss_and_grad, grads<bert>, model<gpt>>>);
static_assert(std::is_same_v<decltype(sgd_step(ref<gpt>(), ref<const gpt_wide>(), 0.1f)),
                             shape_error<in::sgd_step, grads<gpt_wide>, model<gpt>,
                                         first_difference<d_e<64>, d_e<32>>>>);
static_assert(std::is_same_v<decltype(forward(ref<const gpt>(), ref<span_t>(),
                                              ref<inference_workspace<gpt_wide>>())),
                             shape_error<in::forward, workspace_of<gpt_wide>, model<gpt>,
                                         first_difference<d_e<64>, d_e<32>>>>);
using byte_tokens = tokenize::tokens<N_V<259>>;
static_assert(std::is_same_v<decltype(forward(ref<const gpt>(), ref<const byte_tokens>())),
                             shape_error<in::forward, tokens_of<N_V<259>>, model_N_V<N_V<64>>>>);
static_assert(std::is_same_v<
              decltype(DTraining(ref<gpt>(), ref<const std::vector<byte_tokens>>(), {},
                                 ref<training_state<gpt>>())),
              shape_error<in::Algorithm_13_DTraining, tokens_of<N_V<259>>, model_N_V<N_V<64>>>>);

// ---- the forms that are accepted stay accepted, the rejected ones are false in requires ----
template <class M, class X, class WS>
concept can_forward = requires(const M& m, const X& x, WS& ws) {
    forward(m, x, ws);
};
static_assert(can_forward<gpt, span_t, inference_workspace<gpt>>);
static_assert(can_forward<gpt, std::vector<token>, training_workspace<gpt>>);
static_assert(can_forward<gpt, token_span<N_V<64>>, inference_workspace<gpt>>);
static_assert(!can_forward<gpt, byte_tokens, inference_workspace<gpt>>);
static_assert(!can_forward<gpt, span_t, inference_workspace<gpt_wide>>);
struct bytes {
    static constexpr std::size_t N_V = 259, l_max = 16, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
static_assert(can_forward<DTransformer<float, bytes>, byte_tokens,
                          inference_workspace<DTransformer<float, bytes>>>);

template <class B, class X, class Y, class C>
concept can_block_forward = requires(const B& b, const X& x, Y& y, C& c) {
    nn::forward(b, x, y, c);
};
static_assert(can_block_forward<MLP, stream, stream, MLP::cache<l_x<16>>>);
static_assert(!can_block_forward<MLP, hidden, stream, MLP::cache<l_x<16>>>);
static_assert(!can_block_forward<MLP, stream, stream, MLP::cache<l_z<16>>>);

template <class M, class G>
concept can_sgd = requires(M& m, const G& g) {
    sgd_step(m, g, 0.1f);
};
static_assert(can_sgd<gpt, gpt>);
static_assert(!can_sgd<gpt, gpt_wide>);

// An encoded context Z is typed by its model: only that model decodes it.
struct translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider_translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
using ed = EDTransformer<float, translator>;
using ed_wide = EDTransformer<float, wider_translator>;
template <class M, class Z>
concept can_decode = requires(const M& m, const Z& z, span_t x, inference_workspace<M>& ws) {
    forward(m, z, x, ws);
};
static_assert(can_decode<ed, encoded_context<ed>>);
static_assert(can_decode<ed, span_t>);  // the context as tokens, encoded inside
static_assert(!can_decode<ed, encoded_context<ed_wide>>);
static_assert(
    std::is_same_v<
        decltype(forward(ref<const ed>(), ref<const encoded_context<ed_wide>>(), ref<span_t>(),
                         ref<inference_workspace<ed>>())),
        shape_error<in::forward, Z_of<ed_wide>, model<ed>, first_difference<d_e<32>, d_e<16>>>>);

// ---- an algorithm of another architecture, an argument of another kind (needed<...>) ----
static_assert(std::is_same_v<decltype(fill_mask(ref<const gpt>(), ref<span_t>(), std::size_t{3},
                                                ref<inference_workspace<gpt>>())),
                             shape_error<in::fill_mask, model<gpt>, needed<bert>>>);
static_assert(std::is_same_v<decltype(DInference(ref<const bert>(), ref<kv_cache<gpt>>(),
                                                 ref<span_t>(), std::size_t{4}, {}, ref<rng>())),
                             shape_error<in::Algorithm_14_DInference, model<bert>, needed<gpt>>>);
static_assert(std::is_same_v<
              decltype(EDInference(ref<const ed>(), ref<kv_cache<ed>>(),
                                   ref<const encoded_context<ed>>(), {}, ref<rng>())),
              shape_error<in::Algorithm_15_EDInference, Z_of<ed>, needed<tokens_of<N_V<32>>>>>);
static_assert(std::is_same_v<decltype(quantize(ref<const bert>(), ref<q8<gpt>>())),
                             shape_error<in::quantize, model<bert>, needed<gpt>>>);
static_assert(std::is_same_v<q8<gpt>, quantized<gpt>>);
static_assert(!std::is_same_v<q8<bert>, quantized<bert>>);  // the error's carrier (quantized.hpp)

// ---- probabilities(cache, P): P over the model's N_V (it used to take any P) ----
template <class C, class P>
concept can_probabilities = requires(const C& c, P& p) {
    probabilities(c, p);
};
static_assert(can_probabilities<kv_cache<gpt>, vec<float, N_V<64>>>);
static_assert(can_probabilities<kv_cache<gpt>, vec_view<float, N_V<64>>>);
static_assert(!can_probabilities<kv_cache<gpt>, vec<float, N_V<63>>>);
static_assert(!can_probabilities<kv_cache<gpt>, vec<double, N_V<64>>>);
static_assert(!can_probabilities<kv_cache<gpt>, const vec<float, N_V<64>>>);
static_assert(
    std::is_same_v<decltype(probabilities(ref<const kv_cache<gpt>>(), ref<vec<float, N_V<256>>>())),
                   shape_error<in::probabilities, P_rows<N_V<256>>, logits_rows<N_V<64>>>>);

// ---- EDTraining checks its pairs' vocabulary as DTraining checks its sequences' ----
static_assert(std::is_same_v<
              decltype(EDTraining(ref<ed>(),
                                  ref<const std::vector<std::pair<byte_tokens, byte_tokens>>>(), {},
                                  ref<training_state<ed>>())),
              shape_error<in::Algorithm_11_EDTraining, tokens_of<N_V<259>>, model_N_V<N_V<32>>>>);
static_assert(pair_dataset<std::vector<std::pair<std::vector<token>, std::vector<token>>>, ed>);
static_assert(pair_dataset<std::vector<std::pair<token_span<N_V<32>>, span_t>>, ed>);
static_assert(!pair_dataset<std::vector<std::pair<byte_tokens, span_t>>, ed>);
static_assert(!pair_dataset<std::vector<std::pair<span_t, byte_tokens>>, ed>);

// ---- tensors, kernels, int8 weights, the walks over parameters ----
static_assert(std::is_same_v<
              decltype(ref<mat<float, d_e<8>, l_z<8>>>() = ref<const mat<float, d_e<8>, l_x<8>>>()),
              shape_error<in::assign, dst_cols<l_z<8>>, src_cols<l_x<8>>>>);
static_assert(
    std::is_same_v<decltype(ref<vec<float, d_mid<8>>>() = ref<const vec<float, d_attn<8>>>()),
                   shape_error<in::assign, dst_rows<d_mid<8>>, src_rows<d_attn<8>>>>);
static_assert(std::is_same_v<decltype(transpose(ref<const vec<float, d_e<8>>>())),
                             shape_error<in::transpose, X_is_not_a_matrix<vec<float, d_e<8>>>>>);
static_assert(
    std::is_same_v<decltype(split_heads(ref<mat<float, d_attn<16>, l_x<4>>>())),
                   shape_error<in::split_heads, Y_rows<d_attn<16>>, needed<stacked_heads>>>);
static_assert(
    std::is_same_v<decltype(cross_entropy(ref<const mat<float, N_V<64>, l_x<4>>>(),
                                          ref<const byte_tokens>())),
                   shape_error<in::cross_entropy, tokens_of<N_V<259>>, logits_rows<N_V<64>>>>);
static_assert(std::is_same_v<decltype(quantize(ref<const mat<float, d_e<8>, N_V<16>>>(),
                                               ref<q8_mat<N_V<16>, d_e<8>>>())),
                             shape_error<in::quantize, W_rows<d_e<8>>, Wq_rows<N_V<16>>>>);
static_assert(std::is_same_v<decltype(quantize_transposed(ref<const mat<float, d_e<8>, N_V<16>>>(),
                                                          ref<q8_mat<N_V<16>, d_e<8>>>())),
                             void>);  // the transposed form takes it
static_assert(std::is_same_v<decltype(init(ref<std::unique_ptr<gpt>>(), 1)),
                             shape_error<in::init, model<std::unique_ptr<gpt>>, needed<gpt>>>);
static_assert(std::is_same_v<
              decltype(zero(ref<inference_workspace<gpt>>())),
              shape_error<in::zero, model<inference_workspace<gpt>>, needed<model_parameters>>>);
static_assert(std::is_same_v<decltype(copy_params(ref<const gpt_wide>(), ref<gpt>())),
                             shape_error<in::copy_params, other_model<gpt_wide>, model<gpt>,
                                         first_difference<d_e<64>, d_e<32>>>>);
static_assert(std::is_same_v<decltype(reset(ref<inference_workspace<gpt>>())),
                             shape_error<in::reset, workspace_of<gpt>, needed<kv_cache<gpt>>>>);
static_assert(
    std::is_same_v<decltype(check_input<gpt>(ref<const byte_tokens>())),
                   shape_error<in::check_input, tokens_of<N_V<259>>, model_N_V<N_V<64>>>>);
static_assert(std::is_same_v<decltype(nn::gelu::forward(ref<const hidden>(), ref<stream>())),
                             shape_error<in::gelu, Y_rows<d_e<32>>, X_rows<d_mlp<128>>>>);
template <class X>
concept can_init = requires(X& x) {
    init(x, 1);
};
static_assert(can_init<gpt> && can_init<MLP> && !can_init<std::unique_ptr<gpt>> && !can_init<int>);

// ---- partial and in-place training: the part, workspace and gradient of one selection ----
using gpt_lora = trainable<gpt, train_lora<4>>;
using gpt_gains = trainable<gpt, train_gains_biases>;
static_assert(std::is_same_v<
              decltype(sgd_step_in_place(ref<const gpt>(), ref<gpt_lora>(), ref<span_t>(), 0.1f,
                                         ref<step_workspace<gpt, train_gains_biases>>())),
              shape_error<in::sgd_step_in_place, workspace_trains<train_gains_biases>,
                          part_trains<train_lora<4>>>>);
static_assert(
    std::is_same_v<decltype(sgd_step_in_place(ref<gpt>(), ref<span_t>(), 0.1f,
                                              ref<step_workspace<gpt, train_gains_biases>>())),
                   shape_error<in::sgd_step_in_place, workspace_trains<train_gains_biases>,
                               part_trains<train_all>>>);
static_assert(std::is_same_v<decltype(loss_and_grad(ref<const gpt>(), ref<const gpt_lora>(),
                                                    ref<span_t>(), ref<gpt_gains>(),
                                                    ref<step_workspace<gpt, train_lora<4>>>())),
                             shape_error<in::loss_and_grad, grads_train<train_gains_biases>,
                                         part_trains<train_lora<4>>>>);
static_assert(
    std::is_same_v<decltype(adam_step(ref<gpt_lora>(), ref<const gpt_lora>(),
                                      ref<adam_state<gpt_gains>>())),
                   shape_error<in::adam_step, adam_state_of<gpt_gains>, model<gpt_lora>>>);
static_assert(std::is_same_v<decltype(trainable_from(ref<const gpt>(), ref<gpt_lora>())),
                             shape_error<in::trainable_from, part_trains<train_lora<4>>,
                                         needed<init_lora_instead>>>);
static_assert(
    std::is_same_v<decltype(sgd_step_in_place(ref<const gpt>(), ref<gpt_lora>(), ref<span_t>(),
                                              0.1f, ref<step_workspace<gpt, train_lora<4>>>())),
                   float>);

}  // namespace
