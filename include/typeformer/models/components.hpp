// Which nn block each variant of a config selects (models/config.hpp's config_traits).
//
//   norm_of<T, cfg, D>      nn::layer_norm<T, D>, or nn::rms_norm<T, D> (norm = rms_norm)
//   attention_of<T, cfg>    nn::MHAttention<T, d_e, d_e, d_attn, d_mid, d_e, H>, every layer's
//                           self- and cross-attention
//   gelu_of<cfg>            nn::gelu (the paper's erf form), or nn::gelu_tanh (gelu = tanh)
//   positional_of<T, cfg>   nn::positional_embedding<T, d_e, l_max> (W_p), or
//                           nn::sinusoidal_embedding<d_e, l_max> (positional = sinusoidal)
//   unembedding_of<T, cfg, D>  nn::unembedding<T, N_V, D> (W_u), or nn::tied_unembedding (tied)
//   eps_of<T, cfg>          the layer-norm ε as T
//   unembed(model, X, logits), unembed_backward(model, X, dlogits, dX, grads)
//                           logits = W_u X with the model's W_u or, tied, W_eᵀ (X's rows read
//                           as d_e: ETransformer's d_f, equal to d_e when tied)
//
// A dropped parameter is an empty Hana struct: it walks to nothing (no name, no bytes in a file),
// and the models hold it [[no_unique_address]] so it costs no bytes in the model either.
#pragma once

#include <type_traits>

#include "../nn/activation.hpp"
#include "../nn/embedding.hpp"
#include "../nn/layer_norm.hpp"
#include "../nn/mh_attention.hpp"
#include "../nn/unembedding.hpp"
#include "../tensor.hpp"
#include "config.hpp"

namespace typeformer::detail {

template <class T, model_config cfg, fixed_dimension D>
using norm_of = std::conditional_t<config_traits<cfg>::norm == norm_kind::rms_norm,
                                   nn::rms_norm<T, D>, nn::layer_norm<T, D>>;

template <class T, model_config cfg>
using attention_of =
    nn::MHAttention<T, typename config_traits<cfg>::d_e, typename config_traits<cfg>::d_e,
                    typename config_traits<cfg>::d_attn, typename config_traits<cfg>::d_mid,
                    typename config_traits<cfg>::d_e, typename config_traits<cfg>::H>;

template <model_config cfg>
using gelu_of =
    std::conditional_t<config_traits<cfg>::gelu == gelu_kind::tanh, nn::gelu_tanh, nn::gelu>;

template <class T, model_config cfg>
using positional_of = std::conditional_t<
    config_traits<cfg>::positional == positional_kind::sinusoidal,
    nn::sinusoidal_embedding<typename config_traits<cfg>::d_e, typename config_traits<cfg>::l_max>,
    nn::positional_embedding<T, typename config_traits<cfg>::d_e,
                             typename config_traits<cfg>::l_max>>;

// D: the dimension W_u reads (d_e; ETransformer's d_f). Tied, W_u = W_eᵀ reads d_e.
template <class T, model_config cfg, fixed_dimension D>
using unembedding_of = std::conditional_t<
    config_traits<cfg>::tied,
    nn::tied_unembedding<T, typename config_traits<cfg>::N_V, typename config_traits<cfg>::d_e>,
    nn::unembedding<T, typename config_traits<cfg>::N_V, D>>;

template <class T, model_config cfg>
inline constexpr T eps_of = static_cast<T>(config_traits<cfg>::eps);

// X's row dimension read as d_e, for W_u = W_eᵀ (ETransformer's d_f rows; its static_assert makes
// d_f == d_e when tied). A plain view of X otherwise.
template <class Model, class M>
constexpr auto rows_as_d_e(M&& X) noexcept {
    return relabel<typename Model::d_e, typename std::remove_cvref_t<M>::cols_dim>(X);
}

// logits = W_u X, tied or not (Algorithm 7 without its softmax).
template <class Model, class Xv, class Lv>
constexpr void unembed(const Model& m, const Xv& X, Lv&& logits) noexcept {
    if constexpr (Model::traits::tied)
        nn::forward(m.unembedding, m.embedding, rows_as_d_e<Model>(X), logits);  // W_u = W_eᵀ
    else
        nn::forward(m.unembedding, X, logits);
}
template <class Model, class Xv, class DLv, class DXv>
void unembed_backward(const Model& m, const Xv& X, const DLv& dlogits, DXv&& dX,
                      Model& grads) noexcept {
    if constexpr (Model::traits::tied)
        nn::backward(m.unembedding, m.embedding, rows_as_d_e<Model>(X), dlogits,
                     rows_as_d_e<Model>(dX), grads.embedding);  // dW_e +=
    else
        nn::backward(m.unembedding, X, dlogits, dX, grads.unembedding);
}

}  // namespace typeformer::detail
