// typeformer-train: trains a GPT (DTransformer, Algorithm 13 with AdamW) on a text file and
// samples from it. `typeformer-train --help` lists the options; tools/train_driver.hpp is the job.
#include <exception>

#include <fmt/format.h>
#include "cli.hpp"
#include "train_driver.hpp"

int main(int argc, char** argv) {
    namespace tools = typeformer::tools;
    tools::train_cli c;
    if (const auto code = tools::parse(argc, argv, c))
        return *code;
    try {
        return tools::run_preset(c.model, c.tokenizer, [&]<class Model, class Tokenizer>() {
            return tools::train<Model, Tokenizer>(c.args);
        });
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-train: {}\n", e.what());
        return 1;
    }
}
