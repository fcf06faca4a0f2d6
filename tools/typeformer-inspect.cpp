// typeformer-inspect FILE: what model a weights file holds, read from its header (and a Hugging
// Face config.json): the architecture, the parameter count, the C++ config struct to paste, the
// call that reads it and the tools' presets that match. Typeformer files and checkpoints say it
// in their signature (io/signature.hpp); nanoGPT files converted by typeformer_torch.py in their
// model_args; Hugging Face's model.safetensors in the config.json beside it. No tensor data is
// read.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>

#include "cli.hpp"
#include "gpt_presets.hpp"
#include "presets.hpp"
#include "run.hpp"

namespace tf = typeformer;
namespace tio = typeformer::io;

namespace {

// "10,745,088"
std::string grouped(std::uint64_t n) {
    std::string s = std::to_string(n);
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

// The presets of the tools a file matches: for a typeformer file, those of its type; for a GPT
// file (`gpt`), those typeformer-generate would import it onto (the same test as the tool's).
std::string matching_presets(const tio::signature& sig, const tf::tools::gpt_file_config* gpt) {
    std::string out;
    if (!gpt)
        for (const char* model : {"tiny", "small", "baby"})
            for (const char* tok : {"byte", "bpe"})
                tf::tools::run_preset(model, tok, [&]<class Model, class Tokenizer>() {
                    if (tio::first_difference(sig, tio::signature_of<Model>()).empty())
                        out += fmt::format(
                            "\n  typeformer-train --model {} --tokenizer {} "
                            "(typeformer-generate, -attention, -export-header)",
                            model, tok);
                });
    tf::tools::for_each_gpt_preset([&]<class Model, class Tokenizer>(std::string_view name) {
        if (gpt ? tf::tools::gpt_preset_matches<Model>(gpt->config, gpt->has_biases)
                : tio::first_difference(sig, tio::signature_of<Model>()).empty())
            out += fmt::format(
                "\n  typeformer-generate --hf-gpt2 / --nanogpt: {}{}", name,
                std::is_same_v<Tokenizer, tf::tokenize::characters> && !(gpt && gpt->vocabulary)
                    ? " (needs its character vocabulary: from-nanogpt --meta meta.pkl)"
                    : "");
    });
    return out.empty() ? "\n  none" : out;
}

int inspect(const tf::tools::inspect_cli& o) {
    namespace d = tio::detail;
    tf::tools::check_input_file(o.file, "the file");
    const std::string src = d::printable(o.file);
    d::open_file file;
    d::parsed_header header;
    tio::result r = d::open_safetensors(o.file, src, file);
    if (r)
        r = d::parse_header(file.header, src, header);
    d::problem_list problems;
    std::vector<std::size_t> by_name;
    if (r)
        r = d::check_entries(header, file.data_len, src, problems, by_name);
    if (r && !problems.empty())
        r = d::report(problems, src);
    if (!r)
        throw std::runtime_error(r.message);

    tio::signature sig;
    if (const auto s = tio::read_signature(header.metadata, sig); !s.ok)
        throw std::runtime_error(fmt::format("{}: {}", o.file, s.problem));
    const bool checkpoint = !d::metadata_value(header.metadata, "typeformer.checkpoint").empty();
    std::uint64_t parameters = 0;
    for (const auto& t : header.tensors) {
        if (checkpoint && !t.name.starts_with("model."))
            continue;  // the optimizer's moments
        if (d::ignored_buffer(t.name))
            continue;
        std::uint64_t n = 1;
        for (auto x : t.shape)
            n *= x;
        parameters += n;
    }

    std::string kind, call, note;
    std::optional<tf::tools::gpt_file_config> gpt;
    const std::string_view layout = d::gpt_layout_of(header);
    if (!sig.empty()) {
        kind = checkpoint ? "typeformer training checkpoint" : "typeformer weights file";
        call = checkpoint ? "tf::load_checkpoint(path, *model, *state)" : "tf::load(*model, path)";
        note = "its signature (typeformer.* metadata)";
    } else if (!layout.empty()) {
        const bool hf = layout != "nanoGPT";
        const auto gl = hf ? tio::gpt_layout::hf_gpt2 : tio::gpt_layout::nanogpt;
        gpt = tf::tools::read_gpt_file_config(o.file, gl, tio::import_options{.config = o.config});
        const auto& cfg = *gpt;
        sig = tio::gpt_signature(cfg.config);
        for (const auto& t : header.tensors)  // nanoGPT ties unless an lm_head differs
            if (d::strip_prefixes(t.name) == "lm_head.weight")
                sig.tied = false;
        kind = fmt::format("{} checkpoint", layout);
        call = fmt::format("tf::io::import_{}(*model, path)", hf ? "hf_gpt2" : "nanogpt");
        note = cfg.from_tensors
                   ? fmt::format(
                         "its tensors only: it has no {}, so H, eps and the GELU form are "
                         "unknown (H = 0 below) and the import needs "
                         "import_options{{.accept_no_config = true}}",
                         hf ? "config.json beside it" : "model_args")
                   : fmt::format("its {}", hf ? "config.json" : "model_args");
        if (sig.H == 0)
            sig.d_attn = sig.d_mid = 0;
    } else {
        throw std::runtime_error(fmt::format(
            "{} records no model: it has no typeformer signature (a file written before "
            "signatures, or by another program) and is no nanoGPT or Hugging Face GPT-2 file; "
            "tf::load reads it by its tensors' names and shapes",
            o.file));
    }
    fmt::print("{}: {} ({} tensors, {} parameters)\n", o.file, kind, header.tensors.size(),
               grouped(parameters));
    fmt::print("model: {}\n", tio::describe(sig));
    if (gpt && gpt->vocabulary)
        fmt::print("vocabulary: {} characters ({}, from its meta.pkl)\n",
                   gpt->vocabulary->vocab_size(), tio::nanogpt_vocabulary_key);
    fmt::print("from: {}\n", note);
    fmt::print("read it with: {}\n\n", call);
    fmt::print("{}\n", tio::config_struct(sig, "cfg"));
    fmt::print("presets that match:{}\n", matching_presets(sig, gpt ? &*gpt : nullptr));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    tf::tools::inspect_cli o;
    if (const auto code = tf::tools::parse(argc, argv, o))
        return *code;
    return tf::tools::run_tool("typeformer-inspect", [&] { return inspect(o); });
}
