// Test support: hand tensors to an independent reference (a PyTorch script run
// by /usr/bin/python3) and read its answers back.
//
// Exchange format (oracle.py reads and writes the same): "TFX1", u32 count, then
// per array: u32 name length, name, u32 rank, u64 shape[rank], f64 data (row-major).
// A mat M of R×C travels as shape [rows(), cols()] in the paper's orientation.
#pragma once

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <typeformer/tensor.hpp>
#include <typeformer/token.hpp>
#include "paths.hpp"

#ifndef TYPEFORMER_PYTHON
#error "TYPEFORMER_PYTHON (the interpreter with torch) must be defined by the build"
#endif
#ifndef TYPEFORMER_TESTS_DIR
#error "TYPEFORMER_TESTS_DIR (the tests/ source folder) must be defined by the build"
#endif

namespace typeformer::testing {

struct array {
    std::vector<std::size_t> shape;
    std::vector<double> data;
};
using bundle = std::map<std::string, array>;

inline void write_bundle(const std::string& path, const bundle& b) {
    std::ofstream f(path, std::ios::binary);
    auto put = [&](const void* p, std::size_t n) { f.write(static_cast<const char*>(p), n); };
    put("TFX1", 4);
    auto count = static_cast<std::uint32_t>(b.size());
    put(&count, 4);
    for (const auto& [name, a] : b) {
        auto n = static_cast<std::uint32_t>(name.size());
        put(&n, 4);
        put(name.data(), n);
        auto rank = static_cast<std::uint32_t>(a.shape.size());
        put(&rank, 4);
        for (auto s : a.shape) {
            std::uint64_t s64 = s;
            put(&s64, 8);
        }
        put(a.data.data(), a.data.size() * sizeof(double));
    }
    if (!f)
        throw std::runtime_error("oracle: cannot write " + path);
}

inline bundle read_bundle(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("oracle: cannot read " + path);
    auto get = [&](void* p, std::size_t n) {
        f.read(static_cast<char*>(p), n);
        if (!f)
            throw std::runtime_error("oracle: truncated " + path);
    };
    char magic[4];
    get(magic, 4);
    if (std::string(magic, 4) != "TFX1")
        throw std::runtime_error("oracle: bad magic in " + path);
    std::uint32_t count = 0;
    get(&count, 4);
    bundle b;
    for (std::uint32_t k = 0; k < count; ++k) {
        std::uint32_t n = 0;
        get(&n, 4);
        std::string name(n, '\0');
        get(name.data(), n);
        std::uint32_t rank = 0;
        get(&rank, 4);
        array a;
        std::size_t total = 1;
        for (std::uint32_t r = 0; r < rank; ++r) {
            std::uint64_t s = 0;
            get(&s, 8);
            a.shape.push_back(static_cast<std::size_t>(s));
            total *= static_cast<std::size_t>(s);
        }
        a.data.resize(total);
        get(a.data.data(), total * sizeof(double));
        b.emplace(std::move(name), std::move(a));
    }
    return b;
}

// Runs tests/<script> on `in` and returns what it wrote. The script is called as
// `python3 <script> <in> <out>`; a non-zero exit fails loudly (never a skip).
inline bundle run_python(const std::string& script, const bundle& in) {
    char dir_template[] = "/tmp/typeformer-oracle-XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (!dir)
        throw std::runtime_error("oracle: mkdtemp failed");
    const std::string in_path = std::string(dir) + "/in.bin";
    const std::string out_path = std::string(dir) + "/out.bin";
    struct cleanup {  // the folder goes away on every path, failures included
        std::string dir, in, out;
        ~cleanup() {
            std::remove(in.c_str());
            std::remove(out.c_str());
            rmdir(dir.c_str());
        }
    } guard{dir, in_path, out_path};
    write_bundle(in_path, in);
    const std::string cmd = typeformer::testing::path_string(TYPEFORMER_PYTHON) + " " +
                            typeformer::testing::path_string(TYPEFORMER_TESTS_DIR) + "/" + script +
                            " " + in_path + " " + out_path;
    const int rc = std::system(cmd.c_str());
    if (rc != 0)
        throw std::runtime_error("oracle: `" + cmd + "` failed");
    return read_bundle(out_path);
}

// ---- tensors in and out of a bundle ----

template <class M>
    requires matrix<std::remove_cvref_t<M>> array to_array(const M& m) {
        auto v = as_view(m);
        array a{{v.rows(), v.cols()}, {}};
        a.data.reserve(v.rows() * v.cols());
        for (std::size_t i = 0; i < v.rows(); ++i)
            for (std::size_t j = 0; j < v.cols(); ++j)
                a.data.push_back(static_cast<double>(v(i, j)));
        return a;
    }
template <class V>
    requires vector<std::remove_cvref_t<V>> array to_array(const V& x) {
        auto v = as_view(x);
        array a{{v.size()}, {}};
        for (std::size_t i = 0; i < v.size(); ++i)
            a.data.push_back(static_cast<double>(v[i]));
        return a;
    }
inline array to_array(const std::vector<token>& x) {
    array a{{x.size()}, {}};
    for (auto t : x)
        a.data.push_back(static_cast<double>(t));
    return a;
}
inline array scalar_array(double s) {
    return array{{}, {s}};
}

// Copies a bundle array into a tensor whose extents are already set; shapes must agree.
template <class M>
void from_array(const array& a, M&& m) {
    auto v = as_view(m);
    if constexpr (matrix<decltype(v)>) {
        if (a.shape.size() != 2 || a.shape[0] != v.rows() || a.shape[1] != v.cols())
            throw std::runtime_error("oracle: shape mismatch reading a matrix");
        for (std::size_t i = 0; i < v.rows(); ++i)
            for (std::size_t j = 0; j < v.cols(); ++j)
                v(i, j) = static_cast<typename decltype(v)::value_type>(a.data[i * v.cols() + j]);
    } else {
        if (a.data.size() != v.size())
            throw std::runtime_error("oracle: size mismatch reading a vector");
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<typename decltype(v)::value_type>(a.data[i]);
    }
}

// The largest |entry| of a reference: the scale its errors are measured against.
inline double max_abs(const std::vector<double>& b) {
    double m = 0;
    for (double v : b)
        m = std::max(m, std::abs(v));
    return m;
}

// Per-entry comparison, as torch.allclose does: entry i passes when
//     |a_i − b_i| ≤ atol + rtol·|b_i|,
// relative for the entries that are large against atol/rtol, absolute for those below. Returns
// max_i |a_i − b_i| / (atol + rtol·|b_i|), so `≤ 1` is the test; a NaN, a size mismatch or a
// zero tolerance with a difference never passes. Callers choose atol as a small fraction of the
// tensor's scale (the rounding floor of the arithmetic that made it: see reference_scale), so
// that an entry far below the largest is still checked, not hidden behind it.
inline double allclose_ratio(const std::vector<double>& a, const std::vector<double>& b,
                             double rtol, double atol) {
    if (a.size() != b.size())
        return 1e300;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = std::abs(a[i] - b[i]);
        if (std::isnan(d))
            return 1e300;
        const double allowed = atol + rtol * std::abs(b[i]);
        if (d > 0)
            worst = std::max(worst, allowed > 0 ? d / allowed : 1e300);
    }
    return worst;
}

