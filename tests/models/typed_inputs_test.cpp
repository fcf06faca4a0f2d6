// Typed inputs reach the models unchanged: typed ids give the forward pass of the same untyped
// ids, and an EDTransformer's encoded context Z (typed by its model) decodes as the full forward
// pass does. What must not compile (another vocabulary, a Z of another model) is checked by
// tests/compile_fail and tests/static/diagnostics.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include <typeformer/tokenize/byte.hpp>
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

namespace {

struct byte_gpt {  // a model for byte_level's vocabulary
    static constexpr std::size_t N_V = tk::byte_level::N_V, l_max = 16, L = 1, H = 2, d_e = 16,
                                 d_mlp = 32, d_attn = 8, d_mid = 8;
};

TEST(TypedInputs, TypedAndUntypedIdsGiveTheSameForwardPass) {
    using model_t = tf::DTransformer<float, byte_gpt>;
    auto m = std::make_unique<model_t>();
    tf::init(*m, 3);
    auto ws = std::make_unique<tf::inference_workspace<model_t>>();
    auto ws2 = std::make_unique<tf::inference_workspace<model_t>>();
    const auto typed = tk::byte_level::encode("typed ids");
    const std::vector<tf::token> untyped(typed.begin(), typed.end());
    const auto P = tf::forward(*m, typed, *ws);
    const auto Q = tf::forward(*m, untyped, *ws2);
    ASSERT_EQ(P.cols(), typed.size());
    for (std::size_t t = 0; t < P.cols(); ++t)
        for (std::size_t i = 0; i < P.rows(); ++i)
            ASSERT_EQ(P(i, t), Q(i, t)) << i << ", " << t;  // the same ids, the same arithmetic
    // a typed view of the model's vocabulary, and the host form
    const auto R = tf::forward(*m, typed.view());
    EXPECT_EQ(R(3, 2), P(3, 2));
}

struct translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};

TEST(TypedInputs, AnEncodedContextDecodesAsTheFullForwardPass) {
    using model_t = tf::EDTransformer<float, translator>;
    auto m = std::make_unique<model_t>();
    tf::init(*m, 5);
    auto enc_ws = std::make_unique<tf::inference_workspace<model_t>>();
    auto dec_ws = std::make_unique<tf::inference_workspace<model_t>>();
    auto full_ws = std::make_unique<tf::inference_workspace<model_t>>();
    const std::vector<tf::token> z = {3, 1, 4, 1, 5};
    const tf::encoded_context<model_t> Z = tf::encode(*m, z, *enc_ws);  // once
    ASSERT_EQ(Z.Z.cols(), z.size());
    for (const std::vector<tf::token>& x :
         {std::vector<tf::token>{29, 2, 7}, std::vector<tf::token>{29, 8, 8, 1, 0, 2}}) {
        const auto P = tf::forward(*m, Z, x, *dec_ws);   // the decoder alone
        const auto Q = tf::forward(*m, z, x, *full_ws);  // encoder and decoder
        ASSERT_EQ(P.cols(), x.size());
        for (std::size_t t = 0; t < x.size(); ++t)
            for (std::size_t i = 0; i < translator::N_V; ++i)
                ASSERT_EQ(P(i, t), Q(i, t)) << i << ", " << t;
    }
    // a decoder workspace may be the encoder's: the decoder does not write Z
    const auto P = tf::forward(*m, Z, std::vector<tf::token>{29, 2}, *enc_ws);
    const auto Q = tf::forward(*m, z, std::vector<tf::token>{29, 2}, *full_ws);
    EXPECT_EQ(P(4, 1), Q(4, 1));
    EXPECT_THROW((void)tf::encode(*m, std::vector<tf::token>{}, *enc_ws), std::invalid_argument);
}

}  // namespace
