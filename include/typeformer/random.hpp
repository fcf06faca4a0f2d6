// Random numbers that are the same on every platform: training's masking and minibatches,
// inference's sampling and init's weights all draw from these (no <random>, whose distributions
// are implementation-defined, and nothing that needs a heap or soft-float on a microcontroller).
//
//   prng::xoshiro256ss gen(seed)     64-bit generator, 32 bytes of state (state()/set_state()
//                                    for checkpoints); tf::rng is its public name
//   prng::uniform01<T>(gen)          T ∈ [0, 1), float or double, exact in T
//   prng::uniform_below(gen, n)      an integer in [0, n), unbiased (Lemire's method)
//   prng::normal_sampler             N(0, 1) deviates, bit-identical on every IEEE-754 platform
//   prng::normal_sampler_float       the same in float arithmetic only (a Cortex-M4F has no double
//                                    unit): other numbers, coarser (12-bit) uniforms, also
//                                    bit-identical everywhere; both are basic_normal_sampler<T>
//   prng::stream_for(seed, name)     an independent stream per parameter name (init)
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace typeformer {

// ---- a small deterministic PRNG: the same numbers on every platform ----
//
// std::normal_distribution is implementation-defined, so typeformer carries its own:
// xoshiro256** (Blackman & Vigna) seeded by splitmix64, and Marsaglia's polar method
// for normals. The polar method is computed so that every result is bit-identical on
// any IEEE-754 platform evaluating at its own precision (FLT_EVAL_METHOD 0, so not x87)
// without -ffast-math: the uniforms are exact integers, ln is a fixed atanh series whose
// products never feed an addition unless they are exact (so FMA contraction cannot change
// a bit), and the only libm call is sqrt (correctly rounded by IEEE 754). One template
// serves double (init) and float (init_float); it is meant for initialisation, not speed.
namespace prng {

constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// FNV-1a, 64-bit: a stable hash of a parameter name.
constexpr std::uint64_t fnv1a64(std::string_view s) noexcept {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (char ch : s) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x100000001B3ull;
    }
    return h;
}

// xoshiro256**: a UniformRandomBitGenerator (usable with <random>, though its
// distributions are implementation-defined).
class xoshiro256ss {
public:
    using result_type = std::uint64_t;
    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return ~result_type{0}; }

    constexpr explicit xoshiro256ss(std::uint64_t seed) noexcept {
        for (auto& w : s_)
            w = splitmix64(seed);
    }
    constexpr result_type operator()() noexcept {
        const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = std::rotl(s_[3], 45);
        return result;
    }

    // The whole state, for a checkpoint; set_state(state()) continues the same sequence.
    constexpr std::array<std::uint64_t, 4> state() const noexcept {
        return {s_[0], s_[1], s_[2], s_[3]};
    }
    constexpr void set_state(const std::array<std::uint64_t, 4>& s) noexcept {
        for (std::size_t i = 0; i < 4; ++i)
            s_[i] = s[i];
    }
    friend constexpr bool operator==(const xoshiro256ss&, const xoshiro256ss&) = default;

private:
    std::uint64_t s_[4]{};
};

// Uniform in [0, 1): the top 24 (float) or 53 (double) bits, so every value is exact in T.
template <class T, class Gen>
constexpr T uniform01(Gen& gen) noexcept {
    if constexpr (sizeof(T) <= 4)
        return static_cast<T>(gen() >> 40) * T(0x1.0p-24);
    else
        return static_cast<T>(gen() >> 11) * T(0x1.0p-53);
}

// Uniform integer in [0, n), n ≥ 1, without modulo bias (Lemire 2019, 32-bit form: n < 2^32).
template <class Gen>
constexpr std::uint32_t uniform_below(Gen& gen, std::uint32_t n) noexcept {
    std::uint64_t m = (gen() >> 32) * n;
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
        while (low < threshold) {
            m = (gen() >> 32) * n;
            low = static_cast<std::uint32_t>(m);
        }
    }
    return static_cast<std::uint32_t>(m >> 32);
}

