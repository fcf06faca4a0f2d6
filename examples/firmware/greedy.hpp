// The inference firmware's run, shared by gpt_infer (float weights) and gpt_infer_q8 (int8
// weights): greedy generation (Algorithm 14 with τ = 0) of a fixed prompt with the KV cache.
// Prints the prompt's last logits, then each generated token and its logits (compared with the
// host build's by run_qemu.py), and the instructions of the prefill and per generated token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "board/board.hpp"
#include "tiny.hpp"

namespace firmware {

namespace detail {

// The cache's last logits as a float array (the sampler's span, and what is printed).
template <class Model>
void last_logits(const tf::kv_cache<Model>& cache, float (&v)[tiny::N_V]) {
    const auto l = tf::logits(cache);
    for (std::size_t i = 0; i < tiny::N_V; ++i)
        v[i] = l[i];
}

template <class Model>
void print_logits(const tf::kv_cache<Model>& cache) {
    float v[tiny::N_V];
    last_logits(cache, v);
    board::detail::put("logits");
    for (float x : v)
        board::write(" ", 1), board::detail::put(x);
    board::write("\n", 1);
}

}  // namespace detail

// Generates 16 tokens after "the license " with theta; returns the program's exit status.
template <class Model>
int generate_greedy(const Model& theta, tf::kv_cache<Model>& cache,
                    tf::sampling_scratch<float, tiny::N_V>& scratch) {
    constexpr std::size_t generate = 16;
    tf::token prompt[tiny::l_max];
    const std::size_t n = encode("the license ", prompt);

    const std::uint64_t i0 = board::instructions();
    if (tf::try_prefill(theta, cache, std::span<const tf::token>(prompt, n)) != tf::status::ok)
        return 1;
    const std::uint64_t i1 = board::instructions();
    detail::print_logits(cache);

    tf::rng gen(0);  // unused by τ = 0 (argmax, ties to the smaller id)
    const tf::sampling greedy{.tau = 0.0f};
    std::uint64_t decode = 0;
    for (std::size_t k = 0; k < generate; ++k) {
        float v[tiny::N_V];
        detail::last_logits(cache, v);
        const tf::token y = tf::sample_token(std::span<const float>(v), greedy, gen, scratch);
        board::print("token", y);
        const std::uint64_t a = board::instructions();
        if (tf::try_append(theta, cache, y) != tf::status::ok)
            return 1;
        decode += board::instructions() - a;
        detail::print_logits(cache);
    }
    board::print("info prompt_tokens", n);
    board::print("info instructions_prefill", i1 - i0);
    board::print("info instructions_per_token", decode / generate);
    return 0;
}

}  // namespace firmware
