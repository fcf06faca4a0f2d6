// A deployment: a model, a use, a placement and a board, checked by the compiler.
//
//   placement<P...>                    where the buffers go; each P one of
//     place<Buffer, Region>              buffer::kv_cache in memory::ccm, say
//     stack<Bytes, Region = the board's stack_region>
//     code<Bytes, Region = the board's flash>
//   Absent from the placement: a buffer the use writes goes in the board's main RAM (its first
//   read-write region), one it only reads (the weights of inference and decoding) in flash. A
//   place<> of a buffer the use has not is ignored (one placement serves several uses). The
//   stack is default_stack_bytes<Use>, the code default_code_bytes<Use>: declared figures
//   that the firmware measures (docs/embedded.md).
//
//   deployment<Board, Model, Use, Placement = placement<>>   the plan, as a type:
//     ::used(region index), ::free(…)    bytes per region
//     ::region_of<Buffer>, ::bytes_of<Buffer>   a buffer's region (its index) and bytes
//                                        (a deployment that does not fit is check's error)
//   fits<Board, Model, Use, Placement>   the same bool
//   check<Board, Model, Use, Placement>()   the deployment when it fits; otherwise declared only,
//                                        returning shape_error<in::deployment, …>, so the call is
//                                        an error whose first line names what does not fit:
//
//   static_assert(tf::deploy::check<tf::deploy::stm32f405, gpt, tf::deploy::decoding>());
//
//   error: invalid use of incomplete type 'struct typeformer::shape_error<typeformer::in::deployment,
//     typeformer::deploy::for_use<typeformer::deploy::decoding>, typeformer::deploy::on<
//     typeformer::deploy::stm32f405>, typeformer::deploy::region_bytes<typeformer::deploy::memory::
//     sram, 131072>, typeformer::deploy::overflowing_buffer<typeformer::deploy::buffer::kv_cache,
//     141312>, typeformer::deploy::over_by_bytes<12288> >'
//
// Each region is filled in order: code, the use's buffers (weights first), the stack; the
// overflowing buffer is the first one that does not fit in what is left. Other mistakes name
// themselves: a buffer the use writes placed in flash (written_buffer<B>, read_only_region<R>), a
// region the board does not have (placed_in<B, R>, board_has_no_region<R>), a use the model does
// not have (for_use<sgd_training>, model_without_use<q8<…>>).
//
// Core header: no heap, no exceptions, no fmt.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "../shape_error.hpp"
#include "board.hpp"
#include "use.hpp"

namespace typeformer {

namespace in {
struct deployment;  // deploy::check: a model, a use and a placement on a board
}  // namespace in

namespace deploy {

// ---- the placement ----

template <class Buffer, class Region>
struct place {};
template <std::size_t Bytes, class Region = void>
struct stack {};
template <std::size_t Bytes, class Region = void>
struct code {};
template <class... P>
struct placement {};

// The code a placement declares by default: the firmware's measured library and program code on
// a Cortex-M4F (with the board support and newlib-nano) is 15 KiB for decoding and 36 KiB for
// training (docs/embedded.md).
template <class Use>
inline constexpr std::size_t default_code_bytes =
    std::is_same_v<Use, inference> || std::is_same_v<Use, decoding> ? 24 * KiB : 48 * KiB;

// ---- what a diagnostic names ----

template <class Use>
struct for_use;
template <class Board>
struct on;
template <class Region, std::size_t Bytes>
struct region_bytes;  // the region that overflows, and its size
template <class Buffer, std::size_t Bytes>
struct overflowing_buffer;  // the first buffer that does not fit in what is left of it
template <std::size_t Bytes>
struct over_by_bytes;
template <class Buffer>
struct written_buffer;
template <class Region>
struct read_only_region;
template <class Buffer, class Region>
struct placed_in;
template <class Region>
struct board_has_no_region;
template <class M>
struct model_without_use;

namespace detail {

using typeformer::detail::what;

// A buffer resolved to its region: Region is a memory:: tag.
template <class Buffer, class Region, std::size_t Bytes, bool Written>
struct entry {
    using buffer = Buffer;
    using region = Region;
    static constexpr std::size_t bytes = Bytes;
    static constexpr bool written = Written;
};

// The region a placement gives Buffer (void: none).
template <class Buffer, class... P>
struct placed {
    using type = void;
};
template <class Buffer, class R, class... P>
struct placed<Buffer, place<Buffer, R>, P...> {
    using type = R;
};
template <class Buffer, class P0, class... P>
struct placed<Buffer, P0, P...> : placed<Buffer, P...> {};

// The stack<> and code<> of a placement (Default when it has none).
template <template <std::size_t, class> class Kind, class Default, class... P>
struct declared {
    using type = Default;
};
template <template <std::size_t, class> class Kind, class Default, std::size_t B, class R,
          class... P>
struct declared<Kind, Default, Kind<B, R>, P...> {
    using type = Kind<B, R>;
};
template <template <std::size_t, class> class Kind, class Default, class P0, class... P>
struct declared<Kind, Default, P0, P...> : declared<Kind, Default, P...> {};

template <class X>
struct declared_parts;
template <std::size_t B, class R>
struct declared_parts<stack<B, R>> {
    static constexpr std::size_t bytes = B;
    using region = R;
};
template <std::size_t B, class R>
struct declared_parts<code<B, R>> {
    static constexpr std::size_t bytes = B;
    using region = R;
};

template <class Board, class Placement, class Use, class Needs>
struct resolve;
template <class Board, class... P, class Use, class... N>
struct resolve<Board, placement<P...>, Use, type_list<N...>> {
    // a board without flash keeps its read-only buffers in its main RAM
    static constexpr std::size_t flash_at =
        Board::flash_index == Board::region_count ? Board::ram_index : Board::flash_index;
    using flash_name = typename Board::template region_at<flash_at>::name;
    using ram_name = typename Board::template region_at<Board::ram_index>::name;
    template <class Given, class Default>
    using or_default = std::conditional_t<std::is_void_v<Given>, Default, Given>;

