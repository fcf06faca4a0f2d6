// What the interop tests share: scratch paths, the Python side (TYPEFORMER_PYTHON: the reference
// GPTs of gpt_ref.py and the bridge tools/typeformer_torch.py, one process per binary), comparing
// logits.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

// The Python side of test_interop runs in one process for the whole binary (jobs.py: torch is
// imported once, not once per command). Each test file writes the inputs of its tests and lists
// their commands in a setup function, registered with python_setup; the test
// PythonOracle.RunsOnceForTheBinary (ctest's FIXTURES_SETUP for every other test of the binary)
// runs them all, and each test calls use_python_setup() first, which runs them itself when the
// binary is run by hand (no stamp newer than the binary).
class python_jobs {
public:
    // One command: "gpt_ref <command> <args>", "torch_bridge_ref <args>", "bridge <args>",
    // "ddp_ref <args>" (jobs.py).
    void operator()(const std::string& line) { lines_.push_back(line); }
    // A command that must fail: its message goes to err_file.
    void fails(const std::string& err_file, const std::string& line) {
        lines_.push_back("fails " + err_file + " " + line);
    }
    // `TYPEFORMER_PYTHON jobs.py <job file>`; throws with the command when it fails.
    void run(const std::string& job_file) const {
        {
            std::FILE* f = std::fopen(job_file.c_str(), "w");
            if (!f)
                throw std::runtime_error("cannot write " + job_file);
            for (const auto& l : lines_)
                std::fprintf(f, "%s\n", l.c_str());
            std::fclose(f);
        }
        std::string cmd = tf::testing::path_string(TYPEFORMER_PYTHON);
        cmd += ' ';
        cmd += tf::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR);
        cmd += "/jobs.py ";
        cmd += job_file;
        if (std::system(cmd.c_str()) != 0)
            throw std::runtime_error("failed: " + cmd);
    }

private:
    std::vector<std::string> lines_;
};

using setup_function = void (*)(python_jobs&);

inline std::vector<setup_function>& setup_functions() {
    static std::vector<setup_function> all;
    return all;
}

// At namespace scope in a test file: `const bool registered = interop::python_setup(&setup);`.
inline bool python_setup(setup_function f) {
    setup_functions().push_back(f);
    return true;
}

inline std::string setup_stamp() {
    return scratch("python_setup.done");
}

// Every registered setup function, then one Python process for all their commands.
inline void run_python_setup() {
    std::filesystem::remove(setup_stamp());
    python_jobs jobs;
    for (const setup_function f : setup_functions())
        f(jobs);
    jobs.run(scratch("python_setup.jobs"));
    std::FILE* f = std::fopen(setup_stamp().c_str(), "w");
    if (!f)
        throw std::runtime_error("cannot write " + setup_stamp());
    std::fclose(f);
}

// The setup's files, made by the fixture (or here, once per process, when its stamp is older
// than this binary).
inline void use_python_setup() {
    static const bool done = [] {
        std::error_code ec;
        const auto stamp = std::filesystem::last_write_time(setup_stamp(), ec);
        if (ec || stamp < std::filesystem::last_write_time("/proc/self/exe"))
            run_python_setup();
        return true;
    }();
    (void)done;
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
