// The small configuration the training tests share (every dimension distinct where it can be,
// so a transposed product cannot pass by accident).
#pragma once

#include <cstddef>

#include <typeformer/typeformer.hpp>

namespace typeformer::testing::train {

struct cfg {
    static constexpr std::size_t N_V = 11, l_max = 7, L = 2, H = 2, d_e = 6, d_mlp = 8, d_attn = 3,
                                 d_mid = 4, d_f = 5;
};
using D = DTransformer<double, cfg>;
using E = ETransformer<double, cfg>;
using ED = EDTransformer<double, cfg>;

}  // namespace typeformer::testing::train
