// Mistake: exporting the int8 form of a model as a header of weights.
// export_header writes the float (or double) parameters in storage order for params_from; an
// int8 model's q8_mat weights (int8 rows and a scale each) are not that.
// Fix: export the float model and quantize it where it is used: quantize is constexpr, so
// `constexpr auto q = ...; quantize(theta, q)` on the device still puts the int8 weights in flash.
// covers: io::export_header(model)
// expect: in::export_header
// first-error: q8_of<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>
#include <typeformer/models/quantized.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void ship(const tf::q8<tf::DTransformer<float, tiny>>& q) {
    tf::io::export_header(q, "tiny_q8.hpp", "tiny_q8");  // error here
}
