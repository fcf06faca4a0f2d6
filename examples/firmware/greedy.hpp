// The inference firmware's run, shared by gpt_infer (float weights), gpt_infer_q8 (int8 weights)
// and gpt_generate (the STM32F405's largest int8 model): greedy generation (Algorithm 14 with
// τ = 0) of a prompt with the KV cache. Prints the prompt's last logits, then each generated
// token and its logits (compared with the host build's by run_qemu.py), and the instructions of
// the prefill and per generated token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <typeformer/typeformer.hpp>

#include "board/board.hpp"

namespace firmware {

namespace tf = typeformer;

namespace detail {

// The newest position's logits (N_V, 1), read where the cache keeps them: no copy on the stack,
// whose size must not grow with N_V.
template <class Model>
std::span<const float> last_logits(const tf::kv_cache<Model>& cache) {
    return {cache.logits.data(), Model::N_V::size};
}

template <class Model>
void print_logits(const tf::kv_cache<Model>& cache) {
    board::detail::put("logits");
    for (float x : last_logits(cache))
        board::write(" ", 1), board::detail::put(x);
    board::write("\n", 1);
}

}  // namespace detail

// Generates `generate` tokens after `prompt` with theta (τ = 0: argmax, ties to the smaller id,
// by tf::sample_token with the cache's sampler scratch); returns the program's exit status.
template <class Model>
int generate_greedy(const Model& theta, tf::kv_cache<Model>& cache,
                    std::span<const tf::token> prompt, std::size_t generate) {
    const std::uint64_t i0 = board::instructions();
    if (tf::try_prefill(theta, cache, prompt) != tf::status::ok)
        return 1;
    const std::uint64_t i1 = board::instructions();
    detail::print_logits(cache);

    tf::rng gen(0);  // unused by τ = 0
    const tf::sampling greedy{.tau = 0.0f};
    std::uint64_t decode = 0;
    for (std::size_t k = 0; k < generate; ++k) {
        const tf::token y =
            tf::sample_token(detail::last_logits(cache), greedy, gen, cache.sampler);
        board::print("token", y);
        const std::uint64_t a = board::instructions();
        if (tf::try_append(theta, cache, y) != tf::status::ok)
            return 1;
        decode += board::instructions() - a;
        detail::print_logits(cache);
    }
    board::print("info prompt_tokens", prompt.size());
    board::print("info instructions_prefill", i1 - i0);
    board::print("info instructions_per_token", decode / generate);
    return 0;
}

}  // namespace firmware
