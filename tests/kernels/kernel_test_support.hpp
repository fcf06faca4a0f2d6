// Shared pieces of the kernel tests: strided test matrices, the two raw paths, and the
// accuracy criterion.
//
// Accuracy: every kernel is compared with a naive double-precision reference written in the
// test. An entry passes when
//     |got − ref| ≤ rtol · (|ref| + mag)
// with rtol = 1e-5 for float and 1e-12 for double, and mag the sum of the magnitudes of the
// terms the entry is computed from (for C(i, j) = Σ_p A(i, p)·B(p, j): Σ_p |A(i, p)·B(p, j)|;
// for an elementwise map: the size of the terms of its formula). That is the usual forward-error
// bound: relative where nothing cancels, and no stricter than the operands allow where it does.
// Masked softmax entries must be exactly 0, and the padding rows of every strided matrix
// (ld > rows) must be left untouched.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <typeformer/kernels/backend.hpp>

namespace tf_test {

template <class T>
inline constexpr double rtol = std::is_same_v<T, float> ? 1e-5 : 1e-12;

// The sizes each dimension is swept over: 1…67, around the SIMD widths (4, 8, 16 lanes).
inline const std::vector<std::size_t> sweep = {1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 33, 63, 64, 67};

enum class path { scalar, simd };
inline const char* name(path p) {
    return p == path::scalar ? "scalar" : "simd";
}
// Both raw paths when xsimd is usable (the scalar preset tests scalar only).
inline std::vector<path> paths() {
#if TYPEFORMER_SIMD
    return {path::scalar, path::simd};
#else
    return {path::scalar};
#endif
}

// Calls typeformer::kernels::<path>::fn(args...).
#if TYPEFORMER_SIMD
#define TF_CALL(p, fn, ...)                                                      \
    ((p) == ::tf_test::path::simd ? ::typeformer::kernels::simd::fn(__VA_ARGS__) \
                                  : ::typeformer::kernels::scalar::fn(__VA_ARGS__))
#else
#define TF_CALL(p, fn, ...) ((void)(p), ::typeformer::kernels::scalar::fn(__VA_ARGS__))
#endif

inline std::mt19937_64& rng() {
    static std::mt19937_64 g(20221101);
    return g;
}
inline double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng());
}

// A column-major rows × cols matrix with leading dimension ld ≥ rows; the ld − rows padding
// rows hold a sentinel that no kernel may touch.
template <class T>
struct strided {
    static constexpr T sentinel = T(-12345.25);
    std::size_t rows = 0, cols = 0, ld = 1;
    std::vector<T> v;

    strided(std::size_t r, std::size_t c, std::size_t pad = 0)
        : rows(r), cols(c), ld(r + pad > 0 ? r + pad : 1), v(ld * (c > 0 ? c : 1), sentinel) {}
    T* data() { return v.data(); }
    const T* data() const { return v.data(); }
    T& operator()(std::size_t i, std::size_t j) { return v[i + j * ld]; }
    T operator()(std::size_t i, std::size_t j) const { return v[i + j * ld]; }
    strided& random(double lo = -1, double hi = 1) {
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = 0; i < rows; ++i)
                (*this)(i, j) = T(uniform(lo, hi));
        return *this;
    }
    bool padding_intact() const {
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = rows; i < ld; ++i)
                if (v[i + j * ld] != sentinel)
                    return false;
        return true;
    }
};

// A double matrix for references: value and magnitude (see the criterion above).
struct ref_mat {
    std::size_t rows, cols;
    std::vector<double> val, mag;
    ref_mat(std::size_t r, std::size_t c) : rows(r), cols(c), val(r * c, 0.0), mag(r * c, 0.0) {}
    double& operator()(std::size_t i, std::size_t j) { return val[i + j * rows]; }
    double operator()(std::size_t i, std::size_t j) const { return val[i + j * rows]; }
    double& m(std::size_t i, std::size_t j) { return mag[i + j * rows]; }
};

// All entries of got against ref under the criterion; reports the first failure.
template <class T>
::testing::AssertionResult close(const strided<T>& got, const ref_mat& ref,
                                 const std::string& what) {
    if (!got.padding_intact())
        return ::testing::AssertionFailure() << what << ": a padding row (ld > rows) was written";
    std::size_t bad = 0;
    std::string first;
    for (std::size_t j = 0; j < ref.cols; ++j)
        for (std::size_t i = 0; i < ref.rows; ++i) {
            const double g = static_cast<double>(got(i, j));
            const double r = ref.val[i + j * ref.rows];
            const double tol = rtol<T> * (std::fabs(r) + ref.mag[i + j * ref.rows]);
            if (!(std::fabs(g - r) <= tol)) {
                if (bad++ == 0)
                    first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " +
                            std::to_string(g) + ", reference " + std::to_string(r) + ", |diff| " +
                            std::to_string(std::fabs(g - r)) + " > tol " + std::to_string(tol);
            }
        }
    if (bad == 0)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": " << bad << " of " << ref.rows * ref.cols
                                         << " entries off; first at " << first;
}

