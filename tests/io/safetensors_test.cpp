// Safetensors save / load: round trips, an independent Python writer and reader, every
// bad-file case (with the model left bit-identical), and atomic saves.
#include <bit>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <typeformer/io/safetensors.hpp>
#include <typeformer/params.hpp>

#include "test_model.hpp"
#include "test_util.hpp"

namespace {

namespace tf = typeformer;
namespace tio = typeformer::io;
namespace fs = std::filesystem;
using testutil::contains;
using model_f = tiny::model<float>;
using model_d = tiny::model<double>;

std::span<const std::byte> as_span(const std::vector<std::byte>& v) {
    return {v.data(), v.size()};
}

// ---- round trips ----

TEST(Safetensors, RoundTripF32IsBitExact) {
    const auto dir = testutil::scratch_dir();
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    tf::init(*a, 1);
    a->W_e(0, 0) = -0.0f;  // sign of zero, subnormals, extremes survive
    a->W_e(1, 0) = 1e-40f;
    a->W_u(2, 3) = 3.4e38f;
    tio::save(*a, dir / "w.safetensors");
    tio::load(*b, dir / "w.safetensors");
    EXPECT_TRUE(tf::bit_equal(*a, *b));
    EXPECT_TRUE(std::signbit(b->W_e(0, 0)));
    EXPECT_TRUE(testutil::temp_files_in(dir).empty());
    // The file is the in-memory image.
    EXPECT_EQ(testutil::read_bytes(dir / "w.safetensors"), tio::save_state(*a));
}

TEST(Safetensors, RoundTripF64IsBitExact) {
    const auto dir = testutil::scratch_dir();
    auto a = std::make_unique<model_d>();
    auto b = std::make_unique<model_d>();
    tf::init(*a, 2);
    a->layers[1].attn.W_v(11, 6) = 1.0 / 3.0;  // not representable in F32
    tio::save(*a, dir / "w.safetensors", tio::dtype::f64);
    tio::load(*b, dir / "w.safetensors");
    EXPECT_TRUE(tf::bit_equal(*a, *b));
    // F64 → float model converts (round to nearest).
    auto f = std::make_unique<model_f>();
    tio::load(*f, dir / "w.safetensors");
    EXPECT_EQ(f->layers[1].attn.W_v(11, 6), 1.0f / 3.0f);
    // Default F32 from a double model rounds once.
    tio::save(*a, dir / "w32.safetensors");
    tio::load(*b, dir / "w32.safetensors");
    EXPECT_EQ(b->layers[1].attn.W_v(11, 6), static_cast<double>(1.0f / 3.0f));
}

TEST(Safetensors, HeaderIsAlignedAndInWalkOrder) {
    auto m = std::make_unique<model_f>();
    const auto bytes = tio::save_state(*m);
    std::uint64_t n = 0;
    for (int k = 0; k < 8; ++k)
        n |= std::to_integer<std::uint64_t>(bytes[k]) << (8 * k);
    EXPECT_EQ((8 + n) % 8, 0u);
    const std::string header(reinterpret_cast<const char*>(bytes.data() + 8), n);
    EXPECT_TRUE(
        header.starts_with(R"({"__metadata__":{"format":"pt"},"W_e":{"dtype":"F32","shape":[7,11],)"
                           R"("data_offsets":[0,308]},"W_p":)"))
        << header;
    EXPECT_TRUE(contains(header, R"("layers.0.attn.W_q":{"dtype":"F32","shape":[3,5,7],)"));
    EXPECT_TRUE(contains(header, R"("layers.1.attn.W_o":{"dtype":"F32","shape":[7,12],)"));
    EXPECT_TRUE(contains(header, R"("layers.1.attn.b_v":{"dtype":"F32","shape":[3,4],)"));
    EXPECT_LT(header.find("layers.0.mlp.b_2"), header.find("layers.1.ln1.gamma"));
    EXPECT_EQ(bytes.size(), 8 + n + 4 * tf::parameter_count<model_f>);
}

// ---- an independent writer and reader (tests/io/safetensors_ref.py: struct + json + torch) ----

TEST(Safetensors, LoadsAFileWrittenByPython) {
    const auto dir = testutil::scratch_dir();
    auto expect = std::make_unique<model_f>();
    testutil::fill_pattern(*expect);
    // Every dtype the loader converts from, cycling over the tensors.
    testutil::write_text(dir / "spec.txt",
                         testutil::spec_of(*expect, {"F32", "BF16", "F64", "F16"}));
    ASSERT_EQ(testutil::run_reference(
                  {"write", (dir / "spec.txt").string(), (dir / "py.safetensors").string()}),
              0);

    auto m = std::make_unique<model_f>();
    tio::load(*m, dir / "py.safetensors");
    EXPECT_TRUE(tf::bit_equal(*m, *expect));  // the pattern is exact in every dtype
    // The layout the file promises, spelled out for one W_q: file [h, i, c] is W_q(h·d_attn + i, c).
    // W_q of layer 0 is the 5th tensor (j = 4); its element (h, i, c) is row-major index (h·5 + i)·7 + c.
    EXPECT_EQ(m->layers[0].attn.W_q(1 * 5 + 2, 3),
              static_cast<float>(testutil::pattern(4, (1 * 5 + 2) * 7 + 3)));
    EXPECT_EQ(m->layers[0].attn.W_q(2 * 5 + 4, 6),
              static_cast<float>(testutil::pattern(4, (2 * 5 + 4) * 7 + 6)));

    auto d = std::make_unique<model_d>();
    tio::load(*d, dir / "py.safetensors");
    auto ed = std::make_unique<model_d>();
    testutil::fill_pattern(*ed);
    EXPECT_TRUE(tf::bit_equal(*d, *ed));
}

TEST(Safetensors, PythonReadsWhatWeSave) {
    const auto dir = testutil::scratch_dir();
    auto m = std::make_unique<model_f>();
    testutil::fill_pattern(*m);
    tio::save(*m, dir / "f32.safetensors");
    testutil::write_text(dir / "spec32.txt", testutil::spec_of(*m, {"F32"}));
    EXPECT_EQ(testutil::run_reference(
                  {"check", (dir / "spec32.txt").string(), (dir / "f32.safetensors").string()}),
              0);
    auto d = std::make_unique<model_d>();
    testutil::fill_pattern(*d);
    tio::save(*d, dir / "f64.safetensors", tio::dtype::f64);
    testutil::write_text(dir / "spec64.txt", testutil::spec_of(*d, {"F64"}));
    EXPECT_EQ(testutil::run_reference(
                  {"check", (dir / "spec64.txt").string(), (dir / "f64.safetensors").string()}),
              0);
}

TEST(Safetensors, HalfPrecisionConversions) {
    using tio::detail::bf16_to_float;
    using tio::detail::f16_to_float;
    EXPECT_EQ(f16_to_float(0x3C00), 1.0f);
    EXPECT_EQ(f16_to_float(0xC000), -2.0f);
    EXPECT_EQ(f16_to_float(0x7BFF), 65504.0f);
    EXPECT_EQ(f16_to_float(0x0001), 0x1p-24f);  // smallest subnormal
    EXPECT_EQ(f16_to_float(0x03FF), 1023 * 0x1p-24f);
    EXPECT_EQ(f16_to_float(0x0400), 0x1p-14f);  // smallest normal
    EXPECT_TRUE(std::signbit(f16_to_float(0x8000)));
    EXPECT_TRUE(std::isinf(f16_to_float(0x7C00)));
    EXPECT_TRUE(std::isnan(f16_to_float(0x7E00)));
    EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
    EXPECT_EQ(bf16_to_float(0xC0A0), -5.0f);
}

// ---- bad files ----

// A file built tensor by tensor, each piece overridable.
struct fake_tensor {
    std::string name, dtype = "F32";
    std::vector<std::uint64_t> shape;
    std::vector<std::byte> data;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> offsets;  // else where its data lands
    std::size_t pad_before = 0;                                      // junk bytes before its data
    bool omit_data = false;
};

std::vector<fake_tensor> tensors_of(const model_f& m) {
    std::vector<fake_tensor> ts;
    const auto image = tio::save_state(m);
    std::uint64_t n = 0;
    for (int k = 0; k < 8; ++k)
        n |= std::to_integer<std::uint64_t>(image[k]) << (8 * k);
    std::size_t at = 8 + n;
    tf::for_each_param(m, [&](const tf::param_name& name, const auto& p) {
        constexpr auto shape = tf::file_shape<decltype(p)>;
        fake_tensor t;
        t.name = name.view();
        t.shape.assign(shape.dims.begin(), shape.dims.end());
        t.data.assign(image.begin() + static_cast<std::ptrdiff_t>(at),
                      image.begin() + static_cast<std::ptrdiff_t>(at + 4 * shape.elements()));
        at += t.data.size();
        ts.push_back(std::move(t));
    });
    return ts;
}

std::vector<std::byte> raw_file(const std::string& header, const std::vector<std::byte>& data,
                                std::optional<std::uint64_t> header_len = std::nullopt) {
    std::vector<std::byte> f(8);
    const std::uint64_t n = header_len ? *header_len : header.size();
    for (int k = 0; k < 8; ++k)
        f[k] = static_cast<std::byte>(n >> (8 * k));
    for (char c : header)
        f.push_back(static_cast<std::byte>(c));
    f.insert(f.end(), data.begin(), data.end());
    return f;
}

std::vector<std::byte> build_file(const std::vector<fake_tensor>& ts,
                                  std::vector<std::byte> trailing = {}) {
    std::string h = R"({"__metadata__":{"format":"pt"})";
    std::vector<std::byte> data;
    for (const auto& t : ts) {
        data.resize(data.size() + t.pad_before, std::byte{0x5A});
        const std::uint64_t begin = data.size();
        if (!t.omit_data)
            data.insert(data.end(), t.data.begin(), t.data.end());
        const auto off =
            t.offsets ? *t.offsets : std::pair{begin, static_cast<std::uint64_t>(data.size())};
        h += fmt::format(R"(,"{}":{{"dtype":"{}","shape":[{}],"data_offsets":[{},{}]}})", t.name,
                         t.dtype, fmt::join(t.shape, ","), off.first, off.second);
    }
    h += '}';
    while (h.size() % 8)
        h += ' ';
    data.insert(data.end(), trailing.begin(), trailing.end());
    return raw_file(h, data);
}

fake_tensor& find(std::vector<fake_tensor>& ts, std::string_view name) {
    for (auto& t : ts)
        if (t.name == name)
            return t;
    throw std::runtime_error("no such tensor in the test model");
}

class BadFile : public ::testing::Test {
protected:
    void SetUp() override {
        auto source = std::make_unique<model_f>();
        tf::init(*source, 99);  // different values from the target: a partial copy would show
        good = tensors_of(*source);
        target = std::make_unique<model_f>();
        tf::init(*target, 7);
        snapshot = std::make_unique<model_f>();
        std::memcpy(static_cast<void*>(snapshot.get()), target.get(), sizeof(model_f));
    }

