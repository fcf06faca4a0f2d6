// Mistake: importing GPT-2's weights (status form) into a std::unique_ptr.
// The importer maps GPT-2's tensors onto the model's; the pointer holds the model.
// Fix: try_import_hf_gpt2(*model, path).
// fixed: try_import_hf_gpt2(model, => try_import_hf_gpt2(*model,
// covers: io::try_import_hf_gpt2(model)
// expect: in::try_import_hf_gpt2
// first-error: model<std::unique_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <memory>
#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

auto from_hub(std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::io::try_import_hf_gpt2(model, "model.safetensors");  // error here
}
