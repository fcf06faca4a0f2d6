// The real architectures through the weights file: DESIGN.md's public surface end to end, bit-exact
// save → load round trips for every architecture and variant, variants that drop a tensor drop it
// from the file, a model-typed gradient saves like a model, and a bad file leaves the model
// bit-identical.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <typeformer/io.hpp>
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
namespace fs = std::filesystem;

namespace {

struct cfg {  // d_attn ≠ d_mid ≠ d_e/H, d_f ≠ d_e
    static constexpr std::size_t N_V = 13, l_max = 9, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5, d_f = 7, L_enc = 2, L_dec = 1;
};
struct cfg_variants {  // every tensor-dropping variant at once
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 2, d_e = 6, d_mlp = 3, d_attn = 2,
                                 d_mid = 3;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};

struct cfg_plain {  // cfg_variants' sizes without its variants
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 2, d_e = 6, d_mlp = 3, d_attn = 2,
                                 d_mid = 3;
};
struct small {
    static constexpr std::size_t N_V = 11, l_max = 8, L = 2, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4;
};

fs::path scratch_dir() {
    fs::path dir = fs::path(TYPEFORMER_TEST_BINARY_DIR) / "weights_test";
    fs::create_directories(dir);
    return dir;
}

// The tensor names a file holds, read with a tiny independent parse of the JSON header's keys.
std::set<std::string> names_in(const fs::path& path) {
    std::ifstream f(path, std::ios::binary);
    std::uint64_t n = 0;
    f.read(reinterpret_cast<char*>(&n), 8);
    std::string header(n, '\0');
    f.read(header.data(), static_cast<std::streamsize>(n));
    std::set<std::string> names;
    // Keys are the strings directly followed by `:{` (tensor entries) at depth 1.
    for (std::size_t at = header.find("\":{"); at != std::string::npos;
         at = header.find("\":{", at + 1)) {
        const std::size_t open = header.rfind('"', at - 1);
        names.insert(header.substr(open + 1, at - open - 1));
    }
    names.erase("__metadata__");
    return names;
}

template <class Model>
void expect_round_trip(const std::string& file, tf::io::dtype dt) {
    auto a = std::make_unique<Model>();
    auto b = std::make_unique<Model>();
    tf::init(*a, 2024);
    const fs::path path = scratch_dir() / file;
    tf::save(*a, path, dt);
    tf::load(*b, path);
    EXPECT_TRUE(tf::bit_equal(*a, *b)) << file;
    EXPECT_EQ(names_in(path).size(), tf::parameter_tensor_count<Model>) << file;
}

}  // namespace

TEST(WeightsFile, RoundTripIsBitExactForEveryArchitecture) {
    expect_round_trip<tf::DTransformer<float, cfg>>("d_f32.safetensors", tf::io::dtype::f32);
    expect_round_trip<tf::DTransformer<double, cfg>>("d_f64.safetensors", tf::io::dtype::f64);
    expect_round_trip<tf::ETransformer<float, cfg>>("e_f32.safetensors", tf::io::dtype::f32);
    expect_round_trip<tf::EDTransformer<double, cfg>>("ed_f64.safetensors", tf::io::dtype::f64);
    expect_round_trip<tf::DTransformer<float, cfg_variants>>("dv.safetensors", tf::io::dtype::f32);
    expect_round_trip<tf::ETransformer<float, cfg_variants>>("ev.safetensors", tf::io::dtype::f32);
    expect_round_trip<tf::EDTransformer<float, cfg_variants>>("edv.safetensors",
                                                              tf::io::dtype::f32);
}

TEST(WeightsFile, VariantsDropTheirTensorsFromTheFile) {
    auto m = std::make_unique<tf::DTransformer<float, cfg_variants>>();
    tf::init(*m, 1);
    const fs::path path = scratch_dir() / "variants.safetensors";
    tf::save(*m, path);
    const std::set<std::string> expected = {
        "W_e",  // no W_p (sinusoidal), no W_u (tied), no beta (RMSnorm)
        "layers.0.ln1.gamma",
        "layers.0.attn.W_q",
        "layers.0.attn.b_q",
        "layers.0.attn.W_k",
        "layers.0.attn.b_k",
        "layers.0.attn.W_v",
        "layers.0.attn.b_v",
        "layers.0.attn.W_o",
        "layers.0.attn.b_o",
        "layers.0.ln2.gamma",
        "layers.0.mlp.W_1",
        "layers.0.mlp.b_1",
        "layers.0.mlp.W_2",
        "layers.0.mlp.b_2",
        "ln_f.gamma"};
    EXPECT_EQ(names_in(path), expected);

    // A file of the untied, learned-position, layer-norm model does not load into it.
    auto plain = std::make_unique<tf::DTransformer<float, cfg_plain>>();
    tf::init(*plain, 2);
    const fs::path plain_path = scratch_dir() / "plain.safetensors";
    tf::save(*plain, plain_path);
    auto before = std::make_unique<tf::DTransformer<float, cfg_variants>>(*m);
    try {
        tf::load(*m, plain_path);
        FAIL() << "a file with W_p, W_u and beta loaded into a model without them";
    } catch (const tf::io::error& e) {
        const std::string what = e.what();
        // The file's signature (io/signature.hpp) names the first variant that differs.
        EXPECT_NE(what.find("norm: file layer_norm, model rms_norm"), std::string::npos) << what;
    }
    EXPECT_TRUE(tf::bit_equal(*m, *before));
}

TEST(WeightsFile, ATruncatedFileLeavesTheModelUnchanged) {
    using model = tf::DTransformer<float, cfg>;
    auto m = std::make_unique<model>();
    tf::init(*m, 3);
    const fs::path path = scratch_dir() / "full.safetensors";
    tf::save(*m, path);
    const fs::path cut = scratch_dir() / "cut.safetensors";
    fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, fs::file_size(path) - 13);

    auto target = std::make_unique<model>();
    tf::init(*target, 4);
    const auto before = std::make_unique<model>(*target);
    EXPECT_THROW(tf::load(*target, cut), tf::io::error);
    EXPECT_TRUE(tf::bit_equal(*target, *before));
}

// DESIGN.md's public surface, as written there.
TEST(PublicSurface, InitLoadSaveForwardLossGradSgdAndSavingGradients) {
    auto model = std::make_unique<tf::DTransformer<float, small>>();
    tf::init(*model, 7);
    const fs::path w = scratch_dir() / "w.safetensors";
    tf::save(*model, w);
    tf::load(*model, w);
    std::vector<tf::token> x = {1, 2, 3, 4, 5};
    auto P = tf::forward(*model, x);
    for (std::size_t t = 0; t < x.size(); ++t) {  // each column is a distribution
        double sum = 0;
        for (std::size_t i = 0; i < small::N_V; ++i)
            sum += P(i, t);
        EXPECT_NEAR(sum, 1.0, 1e-5);
    }
    auto grads = std::make_unique<tf::DTransformer<float, small>>();
    tf::zero(*grads);
    const float loss = tf::loss_and_grad(*model, x, *grads);
    EXPECT_GT(loss, 0.0f);
    tf::sgd_step(*model, *grads, 0.1f);
    EXPECT_LT(tf::loss_and_grad(*model, x, *grads), loss);
    const fs::path g = scratch_dir() / "g.safetensors";
    tf::save(*grads, g);  // gradients have the model's type
    auto back = std::make_unique<tf::DTransformer<float, small>>();
    tf::load(*back, g);
    EXPECT_TRUE(tf::bit_equal(*back, *grads));
}
