// Weights exported for a firmware (io/export_header.hpp): the check that an exported header's
// parameters are instantiated as the model they were exported from.
//
//   exported_as<Model, Exported>()  declared only: returns Model when Model has Exported's
//                                   signature: the same architecture (DTransformer, its int8
//                                   form, …), scalar, every dimension (N_V, l_max, L, L_enc, L_dec,
//                                   H, d_e, d_mlp, d_attn, d_mid, d_f) and every variant (norm,
//                                   positional, tied, gelu, ε); else shape_error<in::exported_weights,
//                                   …>, which is never defined
//
// An exported header declares its parameters as
//
//   template <class Model, std::size_t = sizeof(typeformer::deploy::exported_as<Model, weights_type>())>
//   inline constexpr Model weights = {…};
//
// so `weights<gpt>` is a constant-initialised gpt (in .rodata: flash) when gpt has the exported
// model's signature, whatever the name of its config struct, and otherwise an error whose first
// line names the first thing that differs (sizeof of an incomplete type):
//
//   shape_error<in::exported_weights, model<DTransformer<float, cfg4>>,
//               exported_for<DTransformer<float, weights_config>>, first_difference<H<4>, H<2>>>
//
// Core header: no heap, no exceptions, no fmt.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "../models/config.hpp"
#include "../models/diagnose.hpp"
#include "../shape_error.hpp"

namespace typeformer {

namespace in {
struct exported_weights;  // a header of io::export_header, instantiated as another model
}  // namespace in

// The model type an exported header's weights were written from.
template <class Exported>
struct exported_for;

namespace deploy {

// The variants and the encoder/decoder depths, as types for a diagnostic's first_difference.
template <std::size_t N>
struct L_enc;
template <std::size_t N>
struct L_dec;
template <norm_kind K>
struct norm;
template <positional_kind K>
struct positional;
template <bool B>
struct tied;
template <gelu_kind K>
struct gelu;
template <class M>
struct layer_norm_eps_of;  // ε is a double: Clang 14 takes no floating-point template argument

namespace detail {

using typeformer::detail::first_error;
using typeformer::detail::what;

template <class A, class B>
constexpr auto differ() {
    if constexpr (std::is_same_v<A, B>)
        return what<>{};
    else
        return what<first_difference<A, B>>{};
}

// What a dimension check of models/diagnose.hpp leaves out: the depths of the two stacks of an
// EDTransformer and the variants.
template <class G, class M>
constexpr auto variant_difference() {
    using TG = typename G::traits;
    using TM = typename M::traits;
    const auto eps = [] {
        if constexpr (TG::eps == TM::eps)
            return what<>{};
        else
            return what<first_difference<layer_norm_eps_of<G>, layer_norm_eps_of<M>>>{};
    };
    return first_error(
        differ<L_enc<TG::L_enc>, L_enc<TM::L_enc>>(), differ<L_dec<TG::L_dec>, L_dec<TM::L_dec>>(),
        differ<norm<TG::norm>, norm<TM::norm>>(),
        differ<positional<TG::positional>, positional<TM::positional>>(),
        differ<tied<TG::tied>, tied<TM::tied>>(), differ<gelu<TG::gelu>, gelu<TM::gelu>>(), eps());
}

template <class X>
concept model_type = requires {
    typename X::traits;
    typename X::value_type;
    { X::name } -> std::convertible_to<const char*>;
};

// what<> when Model has Exported's signature; else the roles and the first difference.
template <class Model, class Exported>
constexpr auto exported_diagnosis() {
    if constexpr (std::is_same_v<Model, Exported>) {
        return what<>{};
    } else if constexpr (!model_type<Model> || !model_type<Exported>) {
        return what<model<Model>, exported_for<Exported>>{};
    } else if constexpr (std::string_view(Model::name) != std::string_view(Exported::name)) {
        return what<model<Model>, exported_for<Exported>>{};  // another architecture
    } else {
        using difference =
            decltype(first_error(typeformer::detail::first_difference_between<Model, Exported>(),
                                 variant_difference<Model, Exported>()));
        if constexpr (std::is_same_v<difference, what<>>)
            return what<>{};
        else
            return typeformer::detail::followed_by<model<Model>, exported_for<Exported>>(
                difference{});
    }
}

template <class Model>
Model shape_error_or(what<>);
template <class Model, class... W>
shape_error<in::exported_weights, W...> shape_error_or(what<W...>);

}  // namespace detail

// Declared only, for sizeof: Model when it has Exported's signature, else the shape_error.
template <class Model, class Exported>
auto exported_as()
    -> decltype(detail::shape_error_or<Model>(detail::exported_diagnosis<Model, Exported>()));

}  // namespace deploy

}  // namespace typeformer
