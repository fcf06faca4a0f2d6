// A token id: 0-based index into the vocabulary [0, N_V).
#pragma once

#include <cstddef>
#include <cstdint>

namespace typeformer {

using token = std::uint32_t;

// The paper's special tokens (§3), 0-based: its 1-based N_V−2, N_V−1, N_V.
template <std::size_t NV>
inline constexpr token mask_token = static_cast<token>(NV - 3);
template <std::size_t NV>
inline constexpr token bos_token = static_cast<token>(NV - 2);
template <std::size_t NV>
inline constexpr token eos_token = static_cast<token>(NV - 1);

// A target that contributes nothing to a loss (e.g. an unmasked position in
// Algorithm 12).
inline constexpr token no_target = static_cast<token>(-1);

}  // namespace typeformer
