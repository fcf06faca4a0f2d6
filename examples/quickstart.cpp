// A GPT is a type: its shapes are checked, and its size is known, at compile time.
#include <cstdio>
#include <memory>
#include <vector>
#include <typeformer/typeformer.hpp>
namespace tf = typeformer;

struct cfg {  // DESIGN.md's "tiny" configuration: d_attn and d_mid are both 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = tf::DTransformer<float, cfg>;  // Algorithm 10
static_assert(tf::deploy::check<tf::deploy::nrf52840, gpt, tf::deploy::inference>(),
              "fits a microcontroller: weights in its 1 MiB flash, the rest in its 256 KiB RAM");

int main() {
    auto model = std::make_unique<gpt>();
    tf::init(*model, 42);                      // N(0, 0.02) weights, γ = 1, β = 0
    std::vector<tf::token> x = {1, 2, 3};
    auto P = tf::forward(*model, x);           // (N_V, l_x): column t is P̂(x[t+1] | x[1:t])

    const auto& attn = model->layers[0].attn;  // MHAttention: W_q is (H·d_attn, d_e)
    tf::mat<float, tf::d_e<32>, tf::l_x<32>> X;
    tf::mat<float, tf::prod<tf::H<2>, tf::d_attn<16>>, tf::l_x<32>> Q;
    X.resize_cols(3), Q.resize_cols(3);        // l_x: capacity 32, three tokens now
    tf::matmul(attn.W_q, X, Q);                // Q ← W_q X, all heads at once
    // tf::matmul(attn.W_v, X, Q);             ❌ H·d_mid is not H·d_attn: d_mid<16> vs d_attn<16>
    constexpr auto fp = tf::footprint<gpt>.inference;  // weights in flash, the rest in RAM
    std::printf("P(x[1] = 2 | x[0] = 1) = %.4f; flash %zu B, RAM %zu B\n", P(2, 0), fp.flash,
                fp.ram_with_stack());
}