    // Rejected with `code`, every needle in the message, and the model bit-identical.
    void expect_rejected(const std::vector<std::byte>& file, tio::status code,
                         std::initializer_list<std::string_view> needles) {
        const auto r = tio::try_load_state(*target, as_span(file), "bad.safetensors");
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(static_cast<int>(r.code), static_cast<int>(code)) << r.message;
        EXPECT_TRUE(contains(r.message, "bad.safetensors")) << r.message;
        for (auto n : needles)
            EXPECT_TRUE(contains(r.message, n)) << "'" << n << "' not in: " << r.message;
        EXPECT_EQ(
            std::memcmp(static_cast<const void*>(snapshot.get()), target.get(), sizeof(model_f)), 0)
            << "the model changed";
        try {
            tio::load_state(*target, as_span(file), "bad.safetensors");
            ADD_FAILURE() << "load_state did not throw";
        } catch (const tio::error& e) {
            EXPECT_EQ(e.what(), r.message);
            EXPECT_EQ(e.code(), r.code);
        }
        EXPECT_EQ(
            std::memcmp(static_cast<const void*>(snapshot.get()), target.get(), sizeof(model_f)),
            0);
    }

    std::vector<fake_tensor> good;
    std::unique_ptr<model_f> target, snapshot;
};

TEST_F(BadFile, TheGoodFileLoads) {
    const auto r = tio::try_load_state(*target, as_span(build_file(good)));
    ASSERT_TRUE(r.ok()) << r.message;
    auto source = std::make_unique<model_f>();
    tf::init(*source, 99);
    EXPECT_TRUE(tf::bit_equal(*source, *target));
}

TEST_F(BadFile, MissingTensor) {
    auto ts = good;
    std::erase_if(ts, [](const fake_tensor& t) { return t.name == "layers.1.mlp.b_2"; });
    expect_rejected(build_file(ts), tio::status::missing_tensor,
                    {"missing tensor 'layers.1.mlp.b_2'", "[7]"});
}

TEST_F(BadFile, UnexpectedTensor) {
    auto ts = good;
    auto extra = find(ts, "ln_f.gamma");
    extra.name = "layers.2.ln1.gamma";
    ts.push_back(extra);
    expect_rejected(build_file(ts), tio::status::unexpected_tensor,
                    {"unexpected tensor 'layers.2.ln1.gamma'"});
}

TEST_F(BadFile, WrongShapeFlatW_q) {
    auto ts = good;
    find(ts, "layers.0.attn.W_q").shape = {15, 7};  // the stacked matrix, not [H, d_attn, d_e]
    expect_rejected(
        build_file(ts), tio::status::shape_mismatch,
        {"tensor 'layers.0.attn.W_q'", "shape [15, 7] in the file", "expected [3, 5, 7]"});
}

TEST_F(BadFile, WrongShapeTransposedW_o) {
    auto ts = good;
    find(ts, "layers.1.attn.W_o").shape = {12, 7};
    expect_rejected(build_file(ts), tio::status::shape_mismatch,
                    {"tensor 'layers.1.attn.W_o'", "[12, 7]", "expected [7, 12]"});
}

TEST_F(BadFile, UnsupportedDtype) {
    auto ts = good;
    find(ts, "ln_f.gamma").dtype = "I32";  // same byte size, not a float type
    expect_rejected(build_file(ts), tio::status::bad_dtype,
                    {"tensor 'ln_f.gamma'", "dtype I32 is not supported"});
}

TEST_F(BadFile, UnknownDtype) {
    auto ts = good;
    find(ts, "W_p").dtype = "F33";
    expect_rejected(build_file(ts), tio::status::bad_dtype,
                    {"tensor 'W_p'", "unknown dtype 'F33'"});
}

TEST_F(BadFile, DtypeDisagreesWithDataSize) {
    auto ts = good;
    find(ts, "layers.0.ln2.beta").dtype = "F64";  // 7 F64 need 56 bytes, the range holds 28
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"tensor 'layers.0.ln2.beta'", "hold 28 bytes", "needs 56"});
}

