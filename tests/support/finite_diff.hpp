// Test support: central finite differences against an analytic gradient, in double.
//
// Use (any vec, mat or view of double; the loss is any callable returning the scalar loss of
// the *current* values, so it must rerun the forward pass):
//
//     #include "support/finite_diff.hpp"
//     namespace fd = typeformer::testing;
//     std::mt19937_64 rng(1);
//     fd::fill_uniform(R, rng);                        // fixed random weights: loss = Σ R ⊙ Y
//     auto loss = [&] { forward(p, X, Y, cache, eps); return fd::weighted_sum(R, Y); };
//     backward(p, X, R, dX, grads, cache);             // dY = R
//     EXPECT_LT(fd::check_gradient(p.gamma, grads.gamma, loss).worst, 1e-7);  // a parameter
//     auto r = fd::check_gradient(X, dX, loss);        // an input: X itself is perturbed
//     EXPECT_LT(r.worst, 1e-7) << r;                   // prints where and by how much
//
// check_gradient perturbs each entry x of `param` (within its run-time extents) to x ± h,
// evaluates loss() at both, and compares (L₊ − L₋)/(x₊ − x₋) with the analytic entry; `param`
// is restored bit for bit. The error of one entry is relative:
//     max(0, |analytic − numeric| − noise) / max(|analytic|, |numeric|)
// where noise = 16·ε·(|L₊| + |L₋|)/(x₊ − x₋) is the rounding the difference quotient itself
// carries (it grows like ε·|loss|/h, whatever the entry's size); only that much is forgiven
// absolutely, the rest is measured against the entry itself, however small. The report keeps
// the worst. With h = 1e-6 central differences are good to ~1e-9 relative where the noise is
// small, so 1e-7 is a safe bound and a wrong gradient (a missing term, a wrong sign, a
// transposed index) shows up as ~1e-1. For losses ≫ 10 keep weights small (e.g. uniform ±0.5)
// or pass h = 1e-5. Analytic gradients accumulate (+=): start them at zero, or subtract their
// start.
// Also here: numeric_gradient (the whole FD gradient into a tensor), for_each_entry,
// entry_count, fill_uniform (float-exact values), weighted_sum (Σ R ⊙ Y in double).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <ostream>
#include <random>
#include <type_traits>
#include <utility>

#include <typeformer/tensor.hpp>

namespace typeformer::testing {

// Calls f(entry&, i, j) for every entry of a vec/mat/view within its run-time extents (j = 0
// for a vector).
template <class X, class F>
void for_each_entry(X&& x, F&& f) {
    auto v = as_view(x);
    if constexpr (matrix<decltype(v)>) {
        for (std::size_t j = 0; j < v.cols(); ++j)
            for (std::size_t i = 0; i < v.rows(); ++i)
                f(v(i, j), i, j);
    } else {
        for (std::size_t i = 0; i < v.size(); ++i)
            f(v[i], i, std::size_t{0});
    }
}

// Number of entries within the run-time extents.
template <class X>
std::size_t entry_count(const X& x) {
    auto v = as_view(x);
    if constexpr (matrix<decltype(v)>)
        return v.rows() * v.cols();
    else
        return v.size();
}

// Uniform entries in [lo, hi). The values are floats widened to double, so the same data can
// feed a float and a double instantiation (and a float64 oracle) exactly.
template <class X>
void fill_uniform(X&& x, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for_each_entry(x, [&](auto& e, std::size_t, std::size_t) {
        using E = std::remove_reference_t<decltype(e)>;
        e = static_cast<E>(static_cast<float>(dist(rng)));
    });
}

// Σ_ij R[i, j]·Y[i, j] in double over the run-time extents (R and Y equally shaped).
template <class R, class Y>
double weighted_sum(const R& r, const Y& y) {
    auto rv = as_view(r);
    auto yv = as_view(y);
    double s = 0;
    if constexpr (matrix<decltype(rv)>) {
        for (std::size_t j = 0; j < yv.cols(); ++j)
            for (std::size_t i = 0; i < yv.rows(); ++i)
                s += static_cast<double>(rv(i, j)) * static_cast<double>(yv(i, j));
    } else {
        for (std::size_t i = 0; i < yv.size(); ++i)
            s += static_cast<double>(rv[i]) * static_cast<double>(yv[i]);
    }
    return s;
}

struct fd_report {
    double worst = 0;              // max over entries of the relative error (check_gradient)
    std::size_t row = 0, col = 0;  // where (col = 0 for a vector)
    double analytic = 0, numeric = 0;
    std::size_t entries = 0;  // how many entries were checked
};

inline std::ostream& operator<<(std::ostream& os, const fd_report& r) {
    return os << "finite differences: worst error " << r.worst << " at (" << r.row << ", " << r.col
              << "): analytic " << r.analytic << ", numeric " << r.numeric << " (" << r.entries
              << " entries)";
}

// d loss / d param[i, j] by central differences, into `out` (shaped like param).
template <class Param, class Out, class Loss>
void numeric_gradient(Param&& param, Out&& out, Loss&& loss, double h = 1e-6) {
    auto p = as_view(param);
    auto o = as_view(out);
    static_assert(std::is_same_v<typename decltype(p)::value_type, double>,
                  "finite differences are taken in double: instantiate the block with T = double");
    for_each_entry(p, [&](double& x, std::size_t i, std::size_t j) {
        const double x0 = x;
        const double up = x0 + h, down = x0 - h;
        x = up;
        const double l_up = loss();
        x = down;
        const double l_down = loss();
        x = x0;
        const double g = (l_up - l_down) / (up - down);
        if constexpr (matrix<decltype(o)>)
            o(i, j) = g;
        else
            o[i] = g;
    });
}

// Compares `analytic` (shaped like param) with central differences of loss() in param.
template <class Param, class Grad, class Loss>
fd_report check_gradient(Param&& param, const Grad& analytic, Loss&& loss, double h = 1e-6) {
    auto p = as_view(param);
    auto a = as_view(analytic);
    static_assert(std::is_same_v<typename decltype(p)::value_type, double>,
                  "finite differences are taken in double: instantiate the block with T = double");
    fd_report r;
    if (entry_count(a) != entry_count(p)) {  // a gradient of the wrong extent never passes
        r.worst = std::numeric_limits<double>::infinity();
        return r;
    }
    for_each_entry(p, [&](double& x, std::size_t i, std::size_t j) {
        const double x0 = x;
        const double up = x0 + h, down = x0 - h;
        x = up;
        const double l_up = loss();
        x = down;
        const double l_down = loss();
        x = x0;
        const double numeric = (l_up - l_down) / (up - down);
        double an;
        if constexpr (matrix<decltype(a)>)
            an = static_cast<double>(a(i, j));
        else
            an = static_cast<double>(a[i]);
        const double noise = 16 * std::numeric_limits<double>::epsilon() *
                             (std::abs(l_up) + std::abs(l_down)) / (up - down);
        const double excess = std::max(0.0, std::abs(an - numeric) - noise);
        double err = excess == 0 ? 0.0 : excess / std::max(std::abs(an), std::abs(numeric));
        if (std::isnan(err) || std::isnan(an) || std::isnan(numeric))
            err = std::numeric_limits<double>::infinity();  // never hide a NaN
        if (r.entries == 0 || err > r.worst)
            r = {err, i, j, an, numeric, r.entries};
        ++r.entries;
    });
    return r;
}

}  // namespace typeformer::testing
