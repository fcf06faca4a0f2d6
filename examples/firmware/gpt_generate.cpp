// Firmware: greedy generation with the largest int8 GPT the STM32F405 holds (grid.hpp's f405: 945,984
// parameters, 995,456 B of int8 weights in its 1 MiB of flash; the float KV cache in its 128 KiB
// SRAM, the stack in its CCM), or with any header of typeformer-export-header --q8 (the CMake
// cache variable TYPEFORMER_FIRMWARE_WEIGHTS: docs/embedded.md's two commands). The header names
// its model type, weights_type; the prompt is bytes (byte tokens, or BPE's first 256 ids). The
// host build prints what the device must match.
#include "board/board.hpp"
#include "greedy.hpp"
#include "grid.hpp"
#include TYPEFORMER_FIRMWARE_WEIGHTS

namespace tf = typeformer;
namespace dp = tf::deploy;
using model = weights_type;

// The deployment on this board, checked by the compiler: the int8 weights and the code in flash,
// the KV cache in the main RAM, the stack in the stack region.
using plan = dp::deployment<board::type, model, dp::decoding>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

const model& theta = weights<model>;
constinit tf::kv_cache<model> cache{};

#if TYPEFORMER_FIRMWARE_LARGEST
// grid.hpp's f405 is the largest of its grid (d_e a multiple of 32, heads of 32, d_mlp = 4·d_e,
// l_max 32, byte tokens) on the STM32F405: one more layer, or 32 more d_e, does not fit.
static_assert(std::is_same_v<model, tf::q8<tf::DTransformer<float, weights_config>>> &&
              weights_config::d_e == firmware::f405::d_e && weights_config::L == firmware::f405::L);
template <std::size_t E, std::size_t L>
using f405_q8 = tf::q8<tf::DTransformer<float, firmware::grid<E, L>>>;
static_assert(dp::fits<dp::stm32f405, f405_q8<192, 2>, dp::decoding>);
static_assert(!dp::fits<dp::stm32f405, f405_q8<192, 3>, dp::decoding>);
static_assert(!dp::fits<dp::stm32f405, f405_q8<224, 2>, dp::decoding>);
static_assert(!dp::fits<dp::stm32f405, f405_q8<256, 2>, dp::decoding>);
static_assert(!dp::fits<dp::stm32f405, f405_q8<160, 3>, dp::decoding>);
static_assert(tf::parameter_count<tf::DTransformer<float, firmware::grid<192, 2>>> >
              tf::parameter_count<tf::DTransformer<float, firmware::grid<256, 1>>>);
#endif

// The parameters of a model, or of the float model an int8 one stands for.
template <class M>
constexpr std::size_t parameters() {
    if constexpr (requires { typename M::float_model; })
        return tf::parameter_count<typename M::float_model>;
    else
        return tf::parameter_count<M>;
}

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::kv_cache>(cache) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    board::print("info parameters", parameters<model>());
    board::print("info weights_bytes", sizeof(model));
    constexpr const char text[] = "The license ";
    tf::token prompt[sizeof text - 1];
    for (std::size_t i = 0; i + 1 < sizeof text; ++i)
        prompt[i] = static_cast<unsigned char>(text[i]);
    const std::size_t generate = model::l_max::size - (sizeof text - 1);
    const int status =
        firmware::generate_greedy(theta, cache, std::span<const tf::token>(prompt), generate);
    // the text, for a person (the tokens above are what the host comparison reads)
    board::detail::put("info text ");
    for (tf::token t : cache.tokens()) {
        const char c = t < 128 && t >= 32 ? static_cast<char>(t) : '?';
        board::write(&c, 1);
    }
    board::write("\n", 1);
    return status;
}
