// summary(model) and parameter_table<Model> (io/summary.hpp) against counts worked out here
// from the paper's shapes (Algorithm 10's parameter list), not from the library's walk.
#include <cstddef>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <typeformer/io/summary.hpp>
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

namespace {

struct cfg {
    static constexpr std::size_t N_V = 10, l_max = 6, L = 2, H = 2, d_e = 8, d_mlp = 12, d_attn = 4,
                                 d_mid = 3;
};
using model_t = tf::DTransformer<float, cfg>;

constexpr std::size_t per_layer = 2 * cfg::d_e                                   // ln1
                                  + 2 * (cfg::H * cfg::d_attn * (cfg::d_e + 1))  // W_q b_q W_k b_k
                                  + cfg::H * cfg::d_mid * (cfg::d_e + 1)         // W_v b_v
                                  + cfg::d_e * cfg::H * cfg::d_mid + cfg::d_e    // W_o b_o
                                  + 2 * cfg::d_e                                 // ln2
                                  + cfg::d_mlp * cfg::d_e + cfg::d_mlp           // W_1 b_1
                                  + cfg::d_e * cfg::d_mlp + cfg::d_e;            // W_2 b_2
constexpr std::size_t expected_total = cfg::d_e * cfg::N_V + cfg::d_e * cfg::l_max +
                                       cfg::L * per_layer + 2 * cfg::d_e + cfg::N_V * cfg::d_e;

constexpr auto& table = tf::parameter_table<model_t>;
static_assert(table.size() == 2 + cfg::L * 16 + 2 + 1);  // W_e W_p, 16 per layer, ln_f, W_u
static_assert(table[0].name() == "W_e" && table[0].count == cfg::d_e * cfg::N_V);
static_assert(table[0].rows_name() == "d_e" && table[0].cols_name() == "N_V");

// GPT-2 small as docs/interop.md configures it: 124,439,808 parameters, the number published
// for Hugging Face's "gpt2" (tied wte/lm_head); the table is built without a model object.
struct gpt2_small {
    static constexpr std::size_t N_V = 50257, l_max = 1024, L = 12, H = 12, d_e = 768, d_mlp = 3072,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
};
static_assert(tf::parameter_count<tf::DTransformer<float, gpt2_small>> == 124'439'808);
static_assert(tf::parameter_table<tf::DTransformer<float, gpt2_small>>.size() == 2 + 12 * 16 + 2);

TEST(Summary, TableAtCompileTime) {
    std::size_t sum = 0, bytes = 0;
    for (const auto& e : table) {
        sum += e.count;
        bytes += e.bytes;
    }
    EXPECT_EQ(sum, expected_total);
    EXPECT_EQ(bytes, expected_total * sizeof(float));
    const auto& wq = table[2 + 2];  // W_e, W_p, layers.0.ln1.gamma, .beta, then attn.W_q
    EXPECT_EQ(wq.name(), "layers.0.attn.W_q");
    EXPECT_EQ(wq.rows_name(), "H·d_attn");
    EXPECT_EQ(wq.cols_name(), "d_e");
    EXPECT_EQ(wq.rank, 3u);
    EXPECT_EQ(wq.dims[0], cfg::H);
    EXPECT_EQ(wq.dims[1], cfg::d_attn);
    EXPECT_EQ(wq.dims[2], cfg::d_e);
    EXPECT_EQ(wq.count, cfg::H * cfg::d_attn * cfg::d_e);
    EXPECT_EQ(table.back().name(), "W_u");
    EXPECT_EQ(table.back().rows, cfg::N_V);
}

TEST(Summary, Text) {
    auto m = std::make_unique<model_t>();
    const std::string s = tf::summary(*m);
    EXPECT_NE(s.find("layers.1.attn.W_o"), std::string::npos) << s;
    EXPECT_NE(s.find("(H·d_attn, d_e) = (2·4, 8)"), std::string::npos) << s;
    EXPECT_NE(s.find("(d_e, H·d_mid) = (8, 2·3)"), std::string::npos) << s;
    EXPECT_NE(s.find("(d_mlp) = (12)"), std::string::npos) << s;
    static_assert(expected_total == 1220);
    EXPECT_NE(s.find("total: 1,220 parameters in 37 tensors"), std::string::npos) << s;
    // W_1's row: count d_mlp·d_e = 96, bytes 384.
    const auto at = s.find("layers.0.mlp.W_1");
    ASSERT_NE(at, std::string::npos);
    const std::string row = s.substr(at, s.find('\n', at) - at);
    EXPECT_NE(row.find(" 96 "), std::string::npos) << row;
    EXPECT_NE(row.find(" 384"), std::string::npos) << row;
    for (const char* kind :
         {"parameters", "gradients", "Adam state", "activations at l_max", "inference activations",
          "inference total", "KV cache at l_max", "decoding total"})
        EXPECT_NE(s.find(kind), std::string::npos) << kind;
}

}  // namespace
