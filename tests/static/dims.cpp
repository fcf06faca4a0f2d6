// Static tests of dim.hpp: meaning is identity, sizes, bounded lengths, products.
// This file passes by compiling.
#include <type_traits>

#include <typeformer/dim.hpp>

namespace {
using namespace typeformer;

// ---- meaning is identity: same size, different meaning → different types ----
static_assert(!std::is_same_v<d_attn<64>, d_mid<64>>);
static_assert(!same_dim<d_attn<64>, d_mid<64>>);
static_assert(!same_dim<d_e<64>, d_x<64>>);
static_assert(!same_dim<l_x<16>, l_z<16>>);
static_assert(!std::is_convertible_v<d_attn<64>, d_mid<64>>);
// same meaning, different size → different types too
static_assert(!same_dim<d_attn<64>, d_attn<32>>);
// same meaning and size → the same type, whatever the spelling
static_assert(same_dim<d_attn<64>, d_attn<64>>);
static_assert(std::is_same_v<d_attn<64>, d_attn<8 * 8>>);

// ---- every dimension carries its size, capacity and label ----
static_assert(d_attn<64>::size == 64 && d_attn<64>::capacity == 64);
static_assert(dimension<d_e<384>> && fixed_dimension<d_e<384>> && !bounded_dimension<d_e<384>>);
static_assert(d_e<384>::label[0] == 'd' && d_e<384>::label[1] == '_' && d_e<384>::label[2] == 'e');
static_assert(!dimension<int> && !dimension<float>);

// ---- bounded lengths: a capacity, no compile-time size, a run-time extent ----
static_assert(bounded_dimension<l_x<256>> && !fixed_dimension<l_x<256>>);
static_assert(bounded_dimension<l_z<8>> && bounded_dimension<T<8>>);
static_assert(l_x<256>::capacity == 256);
template <class D>
concept has_static_size = requires {
    D::size;
};
static_assert(has_static_size<d_e<8>> && !has_static_size<l_x<8>>);
// extent: free for a fixed dim, a settable count for a bounded one
static_assert(std::is_empty_v<extent<d_e<8>>>);
static_assert(extent<d_e<8>>::value() == 8);
static_assert(sizeof(extent<l_x<8>>) == sizeof(std::size_t));
static_assert([] {
    extent<l_x<8>> e;
    const bool starts_empty =
        e.value() == 0;  // a fresh bounded extent is 0 (zero-initialised: .bss)
    e.set(3);
    return starts_empty && e.value() == 3;
}());

// ---- products: the paper's H·d_mid, heads outermost, a dimension of its own ----
using Hd = prod<H<4>, d_mid<16>>;
static_assert(dimension<Hd> && fixed_dimension<Hd>);
static_assert(Hd::size == 64 && Hd::capacity == 64);
static_assert(std::is_same_v<Hd::outer, H<4>> && std::is_same_v<Hd::inner, d_mid<16>>);
static_assert(is_prod_v<Hd> && !is_prod_v<d_mid<64>>);
// order is part of the meaning, and a product is not a plain dim of the same size
static_assert(!same_dim<prod<H<4>, d_mid<16>>, prod<d_mid<16>, H<4>>>);
static_assert(!same_dim<prod<H<4>, d_mid<16>>, prod<H<4>, d_attn<16>>>);
static_assert(!same_dim<prod<H<4>, d_mid<16>>, prod<H<2>, d_mid<32>>>);
static_assert(!same_dim<Hd, d_out<64>> && !same_dim<Hd, d_mid<64>>);
// a product of bounded lengths is not a thing: prod takes fixed dims only
template <class A, class B>
concept can_form_prod = requires {
    typename prod<A, B>;
    prod<A, B>::size;
};
static_assert(can_form_prod<H<4>, d_attn<8>>);
static_assert(!can_form_prod<H<4>, l_x<8>>);

// ---- relabel_compatible: equal sizes (and both fixed or both bounded) only ----
static_assert(relabel_compatible<d_attn<64>, d_mid<64>>);
static_assert(relabel_compatible<Hd, d_out<64>>);  // concat of heads → d_out, explicitly
static_assert(relabel_compatible<l_x<16>, l_z<16>>);
static_assert(!relabel_compatible<d_attn<64>, d_mid<32>>);
static_assert(!relabel_compatible<l_x<16>, l_z<8>>);
static_assert(
    !relabel_compatible<d_e<16>, l_x<16>>);  // a fixed size never becomes a run-time extent
static_assert(!relabel_compatible<l_x<16>, d_e<16>>);

// ---- TYPEFORMER_DIM / TYPEFORMER_LENGTH declare new ones anywhere ----
namespace user {
TYPEFORMER_DIM(d_patch);
TYPEFORMER_LENGTH(l_img);
}  // namespace user
static_assert(fixed_dimension<user::d_patch<48>> && bounded_dimension<user::l_img<196>>);
static_assert(!same_dim<user::d_patch<48>, d_e<48>>);

}  // namespace
