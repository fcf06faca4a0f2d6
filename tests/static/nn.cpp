// Static tests of the nn blocks' boundary: the paper's Algorithm 9 shape slip as a probe.
// Algorithm 9 maps the stream to d_f (line 10) and then applies W_u ∈ R^{N_V × d_e} (line 12);
// typed shapes reject that whether or not d_f and d_e happen to be equal. Passes by compiling.
#include <typeformer/nn/unembedding.hpp>

namespace {
using namespace typeformer;

template <class U, class X, class L>
concept can_unembed = requires(U u, X x, L l) {
    forward(u, x, l);
};

using logits_t = mat<float, N_V<32>, l_x<4>>;  // (N_V, l_x)

// as the paper lists it: W_u (N_V, d_e) after W_f: (d_e, ·) → (d_f, ·)
static_assert(!can_unembed<const unembedding<float, N_V<32>, d_e<8>>,
                           const mat<float, d_f<12>, l_x<4>>, logits_t>);
static_assert(!can_unembed<const unembedding<float, N_V<32>, d_e<8>>,
                           const mat<float, d_f<8>, l_x<4>>, logits_t>);
// corrected: W_u (N_V, d_f)
static_assert(can_unembed<const unembedding<float, N_V<32>, d_f<12>>,
                          const mat<float, d_f<12>, l_x<4>>, logits_t>);
// the output runs over the input's sequence and the vocabulary
static_assert(!can_unembed<const unembedding<float, N_V<32>, d_f<12>>,
                           const mat<float, d_f<12>, l_x<4>>, mat<float, N_V<32>, l_z<4>>>);
static_assert(!can_unembed<const unembedding<float, N_V<32>, d_f<12>>,
                           const mat<float, d_f<12>, l_x<4>>, const logits_t>);

}  // namespace
