// typeformer-export-header: writes a checkpoint's model as a C++ header for a firmware, the
// weights as a constant-initialised object that lands in flash (.rodata), not RAM
// (tf::io::export_header; docs/embedded.md).
//
//   typeformer-export-header model.ckpt -o weights.hpp --name my_weights [--q8]
//
// The firmware names the model type: `const Model& theta = my_weights<Model>;`, Model having the
// exported model's signature (the header's my_weights_type, or a config with its dimensions and
// variants: the header checks them all at compile time). With --q8 the weights are quantized
// here, on the host, to q8<Model> (models/quantized.hpp): the firmware's compiler reads int8
// values, it quantizes nothing.
#include <exception>
#include <memory>
#include <string>

#include <fmt/format.h>

#include <typeformer/io/export_header.hpp>

#include "cli.hpp"
#include "presets.hpp"
#include "run.hpp"

namespace tf = typeformer;

int main(int argc, char** argv) {
    tf::tools::export_header_cli c;
    if (const auto code = tf::tools::parse(argc, argv, c))
        return *code;
    return tf::tools::run_tool("typeformer-export-header", [&] {
        tf::tools::check_output_file(c.out, "--out", {c.checkpoint});
        tf::tools::with_checkpoint(c.checkpoint, [&]<class Model>(const Model& m, const auto&) {
            if (c.q8) {
                auto q = std::make_unique<tf::q8<Model>>();
                tf::quantize(m, *q);
                tf::io::export_header(*q, c.out, c.name);  // atomic
            } else {
                tf::io::export_header(m, c.out, c.name);
            }
            fmt::print("{}: {} parameters of {} as {}<Model>{}, {} bytes\n", c.out,
                       tf::parameter_count<Model>, tf::tools::describe<Model>(), c.name,
                       c.q8 ? " (int8)" : "", c.q8 ? sizeof(tf::q8<Model>) : sizeof(Model));
        });
        return 0;
    });
}
