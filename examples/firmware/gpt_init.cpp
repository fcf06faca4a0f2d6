// Firmware: tf::init on the device, with either sampler (INIT_FLOAT chooses at build time).
//
//   gpt_init         the default sampler (double): the parameters must be bit-identical to
//                    tiny_init, which the host initialised with the same seed and exported
//                    (init is platform-independent)
//   gpt_init_float   tf::init_float (float arithmetic only): the parameters' bits (an FNV-1a
//                    hash) must equal the host build's, and the image links no double code
//
// On a Cortex-M4F the default sampler's double arithmetic is soft-float: the instruction counts
// printed here are the reason for the float sampler, or for initialising on the host and copying
// from flash (what gpt_train does). init allocates nothing (the board's heap trap is linked).
#include "board/board.hpp"
#include "tiny.hpp"
#include "tiny_init.hpp"

using firmware::gpt;
namespace tf = typeformer;
namespace dp = tf::deploy;

// A use of the program's own: initialising θ in RAM (no workspace). A use is a tag and the list of
// the buffers it needs (deploy/use.hpp); the board check is then the library's.
struct initialisation {};
template <class Model>
struct dp::use_buffers<initialisation, Model> {
    using type = dp::type_list<dp::need<dp::buffer::weights, sizeof(Model), true>>;
};
using plan = dp::deployment<board::type, gpt, initialisation>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

constinit gpt theta{};

namespace {

std::uint64_t hash_bits(const gpt& m) {  // FNV-1a over every parameter's bits, walk order
    std::uint64_t h = 0xCBF29CE484222325ull;
    tf::for_each_param(m, [&](const tf::param_name&, const auto& p) {
        for (std::size_t i = 0; i < tf::leaf_elements<decltype(p)>; ++i) {
            h ^= std::bit_cast<std::uint32_t>(p.data()[i]);
            h *= 0x100000001B3ull;
        }
    });
    return h;
}

}  // namespace

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    std::uint64_t i0 = board::instructions();
#if INIT_FLOAT
    tf::init_float(theta, 1);
#else
    tf::init(theta, 1);
#endif
    board::print("info instructions_init", board::instructions() - i0);
    const std::uint64_t h = hash_bits(theta);
    board::print("init_hash", static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(h));
#if INIT_FLOAT
    return 0;
#else
    const bool equal = tf::bit_equal(theta, tiny_init<gpt>);
    board::print("init_bit_equal_to_host_export", equal ? 1u : 0u);
    i0 = board::instructions();
    tf::copy_params(tiny_init<gpt>, theta);
    board::print("info instructions_copy_from_flash", board::instructions() - i0);
    return equal ? 0 : 1;
#endif
}