namespace detail {

// What the polar method and its logarithm need per precision: how many uniform bits per
// coordinate (B: a² + b² < 2^{2B−2} is exact in T), how many atanh terms reach T's last bit, and
// ln 2 split as (LN2_HI + LN2_LO·2^−SPLIT)·2^−SPLIT so that (k + e)·LN2_HI and (k + e)·LN2_LO are
// exact integers in T for every exponent used.
template <class T>
struct polar_traits;
template <>
struct polar_traits<double> {
    using bits = std::uint64_t;
    using integer = std::int64_t;
    static constexpr int B = 27, terms = 11, split = 46;  // 11 terms reach 2^-54
    static constexpr integer LN2_HI = 48775896626292;     // round(ln 2 · 2^46)
    static constexpr integer LN2_LO = -9231015199942;  // round((ln 2 · 2^46 − LN2_HI) · 2^46)
};
template <>
struct polar_traits<float> {  // float arithmetic only: no soft-float double on a Cortex-M4F
    using bits = std::uint32_t;
    using integer = std::int32_t;
    static constexpr int B = 12, terms = 5, split = 17;  // 5 terms reach 2^-25; |k + e| < 64
    static constexpr integer LN2_HI = 90852;             // round(ln 2 · 2^17)
    static constexpr integer LN2_LO = 24543;             // round((ln 2 · 2^17 − LN2_HI) · 2^17)
};

// 2^e in T, exact for the normal range (double: −1022 ≤ e ≤ 1023, float: −126 ≤ e ≤ 127).
template <class T>
constexpr T pow2(int e) noexcept {
    using traits = polar_traits<T>;
    constexpr int mantissa = std::numeric_limits<T>::digits - 1;
    constexpr int bias = std::numeric_limits<T>::max_exponent - 1;
    return std::bit_cast<T>(static_cast<typename traits::bits>(bias + e) << mantissa);
}

// ln(n · 2^e) for 0 < n < 2^digits(T), deterministic to the last bit (see above): the series'
// products never feed an addition unless exact (so FMA contraction cannot change a bit), and
// (k + e)·ln 2 is a sum of two exact terms.
template <class T = double>
constexpr T log_scaled(typename polar_traits<T>::bits n, int e) noexcept {
    using traits = polar_traits<T>;
    int k = static_cast<int>(std::bit_width(n));
    T m = static_cast<T>(n) * pow2<T>(-k);  // [0.5, 1), exact
    if (m < static_cast<T>(0.70710678118654752440)) {
        m *= T(2);
        --k;
    }
    // ln m = 2 atanh(y), y = (m − 1)/(m + 1), |y| ≤ 0.1716
    const T y = (m - T(1)) / (m + T(1));
    const T y2 = y * y;
    T term = y, sum = y;
    for (int j = 1; j <= traits::terms; ++j) {
        term = term * y2;
        sum = sum + term / static_cast<T>(2 * j + 1);
    }
    const auto ke = static_cast<typename traits::integer>(k + e);
    const T kln2 = static_cast<T>(ke * traits::LN2_HI) * pow2<T>(-traits::split) +
                   static_cast<T>(ke * traits::LN2_LO) * pow2<T>(-2 * traits::split);
    return T(2) * sum + kln2;
}

// The float form under its old name (tests and callers that name the precision).
inline float log_scaled_float(std::uint32_t n, int e) noexcept {
    return log_scaled<float>(n, e);
}

}  // namespace detail

// Standard normal deviates by Marsaglia's polar method, computed in T only; each accepted pair
// yields two. a, b are uniform integers on B bits (27 for double, 12 for float) taken from one
// 64-bit draw, so s = a² + b² is exact in T. double: bit-identical on every IEEE-754 platform
// (the init of the weights); float: other numbers, coarser uniforms, also bit-identical
// everywhere, and no double arithmetic (a Cortex-M4F has no double unit).
template <class T>
class basic_normal_sampler {
public:
    template <class Gen>
    T operator()(Gen& gen) noexcept {
        using traits = detail::polar_traits<T>;
        using I = typename traits::integer;
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        for (;;) {
            const std::uint64_t r = gen();
            constexpr int B = traits::B;
            constexpr std::uint64_t bits = (std::uint64_t{1} << B) - 1;
            constexpr I half = static_cast<I>(1) << (B - 1);
            const I a = static_cast<I>((r >> (64 - B)) & bits) - half;
            const I b = static_cast<I>((r >> (64 - 2 * B)) & bits) - half;
            const I s_int = a * a + b * b;  // s = s_int · 2^{−2(B−1)}, exact
            if (s_int == 0 || s_int >= (static_cast<I>(1) << (2 * B - 2)))
                continue;
            const T s = static_cast<T>(s_int) * detail::pow2<T>(2 - 2 * B);
            const T ln_s =
                detail::log_scaled<T>(static_cast<typename traits::bits>(s_int), 2 - 2 * B);
            const T f = std::sqrt(T(-2) * ln_s / s);
            spare_ = (static_cast<T>(b) * detail::pow2<T>(1 - B)) * f;
            has_spare_ = true;
            return (static_cast<T>(a) * detail::pow2<T>(1 - B)) * f;
        }
    }

private:
    T spare_ = T(0);
    bool has_spare_ = false;
};

using normal_sampler = basic_normal_sampler<double>;       // init's sampler
using normal_sampler_float = basic_normal_sampler<float>;  // init_float's

// The stream of one tensor: depends only on (seed, name), so adding or reordering
// parameters leaves every other tensor's initial values unchanged.
constexpr xoshiro256ss stream_for(std::uint64_t seed, std::string_view name) noexcept {
    std::uint64_t s = seed;
    const std::uint64_t a = splitmix64(s);
    return xoshiro256ss(a ^ fnv1a64(name));
}

}  // namespace prng

// The generator training and inference take: seeded, copyable, its state saved in checkpoints.
using rng = prng::xoshiro256ss;

}  // namespace typeformer
