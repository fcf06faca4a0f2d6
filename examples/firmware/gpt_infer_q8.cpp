// Firmware: gpt_infer's greedy generation (greedy.hpp) over the int8 form of the same trained
// weights, q8<gpt> (models/quantized.hpp: int8 per output row, one float scale per row),
// quantized on the host by export_weights and exported as data (tiny_trained_q8.hpp): the
// compiler reads the int8 values, it quantizes nothing. Only the int8 model is in the image, in
// .rodata (flash); the float weights are not linked (check_flash.py --absent). The host build
// prints what the device must match.
#include "board/board.hpp"
#include "greedy.hpp"
#include "tiny.hpp"
#include "tiny_trained_q8.hpp"

using firmware::gpt;
namespace tf = typeformer;
namespace dp = tf::deploy;

using plan = dp::deployment<board::type, tf::q8<gpt>, dp::decoding>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

const tf::q8<gpt>& theta = tiny_trained_q8<tf::q8<gpt>>;
constinit tf::kv_cache<tf::q8<gpt>> cache{};

static_assert(sizeof(tf::q8<gpt>) < sizeof(gpt) / 3, "int8: under a third of float's");

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::kv_cache>(cache) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    board::print("info float_weights_bytes", sizeof(gpt));
    tf::token prompt[firmware::tiny::l_max];
    const std::size_t n = firmware::encode("the license ", prompt);
    return firmware::generate_greedy(theta, cache, std::span<const tf::token>(prompt, n), 16);
}