// The absolute floor used with rtol = tol across the oracle tests: 5% of tol times the scale of
// the terms an entry is computed from (float, tol 1e-4: 5e-6 of the scale, some 40 ulps of the
// largest terms, what a deep float model's sums collect). An entry 1e-1 of the scale is thus
// checked to 1.5·tol relative, one 1e-3 of it to 50·tol: below that lies the rounding of the
// larger terms, which no implementation can control (the double cases, tol 1e-9, check those).
inline double atol_for(double tol, double scale) {
    return 5e-2 * tol * scale;
}

// The scale for the reference array `name` of a bundle. The key bias's gradient (a name ending
// in `b_k`) is zero in exact arithmetic: adding the same q·b_k to every score of a softmax
// column changes nothing. What both implementations return is rounding noise of the products
// that also make up W_k's gradient, so its error is measured against that gradient's scale.
inline double reference_scale(const bundle& ref, const std::string& name) {
    if (name.size() >= 3 && name.compare(name.size() - 3, 3, "b_k") == 0) {
        const auto it = ref.find(name.substr(0, name.size() - 3) + "W_k");
        if (it != ref.end())
            return max_abs(it->second.data);
    }
    const auto it = ref.find(name);
    return it == ref.end() ? 1.0 : max_abs(it->second.data);
}

}  // namespace typeformer::testing
