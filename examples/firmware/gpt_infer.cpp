// Firmware: greedy generation (Algorithm 14 with τ = 0) by the trained tiny GPT, its weights in
// flash (tiny_trained.hpp, written by export_weights), decoding with the KV cache in static RAM
// (greedy.hpp; gpt_infer_q8 runs the same over the int8 form of these weights). The same program
// built for the host prints what the device must match (tests: run_qemu.py).
#include "board/board.hpp"
#include "greedy.hpp"
#include "tiny.hpp"
#include "tiny_trained.hpp"

using firmware::gpt;
namespace tf = typeformer;
namespace dp = tf::deploy;

// The deployment, checked against the board by the compiler: the weights in flash, the KV cache
// in the main RAM, the default stack in the board's stack region (the CCM on the STM32F405). The
// default (2 KiB) holds the M4F's 1,416 B high-water mark; on the M55 the Helium
// kernels' frames under the tiled attention reach 2,148 B, so that build declares 3 KiB.
#if TYPEFORMER_HELIUM
using plan = dp::deployment<board::type, gpt, dp::decoding, dp::placement<dp::stack<3 * dp::KiB>>>;
#else
using plan = dp::deployment<board::type, gpt, dp::decoding>;
#endif
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

// Weights: constant-initialised, so in .rodata (flash); the test reads the section from the ELF.
const gpt& theta = tiny_trained<gpt>;
constinit tf::kv_cache<gpt> cache{};

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::kv_cache>(cache) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    tf::token prompt[firmware::tiny::l_max];
    const std::size_t n = firmware::encode("the license ", prompt);
    return firmware::generate_greedy(theta, cache, std::span<const tf::token>(prompt, n), 16);
}