TEST_F(BadFile, OffsetsPastTheEnd) {
    auto ts = good;
    auto& t = find(ts, "W_u");
    const std::uint64_t begin = 4 * (tf::parameter_count<model_f> - 77);
    t.offsets = std::pair{begin, begin + 308 + 4};
    t.shape = {11, 7};
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"tensor 'W_u'", "past the end of the data"});
}

TEST_F(BadFile, OffsetsBeginAfterEnd) {
    auto ts = good;
    find(ts, "layers.0.attn.b_k").offsets = std::pair{std::uint64_t{900}, std::uint64_t{840}};
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"tensor 'layers.0.attn.b_k'", "begin after end"});
}

TEST_F(BadFile, OffsetsHugeDoNotOverflow) {
    auto ts = good;
    find(ts, "layers.0.attn.b_k").offsets = std::pair{~std::uint64_t{0} - 10, ~std::uint64_t{0}};
    find(ts, "layers.0.attn.b_q").shape = {4611686018427387904ull, 4};  // 2^62·4·4 bytes overflows
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"tensor 'layers.0.attn.b_k'", "tensor 'layers.0.attn.b_q'", "more than 2^64"});
}

TEST_F(BadFile, OverlappingData) {
    auto ts = good;
    auto& gamma = find(ts, "layers.1.ln2.gamma");
    const auto* gp = &gamma;
    std::uint64_t begin = 0;
    for (const auto& t : ts) {
        if (&t == gp)
            break;
        begin += t.data.size();
    }
    auto& beta = find(ts, "layers.1.ln2.beta");
    beta.offsets = std::pair{begin, begin + 28};  // gamma's bytes
    beta.omit_data = true;
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"layers.1.ln2.beta", "overlap", "layers.1.ln2.gamma"});
}

