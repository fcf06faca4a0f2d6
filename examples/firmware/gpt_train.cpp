// Firmware: training on the device. The tiny GPT's parameters start from tiny_init (exported on
// the host) copied into RAM, then take SGD steps, and again from tiny_init, Adam steps, each on
// the same 32-character sequence (Algorithm 13: loss and gradient, then the update). Prints
// every step's loss; the host build of this program prints what the device must match. Exits 1
// unless the loss falls under each optimiser.
#include "board/board.hpp"
#include "tiny.hpp"
#include "tiny_init.hpp"

using firmware::gpt;
namespace tf = typeformer;
namespace dp = tf::deploy;

// θ, ∇, the workspace and Adam's moments in RAM: 736 KB, so the MPS2 boards only (the STM32F405's
// 192 KB do not hold them: dp::check says so, by the buffer and the bytes over).
using plan = dp::deployment<board::type, gpt, dp::adam_training>;
TYPEFORMER_BOARD_STACK(plan::bytes_of<dp::buffer::stack>);

constinit gpt theta{};
constinit gpt grads{};
constinit tf::training_workspace<gpt> ws{};
constinit tf::adam_state<gpt> adam{};

constexpr auto fp = tf::footprint<gpt>;

namespace {

constexpr int steps = 5;

// Each optimiser's run; returns 0 when the loss fell from the first step to the last.
template <class Update>
int run(const char* name, std::span<const tf::token> x, Update update) {
    tf::copy_params(tiny_init<gpt>, theta);  // flash → RAM
    float first = 0, loss = 0;
    for (int step = 0; step < steps; ++step) {
        tf::zero(grads);
        const std::uint64_t i0 = board::instructions();
        if (tf::try_loss_and_grad(theta, x, grads, ws, loss) != tf::status::ok)
            return 1;
        update();
        const std::uint64_t i1 = board::instructions();
        board::print("loss", name, step, loss);
        if (step == 0) {
            first = loss;
            board::print("info instructions_step", name, i1 - i0);
        }
    }
    return loss < first ? 0 : 1;
}

}  // namespace

int main() {
    if (!board::placed<plan, dp::buffer::weights>(theta) ||
        !board::placed<plan, dp::buffer::gradients>(grads) ||
        !board::placed<plan, dp::buffer::training_workspace>(ws) ||
        !board::placed<plan, dp::buffer::adam_state>(adam) || !board::stack_placed<plan>() ||
        !board::linked_within<plan>())
        return 1;
    board::print_deployment<plan>();
    board::print("info footprint_sgd_step_total_bytes", fp.sgd_step_total);
    board::print("info footprint_adam_step_total_bytes", fp.adam_step_total);

    tf::token x[firmware::tiny::l_max];
    const std::size_t n = firmware::encode("the quick brown fox jumps over a", x);
    const std::span<const tf::token> seq(x, n);

    const int sgd = run("sgd", seq, [] { tf::sgd_step(theta, grads, 0.01f); });
    const int adam_failed =
        run("adam", seq, [] { tf::adam_step(theta, grads, adam, {.lr = 1e-2}); });
    return sgd | adam_failed;
}
