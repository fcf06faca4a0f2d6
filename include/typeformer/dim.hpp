// Named dimensions.
//
// A dimension is a class template instantiated with its size: `d_attn<64>`.
// The template is the dimension's meaning, the argument its size, so
// `d_attn<64>` and `d_mid<64>` are different types and never unify, and a
// compiler prints either exactly as written here.
//
//   fixed dim      d_e<384>          size known at compile time
//   bounded length l_x<256>          capacity 256, extent set at run time (0 until resized)
//   product        prod<H<6>, d_mid<64>>   the paper's H·d_mid, heads outermost
//
// New dimensions are declared with TYPEFORMER_DIM(name) or
// TYPEFORMER_LENGTH(name) in any namespace.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace typeformer {

namespace detail {
template <std::size_t N>
struct fixed_dim {
    static constexpr std::size_t size = N;
    static constexpr std::size_t capacity = N;
    static constexpr bool is_bounded = false;
};
template <std::size_t Max>
struct bounded_dim {
    static constexpr std::size_t capacity = Max;
    static constexpr bool is_bounded = true;
};
}  // namespace detail

// A fixed dimension: `name<N>` has exactly N entries.
#define TYPEFORMER_DIM(name)                                        \
    template <std::size_t N>                                        \
    struct name : ::typeformer::detail::fixed_dim<N> {              \
        static_assert(N > 0, "a dimension has at least one entry"); \
        static constexpr const char* label = #name;                 \
    }

// A bounded length: `name<Max>` has a run-time extent in [0, Max].
#define TYPEFORMER_LENGTH(name)                                        \
    template <std::size_t Max>                                         \
    struct name : ::typeformer::detail::bounded_dim<Max> {             \
        static_assert(Max > 0, "a length has capacity of at least 1"); \
        static constexpr const char* label = #name;                    \
    }

template <class D>
concept dimension = requires {
    { D::capacity } -> std::convertible_to<std::size_t>;
    { D::is_bounded } -> std::convertible_to<bool>;
    { D::label } -> std::convertible_to<const char*>;
};

template <class D>
concept fixed_dimension = dimension<D> && !D::is_bounded;

template <class D>
concept bounded_dimension = dimension<D> && D::is_bounded;

// The paper's dimensions (Phuong & Hutter, §3 and Algorithms 1–10).
TYPEFORMER_DIM(d_e);     // token embedding
TYPEFORMER_DIM(d_x);     // primary sequence representation
TYPEFORMER_DIM(d_z);     // context sequence representation
TYPEFORMER_DIM(d_in);    // Algorithm 3's input
TYPEFORMER_DIM(d_attn);  // query / key
TYPEFORMER_DIM(d_mid);   // one head's value
TYPEFORMER_DIM(d_out);   // attention output
TYPEFORMER_DIM(d_mlp);   // MLP hidden layer
TYPEFORMER_DIM(d_f);     // ETransformer's final projection
TYPEFORMER_DIM(N_V);     // vocabulary
TYPEFORMER_DIM(H);       // attention heads
TYPEFORMER_DIM(L);       // layers
TYPEFORMER_DIM(l_max);   // positions of the learned positional embedding
TYPEFORMER_LENGTH(l_x);  // primary sequence length
TYPEFORMER_LENGTH(l_z);  // context sequence length
TYPEFORMER_LENGTH(T);    // Algorithm 3's number of context tokens

// The paper's vertical stacking of H blocks of D rows (Algorithm 5, line 3):
// row h·|D| + i is entry i of block h. Only this order exists, so
// `prod<H<4>, d_mid<16>>` and `prod<d_mid<16>, H<4>>` are different dimensions.
template <fixed_dimension Outer, fixed_dimension Inner>
struct prod {
    using outer = Outer;
    using inner = Inner;
    static constexpr std::size_t size = Outer::size * Inner::size;
    static constexpr std::size_t capacity = size;
    static constexpr bool is_bounded = false;
    static constexpr const char* label = "prod";
};

template <class D>
inline constexpr bool is_prod_v = false;
template <class A, class B>
inline constexpr bool is_prod_v<prod<A, B>> = true;

// Same meaning and same size. This is the only way two dimensions unify.
template <class A, class B>
concept same_dim = std::is_same_v<A, B>;

// Equal sizes: what an explicit relabel requires (Relabel is the greppable
// escape hatch; `same_dim` is what every operation checks).
template <class From, class To>
concept relabel_compatible = dimension<From> && dimension<To> &&
                             From::capacity == To::capacity&& From::is_bounded == To::is_bounded;

// Run-time extent of a dimension: free for fixed dims, a size_t for bounded. Role tells a
// matrix's row extent from its column extent, so two empty extents of a square mat<T, D, D>
// are different types and [[no_unique_address]] can overlap them (no padding is added).
template <dimension D, int Role = 0>
struct extent {
    static constexpr std::size_t value() noexcept { return D::capacity; }
    static constexpr void set(std::size_t) noexcept {}
};
template <bounded_dimension D, int Role>
struct extent<D, Role> {
    std::size_t n =
        0;  // empty until sized, like Eigen's dynamic matrices; zero-initialised, so .bss
    constexpr std::size_t value() const noexcept { return n; }
    constexpr void set(std::size_t v) noexcept { n = v; }
};

}  // namespace typeformer
