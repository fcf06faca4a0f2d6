// The checks every architecture's test runs:
//   - against torch_models.py (PyTorch autograd, float64): the loss, P and EVERY parameter
//     gradient, per entry |a − b| ≤ atol + rtol·|b| (torch.allclose's rule) with rtol = 1e-9
//     (double) or 3e-4 (float) and atol = 5% of rtol times the tensor's scale (atol_for); all
//     cases of a test binary go to Python in one call (startup with torch is ~2 s);
//   - against central finite differences of the whole model's loss, in double.
// and the cases they run on: add_lengths<Model>(cases, name, seed) for the lengths 1, a middle
// value and l_max; oracle_test, check_oracle_case and case_name for the parameterised suite.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "model_support.hpp"
#include "support/finite_diff.hpp"
#include "support/paths.hpp"

namespace typeformer::testing {

// ---- the three architectures behind one call shape ----

template <class Model, class WS>
auto call_loss_and_grad(const Model& m, const sequences& s, Model& grads, WS& ws) {
    if constexpr (arch_of<Model>() == arch::ED)
        return loss_and_grad(m, s.z, s.x, grads, ws);
    else if constexpr (arch_of<Model>() == arch::E)
        return loss_and_grad(m, s.x_tilde, s.x, grads, ws);
    else
        return loss_and_grad(m, s.x, grads, ws);
}

template <class Model, class WS>
auto call_loss(const Model& m, const sequences& s, WS& ws) {
    if constexpr (arch_of<Model>() == arch::ED)
        return loss(m, s.z, s.x, ws);
    else if constexpr (arch_of<Model>() == arch::E)
        return loss(m, s.x_tilde, s.x, ws);
    else
        return loss(m, s.x, ws);
}

template <class Model, class WS>
auto call_forward(const Model& m, const sequences& s, WS& ws) {
    if constexpr (arch_of<Model>() == arch::ED)
        return forward(m, s.z, s.x, ws);
    else if constexpr (arch_of<Model>() == arch::E)
        return forward(m, s.x_tilde, ws);
    else
        return forward(m, s.x, ws);
}

// ---- oracle cases ----

struct oracle_case {
    std::string name;
    std::function<void(bundle&, const std::string&)> write;
    std::function<void(const bundle&, const std::string&)> check;
};

inline double scalar_diff(double a, double b) {
    return std::abs(a - b) / std::max(1.0, std::abs(b));
}

// The model-independent half of check_against_oracle: our loss, P and every gradient (as
// oracle arrays, by name) against the oracle's answers for case `pre`.
inline void check_answers(const bundle& out, const std::string& pre, double tol, double loss,
                          const array& P, const std::vector<std::pair<std::string, array>>& grads,
                          std::size_t parameter_tensors) {
    ASSERT_TRUE(out.count(pre + "loss")) << "the oracle did not answer " << pre;
    EXPECT_LE(scalar_diff(loss, out.at(pre + "loss").data.at(0)), tol)
        << "loss " << loss << " vs torch " << out.at(pre + "loss").data.at(0);
    EXPECT_LE(allclose_ratio(P.data, out.at(pre + "P").data, tol,
                             atol_for(tol, max_abs(out.at(pre + "P").data))),
              1)
        << "P";

    // Each gradient entry is checked relative to itself (rtol = tol), above an absolute floor
    // atol_for(tol, scale): scale is the tensor's own largest entry, but never less than 1% of
    // the largest gradient entry in the model: a tensor whose gradient is a hundred times
    // smaller than the model's collects float rounding from the larger terms it is computed
    // from (seen in a deep decoder's last self-attention W_q), so its own scale alone would
    // measure float's conditioning, not our arithmetic. Double is held to the same rule.
    double model_scale = 0;
    std::size_t expected = 0;
    for (const auto& [key, value] : out)
        if (key.starts_with(pre + "grad.")) {
            model_scale = std::max(model_scale, max_abs(value.data));
            ++expected;
        }
    std::size_t checked = 0;
    for (const auto& [name, g] : grads) {
        const auto it = out.find(pre + "grad." + name);
        if (it == out.end()) {
            ADD_FAILURE() << "no torch gradient for " << name;
            continue;
        }
        ++checked;
        const double scale =
            std::max(reference_scale(out, pre + "grad." + name), 1e-2 * model_scale);
        EXPECT_LE(allclose_ratio(g.data, it->second.data, tol, atol_for(tol, scale)), 1)
            << "gradient of " << name;
    }
    EXPECT_EQ(checked, expected) << "every parameter torch differentiates has a gradient here";
    EXPECT_EQ(checked, parameter_tensors);
}

template <class Model>
void check_against_oracle(const bundle& out, const std::string& pre, std::uint64_t seed,
                          const sequences& s, double scale = 0.5) {
    using T = typename Model::value_type;
    auto model = random_model<Model>(seed, scale);
    auto grads = std::make_unique<Model>();  // zero
    auto ws = std::make_unique<training_workspace<Model>>();
    const double loss = static_cast<double>(call_loss_and_grad(*model, s, *grads, *ws));
    // P through an inference workspace (one slot, in place): the other code path of forward.
    auto iws = std::make_unique<inference_workspace<Model>>();
    const array P = to_array(call_forward(*model, s, *iws));
    std::vector<std::pair<std::string, array>> g;
    for_each_named(
        [&](const std::string& name, const auto& leaf) { g.emplace_back(name, to_array(leaf)); },
        *grads);
    // float: 3e-4, not 1e-4: without FMA contraction (-O0, or an x86-64 build without FMA) the
    // float sums of a key weight's gradient, which cancel (softmax ignores a shift common to a
    // column), round up to 1.5e-4 away from the contracted ones (asan-ubsan-scalar measured it).
    check_answers(out, pre, std::is_same_v<T, double> ? 1e-9 : 3e-4, loss, P, g,
                  parameter_tensor_count<Model>);
}

// `scale`: the weights' standard deviation (randomize).
template <class Model>
oracle_case make_case(std::string name, std::uint64_t seed, sequences s, double scale = 0.5) {
    return {std::move(name),
            [seed, s, scale](bundle& in, const std::string& pre) {
                auto model = random_model<Model>(seed, scale);
                write_case(in, pre, *model, s);
            },
            [seed, s, scale](const bundle& out, const std::string& pre) {
                check_against_oracle<Model>(out, pre, seed, s, scale);
            }};
}

// The bytes of a file ("" if it cannot be read).
inline std::string file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

inline std::string case_prefix(std::size_t k) {
    return "c" + std::to_string(k) + ".";
}

// Who started this process and when (/proc/<ppid>/stat's start time): under ctest, one run of
// the suite. "" when /proc cannot tell, which turns the cache off.
inline std::string parent_run() {
    const std::string parent = std::to_string(::getppid());
    const std::string stat = file_bytes("/proc/" + parent + "/stat");
    const auto close_paren = stat.rfind(')');  // the command name may hold spaces
    if (close_paren == std::string::npos)
        return {};
    std::size_t field = 2, pos = close_paren + 1;  // fields after ")": 3 (state), 4, …
    while (field < 22 && pos < stat.size()) {
        pos = stat.find(' ', pos + 1);
        if (pos == std::string::npos)
            return {};
        ++field;
    }
    return parent + "@" + stat.substr(pos + 1, stat.find(' ', pos + 1) - pos - 1);
}

// This test binary: device, inode, size and modification time of /proc/self/exe. The cases'
// inputs are a deterministic function of the binary's code, so within one run of the suite its
// identity stands for their bytes ("" if it cannot be read, which turns the cache off).
inline std::string binary_identity() {
    struct stat st {};
    if (::stat("/proc/self/exe", &st) != 0)
        return {};
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
           std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
}

// Runs torch_models.py once on every case and keeps the answer (or the failure, so a broken
// oracle fails every case without rerunning Python each time). CTest runs each case in its own
// process, so the answer is also cached in the build directory under `name`, keyed by
// everything that determines it: the test binary (binary_identity: the inputs are its function),
// the text of torch_models.py and of oracle.py, the interpreter — and the parent process (ctest)
// with its start time, so the cache serves the cases of ONE run of the suite only: every run
// asks PyTorch again, and a missing or broken PyTorch fails every case loudly instead of passing
// on an old answer. One Python call per binary and run, not one per case; a process that finds
// the answer does not even build the other cases' inputs (seconds each under the sanitizers).
inline const bundle& oracle_answers(const std::vector<oracle_case>& cases,
                                    const std::string& name) {
    struct answer {
        bundle out;
        std::string error;
    };
    static const answer a = [&] {
        answer r;
        try {
            const std::string base =
                typeformer::testing::path_string(TYPEFORMER_TEST_BINARY_DIR) + "/oracle_" + name;
            const std::string pid = std::to_string(::getpid());
            const std::string run = parent_run(), binary = binary_identity();
            const std::string key =
                run.empty() || binary.empty()
                    ? std::string{}
                    : "run " + run + "\nbinary " + binary + "\npython " +
                          typeformer::testing::path_string(TYPEFORMER_PYTHON) + "\n" +
                          file_bytes(typeformer::testing::path_string(TYPEFORMER_TESTS_DIR) +
                                     "/models/torch_models.py") +
                          file_bytes(typeformer::testing::path_string(TYPEFORMER_TESTS_DIR) +
                                     "/support/oracle.py");
            if (!key.empty() && file_bytes(base + ".key") == key) {
                try {
                    r.out = read_bundle(base + ".out");
                    return r;
                } catch (const std::exception&) {  // torn or missing: ask Python again
                }
            }
            bundle in;
            for (std::size_t k = 0; k < cases.size(); ++k)
                cases[k].write(in, case_prefix(k));
            in["ncases"] = scalar_array(static_cast<double>(cases.size()));
            r.out = run_python("models/torch_models.py", in);
            write_bundle(base + ".out." + pid, r.out);  // publish atomically: out, then its key
            std::rename((base + ".out." + pid).c_str(), (base + ".out").c_str());
            {
                std::ofstream k(base + ".key." + pid, std::ios::binary);
                k << key;
            }
            std::rename((base + ".key." + pid).c_str(), (base + ".key").c_str());
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        return r;
    }();
    if (!a.error.empty())
        throw std::runtime_error(a.error);
    return a.out;
}

// One suite of oracle cases, a test per case: TEST_P(Suite, …) { check_oracle_case(cases(),
// "oracle name", GetParam()); }, INSTANTIATE_TEST_SUITE_P(…, Suite, oracle_range(cases()),
// case_name(cases())).
class oracle_test : public ::testing::TestWithParam<std::size_t> {};

inline auto oracle_range(const std::vector<oracle_case>& cases) {
    return ::testing::Range(std::size_t{0}, cases.size());
}

// The test of case k is named after it.
inline auto case_name(const std::vector<oracle_case>& cases) {
    return [&cases](const ::testing::TestParamInfo<std::size_t>& info) {
        return cases[info.param].name;
    };
}

// Every case goes to torch_models.py in one call (cached, see oracle_answers); then case k's check.
inline void check_oracle_case(const std::vector<oracle_case>& cases, const std::string& name,
                              std::size_t k) {
    cases[k].check(oracle_answers(cases, name), case_prefix(k));
}

// ---- the cases: random tokens of the lengths 1, a middle value and l_max ----

// Algorithm 12, lines 4–6: x̃[t] ← mask_token with probability p_mask, else x[t]; position 0 is
// always masked so that every case has a loss.
inline sequences masked(std::size_t l, std::size_t n_v, std::uint64_t seed, double p_mask = 0.4) {
    sequences s;
    s.x = random_tokens(l, n_v, seed);
    s.x_tilde = s.x;
    std::mt19937_64 rng(seed + 1);
    std::bernoulli_distribution coin(p_mask);
    for (std::size_t t = 0; t < l; ++t)
        if (t == 0 || coin(rng))
            s.x_tilde[t] = static_cast<token>(n_v - 3);  // mask_token (0-based)
    return s;
}

// Three cases of Model with weights from seed: ℓ ∈ {1, (l_max + 1) / 2, l_max}, named
// name_len{ℓ} (D: x; E: x and its masked x̃). ED: (ℓ_z, ℓ_x) pairs of those lengths, never equal,
// named name_lz{ℓ_z}_lx{ℓ_x}.
template <class Model>
void add_lengths(std::vector<oracle_case>& cases, const std::string& name, std::uint64_t seed) {
    constexpr std::size_t l_max = Model::l_max::size;
    constexpr std::size_t NV = Model::N_V::size;
    constexpr std::size_t mid = (l_max + 1) / 2;
    if constexpr (arch_of<Model>() == arch::ED) {
        for (auto [lz, lx] : {std::pair{mid, std::size_t{1}}, std::pair{l_max, mid},
                              std::pair{std::size_t{1}, l_max}}) {
            auto s = sequences::ED(random_tokens(lz, NV, seed * 100 + lz),
                                   random_tokens(lx, NV, seed * 1000 + lx));
            cases.push_back(make_case<Model>(
                name + "_lz" + std::to_string(lz) + "_lx" + std::to_string(lx), seed, s));
        }
    } else {
        for (std::size_t l : {std::size_t{1}, mid, l_max}) {
            const std::uint64_t tokens_seed = seed * 100 + l;
            cases.push_back(make_case<Model>(
                name + "_len" + std::to_string(l), seed,
                arch_of<Model>() == arch::E ? masked(l, NV, tokens_seed)
                                            : sequences::D(random_tokens(l, NV, tokens_seed))));
        }
    }
}

// ---- finite differences of the whole model ----

template <class Model>
void check_finite_differences(std::uint64_t seed, const sequences& s, double bound = 1e-6) {
    static_assert(std::is_same_v<typename Model::value_type, double>);
    auto model = random_model<Model>(seed);
    auto grads = std::make_unique<Model>();
    auto ws = std::make_unique<training_workspace<Model>>();
    call_loss_and_grad(*model, s, *grads, *ws);
    auto eval = std::make_unique<inference_workspace<Model>>();
    auto f = [&] { return call_loss(*model, s, *eval); };
    std::size_t entries = 0;
    for_each_named(
        [&](const std::string& name, auto& p, const auto& g) {
            const fd_report r = check_gradient(p, g, f);
            entries += r.entries;
            EXPECT_LT(r.worst, bound) << name << ": " << r;
        },
        *model, *grads);
    EXPECT_EQ(entries, parameter_count<Model>);
}

}  // namespace typeformer::testing
