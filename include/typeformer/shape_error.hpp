// What a mis-shaped call reports: one type that names where it happened and both dimensions.
//
// Each public function has, beside the forms it accepts, one more form that is only declared: a
// call that none of the accepted forms takes falls through to it, and its return type is
// shape_error<Where, What...>, which is never defined. Using that call is then an error whose
// first line is this type, written out in full by the compiler:
//
//   g++:   error: invalid use of incomplete type 'struct typeformer::shape_error<
//              typeformer::in::Algorithm_7_unembedding, typeformer::X_rows<typeformer::d_f<12> >,
//              typeformer::W_u_cols<typeformer::d_e<8> > >'
//   clang: error: implicit instantiation of undefined template 'typeformer::shape_error<...>'
//
// Where (namespace typeformer::in) is the paper's algorithm, or the kernel or function, that was
// called. What names the two things that disagree, each with its own dimension: X_rows<d_f<12>>
// and W_u_cols<d_e<8>> (Algorithm 7 multiplies W_u by X, so W_u's columns must be X's rows).
// Because the call resolves (to the declared-only form), the compiler lists no candidates; because
// the dimensions are template arguments of a type, they print by their own names even when the
// caller spelled the operands with aliases of its own. The form takes only calls whose first
// argument is the function's own block, model or operand kind, and a requires-expression that
// tries a mis-shaped call is still false (an incomplete return type makes the call ill-formed), so
// generic code can ask `requires { forward(block, X, Y, c); }`.
//
// docs/shape-errors.md shows the common mistakes with the compiler's lines; docs/diagnostics.md
// measures every case of tests/compile_fail.
#pragma once

#include <cstddef>