// A scalar result against its reference.
template <class T>
::testing::AssertionResult close(T got, double ref, double mag, const std::string& what) {
    const double tol = rtol<T> * (std::fabs(ref) + mag);
    if (std::fabs(static_cast<double>(got) - ref) <= tol)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << what << ": got " << got << ", reference " << ref << ", tol " << tol;
}

// The reference's own input: the T values, read as double.
template <class T>
ref_mat to_ref(const strided<T>& x) {
    ref_mat r(x.rows, x.cols);
    for (std::size_t j = 0; j < x.cols; ++j)
        for (std::size_t i = 0; i < x.rows; ++i) {
            r(i, j) = static_cast<double>(x(i, j));
            r.m(i, j) = 0.0;
        }
    return r;
}

inline std::string shape(std::size_t m, std::size_t n, std::size_t k = 0) {
    return "m=" + std::to_string(m) + " n=" + std::to_string(n) +
           (k ? " k=" + std::to_string(k) : std::string());
}

// The matrix products' forms and their reference (gemm_test, threads_test).
enum class form { nn, tn, nt };
inline const char* form_name(form f) {
    return f == form::nn ? "A·B" : f == form::tn ? "Aᵀ·B" : "A·Bᵀ";
}

// C (m, n) ←/+= op(A)·op(B) in double; A, B as stored.
template <class T>
ref_mat gemm_reference(form f, std::size_t m, std::size_t n, std::size_t k, const strided<T>& A,
                       const strided<T>& B, const strided<T>& C0, bool accumulate) {
    ref_mat r(m, n);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < m; ++i) {
            double s = accumulate ? static_cast<double>(C0(i, j)) : 0.0;
            double mag = accumulate ? std::fabs(s) : 0.0;
            for (std::size_t p = 0; p < k; ++p) {
                const double a = f == form::tn ? A(p, i) : A(i, p);
                const double b = f == form::nt ? B(j, p) : B(p, j);
                s += a * b;
                mag += std::fabs(a * b);
            }
            r(i, j) = s;
            r.m(i, j) = mag;
        }
    return r;
}

// The causal bands a product may be given (kernels/scalar/gemm.hpp: gemm_band): each kind with
// its edge on the diagonal and shifted both ways, far enough once that whole columns get no term.
inline std::vector<::typeformer::kernels::gemm_band> causal_bands() {
    using kind = ::typeformer::kernels::gemm_band::kind;
    return {{kind::c_upper, 0},    {kind::c_upper, 5},     {kind::c_upper, -3},
            {kind::k_to_col, 0},   {kind::k_to_col, 5},    {kind::k_to_col, -70},
            {kind::k_from_col, 0}, {kind::k_from_col, -3}, {kind::k_from_col, 5}};
}
inline std::string band_name(const ::typeformer::kernels::gemm_band& b) {
    using kind = ::typeformer::kernels::gemm_band::kind;
    return std::string(b.what == kind::c_upper    ? " c_upper"
                       : b.what == kind::k_to_col ? " k_to_col"
                                                  : " k_from_col") +
           " offset " + std::to_string(b.offset);
}

// The bands' definitions, written out here rather than taken from gemm_band's own helpers:
// op(B)(p, j) lies in a k band iff p ≤ j + offset (k_to_col) or p ≥ j + offset (k_from_col);
// C(i, j) is wanted under c_upper iff i ≤ j + offset.
inline bool in_k_band(const ::typeformer::kernels::gemm_band& b, std::size_t p, std::size_t j) {
    using kind = ::typeformer::kernels::gemm_band::kind;
    const auto d = static_cast<std::ptrdiff_t>(p) - static_cast<std::ptrdiff_t>(j);
    return b.what == kind::k_to_col     ? d <= b.offset
           : b.what == kind::k_from_col ? d >= b.offset
                                        : true;
}
inline bool wanted(const ::typeformer::kernels::gemm_band& b, std::size_t i, std::size_t j) {
    const auto d = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(j);
    return b.what != ::typeformer::kernels::gemm_band::kind::c_upper || d <= b.offset;
}

// What a k band promises the kernel: op(B)(p, j) = 0 outside it (A and dS of causal attention).
template <class T>
void zero_outside_band(form f, const ::typeformer::kernels::gemm_band& b, strided<T>& B) {
    const std::size_t n = f == form::nt ? B.rows : B.cols, k = f == form::nt ? B.cols : B.rows;
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t p = 0; p < k; ++p)
            if (!in_k_band(b, p, j))
                (f == form::nt ? B(j, p) : B(p, j)) = T(0);
}

// The entries of C a c_upper band does not want set to 0 (in a result and its reference alike),
// so that only the wanted ones are compared.
template <class T>
void clear_unwanted(const ::typeformer::kernels::gemm_band& b, strided<T>& C) {
    for (std::size_t j = 0; j < C.cols; ++j)
        for (std::size_t i = 0; i < C.rows; ++i)
            if (!wanted(b, i, j))
                C(i, j) = T(0);
}
inline void clear_unwanted(const ::typeformer::kernels::gemm_band& b, ref_mat& C) {
    for (std::size_t j = 0; j < C.cols; ++j)
        for (std::size_t i = 0; i < C.rows; ++i)
            if (!wanted(b, i, j))
                C(i, j) = C.m(i, j) = 0.0;
}

}  // namespace tf_test
