// A test-only parameter struct shaped like DTransformer's (Algorithm 10), with odd sizes
// so that rows, columns and heads never coincide:
//   N_V = 11, l_max = 13, d_e = 7, H = 3, d_attn = 5, d_mid = 4, d_mlp = 9, L = 2.
#pragma once

#include <array>

#include <typeformer/params.hpp>

namespace tiny {

namespace tf = typeformer;

using NV = tf::N_V<11>;
using LMAX = tf::l_max<13>;
using DE = tf::d_e<7>;
using NH = tf::H<3>;
using DATTN = tf::d_attn<5>;
using DMID = tf::d_mid<4>;
using DMLP = tf::d_mlp<9>;
inline constexpr std::size_t n_layers = 2;

template <class T>
struct layer_norm {
    using v_e = tf::vec<T, DE>;
    BOOST_HANA_DEFINE_STRUCT(layer_norm, (v_e, gamma), (v_e, beta));
};

template <class T>
struct attention {
    using w_qk = tf::mat<T, tf::prod<NH, DATTN>, DE>;  // (H·d_attn, d_e)
    using b_qk = tf::vec<T, tf::prod<NH, DATTN>>;
    using w_v = tf::mat<T, tf::prod<NH, DMID>, DE>;  // (H·d_mid, d_e)
    using b_v_t = tf::vec<T, tf::prod<NH, DMID>>;
    using w_o = tf::mat<T, DE, tf::prod<NH, DMID>>;  // (d_e, H·d_mid)
    using v_e = tf::vec<T, DE>;
    BOOST_HANA_DEFINE_STRUCT(attention, (w_qk, W_q), (b_qk, b_q), (w_qk, W_k), (b_qk, b_k),
                             (w_v, W_v), (b_v_t, b_v), (w_o, W_o), (v_e, b_o));
};

template <class T>
struct mlp_params {
    using w_1 = tf::mat<T, DMLP, DE>;
    using b_1_t = tf::vec<T, DMLP>;
    using w_2 = tf::mat<T, DE, DMLP>;
    using b_2_t = tf::vec<T, DE>;
    BOOST_HANA_DEFINE_STRUCT(mlp_params, (w_1, W_1), (b_1_t, b_1), (w_2, W_2), (b_2_t, b_2));
};

template <class T>
struct layer {
    BOOST_HANA_DEFINE_STRUCT(layer, (layer_norm<T>, ln1), (attention<T>, attn),
                             (layer_norm<T>, ln2), (mlp_params<T>, mlp));
};

template <class T>
struct model {
    using w_e = tf::mat<T, DE, NV>;
    using w_p = tf::mat<T, DE, LMAX>;
    using layers_t = std::array<layer<T>, n_layers>;
    using w_u = tf::mat<T, NV, DE>;
    BOOST_HANA_DEFINE_STRUCT(model, (w_e, W_e), (w_p, W_p), (layers_t, layers),
                             (layer_norm<T>, ln_f), (w_u, W_u));
};

// Hand count: W_e 7·11 + W_p 7·13 + ln_f 2·7 + W_u 11·7, and per layer
// ln1, ln2 2·7 each; W_q, W_k 15·7 + 15 each; W_v 12·7 + 12; W_o 7·12 + 7;
// W_1 9·7 + 9; W_2 7·9 + 7.
inline constexpr std::size_t hand_count =
    77 + 91 + 14 + 77 +
    n_layers * (14 + 14 + 2 * (105 + 15) + (84 + 12) + (84 + 7) + (63 + 9) + (63 + 7));

// A big matrix for init statistics.
template <class T>
struct big {
    using w = tf::mat<T, tf::d_mlp<384>, tf::d_e<256>>;
    using b = tf::vec<T, tf::d_mlp<384>>;
    BOOST_HANA_DEFINE_STRUCT(big, (w, W_1), (b, b_1));
};

}  // namespace tiny
