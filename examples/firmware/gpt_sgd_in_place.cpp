// Firmware: full SGD training of DESIGN's tiny GPT (every one of its 30,592 parameters) within
// the STM32F405's 192 KB: θ (122,368 B) in its 128 KiB SRAM, the step's workspace (45,952 B) and
// the stack in its 64 KiB CCM. train/step.hpp's in-place step: each parameter is updated as soon
// as its gradient is complete, so no ∇ buffer exists, and each layer's activations are
// recomputed in the backward pass. From tiny_init (copied from flash), 12 steps over three
// 32-character windows of a paragraph; the loss on a fourth window, before and after; then every
// 16th parameter (1,912 of them). Exits 1 unless both losses fall.
//
// The host build is the reference the device must match (run_qemu.py: every float within
// 1e-4 + 1e-4·|host|): not this step but Algorithm 13's loss_and_grad with the full training
// workspace and a ∇ buffer, then sgd_step (train/training.hpp, whose gradients tests/train checks
// against PyTorch), so the comparison covers the in-place step as well as the device build.
#include <type_traits>

#include "board/board.hpp"
#include "tiny.hpp"
#include "tiny_init.hpp"

using firmware::gpt;
namespace tf = typeformer;
namespace dp = tf::deploy;

// θ in the main RAM, the step workspace in the second RAM region when the board has one (the
// F405's CCM; the MPS2 boards have one RAM), with the stack.
using placement =
    std::conditional_t<board::type::has<dp::memory::ccm>,
                       dp::placement<dp::place<dp::buffer::step_workspace, dp::memory::ccm>>,
                       dp::placement<>>;
using plan = dp::deployment<board::type, gpt, dp::step_sgd<>, placement>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);
// The part's 192 KB, stack included (the deployment's check proves each region's share).
static_assert(!board::type::has<dp::memory::ccm> ||
              plan::used(board::type::ram_index) +
                      plan::used(board::type::template index_of<dp::memory::ccm>) <=
                  192 * dp::KiB);

constinit gpt theta{};
TYPEFORMER_BOARD_RAM2 constinit tf::step_workspace<gpt> ws{};

#if !defined(__arm__)
// The host's reference: ∇ and the training workspace of every layer's activations (491 KB).
constinit gpt grads{};
constinit tf::training_workspace<gpt> reference_ws{};
#endif

namespace {

constexpr std::string_view text =
    "the licensor grants you a license to use the work, to make copies of it, and to share it "
    "with others under the terms of this license.";

// One SGD step on x; returns its loss (before the update), or a negative value on bad input.
float train_step(std::span<const tf::token> x, float eta) {
    float loss = 0;
#if defined(__arm__)
    if (tf::try_sgd_step_in_place(theta, x, eta, ws, loss) != tf::status::ok)
        return -1;
#else
    tf::zero(grads);
    if (tf::try_loss_and_grad(theta, x, grads, reference_ws, loss) != tf::status::ok)
        return -1;
    tf::sgd_step(theta, grads, eta);
#endif
    return loss;
}

float held_out_loss(std::span<const tf::token> x) {
#if defined(__arm__)
    return tf::loss(theta, x, ws);
#else
    tf::zero(grads);
    return tf::loss_and_grad(theta, x, grads, reference_ws);
#endif
}

}  // namespace

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::step_workspace>(ws) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    tf::copy_params(tiny_init<gpt>, theta);  // flash → RAM

    tf::token tokens[4][firmware::tiny::l_max];
    for (std::size_t w = 0; w < 4; ++w)
        firmware::encode(text.substr(w * 32, 32), tokens[w]);
    const auto window = [&](std::size_t w) {
        return std::span<const tf::token>(tokens[w], firmware::tiny::l_max);
    };
    const float held_before = held_out_loss(window(3));
    board::print("held_out_loss before", held_before);
    float first = 0, last = 0;
    for (int step = 0; step < 12; ++step) {
        const std::uint64_t i0 = board::instructions();
        const float loss = train_step(window(step % 3), 0.01f);
        const std::uint64_t i1 = board::instructions();
        if (loss < 0)
            return 1;
        board::print("loss", step, loss);
        if (step == 0)
            board::print("info instructions_step", i1 - i0);
        first += step < 3 ? loss : 0;
        last += step >= 9 ? loss : 0;
    }
    const float held_after = held_out_loss(window(3));
    board::print("held_out_loss after", held_after);
    board::print_params("theta", theta, 16);
    return last < first && held_after < held_before ? 0 : 1;
}
