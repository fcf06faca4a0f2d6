// Mistake: SGD training of the tiny GPT on an STM32F405.
// One step needs θ, ∇ and the training workspace in RAM (491 KB); the part has 128 KiB of SRAM
// and 64 KiB of CCM, and a buffer lives in one region: θ (122,368 B) fits the SRAM, ∇ does not.
// Fix: a bigger board (tf::deploy::mps2_an386), or train fewer parameters (a smaller model, or
// the partial training modes).
// fixed: dp::check<dp::stm32f405, => dp::check<dp::mps2_an386,
// covers: deploy::check(Model)
// expect: in::deployment
// first-error: for_use<typeformer::deploy::sgd_training>, region_bytes<typeformer::deploy::memory::sram, 131072>, overflowing_buffer<typeformer::deploy::buffer::gradients, 122368>, over_by_bytes<113664>
// max-lines: 8
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: 30,592 parameters
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace dp = typeformer::deploy;
using gpt = typeformer::DTransformer<float, tiny>;

static_assert(dp::check<dp::stm32f405, gpt, dp::sgd_training>());  // error here
