// Typed vocabularies at run time: the boundary checks (a run-time vocabulary bound to a model's
// N_V once, untyped ids made typed once). tests/models/typed_inputs_test.cpp runs models on typed
// ids; what must not compile (another vocabulary) is checked by tests/compile_fail and
// tests/static/diagnostics.cpp.
#include <gtest/gtest.h>

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

}  // namespace