TEST_F(BadFile, HoleInTheData) {
    auto ts = good;
    find(ts, "layers.0.mlp.W_1").pad_before = 4;
    expect_rejected(build_file(ts), tio::status::bad_offsets,
                    {"tensor 'layers.0.mlp.W_1'", "leave 4 unused bytes before it"});
}

TEST_F(BadFile, TrailingBytes) {
    expect_rejected(build_file(good, std::vector<std::byte>(12, std::byte{1})),
                    tio::status::bad_offsets, {"12 bytes after the last tensor"});
}

TEST_F(BadFile, TruncatedFile) {
    auto f = build_file(good);
    f.resize(f.size() - 10);
    expect_rejected(f, tio::status::bad_offsets,
                    {"tensor 'W_u'", "past the end of the data", "truncated"});
    f.resize(f.size() - 4 * tf::parameter_count<model_f> + 100);  // into the middle of the data
    expect_rejected(
        f, tio::status::bad_offsets,
        {"2 problems", "tensor 'W_e': data_offsets [0, 308] past the end of the data (90 bytes",
         "36 more tensors lie past the end"});
}

TEST_F(BadFile, ShorterThanTheLengthField) {
    for (std::size_t n = 0; n < 8; ++n)
        expect_rejected(std::vector<std::byte>(n, std::byte{0}), tio::status::malformed_header,
                        {"too short"});
}

TEST_F(BadFile, HeaderLengthLargerThanTheFile) {
    const auto f = build_file(good);
    expect_rejected(raw_file("{}      ", {}, 9), tio::status::malformed_header,
                    {"header length 9 is larger"});
    auto g = f;
    g[7] = std::byte{0x80};  // 2^63 + n
    expect_rejected(g, tio::status::malformed_header, {"is larger than the file"});
    expect_rejected(raw_file("", {}, 0), tio::status::malformed_header, {"header length 0"});
}

TEST_F(BadFile, HeaderNotUtf8) {
    auto ts = good;
    for (const char* bad :
         {"W_\xff", "W_\xc0\xaf", "W_\xed\xa0\x80", "W_\xf4\x90\x80\x80", "W_\xe2\x82"}) {
        auto t2 = ts;
        find(t2, "W_e").name = bad;
        expect_rejected(build_file(t2), tio::status::malformed_header,
                        {"not valid UTF-8", "header byte"});
    }
}

