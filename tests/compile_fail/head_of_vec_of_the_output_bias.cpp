// Mistake: slicing the output bias b_o (d_e) per head as if it were stacked like b_v.
// Algorithm 5's b_v ∈ R^{H·d_mid} holds one block per head; b_o ∈ R^{d_e} is added once, after W_o
// merges the heads (line 6), and has no per-head blocks.
// Fix: head_of_vec(b_v, h) for a head's value bias; b_o is added to the merged output.
// fixed: const vec<float, d_e<32>>& b_o => const vec<float, prod<H<2>, d_mid<16>>>& b_o
// covers: head_of_vec(b)
// expect: in::head_of_vec
// first-error: b_rows<typeformer::d_e<32>, needed<typeformer::stacked_heads
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

auto output_bias_of_head(const vec<float, d_e<32>>& b_o, std::size_t h) {
    return head_of_vec(b_o, h);  // error here
}
