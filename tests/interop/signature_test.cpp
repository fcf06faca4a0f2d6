// Files carry their model's signature (io/signature.hpp): tf::save and checkpoints write every
// dimension and variant, tf::load and load_checkpoint compare it with the type they load into and
// name the first field that differs, even where every tensor has the same shape. Files written
// before signatures existed still load (by names and shapes).
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io.hpp>
#include <typeformer/typeformer.hpp>

#include "interop.hpp"

namespace tf = typeformer;
namespace tio = typeformer::io;
using interop::contains;

namespace {

struct base {  // H·d_attn = H·d_mid = 16 whichever H: the shapes cannot tell H apart
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 2, d_e = 12, d_mlp = 24,
                                 d_attn = 8, d_mid = 8;
};
struct four_heads : base {
    static constexpr std::size_t H = 4, d_attn = 4, d_mid = 4;
};
struct other_eps : base {
    static constexpr double eps = 1e-6;
};
struct tanh_gelu : base {
    static constexpr auto gelu = tf::gelu_kind::tanh;
};
using model = tf::DTransformer<float, base>;

// The load is refused with signature_mismatch naming `difference`, and the model is unchanged.
template <class Model>
void expect_refused(const std::string& file, const std::string& difference) {
    auto m = std::make_unique<Model>();
    tf::init(*m, 3);
    auto before = std::make_unique<Model>(*m);
    const auto r = tio::try_load(*m, file);
    EXPECT_EQ(r.code, tio::status::signature_mismatch) << r.message;
    EXPECT_TRUE(contains(r.message, "another model type, " + difference)) << r.message;
    EXPECT_TRUE(contains(r.message, "the file is for DTransformer<f32> N_V=20")) << r.message;
    EXPECT_TRUE(tf::bit_equal(*m, *before));
}

TEST(Signature, LoadNamesTheFirstDimensionOrVariantThatDiffers) {
    auto m = std::make_unique<model>();
    tf::init(*m, 1);
    const std::string file = interop::scratch("sig.safetensors");
    tf::save(*m, file);
    expect_refused<tf::DTransformer<float, four_heads>>(file, "H: file 2, model 4");
    expect_refused<tf::DTransformer<float, other_eps>>(file, "eps: file 1e-05, model 1e-06");
    expect_refused<tf::DTransformer<float, tanh_gelu>>(file, "gelu: file erf, model tanh");
    // the scalar type is converted, not compared
    auto d = std::make_unique<tf::DTransformer<double, base>>();
    EXPECT_TRUE(tio::try_load(*d, file));

    // what the file says, entry by entry
    tio::signature sig;
    ASSERT_TRUE(tio::try_read_signature(file, sig));
    EXPECT_EQ(tio::describe(sig),
              "DTransformer<f32> N_V=20 l_max=8 L=2 H=2 d_e=12 d_mlp=24 d_attn=8 d_mid=8 "
              "layer_norm learned untied gelu=erf eps=1e-05");
    EXPECT_EQ(tio::first_difference(sig, tio::signature_of<model>()), "");
}

// The file image with its metadata replaced (written here, not by the library).
std::vector<std::byte> with_metadata(const std::vector<std::byte>& image, const std::string& md) {
    std::uint64_t n = 0;
    std::memcpy(&n, image.data(), 8);
    std::string header(reinterpret_cast<const char*>(image.data() + 8), n);
    const auto begin = header.find("\"__metadata__\":{"), end = header.find('}', begin);
    header.replace(begin, end + 1 - begin, "\"__metadata__\":{" + md + "}");
    while (header.size() % 8)
        header += ' ';
    std::vector<std::byte> out(8);
    const std::uint64_t len = header.size();
    std::memcpy(out.data(), &len, 8);
    for (char c : header)
        out.push_back(static_cast<std::byte>(c));
    out.insert(out.end(), image.begin() + 8 + static_cast<std::ptrdiff_t>(n), image.end());
    return out;
}

TEST(Signature, FilesWithoutOneStillLoadAndBrokenOnesAreNamed) {
    auto m = std::make_unique<model>();
    tf::init(*m, 1);
    const auto image = tio::save_state(*m);
    // written before signatures: loads, by the tensors' names and shapes (also into H = 4)
    const auto old = with_metadata(image, "\"format\":\"pt\"");
    auto a = std::make_unique<model>();
    ASSERT_TRUE(tio::try_load_state(*a, old));
    EXPECT_TRUE(tf::bit_equal(*a, *m));
    // a malformed entry names itself
    std::string md = "\"typeformer.architecture\":\"DTransformer\",\"typeformer.scalar\":\"f32\"";
    auto r = tio::try_load_state(*a, with_metadata(image, md));
    EXPECT_EQ(r.code, tio::status::malformed_header);
    EXPECT_TRUE(contains(r.message, "typeformer.N_V is missing")) << r.message;
    r = tio::try_load_state(*a, with_metadata(image, "\"typeformer.H\":\"2\""));
    EXPECT_TRUE(contains(r.message, "no typeformer.architecture")) << r.message;
    r = tio::try_load_state(*a, with_metadata(image, "\"typeformer.model\":\"GPT<f64> L=99\""));
    EXPECT_TRUE(contains(r.message, "typeformer.model is not a model signature")) << r.message;
}

TEST(Signature, CheckpointsCompareEveryFieldAndTheScalar) {
    auto m = std::make_unique<model>();
    tf::init(*m, 1);
    auto st = std::make_unique<tf::training_state<model>>();
    const std::string file = interop::scratch("sig.ckpt");
    tf::save_checkpoint(file, *m, *st, tf::training_options{});

    auto o = std::make_unique<tf::DTransformer<float, four_heads>>();
    auto ost = std::make_unique<tf::training_state<tf::DTransformer<float, four_heads>>>();
    auto r = tio::try_load_checkpoint(file, *o, *ost);
    EXPECT_EQ(r.code, tio::status::signature_mismatch);
    EXPECT_TRUE(contains(r.message, "another model type, H: file 2, model 4")) << r.message;
    auto d = std::make_unique<tf::DTransformer<double, base>>();
    auto dst = std::make_unique<tf::training_state<tf::DTransformer<double, base>>>();
    r = tio::try_load_checkpoint(file, *d, *dst);
    EXPECT_TRUE(contains(r.message, "scalar: file f32, model f64")) << r.message;

    // a checkpoint of before the entries (its one "typeformer.model" line) still loads
    std::vector<std::byte> image;
    {
        std::FILE* f = std::fopen(file.c_str(), "rb");
        ASSERT_NE(f, nullptr);
        std::byte b[4096];
        for (std::size_t n; (n = std::fread(b, 1, sizeof b, f)) > 0;)
            image.insert(image.end(), b, b + n);
        std::fclose(f);
    }
    tio::metadata md;
    auto probe = std::make_unique<tio::detail::checkpoint_tensors<model>>();
    ASSERT_TRUE(tio::try_load_state(*probe, image, "ckpt", &md));
    std::string legacy;
    for (const auto& [k, v] : md)
        if (!k.starts_with("typeformer.") || k == "typeformer.checkpoint")
            legacy += (legacy.empty() ? "" : ",") + tio::detail::json_string(k) + ":" +
                      tio::detail::json_string(v);
    legacy +=
        ",\"typeformer.model\":" + tio::detail::json_string(tio::detail::model_signature<model>());
    const auto old = with_metadata(image, legacy);
    const std::string old_file = interop::scratch("legacy.ckpt");
    {
        std::FILE* f = std::fopen(old_file.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(old.data(), 1, old.size(), f);
        std::fclose(f);
    }
    auto again = std::make_unique<model>();
    EXPECT_TRUE(tio::try_load_checkpoint(old_file, *again, *st));
    EXPECT_TRUE(tf::bit_equal(*again, *m));
    EXPECT_TRUE(
        contains(tio::try_load_checkpoint(old_file, *o, *ost).message, "H: file 2, model 4"));
    EXPECT_EQ(tio::checkpoint_model(old_file), tio::detail::model_signature<model>());
    EXPECT_EQ(tio::checkpoint_model(file), tio::detail::model_signature<model>());
}

}  // namespace
