// Helpers shared by the io tests: scratch paths, files as bytes, the Python oracle, and
// deterministic fillers for models.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/config.hpp>
#include <typeformer/params.hpp>
#include "support/paths.hpp"

#ifndef TYPEFORMER_PYTHON
#define TYPEFORMER_PYTHON "/usr/bin/python3"
#endif
#ifndef TYPEFORMER_TEST_SOURCE_DIR
#define TYPEFORMER_TEST_SOURCE_DIR "tests/io"
#endif
#ifndef TYPEFORMER_TEST_BINARY_DIR
#define TYPEFORMER_TEST_BINARY_DIR "."
#endif

namespace testutil {

namespace fs = std::filesystem;
namespace tf = typeformer;

// A fresh directory for the running test: <binary dir>/scratch/[device.]<suite>.<test> (a
// device build of a test source runs beside the host build, maybe at the same time).
inline fs::path scratch_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path dir = fs::path(TYPEFORMER_TEST_BINARY_DIR) / "scratch" /
                   (std::string(TYPEFORMER_DEVICE ? "device." : "") + info->test_suite_name() +
                    "." + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// The file's bytes (none if it cannot be opened), in one read: the failing-write test reads the
// file once per byte of it, and a character-wise istreambuf_iterator took most of its time at -O0.
inline std::vector<std::byte> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary | std::ios::ate);
    if (!in)
        return {};
    std::vector<std::byte> b(static_cast<std::size_t>(in.tellg()));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
    b.resize(static_cast<std::size_t>(in.gcount()));
    return b;
}

inline void write_bytes(const fs::path& p, const std::vector<std::byte>& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

inline void write_text(const fs::path& p, std::string_view s) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(s.data(), static_cast<std::streamsize>(s.size()));
}

inline std::string quote_arg(const std::string& s) {
    std::string r = "'";
    for (char c : s) {
        if (c == '\'')
            r += "'\\''";
        else
            r += c;
    }
    return r + "'";
}

// Runs tests/io/safetensors_ref.py with the PyTorch interpreter; returns its exit status.
inline int run_reference(const std::vector<std::string>& args) {
    std::string cmd = typeformer::testing::path_string(TYPEFORMER_PYTHON) + " " +
                      quote_arg(typeformer::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR) +
                                "/safetensors_ref.py");
    for (const auto& a : args)
        cmd += " " + quote_arg(a);
    return std::system(cmd.c_str());
}

// The value the Python reference and the C++ tests agree on for element k (row-major,
// in the file's shape) of the j-th tensor: a multiple of 1/64 in [-30/64, 30/64], exact
// in BF16, F16, F32 and F64.
inline double pattern(std::size_t j, std::size_t k) {
    return static_cast<double>(static_cast<long>((k * 7 + j * 13) % 61) - 30) / 64.0;
}

// Fills every leaf with pattern(j, r·|C| + c) at M(r, c) (through operator(), not through
// the library's index mapping), j counting leaves in walk order.
template <class Model>
void fill_pattern(Model& m) {
    std::size_t j = 0;
    tf::for_each_param(m, [&](const tf::param_name&, auto& p) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        using T = typename Leaf::value_type;
        if constexpr (tf::matrix<Leaf>) {
            constexpr std::size_t R = Leaf::rows_dim::size, C = Leaf::cols_dim::size;
            for (std::size_t r = 0; r < R; ++r)
                for (std::size_t c = 0; c < C; ++c)
                    p(r, c) = static_cast<T>(pattern(j, r * C + c));
        } else {
            for (std::size_t i = 0; i < Leaf::dim_type::size; ++i)
                p[i] = static_cast<T>(pattern(j, i));
        }
        ++j;
    });
}

// Every scalar ~ N(0, std²), including biases and gains (for gradients).
template <class Model>
void fill_normal(Model& m, std::uint64_t seed, double std_dev = 1.0) {
    tf::for_each_param(m, [&](const tf::param_name& name, auto& p) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        auto gen = tf::prng::stream_for(seed, name.view());
        tf::prng::normal_sampler normal;
        for (std::size_t i = 0; i < tf::leaf_elements<Leaf>; ++i)
            p.data()[i] = static_cast<typename Leaf::value_type>(std_dev * normal(gen));
    });
}

// The spec the Python reference reads: one line per tensor, "name dtype d0,d1,...".
template <class Model>
std::string spec_of(const Model& m, const std::vector<std::string>& dtypes) {
    std::string spec;
    std::size_t j = 0;
    tf::for_each_param(m, [&](const tf::param_name& name, const auto& p) {
        constexpr auto shape = tf::file_shape<decltype(p)>;
        spec += std::string(name.view()) + " " + dtypes[j++ % dtypes.size()] + " ";
        for (std::size_t i = 0; i < shape.rank; ++i)
            spec += (i ? "," : "") + std::to_string(shape.dims[i]);
        spec += "\n";
    });
    return spec;
}

inline bool contains(std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
}

// Files left in dir whose name contains ".tmp.".
inline std::vector<std::string> temp_files_in(const fs::path& dir) {
    std::vector<std::string> r;
    for (const auto& e : fs::directory_iterator(dir))
        if (contains(e.path().filename().string(), ".tmp."))
            r.push_back(e.path().string());
    return r;
}

}  // namespace testutil
