// Mistake: the signature of a model's config struct instead of its model type.
// io::signature_of<Model>() reads the architecture, the scalar type and every dimension of a
// DTransformer, ETransformer or EDTransformer type; the config alone names neither the
// architecture nor the scalar type.
// Fix: io::signature_of<typeformer::DTransformer<float, tiny>>().
// fixed: io::signature_of<tiny>() => io::signature_of<typeformer::DTransformer<float, tiny>>()
// covers: io::signature_of(Model)
// expect: in::signature_of
// first-error: model<tiny>, typeformer::needed<typeformer::signed_architecture>
// clang-first-error: model<tiny>, typeformer::needed<typeformer::signed_architecture>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io/signature.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace io = typeformer::io;

const io::signature expected = io::signature_of<tiny>();  // error here