TEST_F(BadFile, MalformedHeaders) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const std::string ok_entry = R"("W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308]})";
    const std::vector<std::pair<std::string, std::string_view>> cases = {
        {"        ", "not a JSON object"},
        {"[]", "not a JSON object"},
        {"{ ", "expected a tensor name"},
        {"{", "header length 1 is not sane"},
        {"{\"W_e\"}", "expected ':'"},
        {"{\"W_e\":1}", "expected an object"},
        {"{\"W_e\":{}}", "no \"dtype\""},
        {"{" + ok_entry + ",}", "expected a tensor name"},
        {"{" + ok_entry + "}x", "unexpected bytes after"},
        {"{" + ok_entry + "}{}", "unexpected bytes after"},
        {"{\"W_e", "unterminated string"},
        {"{\"W\\q\":1}", "invalid escape"},
        {"{\"W\\ud800x\":1}", "lone high surrogate"},
        {"{\"W\\udc00\":1}", "lone low surrogate"},
        {"{\"W\\u12\":1}", "bad hex digit"},
        {std::string("{\"W\x01\":1}"), "control character"},
        {std::string("{\"W_e\":{\"dtype\":\"F32\"") + '\0' + "}}", "expected ',' or '}'"},
        {R"({"W_e":{"dtype":"F32","shape":[07,11],"data_offsets":[0,308]}})", "leading zero"},
        {R"({"W_e":{"dtype":"F32","shape":[-7,11],"data_offsets":[0,308]}})", "is negative"},
        {R"({"W_e":{"dtype":"F32","shape":[7.0,11],"data_offsets":[0,308]}})", "not an integer"},
        {R"({"W_e":{"dtype":"F32","shape":[7e0,11],"data_offsets":[0,308]}})", "not an integer"},
        {R"({"W_e":{"dtype":"F32","shape":["7",11],"data_offsets":[0,308]}})",
         "not a non-negative integer"},
        {R"({"W_e":{"dtype":"F32","shape":[18446744073709551616],"data_offsets":[0,308]}})",
         "too large"},
        {R"({"W_e":{"dtype":"F32","shape":7,"data_offsets":[0,308]}})", "must be an array"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308,4]}})",
         "must be [begin, end]"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0]}})", "must be [begin, end]"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11]}})", "no \"data_offsets\""},
        {R"({"W_e":{"shape":[7,11],"data_offsets":[0,308]}})", "no \"dtype\""},
        {R"({"W_e":{"dtype":32,"shape":[7,11],"data_offsets":[0,308]}})",
         "\"dtype\" must be a string"},
        {R"({"W_e":{"dtype":"F32","dtype":"F32","shape":[7,11],"data_offsets":[0,308]}})",
         "duplicate \"dtype\""},
        {R"({"W_e":{"dtype":"F32","shape":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"data_offsets":[0,4]}})",
         "too many entries"},
        {R"({"__metadata__":{"format":1}})", "values must be strings"},
        {R"({"__metadata__":[]})", "must be an object"},
        {R"({"__metadata__":{},"__metadata__":{}})", "duplicate \"__metadata__\""},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308],"x":)" + deep + "}}",
         "nested too deeply"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308],"x":tru}})",
         "invalid JSON value"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308],"x":01}})",
         "expected ',' or '}'"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308],"x":-}})",
         "invalid number"},
        {R"({"W_e":{"dtype":"F32","shape":[7,11],"data_offsets":[0,308],"x":[1,]}})",
         "invalid JSON value"},
        {"{" + ok_entry + "," + ok_entry + "}", "tensor 'W_e' appears twice"},
    };
    for (const auto& [header, needle] : cases) {
        SCOPED_TRACE(header.substr(0, 120));
        expect_rejected(raw_file(header, std::vector<std::byte>(308)),
                        tio::status::malformed_header, {needle});
    }
}

// NaN and ±∞ are rejected by default (status non_finite, the tensor and the index named, the
// model unchanged), F64 values too large for a float model too; non_finite_values::accept
// loads them when the caller asks.
TEST_F(BadFile, NonFiniteValuesAreRejected) {
    auto put_f32 = [](fake_tensor& t, std::size_t k, float v) {
        const auto u = std::bit_cast<std::uint32_t>(v);
        for (int b = 0; b < 4; ++b)
            t.data[4 * k + b] = static_cast<std::byte>(u >> (8 * b));
    };
    auto ts = good;
    put_f32(find(ts, "W_u"), 5, std::numeric_limits<float>::quiet_NaN());
    expect_rejected(build_file(ts), tio::status::non_finite,
                    {"W_u", "1 non-finite value", "flat index 5", "non_finite_values::accept"});
    ts = good;
    put_f32(find(ts, "W_e"), 0, -std::numeric_limits<float>::infinity());
    put_f32(find(ts, "W_e"), 3, std::numeric_limits<float>::infinity());
    expect_rejected(build_file(ts), tio::status::non_finite, {"W_e", "2 non-finite values"});

    // F16 ∞ (0x7C00) and an F64 1e300, which overflows the float model.
    ts = good;
    auto& w = find(ts, "W_e");
    w.dtype = "F16";
    w.data.assign(w.data.size() / 2, std::byte{0});
    w.data[2 * 4 + 1] = std::byte{0x7C};
    expect_rejected(build_file(ts), tio::status::non_finite, {"W_e", "flat index 4"});
    ts = good;
    auto& u = find(ts, "W_u");
    u.dtype = "F64";
    u.data.assign(u.data.size() * 2, std::byte{0});
    const auto big = std::bit_cast<std::uint64_t>(1e300);
    for (int b = 0; b < 8; ++b)
        u.data[8 * 2 + b] = static_cast<std::byte>(big >> (8 * b));
    expect_rejected(build_file(ts), tio::status::non_finite, {"W_u", "too large"});

    // Accepted on request: the values arrive as they are.
    ts = good;
    put_f32(find(ts, "W_u"), 5, std::numeric_limits<float>::quiet_NaN());
    const auto file = build_file(ts);
    const auto r = tio::try_load_state(*target, as_span(file), "nan.safetensors", nullptr,
                                       tio::non_finite_values::accept);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_TRUE(
        std::isnan(target->W_u.data()[tf::file_to_storage_index<decltype(target->W_u)>(5)]));
}

