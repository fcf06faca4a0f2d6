// Firmware: greedy generation (Algorithm 14 with τ = 0) by the trained tiny GPT, its weights in
// flash (tiny_trained.hpp, written by export_weights), decoding with the KV cache in static RAM.
// Prints the prompt's last logits, then each generated token and its logits; the same program
// built for the host prints what the device must match (tests: compare.py).
#include "board/board.hpp"
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

namespace {

void print_logits(const char* what) {
    const auto l = tf::logits(cache);
    float v[firmware::tiny::N_V];
    for (std::size_t i = 0; i < firmware::tiny::N_V; ++i)
        v[i] = l[i];
    board::detail::put(what);
    for (float x : v)
        board::write(" ", 1), board::detail::put(x);
    board::write("\n", 1);
}

}  // namespace

int main() {
    board::print("info footprint_parameters_bytes", fp.parameters);
    board::print("info footprint_kv_cache_bytes", fp.kv_cache);
    board::print("info footprint_decoding_total_bytes", fp.decoding_total);

    constexpr std::size_t generate = 16;
    tf::token prompt[firmware::tiny::l_max];
    const std::size_t n = firmware::encode("the license ", prompt);

    const std::uint64_t i0 = board::instructions();
    if (tf::try_prefill(theta, cache, std::span<const tf::token>(prompt, n)) != tf::status::ok)
        return 1;
    const std::uint64_t i1 = board::instructions();
    print_logits("logits");

    tf::rng gen(0);  // unused by τ = 0 (argmax, ties to the smaller id)
    const tf::sampling greedy{.tau = 0.0f};
    std::uint64_t decode = 0;
    for (std::size_t k = 0; k < generate; ++k) {
        const auto l = tf::logits(cache);
        float v[firmware::tiny::N_V];
        for (std::size_t i = 0; i < firmware::tiny::N_V; ++i)
            v[i] = l[i];
        const tf::token y = tf::sample_token(std::span<const float>(v), greedy, gen, scratch);
        board::print("token", y);
        const std::uint64_t a = board::instructions();
        if (tf::try_append(theta, cache, y) != tf::status::ok)
            return 1;
        decode += board::instructions() - a;
        print_logits("logits");
    }
    board::print("info prompt_tokens", n);
    board::print("info instructions_prefill", i1 - i0);
    board::print("info instructions_per_token", decode / generate);
    return 0;
}
