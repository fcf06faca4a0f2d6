// Firmware: tf::init on the device. Initialises the tiny GPT in RAM (seed 1) and checks it
// bit for bit against tiny_init, which the host initialised with the same seed and exported:
// init is deterministic across platforms (random.hpp), and on the device it allocates nothing.
// Its normal sampler computes in double, which a Cortex-M4F does in software: the instruction
// count printed here is why the training firmware copies tiny_init from flash instead.
#include "board/board.hpp"
#include "tiny.hpp"
#include "tiny_init.hpp"

using firmware::gpt;
namespace tf = typeformer;

constinit gpt theta{};

int main() {
    const std::uint64_t i0 = board::instructions();
    tf::init(theta, 1);
    const std::uint64_t i1 = board::instructions();
    board::print("info instructions_init", i1 - i0);
    board::print("info instructions_copy_from_flash", [] {
        const std::uint64_t c0 = board::instructions();
        tf::copy_params(tiny_init<gpt>, theta);
        return board::instructions() - c0;
    }());
    tf::init(theta, 1);
    const bool equal = tf::bit_equal(theta, tiny_init<gpt>);
    board::print("init_bit_equal", equal ? 1u : 0u);
    return equal ? 0 : 1;
}