TEST_F(BadFile, UnknownFieldsAndEscapesAreAccepted) {
    // Unknown fields inside a tensor entry are ignored; escaped names decode (here to "W_e").
    auto ts = good;
    auto f = build_file(ts);
    std::string h(reinterpret_cast<const char*>(f.data() + 8),
                  f.size() - 8 - 4 * tf::parameter_count<model_f>);
    const auto at = h.find("\"W_e\":{");
    h.replace(at, 7, R"("W\u005fe":{"note":{"a":[1,-2.5e3,true,null,"\u00e9\ud83d\ude00"]},)");
    while (h.size() % 8)
        h += ' ';
    std::vector<std::byte> data(
        f.end() - static_cast<std::ptrdiff_t>(4 * tf::parameter_count<model_f>), f.end());
    const auto r = tio::try_load_state(*target, as_span(raw_file(h, data)));
    EXPECT_TRUE(r.ok()) << r.message;
}

TEST_F(BadFile, ManyProblemsAreListedTogether) {
    auto ts = good;
    std::erase_if(ts, [](const fake_tensor& t) { return t.name.starts_with("layers.1."); });
    const auto r = tio::try_load_state(*target, as_span(build_file(ts)), "x");
    EXPECT_EQ(r.code, tio::status::missing_tensor);
    EXPECT_TRUE(contains(r.message, "16 problems")) << r.message;
    EXPECT_TRUE(contains(r.message, "layers.1.mlp.b_2")) << r.message;
}

TEST_F(BadFile, ErrorsNameTheFile) {
    const auto dir = testutil::scratch_dir();
    auto ts = good;
    find(ts, "layers.1.attn.W_k").shape = {5, 3, 7};
    testutil::write_bytes(dir / "odd name.safetensors", build_file(ts));
    try {
        tio::load(*target, dir / "odd name.safetensors");
        ADD_FAILURE() << "no throw";
    } catch (const tio::error& e) {
        EXPECT_TRUE(contains(e.what(), "odd name.safetensors")) << e.what();
        EXPECT_TRUE(
            contains(e.what(),
                     "tensor 'layers.1.attn.W_k': shape [5, 3, 7] in the file, expected [3, 5, 7]"))
            << e.what();
    }
    const auto r = tf::io::try_load(*target, dir / "does-not-exist.safetensors");
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "does-not-exist.safetensors")) << r.message;
    // Truncated on disk: caught from the file size before any tensor data is read.
    auto f = build_file(good);
    f.resize(f.size() - 1);
    testutil::write_bytes(dir / "cut.safetensors", f);
    const auto c = tio::try_load(*target, dir / "cut.safetensors");
    EXPECT_EQ(c.code, tio::status::bad_offsets);
    EXPECT_TRUE(contains(c.message, "tensor 'W_u'")) << c.message;
    testutil::write_bytes(dir / "short.safetensors", std::vector<std::byte>(5));
    EXPECT_EQ(tio::try_load(*target, dir / "short.safetensors").code,
              tio::status::malformed_header);
    EXPECT_EQ(tio::try_load(*target, dir).code, tio::status::io_error);  // a directory
    EXPECT_EQ(std::memcmp(static_cast<const void*>(snapshot.get()), target.get(), sizeof(model_f)),
              0);
}