namespace typeformer {

// Never defined: the compiler's error names its arguments.
template <class Where, class... What>
struct shape_error;

// Where a rule was broken: the paper's algorithm (and what of it), the kernel or the function.
namespace in {
// kernels and tensors
struct matmul;
struct matmul_add;
struct matvec;
struct matvec_add;
struct add_bias;
struct add_bias_grad;
struct axpy;
struct scale;
struct copy;
struct assign;  // X = Y between tensors
struct fill;
struct relabel;
struct transpose;
struct head;
struct head_of_vec;
struct split_heads;
struct concat_heads;
struct layer_norm_kernel;
struct layer_norm_kernel_backward;
struct rms_norm_kernel;
struct rms_norm_kernel_backward;
struct softmax_columns;
struct softmax_columns_backward;
struct relu;
struct relu_backward;
struct gelu;
struct gelu_backward;
struct gelu_tanh;
struct gelu_tanh_backward;
struct cross_entropy;
struct cross_entropy_backward;
// the blocks (nn/)
struct Algorithm_1_2_embed;
struct Algorithm_1_2_embed_backward;
struct Algorithm_3_single_query_attention;
struct Algorithm_3_single_query_attention_backward;
struct Algorithm_4_attention;
struct Algorithm_4_attention_backward;
struct Algorithm_5_MHAttention;
struct Algorithm_5_MHAttention_backward;
struct Algorithm_6_layer_norm;
struct Algorithm_6_layer_norm_backward;
struct RMSnorm;
struct RMSnorm_backward;
struct Algorithm_7_unembedding;
struct Algorithm_7_unembedding_backward;
struct Algorithm_7_probabilities;
struct MLP;
struct MLP_backward;
struct Algorithm_1_token_embedding;
struct Algorithm_2_positional_embedding;
// the layers of the architectures (models/)
struct gpt_layer;
struct gpt_layer_backward;
struct encoder_layer;
struct encoder_layer_backward;
struct decoder_layer;
struct decoder_layer_backward;
struct final_projection;
struct final_projection_backward;
// the architectures, their training and inference (Algorithms 8–15)
struct forward;
struct logits;
struct backward;
struct try_forward;
struct try_logits;
struct encode;
struct decode;
struct loss;
struct loss_and_grad;
struct try_loss_and_grad;
struct sgd_step;
struct adam_step;
struct Algorithm_11_EDTraining;
struct Algorithm_12_ETraining;
struct Algorithm_13_DTraining;
struct Algorithm_14_DInference;
struct Algorithm_15_EDInference;
struct fill_mask;
// partial and in-place training (train/trainable.hpp, train/step.hpp)
struct sgd_step_in_place;
struct try_sgd_step_in_place;
struct trainable;  // trainable<Model, S>, and the parts it names
struct gains_biases;
struct last_layers;
struct lora_adapters;
struct trainable_from;
struct init_lora;
struct apply_trainable;
struct step_workspace;
struct step_training_state;
// the KV cache (infer/kv_cache.hpp)
struct try_append;
struct append;
struct try_prefill;
struct prefill;
struct try_encode;
struct probabilities;
// the walks over parameters (params.hpp, train/clip.hpp)
struct for_each_param;
struct for_each_param_zip;
struct zero;
struct init;
struct init_float;
struct copy_params;
struct params_from;  // a model from its flat scalars (what export_header writes)
struct max_abs_diff;
struct bit_equal;
struct grad_norm;
struct scale_params;
struct clip_grad_norm;
struct check_input;
struct token_span;    // a typed view of ids (token.hpp)
struct input_tokens;  // a model's functions' sequence (token.hpp)
struct for_model;     // a tokenizer bound to a model's N_V (tokenize/tokens.hpp)
struct training_state;
struct reset;
struct try_loss_and_grad_targets;
// the class templates a model's type is made of, given an argument of another kind
struct config_traits;
struct transformer_encoder;
struct transformer_decoder;
struct training_worker;
struct gains_biases_of;
struct q8_attention;
struct q8_mlp;
// int8 models (models/quantized.hpp)
struct q8;
struct quantize;
struct quantize_transposed;
struct dequantize;
struct q8_matmul;  // matmul(Wq, B, C) over a q8_mat
// weights files, checkpoints, headers, imports, summaries (io/)
struct load;
struct load_state;
struct save;
struct save_state;
struct try_load;
struct try_load_state;
struct try_save;
struct save_checkpoint;
struct load_checkpoint;
struct try_save_checkpoint;
struct try_load_checkpoint;
struct try_load_checkpoint_model;
struct import_nanogpt;
struct import_hf_gpt2;
struct try_import_nanogpt;
struct try_import_hf_gpt2;
struct summary;
struct export_header;
struct signature_of;
}  // namespace in

// The roles of the operands, each with what it has: X_rows<d_f<12>> reads "X has d_f<12> rows".
#define TYPEFORMER_OPERAND(name)                        \
    template <class D>                                  \
    struct name##_rows;                                 \
    template <class D>                                  \
    struct name##_cols;                                 \
    template <class Scalar>                             \
    struct name##_scalar;                               \
    template <class Type>                               \
    struct name##_is_read_only;                         \
    template <class Type>                               \
    struct name##_is_not_a_matrix;                      \
    template <class Type>                               \
    struct name##_is_not_a_vector;                      \
    template <class Type>                               \
    struct name##_is; /* and needed<...>: what goes */  \
    namespace role {                                    \
    struct name {                                       \
        template <class D>                              \
        using rows = name##_rows<D>;                    \
        template <class D>                              \
        using cols = name##_cols<D>;                    \
        template <class S>                              \
        using scalar = name##_scalar<S>;                \
        template <class X>                              \
        using read_only = name##_is_read_only<X>;       \
        template <class X>                              \
        using not_a_matrix = name##_is_not_a_matrix<X>; \
        template <class X>                              \
        using not_a_vector = name##_is_not_a_vector<X>; \
        template <class X>                              \
        using is = name##_is<X>;                        \
    };                                                  \
    }                                                   \
    static_assert(true)

// tensors the functions take
TYPEFORMER_OPERAND(X);
TYPEFORMER_OPERAND(X_out);  // a layer's output stream
TYPEFORMER_OPERAND(Y);
TYPEFORMER_OPERAND(Z);
TYPEFORMER_OPERAND(dX);
TYPEFORMER_OPERAND(dY);
TYPEFORMER_OPERAND(dZ);
TYPEFORMER_OPERAND(V_tilde);   // Ṽ, attention's output
TYPEFORMER_OPERAND(dV_tilde);  // its gradient
TYPEFORMER_OPERAND(R);         // a residual added to a block's output
TYPEFORMER_OPERAND(e);         // Algorithm 3's token, context and output
TYPEFORMER_OPERAND(E);
TYPEFORMER_OPERAND(v_tilde);
TYPEFORMER_OPERAND(de);
TYPEFORMER_OPERAND(dE);
TYPEFORMER_OPERAND(dv_tilde);
TYPEFORMER_OPERAND(logits);
TYPEFORMER_OPERAND(dlogits);
TYPEFORMER_OPERAND(P);
TYPEFORMER_OPERAND(A);  // matmul(A, B, C), matvec(A, x, y)
TYPEFORMER_OPERAND(B);
TYPEFORMER_OPERAND(C);
TYPEFORMER_OPERAND(x);
TYPEFORMER_OPERAND(y);
TYPEFORMER_OPERAND(b);
TYPEFORMER_OPERAND(db);
TYPEFORMER_OPERAND(S);  // softmax
TYPEFORMER_OPERAND(dS);
TYPEFORMER_OPERAND(dA);
TYPEFORMER_OPERAND(src);  // copy
TYPEFORMER_OPERAND(dst);
TYPEFORMER_OPERAND(mean);
TYPEFORMER_OPERAND(rstd);
TYPEFORMER_OPERAND(dgamma);
TYPEFORMER_OPERAND(dbeta);
// parameters, whose dimensions are the block's
TYPEFORMER_OPERAND(W);   // a float weight matrix and
TYPEFORMER_OPERAND(Wq);  // its int8 form (q8_mat)
TYPEFORMER_OPERAND(W_q);
TYPEFORMER_OPERAND(W_k);
TYPEFORMER_OPERAND(W_v);
TYPEFORMER_OPERAND(W_o);
TYPEFORMER_OPERAND(W_e);
TYPEFORMER_OPERAND(W_p);
TYPEFORMER_OPERAND(W_u);
TYPEFORMER_OPERAND(W_1);
TYPEFORMER_OPERAND(W_2);
TYPEFORMER_OPERAND(W_f);
TYPEFORMER_OPERAND(gamma);
TYPEFORMER_OPERAND(beta);
#undef TYPEFORMER_OPERAND

// A block's cache (or scratch) made for other lengths, or for another block: the one given and
// the one the call needs.
template <class Given>
struct cache_given;
template <class Expected>
struct cache_expected;
// A block's gradient must have the block's type.
template <class Block>
struct block;
// A kernel's product of two transposed operands (Aᵀ·Bᵀ is not a form; compute B·A instead).
template <class A, class B>
struct both_transposed;
// A head index and the number of heads (head<h>(Y) needs h < H).
template <std::size_t h>
struct head_index;
template <class Heads>
struct heads;
// What the heads' functions take: a stack of heads, rows prod<H<n>, D> (H·D).
struct stacked_heads;
// relabel<To>(From) changes a meaning only between equal sizes (and fixed with fixed).
template <class From>
struct relabel_from;
template <class To>
struct relabel_to;

// Arguments that belong to one model: the model called, and what was passed for it.
template <class Model>
struct model;
template <class Model>
struct other_model;  // the second model of copy_params, max_abs_diff, bit_equal, ...
// What init, zero, save, load and the other walks over parameters take: a model, a block or a
// gradient (a struct of named tensors), not a pointer to one or anything else.
struct model_parameters;
// params_from<Model>(flat): the scalars given and the model's parameter count.
template <std::size_t N>
struct flat_scalars;
template <std::size_t N>
struct model_scalars;
// What has a signature (io/signature.hpp): a DTransformer, ETransformer or EDTransformer type.
struct signed_architecture;
template <class Model>
struct grads;
template <class Model>
struct workspace_of;
template <class Model>
struct kv_cache_of;
template <class Model>
struct adam_state_of;
template <class Model>
struct training_state_of;
template <class Model>
struct Z_of;  // an encoded context Z, typed by the EDTransformer that made it
template <class Model>
struct q8_of;  // the int8 form of a model (quantized<Model>)
// The trainable part of a model (train/trainable.hpp), and the selection S (train_lora<4>,
// train_gains_biases, ...) each argument of a partial step was made for: a part, its workspace
// (step_workspace<Model, S>), a gradient of the part's type.
template <class Model>
struct part_of;
template <class Selection>
struct part_trains;
template <class Selection>
struct workspace_trains;
template <class Selection>
struct grads_train;
// Adapters start from init_lora (B = 0), not from the base's values.
struct init_lora_instead;
// What init_lora initialises: the adapters of trainable<Model, train_lora<r, ...>>.
struct lora_part_of_model;
// A sequence's vocabulary and the model's: typed tokens carry their N_V.
template <class Vocabulary>
struct tokens_of;
template <class Vocabulary>
struct model_N_V;
// The first dimension in which two models differ (when the architecture is the same).
template <class Given, class Expected>
struct first_difference;

// An argument of a kind the algorithm does not take, and what it takes there: fill_mask needs
// an ETransformer (model<DTransformer<float, cfg>>, needed<ETransformer<float, cfg>>), EDInference
// the tokens z, not an encoded Z (Z_of<...>, needed<tokens_of<N_V<32>>>), a KV cache a decoder
// (needed<DTransformer<...>, EDTransformer<...>>).
template <class... What>
struct needed;

// A class template given an argument of another kind (config_traits<a model>, q8_mlp<an
// attention>): the argument, and needed<the kind it takes>.
template <class Given>
struct template_argument;
struct a_model_config;  // a struct of static constexpr N_V, l_max, H, d_e, d_mlp, d_attn, d_mid
struct a_norm_attention_mlp_or_gpt_layer;  // a block gains_biases_of has gains and biases of
struct an_MHAttention;                     // nn::MHAttention<...>
struct an_mlp;                             // nn::mlp<...>
struct a_float_model;  // a DTransformer, ETransformer or EDTransformer in float or double

// The call's arguments fit none of the function's forms (their number or kind): what was given.
template <class... Given>
struct arguments;

// How the diagnoses hand over an error: what<> is "no error found", what<R1, R2> names two roles.
namespace detail {
template <class... What>
struct what {};

// shape_error<Where, What...> as a function's declared return type: decltype of a call to this
// (never defined) prints the error type without any typedef of the diagnosis around it.
template <class Where, class... What>
shape_error<Where, What...> shape_error_of(what<What...>);

// The first diagnosis that found an error (all of them are computed, each guards itself).
template <class... W, class... Rest>
constexpr auto first_error(what<W...> w, Rest... rest) {
    if constexpr (sizeof...(W) > 0 || sizeof...(Rest) == 0)
        return w;
    else
        return first_error(rest...);
}
}  // namespace detail

}  // namespace typeformer
