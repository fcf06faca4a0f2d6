// The export round trip: the headers export_header_gen wrote, compiled here, hold exactly the
// models it exported (the same models, built again in memory with the same seeds, are the
// oracle): every scalar's bits for the float and double models of every architecture and
// variant, every byte of the int8 ones. Each header is instantiated with the test's own model
// type, whose config struct has another name (and a reordered, partial set of members): what
// deploy::exported_as accepts when the signatures are equal.
#include <cstring>
#include <memory>
#include <type_traits>

#include <gtest/gtest.h>

#include "d_double.hpp"
#include "d_plain.hpp"
#include "d_variants.hpp"
#include "e_plain.hpp"
#include "ed_variants.hpp"
#include "models.hpp"
#include "q8_plain.hpp"
#include "q8_variants.hpp"

using namespace roundtrip;

namespace {

template <class Model>
std::unique_ptr<Model> made(std::uint64_t seed) {
    auto m = std::make_unique<Model>();
    tf::init(*m, seed);
    return m;
}
template <class Float>
std::unique_ptr<tf::q8<Float>> quantized(std::uint64_t seed) {
    auto q = std::make_unique<tf::q8<Float>>();
    tf::quantize(*made<Float>(seed), *q);
    return q;
}

// The exported objects are constant-initialised: static storage, like a firmware's flash.
static_assert(std::is_same_v<decltype(d_plain_weights<d_plain>), const d_plain>);
static_assert(!std::is_same_v<d_plain_weights_type, d_plain>);  // another config struct
static_assert(d_plain_weights_config::d_f == 7 && d_variants_weights_config::eps == 1e-6);

}  // namespace

TEST(ExportHeader, FloatModelsRoundTripBitForBit) {
    EXPECT_TRUE(tf::bit_equal(d_plain_weights<d_plain>, *made<d_plain>(1)));
    EXPECT_TRUE(tf::bit_equal(d_variants_weights<d_variants>, *made<d_variants>(2)));
    EXPECT_TRUE(tf::bit_equal(d_double_weights<d_double>, *made<d_double>(3)));
    EXPECT_TRUE(tf::bit_equal(e_plain_weights<e_plain>, *made<e_plain>(4)));
    EXPECT_TRUE(tf::bit_equal(ed_variants_weights<ed_variants>, *made<ed_variants>(5)));
    // and an object that differs is seen to differ
    EXPECT_FALSE(tf::bit_equal(d_plain_weights<d_plain>, *made<d_plain>(2)));
}

TEST(ExportHeader, Int8ModelsRoundTripByteForByte) {
    // value-initialised and constant-initialised objects both have zero padding
    EXPECT_EQ(
        std::memcmp(&q8_plain_weights<q8_plain>, quantized<d_plain>(1).get(), sizeof(q8_plain)), 0);
    EXPECT_EQ(std::memcmp(&q8_variants_weights<q8_variants>, quantized<d_variants>(2).get(),
                          sizeof(q8_variants)),
              0);
    EXPECT_NE(
        std::memcmp(&q8_plain_weights<q8_plain>, quantized<d_plain>(9).get(), sizeof(q8_plain)), 0);
}

TEST(ExportHeader, SignatureIsTheCheckpointsModelSignature) {
    // A GPT's signature fills the fields its architecture does not use (L_enc = L_dec = L,
    // d_f = d_e: io/signature.hpp's fill_unused), whatever its config struct says of them.
    EXPECT_STREQ(d_plain_weights_signature,
                 "DTransformer<f32> N_V=13 l_max=9 L=2 L_enc=2 L_dec=2 H=3 d_e=10 d_mlp=14 "
                 "d_attn=4 d_mid=5 d_f=10 norm=0 positional=0 tied=0 gelu=0 "
                 "eps=1.0000000000000001e-05");
    EXPECT_STREQ(q8_variants_weights_signature,
                 "DTransformer<f32> N_V=7 l_max=5 L=1 L_enc=1 L_dec=1 H=1 d_e=5 d_mlp=3 d_attn=2 "
                 "d_mid=7 d_f=5 norm=1 positional=1 tied=1 gelu=1 eps=9.9999999999999995e-07 "
                 "int8");
}
