// fmt formatters for dims, tensors, parameter names, and summary(model).
#include <memory>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>  // must not make vec/mat ambiguous with fmt's range formatter

#include <gtest/gtest.h>

#include <typeformer/io/format.hpp>

#include "test_model.hpp"
#include "test_util.hpp"

namespace {

namespace tf = typeformer;
namespace tio = typeformer::io;
using testutil::contains;

TEST(Format, Dimensions) {
    EXPECT_EQ(fmt::format("{}", tf::d_attn<64>{}), "d_attn<64>");
    EXPECT_EQ(fmt::format("{}", tf::l_x<256>{}), "l_x<≤256>");
    EXPECT_EQ(fmt::format("{}", tf::prod<tf::H<4>, tf::d_mid<16>>{}), "H<4>·d_mid<16>");
    EXPECT_EQ(fmt::format("{:n}", tf::prod<tf::H<4>, tf::d_mid<16>>{}), "H·d_mid");
    EXPECT_EQ(fmt::format("{:n}", tf::l_z<8>{}), "l_z");
    EXPECT_EQ(tio::dim_string<tf::N_V<50257>>(), "N_V<50257>");
}

TEST(Format, SmallVectorPrintsEveryEntry) {
    tf::vec<float, tf::d_e<3>> v{{1.0f, 2.5f, -3.0f}};
    EXPECT_EQ(fmt::format("{}", v), "vec<d_e<3>> [1, 2.5, -3]");
    EXPECT_EQ(fmt::format("{:.2f}", v), "vec<d_e<3>> [1.00, 2.50, -3.00]");
    EXPECT_EQ(fmt::format("{:+.1e}", tf::as_view(v)), "vec<d_e<3>> [+1.0e+00, +2.5e+00, -3.0e+00]");
}

TEST(Format, SmallMatrixPrintsRows) {
    tf::mat<double, tf::d_attn<2>, tf::d_e<3>> M{};
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            M(i, j) = static_cast<double>(10 * i + j);
    EXPECT_EQ(fmt::format("{}", M), "mat<d_attn<2>, d_e<3>>\n[[0, 1, 2],\n [10, 11, 12]]");
}

TEST(Format, LargeTensorsAreSummarised) {
    auto v = std::make_unique<tf::vec<float, tf::d_mlp<100>>>();
    for (std::size_t i = 0; i < 100; ++i)
        (*v)[i] = static_cast<float>(i);
    EXPECT_EQ(fmt::format("{}", *v), "vec<d_mlp<100>> [0, 1, 2, ..., 97, 98, 99]");

    auto M = std::make_unique<tf::mat<float, tf::prod<tf::H<2>, tf::d_attn<5>>, tf::d_e<20>>>();
    for (std::size_t i = 0; i < 10; ++i)
        for (std::size_t j = 0; j < 20; ++j)
            (*M)(i, j) = static_cast<float>(100 * i + j);
    EXPECT_EQ(fmt::format("{}", *M),
              "mat<H<2>·d_attn<5>, d_e<20>>\n"
              "[[0, 1, 2, ..., 17, 18, 19],\n"
              " [100, 101, 102, ..., 117, 118, 119],\n"
              " [200, 201, 202, ..., 217, 218, 219],\n"
              " ...,\n"
              " [700, 701, 702, ..., 717, 718, 719],\n"
              " [800, 801, 802, ..., 817, 818, 819],\n"
              " [900, 901, 902, ..., 917, 918, 919]]");
}

TEST(Format, BoundedExtentsAreShown) {
    tf::mat<float, tf::d_e<2>, tf::l_x<8>> X{};
    X.resize_cols(3);
    X(1, 2) = 5.0f;
    EXPECT_EQ(fmt::format("{}", X), "mat<d_e<2>, l_x<≤8>>(2×3)\n[[0, 0, 0],\n [0, 0, 5]]");
}

TEST(Format, ParamName) {
    tf::param_name n;
    n.push_member("ln_f");
    n.push_member("gamma");
    EXPECT_EQ(fmt::format("{:>12}", n), "  ln_f.gamma");
}

TEST(Format, SummaryListsEveryParameterAndTheTotal) {
    auto m = std::make_unique<tiny::model<float>>();
    const std::string s = tio::summary(*m);
    std::size_t lines = 0;
    for (char c : s)
        lines += c == '\n';
    EXPECT_EQ(lines, 37u + 4u) << s;  // title, rule, 37 rows, rule, total
    EXPECT_TRUE(contains(s, "layers.0.attn.W_q   [3, 5, 7]  H·d_attn × d_e    105")) << s;
    EXPECT_TRUE(contains(s, "layers.1.attn.W_o   [7, 12]    d_e × H·d_mid      84")) << s;
    EXPECT_TRUE(contains(s, "ln_f.beta           [7]        d_e                 7")) << s;
    EXPECT_TRUE(contains(s, "total: 1,453 parameters in 37 tensors, 5,812 bytes")) << s;
    EXPECT_EQ(tio::group_thousands(124439808), "124,439,808");
    EXPECT_EQ(tio::group_thousands(12), "12");
}

}  // namespace
