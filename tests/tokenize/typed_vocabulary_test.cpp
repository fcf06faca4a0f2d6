// Typed vocabularies at run time: the boundary checks (a run-time vocabulary bound to a model's
// N_V once, untyped ids made typed once) and that typed ids and typed contexts reach the models
// unchanged. What must not compile (another vocabulary, a Z of another model) is checked by
// tests/compile_fail and tests/static/diagnostics.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <typeformer/tokenize.hpp>
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

namespace {

struct byte_gpt {  // a model for byte_level's vocabulary
    static constexpr std::size_t N_V = tk::byte_level::N_V, l_max = 16, L = 1, H = 2, d_e = 16,
                                 d_mlp = 32, d_attn = 8, d_mid = 8;
};
struct bpe_gpt {  // 256 bytes, 10 merges, mask, bos, eos
    static constexpr std::size_t N_V = 269, l_max = 16, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct gpt_99 {
    static constexpr std::size_t N_V = 99, l_max = 16, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};

TEST(TypedVocabulary, ByteLevelIdsAreTheBytesTypedWithN_V259) {
    static_assert(std::is_same_v<decltype(tk::byte_level::encode("")), tk::tokens<tf::N_V<259>>>);
    const std::string text = "h\xC3\xA9llo\n\xFF";
    const auto ids = tk::byte_level::encode(text);
    ASSERT_EQ(ids.size(), text.size());
    for (std::size_t i = 0; i < text.size(); ++i)
        EXPECT_EQ(ids[i], static_cast<unsigned char>(text[i])) << i;
    const std::vector<tf::token> plain = ids;  // still a std::vector<token>
    EXPECT_EQ(tk::byte_level::decode(plain), text);
}

TEST(TypedVocabulary, ARunTimeVocabularyIsCheckedOnceAgainstTheModel) {
    const std::string corpus = "the cat sat on the mat; the cat ate the rat";
    const auto bpe = tk::bpe::train(corpus, 10);
    ASSERT_EQ(bpe.vocab_size(), 256u + 10u + 3u);
    const auto bound = tk::for_model<tf::DTransformer<float, bpe_gpt>>(bpe);
    const auto typed = bound.encode("the cat");
    static_assert(std::is_same_v<decltype(typed), const tk::tokens<tf::N_V<269>>>);
    const std::vector<tf::token> untyped = bpe.encode("the cat");
    EXPECT_EQ(static_cast<const std::vector<tf::token>&>(typed), untyped);
    EXPECT_EQ(bound.decode(typed), "the cat");

    try {
        (void)tk::for_model<tf::DTransformer<float, gpt_99>>(bpe);
        FAIL() << "a vocabulary of 269 was bound to N_V = 99";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("269"), std::string::npos) << what;
        EXPECT_NE(what.find("99"), std::string::npos) << what;
    }
}

TEST(TypedVocabulary, UntypedIdsAreCheckedOnceWhenTyped) {
    using V = tf::N_V<99>;
    const std::vector<tf::token> good = {0, 5, 98};
    const auto typed = tk::tokens<V>::checked(good);
    EXPECT_EQ(static_cast<const std::vector<tf::token>&>(typed), good);
    const std::vector<tf::token> bad = {0, 99, 3};
    try {
        (void)tk::tokens<V>::checked(bad);
        FAIL() << "id 99 was accepted for N_V = 99";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("token 99 at position 1"), std::string::npos) << what;
    }
    EXPECT_DEATH((void)tf::token_span<V>(std::span<const tf::token>(bad)), "not in the vocabulary");
}

TEST(TypedVocabulary, TypedAndUntypedIdsGiveTheSameForwardPass) {
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

TEST(TypedContext, AnEncodedContextDecodesAsTheFullForwardPass) {
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
