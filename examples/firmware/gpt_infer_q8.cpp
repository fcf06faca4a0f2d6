// Firmware: gpt_infer's greedy generation (greedy.hpp) over the int8 form of the same trained
// weights, q8<gpt> (models/quantized.hpp: int8 per output row, one float scale per row). The
// compiler quantizes the exported float model (quantize is constexpr), so only the int8 model
// is in the image, in .rodata (flash); the float weights are not linked (check_flash.py --absent).
// The host build computes the same int8 weights and prints what the device must match.
#include "board/board.hpp"
#include "greedy.hpp"
#include "tiny.hpp"
#include "tiny_trained.hpp"

using firmware::gpt;
namespace tf = typeformer;

// The int8 weights, computed at compile time from tiny_trained.hpp's float ones.
template <class Model>
inline constexpr tf::q8<Model> tiny_trained_q8 = [] {
    tf::q8<Model> q{};
    tf::quantize(tiny_trained<Model>, q);
    return q;
}();

const tf::q8<gpt>& theta = tiny_trained_q8<gpt>;
constinit tf::kv_cache<tf::q8<gpt>> cache{};
constinit tf::sampling_scratch<float, firmware::tiny::N_V> scratch{};

// footprint<q8<gpt>> is training's too (gradients, Adam state) and has no int8 form; decoding
// needs the weights and the KV cache.
constexpr std::size_t weights_bytes = sizeof(tf::q8<gpt>);
constexpr std::size_t kv_cache_bytes = sizeof(tf::kv_cache<tf::q8<gpt>>);
static_assert(weights_bytes <= board::flash_bytes, "the int8 weights fit the board's flash");
static_assert(weights_bytes < tf::footprint<gpt>.parameters / 3, "int8: under a third of float's");
static_assert(kv_cache_bytes + board::stack_bytes <= board::ram_bytes,
              "KV-cache decoding fits the board's RAM");

int main() {
    board::print("info q8_weights_bytes", weights_bytes);
    board::print("info float_weights_bytes", tf::footprint<gpt>.parameters);
    board::print("info kv_cache_bytes", kv_cache_bytes);
    return firmware::generate_greedy(theta, cache, scratch);
}
