// The models of the export round trip (export_header_gen writes them, export_header_test reads
// them back): every architecture, both scalars, every variant, and the int8 form. Each is
// tf::init(model, seed) with its own seed.
#pragma once

#include <cstddef>

#include <typeformer/models/quantized.hpp>
#include <typeformer/typeformer.hpp>

namespace roundtrip {

namespace tf = typeformer;

struct plain {  // layer norm, learned positions, W_u of its own
    static constexpr std::size_t N_V = 13, l_max = 9, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5, d_f = 7;
};
struct variants {  // every variant off its default
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 1, d_e = 5, d_mlp = 3, d_attn = 2,
                                 d_mid = 7, L_enc = 2, L_dec = 1;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-6;
};

using d_plain = tf::DTransformer<float, plain>;
using d_variants = tf::DTransformer<float, variants>;
using d_double = tf::DTransformer<double, plain>;
using e_plain = tf::ETransformer<float, plain>;
using ed_variants = tf::EDTransformer<float, variants>;
using q8_plain = tf::q8<d_plain>;
using q8_variants = tf::q8<d_variants>;

}  // namespace roundtrip
