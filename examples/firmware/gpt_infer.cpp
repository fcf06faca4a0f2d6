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

// Weights: constant-initialised, so in .rodata (flash); the test reads the section from the ELF.
const gpt& theta = tiny_trained<gpt>;
constinit tf::kv_cache<gpt> cache{};
constinit tf::sampling_scratch<float, firmware::tiny::N_V> scratch{};

constexpr auto fp = tf::footprint<gpt>;
static_assert(fp.parameters <= board::flash_bytes, "the weights fit the board's flash");
static_assert(fp.kv_cache + board::stack_bytes <= board::ram_bytes,
              "KV-cache decoding fits the board's RAM");

int main() {
    board::print("info footprint_parameters_bytes", fp.parameters);
    board::print("info footprint_kv_cache_bytes", fp.kv_cache);
    board::print("info footprint_decoding_total_bytes", fp.decoding_total);
    return firmware::generate_greedy(theta, cache, scratch);
}
