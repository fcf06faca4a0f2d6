// Decoding on threads: built with OpenMP, a KV-cache step of a model whose products are big
// enough to be split over threads (kernels/simd/gemm.hpp: parallel_row_runs, parallel_rows;
// TYPEFORMER_PARALLEL_ROWS_MIN is lowered for this binary) gives the same bits on 1, 2 and 3
// threads and from one run to the next, and its logits equal the full forward pass's column
// within rounding (the forward pass over several columns is not split).
#include <omp.h>

#include <cstring>
#include <memory>
#include <vector>

#include "infer_support.hpp"

#if !defined(_OPENMP)
#error "test_infer_threads is built with OpenMP so that decoding really runs on threads"
#endif

namespace tf = typeformer;
using namespace tf::testing;

namespace {

// d_e · d_mlp and N_V · d_e (tied W_u: Aᵀ·x) ≥ parallel_rows_min: the MLP and the unembedding
// are split; the attention's d_e × d_e maps (65 536 elements) are too.
struct cfg_wide {
    static constexpr std::size_t N_V = 300, l_max = 9, L = 2, H = 4, d_e = 256, d_mlp = 1030,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
};
#if TYPEFORMER_SIMD
static_assert(cfg_wide::d_e * cfg_wide::d_e >= tf::kernels::simd_impl::parallel_rows_min);
#endif

using model = tf::DTransformer<float, cfg_wide>;

// Every step's logits of x decoded on `threads` threads.
std::vector<float> decode(const model& m, const std::vector<tf::token>& x, int threads) {
    omp_set_num_threads(threads);
    auto cache = std::make_unique<tf::kv_cache<model>>();
    std::vector<float> out;
    for (const tf::token t : x) {
        EXPECT_EQ(tf::try_append(m, *cache, t), tf::status::ok);
        for (std::size_t i = 0; i < model::N_V::size; ++i)
            out.push_back(tf::logits(*cache)[i]);
    }
    omp_set_num_threads(omp_get_num_procs());
    return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(DecodeThreads, SameBitsOnAnyThreadCountAndEqualsFullPass) {
    auto m = random_model<model>(31);
    const auto x = random_tokens(model::l_max::size, model::N_V::size, 32);
    const auto one = decode(*m, x, 1), two = decode(*m, x, 2), three = decode(*m, x, 3),
               again = decode(*m, x, 2);
    EXPECT_TRUE(same_bits(one, two)) << "1 vs 2 threads";
    EXPECT_TRUE(same_bits(one, three)) << "1 vs 3 threads";
    EXPECT_TRUE(same_bits(two, again)) << "2 threads, run to run";
    auto ws = std::make_unique<tf::inference_workspace<model>>();
    const auto full = tf::logits(*m, x, *ws);
    for (std::size_t t = 0; t < x.size(); ++t)
        for (std::size_t i = 0; i < model::N_V::size; ++i)
            EXPECT_TRUE(close(two[t * model::N_V::size + i], full(i, t), 1e-4, 1e-4))
                << "position " << t << " id " << i;
}

}  // namespace
