// Mistake: planning Adam training of the tiny GPT on an nRF52840.
// The plan's type places θ, ∇, the training workspace and Adam's moments in the part's one RAM
// of 256 KiB: θ, ∇ and the workspace (491 KB) already do not fit; the plan names the first buffer
// that overflows and by how many bytes.
// Fix: a part with the RAM (deploy::mps2_an386 has 4 MiB), a smaller model, or partial training.
// fixed: constexpr std::size_t ram => [[maybe_unused]] constexpr std::size_t ram
// fixed: dp::deployment<dp::nrf52840, => dp::deployment<dp::mps2_an386,
// covers: deploy::deployment(Model)
// expect: in::deployment
// first-error: for_use<typeformer::deploy::adam_training>, on<typeformer::deploy::nrf52840>, region_bytes<typeformer::deploy::memory::ram, 262144>, overflowing_buffer<typeformer::deploy::buffer::training_workspace
// max-lines: 7
// clang-max-lines: 12
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: 30,592 parameters
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace dp = typeformer::deploy;
using gpt = typeformer::DTransformer<float, tiny>;
using plan = dp::deployment<dp::nrf52840, gpt, dp::adam_training>;

constexpr std::size_t ram = plan::used(1);  // error here
