// Static tests of boards and deployments (deploy/) and of the exported weights' signature check
// (deploy/exported.hpp): every check is a static_assert, so compiling is the test (CTest runs the
// empty program). A deployment's diagnosis is checked exactly with decltype of the call, the
// type the compiler's first error line prints; tests/compile_fail has the same mistakes as real
// code, checked for the words on that line with GCC and Clang.
#include <cstddef>
#include <type_traits>

#include <typeformer/typeformer.hpp>

namespace {

namespace tf = typeformer;
namespace dp = tf::deploy;
using dp::KiB;
using dp::MiB;

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = tf::DTransformer<float, tiny>;

// ---- boards: the datasheets' figures ----
template <class B>
constexpr std::size_t ram_bytes() {
    std::size_t n = 0;
    for (const auto& r : B::info)
        n += r.mode == dp::access::read_write ? r.bytes : 0;
    return n;
}
static_assert(ram_bytes<dp::stm32f405>() == 192 * KiB && ram_bytes<dp::stm32f407>() == 192 * KiB);
static_assert(ram_bytes<dp::nrf52840>() == 256 * KiB);
static_assert(ram_bytes<dp::stm32f746>() == 320 * KiB);
static_assert(ram_bytes<dp::rp2040>() == 264 * KiB);
static_assert(ram_bytes<dp::stm32h743>() == 1056 * KiB);  // "1 MB": 864 KiB SRAM + 192 KiB TCM
static_assert(dp::stm32f405::flash_index == 0 && dp::stm32f405::ram_index == 1);
static_assert(dp::stm32f405::index_of<dp::memory::ccm> == 2 &&
              !dp::stm32f405::has<dp::memory::dtcm>);
static_assert(dp::stm32f405::info[0].origin == 0x0800'0000 && dp::stm32f405::info[0].bytes == MiB);
static_assert(dp::stm32f405::info[2].origin == 0x1000'0000);
// QEMU's netduinoplus2: the part's regions, the CCM in the upper 64 KiB of QEMU's 192 KiB SRAM
static_assert(dp::netduinoplus2::info[2].origin == 0x2002'0000);
static_assert(dp::netduinoplus2::info[1].origin + dp::netduinoplus2::info[1].bytes ==
              dp::netduinoplus2::info[2].origin);
static_assert([] {
    for (std::size_t r = 0; r < 3; ++r)
        if (dp::netduinoplus2::info[r].bytes != dp::stm32f405::info[r].bytes ||
            dp::netduinoplus2::info[r].mode != dp::stm32f405::info[r].mode)
            return false;
    return true;
}());
static_assert(dp::stm32f405::info[1].contains(0x2001'FFFF, 1) &&
              !dp::stm32f405::info[1].contains(0x2001'FFFF, 2) &&
              !dp::stm32f405::info[1].contains(0x1FFF'FFFF, 1));

// ---- deployments that fit: each region's bytes ----
using decode = decltype(dp::check<dp::stm32f405, gpt, dp::decoding>());
static_assert(decode::used(0) == dp::default_code_bytes<dp::decoding> + sizeof(gpt));
static_assert(decode::used(1) == sizeof(tf::kv_cache<gpt>));
static_assert(decode::used(2) ==
              dp::default_stack_bytes<dp::decoding>);  // the stack region: the CCM
static_assert(decode::free(1) == 128 * KiB - sizeof(tf::kv_cache<gpt>));
static_assert(decode::region_of<dp::buffer::weights> == 0 &&
              decode::region_of<dp::buffer::kv_cache> == 1);
static_assert(decode::bytes_of<dp::buffer::kv_cache> == sizeof(tf::kv_cache<gpt>));
static_assert(decode::region_of<dp::buffer::gradients> == 3 &&
              decode::bytes_of<dp::buffer::gradients> == 0);
static_assert(dp::fits<dp::stm32f405, gpt, dp::inference> &&
              dp::fits<dp::nrf52840, gpt, dp::inference>);
static_assert(dp::fits<dp::mps2_an386, gpt, dp::adam_training>);
static_assert(dp::fits<dp::stm32f405, tf::q8<gpt>, dp::decoding>);
// a placement: the KV cache in the CCM, a 1 KiB stack in the SRAM, 8 KiB of code declared
using moved = dp::placement<dp::place<dp::buffer::kv_cache, dp::memory::ccm>,
                            dp::stack<KiB, dp::memory::sram>, dp::code<8 * KiB>>;
using decode_ccm = decltype(dp::check<dp::stm32f405, gpt, dp::decoding, moved>());
static_assert(decode_ccm::used(0) == 8 * KiB + sizeof(gpt));
static_assert(decode_ccm::used(1) == KiB && decode_ccm::used(2) == sizeof(tf::kv_cache<gpt>));
static_assert(decode_ccm::region_of<dp::buffer::stack> == 1);

// A region holds exactly its size: a board whose RAM is the cache and the stack to the byte.
template <std::size_t Ram>
struct exact : dp::board<dp::flash_region<dp::memory::flash, 0, MiB>,
                         dp::ram_region<dp::memory::ram, 0x2000'0000, Ram>> {
    using stack_region = dp::memory::ram;
};
constexpr std::size_t kv_and_stack =
    sizeof(tf::kv_cache<gpt>) + dp::default_stack_bytes<dp::decoding>;
static_assert(dp::fits<exact<kv_and_stack>, gpt, dp::decoding>);
static_assert(std::is_same_v<
              decltype(dp::check<exact<kv_and_stack - 1>, gpt, dp::decoding>()),
              tf::shape_error<
                  tf::in::deployment, dp::for_use<dp::decoding>, dp::on<exact<kv_and_stack - 1>>,
                  dp::region_bytes<dp::memory::ram, kv_and_stack - 1>,
                  dp::overflowing_buffer<dp::buffer::stack, 2 * KiB>, dp::over_by_bytes<1>>>);

// ---- what does not fit, by name ----
// SGD on the STM32F405: θ fills most of the SRAM, ∇ overflows it
static_assert(std::is_same_v<
              decltype(dp::check<dp::stm32f405, gpt, dp::sgd_training>()),
              tf::shape_error<tf::in::deployment, dp::for_use<dp::sgd_training>,
                              dp::on<dp::stm32f405>, dp::region_bytes<dp::memory::sram, 128 * KiB>,
                              dp::overflowing_buffer<dp::buffer::gradients, sizeof(gpt)>,
                              dp::over_by_bytes<2 * sizeof(gpt) - 128 * KiB>>>);
// a buffer the use writes, placed in flash
static_assert(
    std::is_same_v<
        decltype(dp::check<dp::stm32f405, gpt, dp::sgd_training,
                           dp::placement<dp::place<dp::buffer::weights, dp::memory::flash>>>()),
        tf::shape_error<tf::in::deployment, dp::for_use<dp::sgd_training>, dp::on<dp::stm32f405>,
                        dp::written_buffer<dp::buffer::weights>,
                        dp::read_only_region<dp::memory::flash>>>);
// a region the board does not have
static_assert(
    std::is_same_v<
        decltype(dp::check<dp::nrf52840, gpt, dp::decoding,
                           dp::placement<dp::place<dp::buffer::kv_cache, dp::memory::ccm>>>()),
        tf::shape_error<tf::in::deployment, dp::for_use<dp::decoding>, dp::on<dp::nrf52840>,
                        dp::placed_in<dp::buffer::kv_cache, dp::memory::ccm>,
                        dp::board_has_no_region<dp::memory::ccm>>>);
// a use the model does not have: an int8 model does not train
static_assert(std::is_same_v<decltype(dp::check<dp::stm32f405, tf::q8<gpt>, dp::sgd_training>()),
                             tf::shape_error<tf::in::deployment, dp::for_use<dp::sgd_training>,
                                             dp::model_without_use<tf::q8<gpt>>>>);
static_assert(!dp::fits<dp::stm32f405, gpt, dp::adam_training>);

// ---- train/step.hpp's steps: every parameter in place, or a part over a frozen base ----
// every parameter of tiny in the F405's 192 KB: θ in the SRAM, the step's workspace in the CCM
using in_place =
    dp::deployment<dp::stm32f405, gpt, dp::step_sgd<>,
                   dp::placement<dp::place<dp::buffer::step_workspace, dp::memory::ccm>>>;
static_assert(in_place::used(1) == sizeof(gpt));
static_assert(in_place::used(2) == sizeof(tf::step_workspace<gpt>) + 4 * KiB);
static_assert(in_place::bytes_of<dp::buffer::trainable> == 0);  // θ is what trains
static_assert(!dp::fits<dp::stm32f405, gpt, dp::step_sgd<>>);   // θ and the workspace: 177 KB
// a partial mode: the base only read (flash), the trainable part and the workspace written
using lora = tf::train_lora<4>;
using partial = dp::deployment<dp::stm32f405, gpt, dp::step_sgd<lora>>;
static_assert(partial::used(0) == dp::default_code_bytes<dp::step_sgd<lora>> + sizeof(gpt));
static_assert(partial::used(1) ==
              sizeof(tf::trainable<gpt, lora>) + sizeof(tf::step_workspace<gpt, lora>));
static_assert(tf::step_footprint<gpt, lora>.sgd_in_place == partial::used(1));
// Adam over the trainable part: its ∇ and m, v too
using adam = dp::deployment<dp::stm32f405, gpt, dp::step_adam<tf::train_gains_biases>>;
static_assert(adam::used(1) == tf::step_footprint<gpt, tf::train_gains_biases>.adam);
// the base written under train_all: in flash it is an error that says so
static_assert(
    std::is_same_v<
        decltype(dp::check<dp::stm32f405, gpt, dp::step_sgd<>,
                           dp::placement<dp::place<dp::buffer::weights, dp::memory::flash>>>()),
        tf::shape_error<tf::in::deployment, dp::for_use<dp::step_sgd<>>, dp::on<dp::stm32f405>,
                        dp::written_buffer<dp::buffer::weights>,
                        dp::read_only_region<dp::memory::flash>>>);

// ---- footprint per use and region ----
constexpr auto fp = tf::footprint<gpt>;
static_assert(fp.decoding.flash == sizeof(gpt) && fp.decoding.ram == sizeof(tf::kv_cache<gpt>));
static_assert(fp.inference.flash == sizeof(gpt) &&
              fp.inference.ram == sizeof(tf::inference_workspace<gpt>));
static_assert(fp.sgd_step.flash == 0 &&
              fp.sgd_step.ram == 2 * sizeof(gpt) + sizeof(tf::training_workspace<gpt>));
static_assert(fp.adam_step.ram == fp.sgd_step.ram + sizeof(tf::adam_state<gpt>));
static_assert(fp.decoding.stack == 2 * KiB && fp.sgd_step.stack == 4 * KiB &&
              fp.decoding.ram_with_stack() == fp.decoding.ram + 2 * KiB);
static_assert(tf::footprint<tf::ETransformer<float, tiny>>.decoding.ram == 0);  // no KV cache

// ---- exported weights: the full signature, not the count ----
struct tiny_reordered {  // the same model under another name, members in another order
    static constexpr std::size_t d_mid = 16, d_attn = 16, d_mlp = 128, d_e = 32, H = 2, L = 2,
                                 l_max = 32, N_V = 64;
    static constexpr double eps = 1e-5;
};
struct heads4 {  // the same 30,592 parameters: H = 4, d_attn = d_mid = 8
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 4, d_e = 32, d_mlp = 128,
                                 d_attn = 8, d_mid = 8;
};
struct tiny_tied : tiny {
    static constexpr bool tied = true;
};
struct tiny_rms : tiny {
    static constexpr auto norm = tf::norm_kind::rms_norm;
};
struct tiny_eps : tiny {
    static constexpr double eps = 1e-6;
};
static_assert(tf::parameter_count<gpt> == tf::parameter_count<tf::DTransformer<float, heads4>>);
template <class M, class E>
using exported = decltype(dp::exported_as<M, E>());
using tf::exported_for;
using tf::first_difference;
using tf::model;
using tf::shape_error;
using W = tf::in::exported_weights;
static_assert(std::is_same_v<exported<gpt, gpt>, gpt>);
static_assert(std::is_same_v<exported<tf::DTransformer<float, tiny_reordered>, gpt>,
                             tf::DTransformer<float, tiny_reordered>>);
static_assert(std::is_same_v<exported<tf::q8<tf::DTransformer<float, tiny_reordered>>, tf::q8<gpt>>,
                             tf::q8<tf::DTransformer<float, tiny_reordered>>>);
static_assert(std::is_same_v<exported<tf::DTransformer<float, heads4>, gpt>,
                             shape_error<W, model<tf::DTransformer<float, heads4>>,
                                         exported_for<gpt>, first_difference<tf::H<4>, tf::H<2>>>>);
static_assert(
    std::is_same_v<exported<tf::DTransformer<float, tiny_tied>, gpt>,
                   shape_error<W, model<tf::DTransformer<float, tiny_tied>>, exported_for<gpt>,
                               first_difference<dp::tied<true>, dp::tied<false>>>>);
static_assert(
    std::is_same_v<exported<tf::DTransformer<float, tiny_rms>, gpt>,
                   shape_error<W, model<tf::DTransformer<float, tiny_rms>>, exported_for<gpt>,
                               first_difference<dp::norm<tf::norm_kind::rms_norm>,
                                                dp::norm<tf::norm_kind::layer_norm>>>>);
static_assert(std::is_same_v<
              exported<tf::DTransformer<float, tiny_eps>, gpt>,
              shape_error<W, model<tf::DTransformer<float, tiny_eps>>, exported_for<gpt>,
                          first_difference<dp::layer_norm_eps_of<tf::DTransformer<float, tiny_eps>>,
                                           dp::layer_norm_eps_of<gpt>>>>);
static_assert(std::is_same_v<exported<tf::DTransformer<double, tiny>, gpt>,
                             shape_error<W, model<tf::DTransformer<double, tiny>>,
                                         exported_for<gpt>, first_difference<double, float>>>);
// int8 weights into a float model, an encoder into a decoder: another architecture
static_assert(std::is_same_v<exported<tf::q8<gpt>, gpt>,
                             shape_error<W, model<tf::q8<gpt>>, exported_for<gpt>>>);
static_assert(
    std::is_same_v<exported<tf::ETransformer<float, tiny>, gpt>,
                   shape_error<W, model<tf::ETransformer<float, tiny>>, exported_for<gpt>>>);

}  // namespace

int main() {
    return 0;
}
