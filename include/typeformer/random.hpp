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
//                                    bit-identical everywhere
//   prng::stream_for(seed, name)     an independent stream per parameter name (init)
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace typeformer {

// ---- a small deterministic PRNG: the same numbers on every platform ----
//
// std::normal_distribution is implementation-defined, so typeformer carries its own:
// xoshiro256** (Blackman & Vigna) seeded by splitmix64, and Marsaglia's polar method
// for normals. The polar method is computed so that every result is bit-identical on
// any IEEE-754 binary64 platform evaluating at its own precision (FLT_EVAL_METHOD 0,
// so not x87) without -ffast-math: the uniforms are exact integers, ln is a fixed
// atanh series whose products never feed an addition unless they are exact (so FMA
// contraction cannot change a bit), and the only libm call is sqrt (correctly rounded
// by IEEE 754). The sampler is meant for initialisation, not for speed.
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
constexpr double pow2(int e) noexcept {  // 2^e for -1022 ≤ e ≤ 1023, exact
    return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52);
}

// ln(n · 2^e) for 0 < n < 2^53, deterministic to the last bit (see above).
inline double log_scaled(std::uint64_t n, int e) noexcept {
    int k = static_cast<int>(std::bit_width(n));
    double m = static_cast<double>(n) * pow2(-k);  // [0.5, 1), exact
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        --k;
    }
    // ln m = 2 atanh(y), y = (m − 1)/(m + 1), |y| ≤ 0.1716; 11 terms reach 2^-54.
    const double y = (m - 1.0) / (m + 1.0);
    const double y2 = y * y;
    double term = y, sum = y;
    for (int j = 1; j <= 11; ++j) {
        term = term * y2;
        sum = sum + term / static_cast<double>(2 * j + 1);
    }
    // (k + e)·ln 2 with ln 2 ≈ (LN2_HI + LN2_LO·2^-46)·2^-46: both integer products are
    // exact below 2^53, so each term is an exact double and only their sum rounds.
    constexpr std::int64_t LN2_HI = 48775896626292;  // round(ln 2 · 2^46)
    constexpr std::int64_t LN2_LO = -9231015199942;  // round((ln 2 · 2^46 − LN2_HI) · 2^46)
    const std::int64_t ke = k + e;
    const double kln2 =
        static_cast<double>(ke * LN2_HI) * pow2(-46) + static_cast<double>(ke * LN2_LO) * pow2(-92);
    return 2.0 * sum + kln2;
}
}  // namespace detail

// Standard normal deviates by Marsaglia's polar method; each accepted pair yields two.
class normal_sampler {
public:
    template <class Gen>
    double operator()(Gen& gen) noexcept {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        for (;;) {
            const std::uint64_t r = gen();
            constexpr std::int64_t half = std::int64_t{1} << 26;
            const std::int64_t a = static_cast<std::int64_t>((r >> 37) & 0x7FFFFFF) - half;
            const std::int64_t b = static_cast<std::int64_t>((r >> 10) & 0x7FFFFFF) - half;
            const std::int64_t s_int = a * a + b * b;  // s = s_int · 2^-52, exact
            if (s_int == 0 || s_int >= (std::int64_t{1} << 52))
                continue;
            const double s = static_cast<double>(s_int) * detail::pow2(-52);
            const double ln_s = detail::log_scaled(static_cast<std::uint64_t>(s_int), -52);
            const double f = std::sqrt(-2.0 * ln_s / s);
            spare_ = (static_cast<double>(b) * detail::pow2(-26)) * f;
            has_spare_ = true;
            return (static_cast<double>(a) * detail::pow2(-26)) * f;
        }
    }

private:
    double spare_ = 0.0;
    bool has_spare_ = false;
};

namespace detail {
constexpr float pow2f(int e) noexcept {  // 2^e for -126 ≤ e ≤ 127, exact
    return std::bit_cast<float>(static_cast<std::uint32_t>(127 + e) << 23);
}

// ln(n · 2^e) for 0 < n < 2^24, in float only and deterministic to the last bit: as
// log_scaled, the series' products never feed an addition (so FMA contraction cannot change a
// bit) and k·ln 2 is a sum of two exact terms.
inline float log_scaled_float(std::uint32_t n, int e) noexcept {
    int k = static_cast<int>(std::bit_width(n));
    float m = static_cast<float>(n) * pow2f(-k);  // [0.5, 1), exact
    if (m < 0.70710678f) {
        m *= 2.0f;
        --k;
    }
    // ln m = 2 atanh(y), y = (m − 1)/(m + 1), |y| ≤ 0.1716; 5 terms reach 2^-25.
    const float y = (m - 1.0f) / (m + 1.0f);
    const float y2 = y * y;
    float term = y, sum = y;
    for (int j = 1; j <= 5; ++j) {
        term = term * y2;
        sum = sum + term / static_cast<float>(2 * j + 1);
    }
    // ln 2 ≈ (LN2_HI + LN2_LO·2^-17)·2^-17; |k + e| < 64 keeps both products below 2^24.
    constexpr std::int32_t LN2_HI = 90852;  // round(ln 2 · 2^17)
    constexpr std::int32_t LN2_LO = 24543;  // round((ln 2 · 2^17 − LN2_HI) · 2^17)
    const std::int32_t ke = k + e;
    const float kln2 =
        static_cast<float>(ke * LN2_HI) * pow2f(-17) + static_cast<float>(ke * LN2_LO) * pow2f(-34);
    return 2.0f * sum + kln2;
}
}  // namespace detail

// Marsaglia's polar method in float: a, b uniform on 12 bits, s = a² + b² exact in float.
class normal_sampler_float {
public:
    template <class Gen>
    float operator()(Gen& gen) noexcept {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        for (;;) {
            const std::uint64_t r = gen();
            constexpr std::int32_t half = 1 << 11;
            const std::int32_t a = static_cast<std::int32_t>((r >> 52) & 0xFFF) - half;
            const std::int32_t b = static_cast<std::int32_t>((r >> 40) & 0xFFF) - half;
            const std::int32_t s_int = a * a + b * b;  // s = s_int · 2^-22, exact
            if (s_int == 0 || s_int >= (1 << 22))
                continue;
            const float s = static_cast<float>(s_int) * detail::pow2f(-22);
            const float ln_s = detail::log_scaled_float(static_cast<std::uint32_t>(s_int), -22);
            const float f = std::sqrt(-2.0f * ln_s / s);
            spare_ = (static_cast<float>(b) * detail::pow2f(-11)) * f;
            has_spare_ = true;
            return (static_cast<float>(a) * detail::pow2f(-11)) * f;
        }
    }

private:
    float spare_ = 0.0f;
    bool has_spare_ = false;
};

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
