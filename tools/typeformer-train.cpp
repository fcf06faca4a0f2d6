// typeformer-train: trains a GPT (DTransformer, Algorithm 13 with AdamW) on a text file and
// samples from it. `typeformer-train --help` lists the options; tools/train_driver.hpp is the job.
#include "cli.hpp"
#include "run.hpp"
#include "train_driver.hpp"

int main(int argc, char** argv) {
    namespace tools = typeformer::tools;
    tools::train_cli c;
    if (const auto code = tools::parse(argc, argv, c))
        return *code;
    return tools::run_tool("typeformer-train", [&] {
        tools::train_args& a = c.args;
        if (!a.resume.empty()) {
            // the checkpoint names its preset: --model and --tokenizer are taken from it, and
            // refused when given with other values
            const auto info = tools::inspect_checkpoint(a.resume, true);
            for (const auto& [option, mine, theirs] :
                 {std::tuple{"--model", a.model, info.model},
                  std::tuple{"--tokenizer", a.tokenizer, info.tokenizer}})
                if (a.given.count(option) && mine != theirs)
                    throw std::runtime_error(fmt::format(
                        "{} {} differs from the checkpoint's {} ({}): a run resumes with the "
                        "checkpoint's model; leave {} out",
                        option, mine, theirs, a.resume, option));
            a.model = info.model;
            a.tokenizer = info.tokenizer;
        }
        return tools::run_preset(a.model, a.tokenizer, [&]<class Model, class Tokenizer>() {
            return tools::train<Model, Tokenizer>(a);
        });
    });
}
