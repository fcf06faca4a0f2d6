// From a user's config struct to the dimensions and variants of an architecture.
//
// A config is any struct with static constexpr members, as in DESIGN.md:
//
//   struct cfg { static constexpr std::size_t N_V = 65, l_max = 256, L = 6, H = 6,
//                d_e = 384, d_mlp = 1536, d_attn = 64, d_mid = 64; };
//
// Optional members select variants (absent → the paper's choice for the architecture):
//   norm        = tf::norm_kind::layer_norm | rms_norm        (Gopher uses rms_norm)
//   positional  = tf::positional_kind::learned | sinusoidal   (sinusoidal drops W_p)
//   tied        = true                                        (W_u = W_eᵀ, drops W_u)
//   gelu        = tf::gelu_kind::erf | tanh                   (D and E only)
//   eps         = 1e-5                                        (layer-norm ε; 0 is the paper exactly)
//   d_f                                                        (ETransformer, default d_e)
//   L_enc, L_dec                                               (EDTransformer, default L)
#pragma once

#include <cstddef>

#include "../dim.hpp"
#include "../shape_error.hpp"

namespace typeformer {

enum class norm_kind { layer_norm, rms_norm };
enum class positional_kind { learned, sinusoidal };
enum class gelu_kind { erf, tanh };

template <class cfg>
concept model_config = requires {
    { cfg::N_V } -> std::convertible_to<std::size_t>;
    { cfg::l_max } -> std::convertible_to<std::size_t>;
    { cfg::H } -> std::convertible_to<std::size_t>;
    { cfg::d_e } -> std::convertible_to<std::size_t>;
    { cfg::d_mlp } -> std::convertible_to<std::size_t>;
    { cfg::d_attn } -> std::convertible_to<std::size_t>;
    { cfg::d_mid } -> std::convertible_to<std::size_t>;
};

// The dimensions every architecture uses, as types. Of something that is not a config (a model,
// its traits, a struct without d_mid): one error naming config_traits and the argument.
template <class cfg>
struct config_traits {
    static_assert(
        sizeof(shape_error<in::config_traits, template_argument<cfg>, needed<a_model_config>>) > 0);
};
template <model_config cfg>
struct config_traits<cfg> {
    using d_e = typeformer::d_e<cfg::d_e>;
    using d_attn = typeformer::d_attn<cfg::d_attn>;
    using d_mid = typeformer::d_mid<cfg::d_mid>;
    using d_mlp = typeformer::d_mlp<cfg::d_mlp>;
    using H = typeformer::H<cfg::H>;
    using N_V = typeformer::N_V<cfg::N_V>;
    using l_max = typeformer::l_max<cfg::l_max>;
    using l_x = typeformer::l_x<cfg::l_max>;  // primary sequence, bounded by l_max
    using l_z = typeformer::l_z<cfg::l_max>;  // context sequence (EDTransformer)

    static constexpr std::size_t L = [] {
        if constexpr (requires { cfg::L; })
            return static_cast<std::size_t>(cfg::L);
        else
            return std::size_t{1};
    }();
    static constexpr std::size_t L_enc = [] {
        if constexpr (requires { cfg::L_enc; })
            return static_cast<std::size_t>(cfg::L_enc);
        else
            return L;
    }();
    static constexpr std::size_t L_dec = [] {
        if constexpr (requires { cfg::L_dec; })
            return static_cast<std::size_t>(cfg::L_dec);
        else
            return L;
    }();
    // (a named constant, not a lambda in the template argument: Clang 14 crashes reading that
    // back from a precompiled header, and tests/compile_fail precompiles this one)
    static constexpr std::size_t d_f_size = [] {
        if constexpr (requires { cfg::d_f; })
            return static_cast<std::size_t>(cfg::d_f);
        else
            return static_cast<std::size_t>(cfg::d_e);
    }();
    using d_f = typeformer::d_f<d_f_size>;

    static constexpr norm_kind norm = [] {
        if constexpr (requires { cfg::norm; })
            return static_cast<norm_kind>(cfg::norm);
        else
            return norm_kind::layer_norm;
    }();
    static constexpr positional_kind positional = [] {
        if constexpr (requires { cfg::positional; })
            return static_cast<positional_kind>(cfg::positional);
        else
            return positional_kind::learned;
    }();
    static constexpr bool tied = [] {
        if constexpr (requires { cfg::tied; })
            return static_cast<bool>(cfg::tied);
        else
            return false;
    }();
    static constexpr gelu_kind gelu = [] {
        if constexpr (requires { cfg::gelu; })
            return static_cast<gelu_kind>(cfg::gelu);
        else
            return gelu_kind::erf;
    }();
    static constexpr double eps = [] {
        if constexpr (requires { cfg::eps; })
            return static_cast<double>(cfg::eps);
        else
            return 1e-5;
    }();
};

}  // namespace typeformer
