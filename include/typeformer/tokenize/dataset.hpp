// From a token stream to training sequences (§3 of the paper: "chunking"), and a seeded sampler
// of random windows for training.
//
//   wrap(ids, bos, eos)                [bos, ids…, eos]
//   chunk(ids, l_max)                  consecutive pieces of at most l_max tokens (the last may be
//                                      shorter), covering ids exactly once
//   split(ids, held_out_fraction)      (train, held out): the last fraction of the stream held out
//   window_sampler(ids, length, seed)  sample(): a window of `length` consecutive tokens starting
//                                      at a uniformly random position (tf::rng, deterministic)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../random.hpp"
#include "../token.hpp"

namespace typeformer::tokenize {

inline std::vector<token> wrap(std::span<const token> ids, token bos, token eos) {
    std::vector<token> out;
    out.reserve(ids.size() + 2);
    out.push_back(bos);
    out.insert(out.end(), ids.begin(), ids.end());
    out.push_back(eos);
    return out;
}

inline std::vector<std::vector<token>> chunk(std::span<const token> ids, std::size_t l_max) {
    if (l_max == 0)
        throw std::invalid_argument("chunk: l_max must be at least 1");
    std::vector<std::vector<token>> out;
    for (std::size_t i = 0; i < ids.size(); i += l_max) {
        const auto piece = ids.subspan(i, std::min(l_max, ids.size() - i));
        out.emplace_back(piece.begin(), piece.end());
    }
    return out;
}

inline std::pair<std::span<const token>, std::span<const token>> split(std::span<const token> ids,
                                                                       double held_out_fraction) {
    if (!(held_out_fraction >= 0.0 && held_out_fraction <= 1.0))
        throw std::invalid_argument("split: the held-out fraction must be in [0, 1]");
    const auto held = static_cast<std::size_t>(static_cast<double>(ids.size()) * held_out_fraction);
    return {ids.first(ids.size() - held), ids.last(held)};
}

class window_sampler {
public:
    window_sampler(std::span<const token> ids, std::size_t length, std::uint64_t seed)
        : ids_(ids), length_(length), gen_(seed) {
        if (length == 0 || length > ids.size())
            throw std::invalid_argument("window_sampler: a window of " + std::to_string(length) +
                                        " tokens does not fit a stream of " +
                                        std::to_string(ids.size()));
    }

    std::span<const token> sample() {
        const auto starts = static_cast<std::uint32_t>(ids_.size() - length_ + 1);
        return ids_.subspan(prng::uniform_below(gen_, starts), length_);
    }

    // A batch's worth of windows as owning sequences (what DTraining's dataset holds).
    std::vector<std::vector<token>> sample(std::size_t count) {
        std::vector<std::vector<token>> out;
        for (std::size_t i = 0; i < count; ++i) {
            const auto w = sample();
            out.emplace_back(w.begin(), w.end());
        }
        return out;
    }

    rng& generator() noexcept { return gen_; }

private:
    std::span<const token> ids_;
    std::size_t length_;
    rng gen_;
};

}  // namespace typeformer::tokenize
