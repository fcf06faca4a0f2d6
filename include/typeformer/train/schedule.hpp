// The learning rate of step s (0-based): linear warm-up, then cosine decay (§8's "learning rate
// scheduling", as GPT-2/nanoGPT train):
//
//   s < warmup                  η·(s + 1)/warmup
//   warmup ≤ s < warmup + decay η_min + (η − η_min)·½(1 + cos(π·(s − warmup)/decay))
//   after                       η_min                   (decay = 0: η after the warm-up)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace typeformer {

struct lr_schedule {
    std::uint64_t warmup_steps = 0;
    std::uint64_t decay_steps = 0;  // 0: constant after the warm-up
    double min_lr = 0.0;            // η_min, the floor of the cosine
};

inline double learning_rate(const lr_schedule& s, double lr, std::uint64_t step) noexcept {
    if (step < s.warmup_steps)
        return lr * static_cast<double>(step + 1) / static_cast<double>(s.warmup_steps);
    if (s.decay_steps == 0)
        return lr;
    const std::uint64_t k = step - s.warmup_steps;
    if (k >= s.decay_steps)
        return s.min_lr;
    constexpr double pi = 3.14159265358979323846;
    const double progress = static_cast<double>(k) / static_cast<double>(s.decay_steps);
    return s.min_lr + (lr - s.min_lr) * 0.5 * (1.0 + std::cos(pi * progress));
}

}  // namespace typeformer
