// Shared pieces of the xsimd kernels (only included when kernels/backend.hpp chose SIMD).
//
//   batch<T>        xsimd::batch<T> on the compile-time default architecture
//   width<T>        lanes per batch
//   has_batch<T>    false when the architecture has no register for T (e.g. double on 32-bit
//                   NEON); those kernels then run the scalar loops
//   load_n / store_n  the first n ≤ width lanes (a zero-padded batch for a column's tail)
#pragma once

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>

// Complete unrolling of a loop over a compile-time bound (register blocks must not spill).
#if defined(__clang__)
#define TYPEFORMER_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define TYPEFORMER_UNROLL _Pragma("GCC unroll 16")
#else
#define TYPEFORMER_UNROLL
#endif

namespace typeformer::kernels::simd_impl {

template <class T>
inline constexpr bool has_batch = xsimd::has_simd_register<T>::value;

template <class T>
using batch = xsimd::batch<T>;

template <class T>
inline constexpr std::size_t width = batch<T>::size;

// With AVX-512 or AVX2 a partial load or store is one masked instruction (masked lanes are
// neither read nor written, so they cannot fault); elsewhere it goes through a buffer, which
// GCC turns into a small memcpy: that was a fifth of the softmax passes of causal attention at
// tiny's short columns.
template <class T>
inline batch<T> load_n(const T* p, std::size_t n, T fill = T(0)) noexcept {
    if (n == width<T>)
        return batch<T>::load_unaligned(p);
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_same_v<T, float> && width<T> == 16)
        return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), static_cast<__mmask16>((1u << n) - 1u),
                                    p);
    if constexpr (std::is_same_v<T, double> && width<T> == 8)
        return _mm512_mask_loadu_pd(_mm512_set1_pd(fill), static_cast<__mmask8>((1u << n) - 1u), p);
#endif
#if XSIMD_WITH_AVX2
    if constexpr (std::is_same_v<T, float> && width<T> == 8) {
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m),
                                _mm256_castsi256_ps(m));
    }
    if constexpr (std::is_same_v<T, double> && width<T> == 4) {
        const __m256i m = _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(n)),
                                             _mm256_setr_epi64x(0, 1, 2, 3));
        return _mm256_blendv_pd(_mm256_set1_pd(fill), _mm256_maskload_pd(p, m),
                                _mm256_castsi256_pd(m));
    }
#endif
    alignas(64) T buf[width<T>];
    for (std::size_t i = 0; i < width<T>; ++i)
        buf[i] = i < n ? p[i] : fill;
    return batch<T>::load_aligned(buf);
}

template <class T>
inline void store_n(T* p, const batch<T>& v, std::size_t n) noexcept {
    if (n == width<T>) {
        v.store_unaligned(p);
        return;
    }
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_same_v<T, float> && width<T> == 16) {
        _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1u), v);
        return;
    }
    if constexpr (std::is_same_v<T, double> && width<T> == 8) {
        _mm512_mask_storeu_pd(p, static_cast<__mmask8>((1u << n) - 1u), v);
        return;
    }
#endif
#if XSIMD_WITH_AVX2
    if constexpr (std::is_same_v<T, float> && width<T> == 8) {
        _mm256_maskstore_ps(p,
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                                               _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                            v);
        return;
    }
    if constexpr (std::is_same_v<T, double> && width<T> == 4) {
        _mm256_maskstore_pd(p,
                            _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(n)),
                                               _mm256_setr_epi64x(0, 1, 2, 3)),
                            v);
        return;
    }
#endif
    alignas(64) T buf[width<T>];
    v.store_aligned(buf);
    for (std::size_t i = 0; i < n; ++i)
        p[i] = buf[i];
}

// Sum of the first n lanes.
template <class T>
inline T hadd_n(const batch<T>& v, std::size_t n) noexcept {
    if (n == width<T>)
        return xsimd::hadd(v);
    alignas(64) T buf[width<T>];
    v.store_aligned(buf);
    T s = T(0);
    for (std::size_t i = 0; i < n; ++i)
        s += buf[i];
    return s;
}

// Largest lane (xsimd 8.1 has no horizontal max).
template <class T>
inline T hmax(const batch<T>& v) noexcept {
    alignas(64) T buf[width<T>];
    v.store_aligned(buf);
    T m = buf[0];
    for (std::size_t i = 1; i < width<T>; ++i)
        m = buf[i] > m ? buf[i] : m;
    return m;
}

// Calls f(i, n) for the runs [i, i + n) of a column of `rows` entries: n == width except the last.
template <class T, class F>
inline void for_each_run(std::size_t rows, F&& f) noexcept {
    std::size_t i = 0;
    for (; i + width<T> <= rows; i += width<T>)
        f(i, width<T>);
    if (i < rows)
        f(i, rows - i);
}

}  // namespace typeformer::kernels::simd_impl
