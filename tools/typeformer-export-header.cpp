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
#include <CLI/CLI.hpp>

#include <typeformer/io/export_header.hpp>

#include "presets.hpp"

namespace tf = typeformer;

int main(int argc, char** argv) {
    CLI::App app{
        "Writes a checkpoint of typeformer-train as a C++ header holding a constexpr parameter "
        "object (weights in flash for a microcontroller build)."};
    std::string checkpoint, out = "weights.hpp", name = "weights";
    app.add_option("checkpoint", checkpoint, "a checkpoint of typeformer-train")->required();
    app.add_option("-o,--out", out, "the header to write")->capture_default_str();
    app.add_option("--name", name, "the C++ name of the parameter object")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        tf::tools::with_checkpoint(checkpoint, [&]<class Model>(const Model& m, const auto&) {
            tf::io::export_header(m, out, name);
            fmt::print("{}: {} parameters of {} as {}<Model>\n", out, tf::parameter_count<Model>,
                       tf::tools::describe<Model>(), name);
        });
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-export-header: {}\n", e.what());
        return 1;
    }
}