    using stack_part =
        declared_parts<typename declared<stack, stack<default_stack_bytes<Use>, void>, P...>::type>;
    using code_part =
        declared_parts<typename declared<code, code<default_code_bytes<Use>, void>, P...>::type>;

    // code, the use's buffers, the stack: the order in which each region is filled
    using type = type_list<
        entry<buffer::code, or_default<typename code_part::region, flash_name>, code_part::bytes,
              false>,
        entry<typename N::what,
              or_default<typename placed<typename N::what, P...>::type,
                         std::conditional_t<N::written, ram_name, flash_name>>,
              N::bytes, N::written>...,
        entry<buffer::stack, or_default<typename stack_part::region, typename Board::stack_region>,
              stack_part::bytes, true>>;
};

// Where a list of entries goes wrong: the first entry in a region the board does not have or
// written in a read-only one (misplaced), else the first that does not fit in what is left of
// its region as each region is filled in order (overflow, by over bytes); n when none.
struct fault {
    std::size_t misplaced = 0, overflow = 0, over = 0;
};
template <class Board, class... E>
constexpr fault find_fault() {
    constexpr std::size_t n = sizeof...(E);
    const std::size_t region[] = {Board::template index_of<typename E::region>..., 0};
    const std::size_t bytes[] = {E::bytes..., 0};
    const bool written[] = {E::written..., false};
    fault f{n, n, 0};
    for (std::size_t i = 0; i < n && f.misplaced == n; ++i)
        if (region[i] >= Board::region_count ||
            (written[i] && Board::info[region[i]].mode == access::read_only))
            f.misplaced = i;
    if (f.misplaced < n)
        return f;
    std::size_t used[Board::region_count]{};
    for (std::size_t i = 0; i < n; ++i) {
        used[region[i]] += bytes[i];
        if (used[region[i]] > Board::info[region[i]].bytes)
            return {n, i, used[region[i]] - Board::info[region[i]].bytes};
    }
    return f;
}

template <class Board, class Use, class Entries>
struct diagnose;
template <class Board, class Use, class... E>
struct diagnose<Board, Use, type_list<E...>> {
    static constexpr std::size_t n = sizeof...(E);
    static constexpr fault f = find_fault<Board, E...>();

