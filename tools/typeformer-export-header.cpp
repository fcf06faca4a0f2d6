// typeformer-export-header: writes a checkpoint's model as a C++ header for a firmware, the
// weights as a constant-initialised object that lands in flash (.rodata), not RAM
// (tf::io::export_header; docs/embedded.md).
//
//   typeformer-export-header model.ckpt -o weights.hpp --name my_weights
//
// The firmware names the model type: `const Model& theta = my_weights<Model>;` (the header's
// comment and <name>_signature spell the dimensions the type must have).
#include <exception>
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
            tf::io::export_header(m, c.out, c.name);  // atomic
            fmt::print("{}: {} parameters of {} as {}<Model>\n", c.out, tf::parameter_count<Model>,
                       tf::tools::describe<Model>(), c.name);
        });
        return 0;
    });
}
