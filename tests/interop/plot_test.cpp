// io/plot.hpp: the SVGs are well-formed XML with the expected series, labels and cells (checked by
// plot_check.py with Python's XML parser). tools/typeformer-attention's pictures are checked the
// same way in the tools' workflow test.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/plot.hpp>

namespace {

// Strings built by += rather than a + chain: GCC 12's -Warray-bounds flags the inlined chain
// (PR 105651) in some builds.
std::string in_dir(const char* file) {
    std::string path = TYPEFORMER_TEST_BINARY_DIR;
    path += '/';
    path += file;
    return path;
}

int check(const std::string& args) {
    std::string cmd = TYPEFORMER_PYTHON;
    cmd += ' ';
    cmd += TYPEFORMER_TEST_SOURCE_DIR;
    cmd += "/plot_check.py ";
    cmd += args;
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
    const std::string path = in_dir("loss.svg");
    typeformer::plot::write(
        path, typeformer::plot::line_svg(
                  s, {.title = "loss", .x_label = "step", .y_label = "loss", .log_y = true}));
    EXPECT_EQ(check("lines " + path + " loss 'train <loss> & co' validation"), 0);
    // The check can fail: a wrong series count is reported.
    EXPECT_NE(check("lines " + path + " loss validation 2>/dev/null"), 0);
}

TEST(Plot, TextIsEscapedAndUtf8PassesThrough) {
    using typeformer::plot::detail::escape;
    EXPECT_EQ(escape("a<b & 'c\""), "a&lt;b &amp; &apos;c&quot;");
    EXPECT_EQ(escape("wörld ␣ 😀"), "wörld ␣ 😀");  // 2-, 3- and 4-byte characters
    // Not UTF-8: a lone continuation byte, a cut-off character, an overlong form, a surrogate,
    // a control character.
    EXPECT_EQ(escape("\x80"), "\\x80");
    EXPECT_EQ(escape("\xE2\x90"), "\\xE2\\x90");
    EXPECT_EQ(escape("\xC0\xAF"), "\\xC0\\xAF");
    EXPECT_EQ(escape("\xED\xA0\x80"), "\\xED\\xA0\\x80");
    EXPECT_EQ(escape("a\nb"), "a\\x0Ab");
}

TEST(Plot, HeatmapGridHasEveryMapLabelsAndCells) {
    // Two layers × three heads of causal rows (row t_x spreads 1 evenly over t_z ≤ t_x, then
    // shifts weight towards t_x by head), labelled with a prompt that needs XML escaping.
    const std::string prompt = "a<b&c";
    const std::size_t n = prompt.size(), L = 2, H = 3;
    std::vector<typeformer::plot::heatmap> maps;
    for (std::size_t l = 0; l < L; ++l)
        for (std::size_t h = 0; h < H; ++h) {
            typeformer::plot::heatmap m;
            m.title = "layer " + std::to_string(l) + ", head " + std::to_string(h);
            m.rows = m.cols = n;
            for (char c : prompt)
                m.row_labels.emplace_back(1, c), m.col_labels.emplace_back(1, c);
            for (std::size_t tx = 0; tx < n; ++tx)
                for (std::size_t tz = 0; tz < n; ++tz) {
                    const double even = 1.0 / static_cast<double>(tx + 1);
                    const double w = 0.1 * static_cast<double>(h) * even;
                    m.values.push_back(tz > tx    ? 0.0
                                       : tz == tx ? even + w * static_cast<double>(tx)
                                                  : even - w);
                }
            maps.push_back(std::move(m));
        }
    const std::string path = in_dir("heatmaps.svg");
    typeformer::plot::write(path, typeformer::plot::heatmap_grid_svg(maps, H, "attention"));
    EXPECT_EQ(check("attention " + path + " 2 3 '" + prompt + "'"), 0);
    // The check can fail: other labels, or another count of maps, are reported.
    EXPECT_NE(check("attention " + path + " 2 3 'a<b&d' 2>/dev/null"), 0);
    EXPECT_NE(check("attention " + path + " 2 2 '" + prompt + "' 2>/dev/null"), 0);
}

}  // namespace