    static constexpr auto get() {
        if constexpr (f.misplaced < n) {
            using X = typename nth<f.misplaced, E...>::type;
            if constexpr (!Board::template has<typename X::region>)
                return what<for_use<Use>, on<Board>,
                            placed_in<typename X::buffer, typename X::region>,
                            board_has_no_region<typename X::region>>{};
            else
                return what<for_use<Use>, on<Board>, written_buffer<typename X::buffer>,
                            read_only_region<typename X::region>>{};
        } else if constexpr (f.overflow < n) {
            using X = typename nth<f.overflow, E...>::type;
            using R = typename X::region;
            return what<for_use<Use>, on<Board>,
                        region_bytes<R, Board::info[Board::template index_of<R>].bytes>,
                        overflowing_buffer<typename X::buffer, X::bytes>, over_by_bytes<f.over>>{};
        } else {
            return what<>{};
        }
    }
};

// The diagnosis of a deployment: what<> when it fits.
template <class Board, class Model, class Use, class Placement>
constexpr auto diagnosis() {
    if constexpr (!has_use<Use, Model>)
        return what<for_use<Use>, model_without_use<Model>>{};
    else
        return diagnose<Board, Use,
                        typename resolve<Board, Placement, Use,
                                         typename use_buffers<Use, Model>::type>::type>::get();
}

template <class Board, class Model, class Use, class Placement>
inline constexpr bool fits =
    std::is_same_v<decltype(diagnosis<Board, Model, Use, Placement>()), what<>>;

template <class Board, class Buffer, class... E>
constexpr std::size_t region_of(type_list<E...>) {
    std::size_t r = Board::region_count;
    ((std::is_same_v<typename E::buffer, Buffer>
          ? void(r = Board::template index_of<typename E::region>)
          : void()),
     ...);
    return r;
}
template <class Buffer, class... E>
constexpr std::size_t bytes_of(type_list<E...>) {
    return ((std::is_same_v<typename E::buffer, Buffer> ? E::bytes : 0) + ... + 0);
}
template <class Board, class... E>
constexpr std::array<std::size_t, Board::region_count> bytes_by_region(type_list<E...>) {
    std::array<std::size_t, Board::region_count> s{};
    ((s[Board::template index_of<typename E::region>] += E::bytes), ...);
    return s;
}

}  // namespace detail

template <class Board, class Model, class Use, class Placement = placement<>>
inline constexpr bool fits = detail::fits<Board, Model, Use, Placement>;

namespace detail {
// std::true_type when the deployment fits, else its shape_error (declared only: for sizeof).
template <class Board, class Model, class Use, class Placement>
    requires fits<Board, Model, Use, Placement> std::true_type fit_or_error();
template <class Board, class Model, class Use, class Placement>
    requires(!fits<Board, Model, Use, Placement>)
auto fit_or_error() -> decltype(typeformer::detail::shape_error_of<in::deployment>(
    diagnosis<Board, Model, Use, Placement>()));

// The entries of a deployment that fits (none otherwise: its error is reported once).
template <bool Fits, class Board, class Model, class Use, class Placement>
struct entries_of {
    using type = type_list<>;
};
template <class Board, class Model, class Use, class Placement>
struct entries_of<true, Board, Model, Use, Placement>
    : resolve<Board, Placement, Use, typename use_buffers<Use, Model>::type> {};
}  // namespace detail

// The plan of a deployment: the bytes each region holds. Naming one that does not fit is the
// same error as check's.
template <class Board, class Model, class Use, class Placement = placement<>>
struct deployment {
    static_assert(sizeof(decltype(detail::fit_or_error<Board, Model, Use, Placement>())) > 0);
    using board_type = Board;
    using model_type = Model;
    using use_type = Use;
    using entries = typename detail::entries_of<fits<Board, Model, Use, Placement>, Board, Model,
                                                Use, Placement>::type;

    // Bytes placed in region r (its index on the board), and what is left of it.
    static constexpr std::size_t used(std::size_t r) noexcept {
        return r < Board::region_count ? by_region[r] : 0;
    }
    static constexpr std::size_t free(std::size_t r) noexcept {
        return r < Board::region_count ? Board::info[r].bytes - used(r) : 0;
    }
    // The region of Buffer (buffer::kv_cache, buffer::stack, …): its index on the board
    // (region_count: the use has no such buffer).
    template <class Buffer>
    static constexpr std::size_t region_of = detail::region_of<Board, Buffer>(entries{});
    // The bytes of Buffer in this deployment (0: the use has none).
    template <class Buffer>
    static constexpr std::size_t bytes_of = detail::bytes_of<Buffer>(entries{});

    explicit constexpr operator bool() const noexcept { return true; }

private:
    static constexpr auto by_region = detail::bytes_by_region<Board>(entries{});
};

// The deployment when it fits; a call that does not is an error naming what overflows.
template <class Board, class Model, class Use, class Placement = placement<>>
    requires fits<Board, Model, Use, Placement>
constexpr deployment<Board, Model, Use, Placement> check() noexcept {
    return {};
}
template <class Board, class Model, class Use, class Placement = placement<>>
    requires(!fits<Board, Model, Use, Placement>)
auto check() -> decltype(typeformer::detail::shape_error_of<in::deployment>(
    detail::diagnosis<Board, Model, Use, Placement>()));

}  // namespace deploy

}  // namespace typeformer
