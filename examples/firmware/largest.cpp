// How docs/embedded.md's "largest model per part and mode" was found: a search at compile time,
// with tf::deploy::fits, over a grid of GPTs (byte tokens, N_V 259; l_max 32; heads of 32, or one
// of 16 for d_e 16; d_mlp = 4·d_e; W_u tied), for every part of deploy/board.hpp and every use
// (KV-cache decoding with float or int8 weights, an SGD step, an Adam step, train/step.hpp's
// in-place SGD of every parameter and of a part: rank-4 adapters on W_q, W_v, the gains and
// biases, the last layer) with the default placement (deploy/deployment.hpp: read-only weights in
// flash, the rest in the main RAM, the declared stack and code; an in-place step that does not
// fit so may put its workspace in the stack's region, the STM32F405's CCM). Prints, per part and use, the
// grid's model with the most parameters that fits, and its bytes per region.
//
//   g++ -std=c++20 -O1 -Iinclude examples/firmware/largest.cpp -o largest && ./largest
//
// A host program, not built by the presets (it instantiates some 200 model types: about a minute
// of compiling); examples/firmware/gpt_generate.cpp proves its STM32F405 int8 row by
// static_assert.
#include <cstdio>
#include <utility>

#include <typeformer/typeformer.hpp>

#include "grid.hpp"

namespace tf = typeformer;
namespace dp = tf::deploy;

template <std::size_t E, std::size_t L>
using gpt = tf::DTransformer<float, firmware::grid<E, L>>;

struct best {
    std::size_t d_e = 0, L = 0, parameters = 0;
    std::size_t used[8]{};
};

// A deployment of the model with the default placement, or, for an in-place step that does not
// fit so, with its workspace beside the stack (the F405's CCM, the H743's DTCM).
template <class Use>
inline constexpr bool in_place_step = false;
template <class S, class M>
inline constexpr bool in_place_step<dp::step_sgd<S, M>> = true;

template <class Board, class Model, class Use>
using placement_for = std::conditional_t<
    !in_place_step<Use> || dp::fits<Board, Model, Use>, dp::placement<>,
    dp::placement<dp::place<dp::buffer::step_workspace, typename Board::stack_region>>>;

template <class Board, class Use, bool Int8, std::size_t E, std::size_t L>
void consider(best& b) {
    using model = std::conditional_t<Int8, tf::q8<gpt<E, L>>, gpt<E, L>>;
    using where = placement_for<Board, model, Use>;
    if constexpr (dp::fits<Board, model, Use, where>) {
        constexpr std::size_t p = tf::parameter_count<gpt<E, L>>;
        if (p > b.parameters) {
            b = {E, L, p, {}};
            using plan = dp::deployment<Board, model, Use, where>;
            for (std::size_t r = 0; r < Board::region_count; ++r)
                b.used[r] = plan::used(r);
        }
    }
}

template <class Board, class Use, bool Int8, std::size_t E, std::size_t... I>
void layers(best& b, std::index_sequence<I...>) {
    (consider<Board, Use, Int8, E, I + 1>(b), ...);
}

template <class Board, class Use, bool Int8>
void row(const char* use) {
    best b;
    constexpr auto Ls = std::make_index_sequence<12>{};
    layers<Board, Use, Int8, 16>(b, Ls);
    layers<Board, Use, Int8, 32>(b, Ls);
    layers<Board, Use, Int8, 64>(b, Ls);
    layers<Board, Use, Int8, 96>(b, Ls);
    layers<Board, Use, Int8, 128>(b, Ls);
    layers<Board, Use, Int8, 160>(b, Ls);
    layers<Board, Use, Int8, 192>(b, Ls);
    layers<Board, Use, Int8, 224>(b, Ls);
    layers<Board, Use, Int8, 256>(b, Ls);
    layers<Board, Use, Int8, 320>(b, Ls);
    layers<Board, Use, Int8, 384>(b, Ls);
    std::printf("| %s | %s | ", Board::part, use);
    if (b.parameters == 0) {
        std::printf("none of the grid |\n");
        return;
    }
    std::printf("d_e %zu, L %zu: %zu parameters |", b.d_e, b.L, b.parameters);
    for (std::size_t r = 0; r < Board::region_count; ++r)
        std::printf(" %s %zu of %zu;", Board::labels[r], b.used[r], Board::info[r].bytes);
    std::printf(" |\n");
}

template <class Board>
void part() {
    row<Board, dp::decoding, false>("decoding, float weights");
    row<Board, dp::decoding, true>("decoding, int8 weights");
    row<Board, dp::sgd_training, false>("SGD step");
    row<Board, dp::adam_training, false>("Adam step");
    row<Board, dp::step_sgd<>, false>("in-place SGD, every parameter");
    row<Board, dp::step_sgd<tf::train_lora<4>>, false>("in-place SGD, LoRA r 4 (W_q, W_v)");
    row<Board, dp::step_sgd<tf::train_gains_biases>, false>("in-place SGD, gains and biases");
    row<Board, dp::step_sgd<tf::train_last<1>>, false>("in-place SGD, last layer and ln_f");
}

int main() {
    std::printf("| part | use | largest of the grid | bytes per region |\n|---|---|---|---|\n");
    part<dp::stm32f405>();
    part<dp::nrf52840>();
    part<dp::stm32f746>();
    part<dp::rp2040>();
    part<dp::stm32h743>();
}
