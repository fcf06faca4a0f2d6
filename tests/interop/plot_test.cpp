// io/plot.hpp and tools/typeformer-attention: the SVGs are well-formed XML with the expected
// series, labels and cells (checked by plot_check.py with Python's XML parser); the attention
// cells are causal distributions.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/plot.hpp>

namespace {

std::string dir() {
    return TYPEFORMER_TEST_BINARY_DIR;
}

int check(const std::string& args) {
    const std::string cmd = std::string(TYPEFORMER_PYTHON) + " " + TYPEFORMER_TEST_SOURCE_DIR +
                            "/plot_check.py " + args;
    return std::system(cmd.c_str());
}

TEST(Plot, LineSvgHasSeriesLegendAndTitle) {
    std::vector<typeformer::plot::series> s(2);
    s[0].name = "train <loss> & co";
    s[1].name = "validation";
    for (int i = 0; i < 50; ++i) {
        s[0].x.push_back(i), s[0].y.push_back(5 * std::exp(-0.1 * i) + 0.1);
        s[1].x.push_back(i), s[1].y.push_back(5 * std::exp(-0.08 * i) + 0.3);
    }
    const std::string path = dir() + "/loss.svg";
    typeformer::plot::write(
        path, typeformer::plot::line_svg(
                  s, {.title = "loss", .x_label = "step", .y_label = "loss", .log_y = true}));
    EXPECT_EQ(check("lines " + path + " loss 'train <loss> & co' validation"), 0);
    // The check can fail: a wrong series count is reported.
    EXPECT_NE(check("lines " + path + " loss validation 2>/dev/null"), 0);
}

TEST(Plot, AttentionToolWritesEveryHead) {
    const std::string path = dir() + "/attention.svg";
    const std::string prompt = "to be, or <not>";
    const std::string cmd = std::string(TYPEFORMER_ATTENTION_TOOL) + " --seed 3 --prompt '" +
                            prompt + "' --out " + path;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    EXPECT_EQ(check("attention " + path + " 2 4 '" + prompt + "'"), 0);
    EXPECT_NE(check("attention " + path + " 2 4 'to be, or <nut>' 2>/dev/null"), 0);
    // Bad use: clear error, non-zero exit.
    EXPECT_NE(
        std::system((std::string(TYPEFORMER_ATTENTION_TOOL) + " --prompt x 2>/dev/null").c_str()),
        0);
}

}  // namespace
