// What the interop tests share: scratch paths, running the Python side (TYPEFORMER_PYTHON: the
// reference GPTs of gpt_ref.py and the bridge tools/typeformer_torch.py), comparing logits.
#pragma once

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/typeformer.hpp>

#include "support/oracle.hpp"
#include "support/paths.hpp"

namespace interop {

namespace tf = typeformer;

inline std::string scratch(const std::string& name) {
    // Not string + "/" + name: GCC 12 -Warray-bounds flags that inlined chain (PR 105651).
    std::string path = tf::testing::path_string(TYPEFORMER_TEST_BINARY_DIR);
    path += '/';
    path += name;
    return path;
}

// `/usr/bin/python3 <script> args…` where script is gpt_ref.py (this folder) or "bridge"
// (tools/typeformer_torch.py); throws with the command when it fails.
inline void python(const std::string& script, const std::string& args) {
    std::string cmd = tf::testing::path_string(TYPEFORMER_PYTHON);
    cmd += ' ';
    if (script == "bridge") {
        cmd += tf::testing::path_string(TYPEFORMER_TESTS_DIR);
        cmd += "/../tools/typeformer_torch.py";
    } else {
        cmd += tf::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR);
        cmd += '/';
        cmd += script;
    }
    cmd += ' ';
    cmd += args;
    if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("failed: " + cmd);
}

inline std::string ids(const std::vector<tf::token>& t) {
    std::string s;
    for (auto v : t) {
        s += ' ';
        s += std::to_string(v);
    }
    return s;
}

// Logits out(i, t) (typeformer's (N_V, ℓ)) against a reference's [t, i], per entry within
// 1e-4 + 1e-4·|w|.
template <class Out>
void expect_close(const Out& out, std::size_t T, std::size_t N_V, const std::vector<double>& ref,
                  const std::string& what) {
    ASSERT_EQ(ref.size(), T * N_V) << what;
    int bad = 0;
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t i = 0; i < N_V; ++i) {
            const double want = ref[t * N_V + i], got = out(i, t);
            if (!(std::abs(got - want) <= 1e-4 + 1e-4 * std::abs(want)) && bad++ < 5)
                ADD_FAILURE() << what << " logit (" << i << ", " << t << "): " << got << " vs "
                              << want;
        }
    EXPECT_EQ(bad, 0) << what;
}

// The model's logits on x against a reference's.
template <class Model>
void expect_logits(const Model& model, const std::vector<tf::token>& x,
                   const std::vector<double>& ref, const std::string& what = "") {
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    expect_close(tf::logits(model, x, *ws), x.size(), Model::traits::N_V::size, ref, what);
}

inline std::vector<double> logits_file(const std::string& path) {
    return tf::testing::read_bundle(path).at("logits").data;
}

// Every parameter random (init leaves biases 0 and γ 1, which would hide mix-ups).
template <class Model>
void randomise(Model& m, unsigned seed = 5) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> n(0.0f, 0.5f);
    tf::for_each_param(m, [&](const tf::param_name&, auto& p) {
        for (std::size_t k = 0; k < sizeof(p.elems) / sizeof(p.elems[0]); ++k)
            p.data()[k] = n(gen);
    });
}

inline bool contains(const std::string& s, const std::string& needle) {
    return s.find(needle) != std::string::npos;
}

}  // namespace interop
