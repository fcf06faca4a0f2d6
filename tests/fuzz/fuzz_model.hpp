// The model the fuzzers load into: small (a few thousand parameters), so that a file the fuzzer
// builds can be complete, and so that each run is fast.
#pragma once

#include <cstddef>

#include <typeformer/typeformer.hpp>

namespace fuzz {

struct cfg {
    static constexpr std::size_t N_V = 11, l_max = 7, L = 1, H = 2, d_e = 6, d_mlp = 8, d_attn = 3,
                                 d_mid = 4, d_f = 5;
};
using model = typeformer::DTransformer<float, cfg>;

}  // namespace fuzz
