// One tokenizer shared by several threads without a lock: encode is const and keeps no cache, so
// the threads get what one thread gets, and ThreadSanitizer (.ci/test step 9) sees no race.
#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <typeformer/tokenize.hpp>
#include "support/small_gpt2.hpp"

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

namespace {

std::string licence(std::size_t n) {
    std::ifstream f("/usr/share/common-licenses/GPL-3", std::ios::binary);
    EXPECT_TRUE(f);
    return std::string((std::istreambuf_iterator<char>(f)), {}).substr(0, n);
}

template <class Tok>
void encode_on_threads(const Tok& tok, const std::string& text) {
    const auto expected = tok.encode(text);
    std::vector<std::vector<tf::token>> got(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < got.size(); ++t)
        threads.emplace_back([&, t] {
            for (int r = 0; r < 2; ++r)
                got[t] = tok.encode(text);
        });
    for (auto& th : threads)
        th.join();
    for (const auto& ids : got)
        EXPECT_EQ(ids, expected);
}

TEST(TokenizeThreads, OneBpeEncodesOnSeveralThreads) {
    const std::string text = licence(8000);
    encode_on_threads(tk::bpe::train(text, 60), text);
}

TEST(TokenizeThreads, OneGpt2EncodesOnSeveralThreads) {
    encode_on_threads(
        typeformer::testing::small_gpt2(
            "\"th\":256,\"the\":257,\"\u0120the\":258,\"in\":259,\"<|endoftext|>\":260",
            "t h\nth e\n\u0120 the\ni n\n"),
        licence(8000));
}

}  // namespace