// Random damage to a valid file: never a crash (run under ASan/UBSan), and on error the
// model is untouched.
TEST_F(BadFile, MutationFuzz) {
    const auto base = build_file(good);
    std::uint64_t n = 0;
    for (int k = 0; k < 8; ++k)
        n |= std::to_integer<std::uint64_t>(base[k]) << (8 * k);
    tf::prng::xoshiro256ss rng(2024);
    int rejected = 0;
    for (int it = 0; it < 3000; ++it) {
        auto f = base;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const auto kind = rng() % 6;
            const std::size_t at = 8 + static_cast<std::size_t>(rng() % n);  // mostly the header
            if (kind == 0 && at < f.size())
                f[at] = static_cast<std::byte>(rng());
            else if (kind == 1 && at < f.size())
                f[at] ^= static_cast<std::byte>(1u << (rng() % 8));
            else if (kind == 2)
                f.resize(static_cast<std::size_t>(rng() % f.size()));
            else if (kind == 3 && at < f.size())
                f.erase(f.begin() + static_cast<std::ptrdiff_t>(at));
            else if (kind == 4 && at < f.size())
                f.insert(f.begin() + static_cast<std::ptrdiff_t>(at), std::byte{'['});
            else if (kind == 5)
                f[rng() % 8] = static_cast<std::byte>(rng());
            if (f.size() <= 8)
                break;
        }
        const auto r = tio::try_load_state(*target, as_span(f));
        if (!r.ok()) {
            ++rejected;
            EXPECT_FALSE(r.message.empty());
            ASSERT_EQ(std::memcmp(static_cast<const void*>(snapshot.get()), target.get(),
                                  sizeof(model_f)),
                      0)
                << "iteration " << it << ": " << r.message;
        } else {
            std::memcpy(static_cast<void*>(target.get()), snapshot.get(), sizeof(model_f));
        }
    }
    EXPECT_GT(rejected, 2000);
}

TEST(SafetensorsLoad, AMissingFileChangesNothing) {
    const auto dir = testutil::scratch_dir();
    auto m = std::make_unique<model_f>();
    tf::init(*m, 3);
    const auto m0 = std::make_unique<model_f>(*m);
    const auto r = tio::try_load(*m, dir / "absent.safetensors");
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "absent.safetensors")) << r.message;
    EXPECT_TRUE(contains(r.message, "No such file")) << r.message;
    EXPECT_THROW(tio::load(*m, dir / "absent.safetensors"), tio::error);
    EXPECT_TRUE(tf::bit_equal(*m, *m0));
}

// A FIFO given as a weights file is refused at once (it was opened with fopen, which waits for a
// writer forever), and so is a folder, each saying what it is; the model is unchanged. If a
// reader does wait, the test opens the FIFO's other end to release it, then fails.
TEST(SafetensorsLoad, AFifoOrAFolderIsRefusedWithoutWaiting) {
    const auto dir = testutil::scratch_dir();
    const fs::path fifo = dir / "pipe.safetensors";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto m = std::make_unique<model_f>();
    tf::init(*m, 3);
    const auto m0 = std::make_unique<model_f>(*m);
    auto at_once = [&](auto&& read) {
        auto done = std::async(std::launch::async, read);
        if (done.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
            ADD_FAILURE() << "the reader waits on the FIFO";
            const int fd = ::open(fifo.c_str(), O_WRONLY);  // its writer: the reader goes on
            if (fd >= 0)
                ::close(fd);
        }
        return done.get();
    };
    auto r = at_once([&] { return tio::try_load(*m, fifo); });
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "is a named pipe (FIFO), not a file")) << r.message;
    tio::metadata md;
    r = at_once([&] { return tio::try_read_metadata(fifo, md); });
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "named pipe")) << r.message;
    r = tio::try_load(*m, dir);
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "is a directory, not a file")) << r.message;
    r = tio::try_read_metadata(dir, md);
    EXPECT_TRUE(contains(r.message, "is a directory")) << r.message;
    EXPECT_TRUE(tf::bit_equal(*m, *m0));
}

// ---- atomic save ----

TEST(SafetensorsSave, IntoAMissingDirectoryFailsCleanly) {
    const auto dir = testutil::scratch_dir();
    auto m = std::make_unique<model_f>();
    const auto path = dir / "no-such-dir" / "w.safetensors";
    const auto r = tio::try_save(*m, path);
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "no-such-dir")) << r.message;
    EXPECT_FALSE(fs::exists(dir / "no-such-dir"));
    EXPECT_THROW(tio::save(*m, path), tio::error);
    EXPECT_THROW(tf::save(*m, path), std::runtime_error);
}

TEST(SafetensorsSave, ReplacesAnExistingFileAndLeavesNoTemp) {
    const auto dir = testutil::scratch_dir();
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    tf::init(*a, 1);
    tf::init(*b, 2);
    const auto path = dir / "w.safetensors";
    tf::save(*a, path);
    tf::save(*b, path);
    auto c = std::make_unique<model_f>();
    tf::load(*c, path);
    EXPECT_TRUE(tf::bit_equal(*b, *c));
    EXPECT_TRUE(testutil::temp_files_in(dir).empty());
}

// The model of the failing-write test: one save per byte of its image, so the image is kept
// small (~4.9 KB; with model_f's image the test took 35 s under asan-ubsan-scalar, now 2.4 s),
// yet larger than one stdio buffer (st_blksize, checked below), so the write fails both inside
// an fwrite that flushes a full buffer and in the final fflush; two tensors, so the header, the
// first tensor's data and the second's are each cut somewhere.
struct write_model {
    using w = tf::mat<float, tf::d_mlp<24>, tf::d_e<48>>;  // 4608 bytes
    using b = tf::vec<float, tf::d_mlp<24>>;
    BOOST_HANA_DEFINE_STRUCT(write_model, (w, W_1), (b, b_1));
};

