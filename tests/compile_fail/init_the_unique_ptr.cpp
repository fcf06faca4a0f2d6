// Mistake: initialising a model held by a std::unique_ptr without dereferencing it.
// init walks the model's named tensors (W_e, W_p, every layer's W_q, …); DESIGN.md's `auto model =
// std::make_unique<tf::DTransformer<float, cfg>>()` holds it behind a pointer.
// Fix: tf::init(*model, seed).
// fixed: tf::init(model, 42); => tf::init(*model, 42);
// covers: init(model)
// expect: in::init
// first-error: model<std::unique_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
// gallery: 25
#include <typeformer/typeformer.hpp>

#include <memory>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void set_up(std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    tf::init(model, 42);  // error here
}