// A write that fails after N bytes, for every N short of the whole file: the old file stays
// byte for byte, no temporary file is left, and the error says so.
TEST(SafetensorsSave, AWriteFailingAfterAnyNumberOfBytesLosesNothing) {
    const auto dir = testutil::scratch_dir();
    auto a = std::make_unique<write_model>();
    auto b = std::make_unique<write_model>();
    tf::init(*a, 1);
    tf::init(*b, 2);
    const auto path = dir / "w.safetensors";
    tf::save(*a, path);
    const auto old_bytes = testutil::read_bytes(path);
    const std::size_t size = tio::save_state(*b).size();
    ASSERT_LT(size, 6000u) << "one save per byte: the test model should stay small";
    struct stat st {};
    ASSERT_EQ(::stat(dir.c_str(), &st), 0);
    ASSERT_GT(size, static_cast<std::size_t>(st.st_blksize))
        << "the image should span more than one stdio buffer";

    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
    std::size_t failed = 0;
    for (std::size_t n = 0; n < size; ++n) {
        rlimit small = saved;
        small.rlim_cur = n;
        ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
        const auto r = tio::try_save(*b, path);
        setrlimit(RLIMIT_FSIZE, &saved);
        if (r.code != tio::status::io_error || !contains(r.message, "write error") ||
            testutil::read_bytes(path) != old_bytes || !testutil::temp_files_in(dir).empty()) {
            ADD_FAILURE() << "write failing after " << n << " bytes: " << r.message;
            break;
        }
        ++failed;
    }
    std::signal(SIGXFSZ, old_handler);
    EXPECT_EQ(failed, size);
    // And the model loaded from the intact file is a; with the limit lifted, b saves.
    auto c = std::make_unique<write_model>();
    tf::load(*c, path);
    EXPECT_TRUE(tf::bit_equal(*a, *c));
    ASSERT_TRUE(tio::try_save(*b, path).ok());
    tf::load(*c, path);
    EXPECT_TRUE(tf::bit_equal(*b, *c));
}

// A writer killed (SIGKILL) at any moment of a save: the file at the path is always a whole
// image, the old one or the new one, never a mixture or a torn file (the write goes to a
// temporary file, fsync'ed, then renamed). A killed writer may leave its temporary file behind.
TEST(SafetensorsSave, AKilledWriterLeavesTheOldOrTheNewFile) {
    const auto dir = testutil::scratch_dir();
    auto a = std::make_unique<model_f>();
    auto b = std::make_unique<model_f>();
    tf::init(*a, 1);
    tf::init(*b, 2);
    const auto path = dir / "w.safetensors";
    tf::save(*a, path);
    const auto image_a = tio::save_state(*a), image_b = tio::save_state(*b);
    std::size_t saw_b = 0;
    for (int trial = 0; trial < 20; ++trial) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {  // save b, a, b, … until killed
            for (int k = 0;; ++k)
                (void)tio::try_save(k % 2 ? *a : *b, path);
        }
        ::usleep(static_cast<useconds_t>(1000 + 997 * trial % 15000));
        ::kill(child, SIGKILL);
        int wstatus = 0;
        ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
        const auto bytes = testutil::read_bytes(path);
        ASSERT_TRUE(bytes == image_a || bytes == image_b) << "trial " << trial << ": a torn file";
        saw_b += bytes == image_b;
        auto c = std::make_unique<model_f>();
        ASSERT_TRUE(tio::try_load(*c, path).ok());
    }
    RecordProperty("new_file_seen", static_cast<int>(saw_b));
}

TEST(SafetensorsSave, OverADirectoryFailsAndCleansUp) {
    const auto dir = testutil::scratch_dir();
    fs::create_directory(dir / "w.safetensors");
    fs::create_directory(dir / "w.safetensors" / "inside");
    auto m = std::make_unique<model_f>();
    const auto r = tio::try_save(*m, dir / "w.safetensors");
    EXPECT_EQ(r.code, tio::status::io_error);
    EXPECT_TRUE(contains(r.message, "rename")) << r.message;
    EXPECT_TRUE(fs::is_directory(dir / "w.safetensors" / "inside"));
    EXPECT_TRUE(testutil::temp_files_in(dir).empty());
}

TEST(SafetensorsSave, OnlyF32AndF64AreWritten) {
    const auto dir = testutil::scratch_dir();
    auto m = std::make_unique<model_f>();
    const auto r = tio::try_save(*m, dir / "w.safetensors", tio::dtype::bf16);
    EXPECT_EQ(r.code, tio::status::bad_dtype);
    EXPECT_FALSE(fs::exists(dir / "w.safetensors"));
}

}  // namespace
