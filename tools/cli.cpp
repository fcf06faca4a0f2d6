// The five tools' command lines in one translation unit (cli.hpp says why).
#include "cli.hpp"

#include <CLI/CLI.hpp>

namespace typeformer::tools {
namespace {

// CLI11_PARSE as a value: the exit code when parsing ends the program.
std::optional<int> finish(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return std::nullopt;
}

}  // namespace

std::optional<int> parse(int argc, char** argv, train_cli& c) {
    CLI::App app{
        "Trains a GPT (DTransformer) on a text file: byte or BPE tokens, AdamW with warm-up and "
        "cosine decay; writes model.ckpt, loss.csv and loss.svg, then prints a sample."};
    train_args& a = c.args;
    app.add_option("text", a.text, "a text file, or a folder of them")->capture_default_str();
    app.add_option("--model", c.model, "tiny, small or baby (DESIGN.md's configurations)")
        ->check(CLI::IsMember({"tiny", "small", "baby"}))
        ->capture_default_str();
    app.add_option("--tokenizer", c.tokenizer, "byte (259 ids) or bpe (512 ids, trained here)")
        ->check(CLI::IsMember({"byte", "bpe"}))
        ->capture_default_str();
    app.add_option("--out", a.out, "output folder")->capture_default_str();
    app.add_option("--resume", a.resume, "continue from this checkpoint");
    app.add_option("--seconds", a.seconds, "wall-clock budget (0: none)")->capture_default_str();
    app.add_option("--steps", a.steps, "step budget (0: none)")->capture_default_str();
    app.add_option("--batch", a.batch, "sequences per step")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--lr", a.lr, "peak learning rate")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--weight-decay", a.weight_decay, "AdamW's decoupled decay")
        ->capture_default_str();
    app.add_option("--clip", a.clip, "gradient-norm clipping (0: none)")->capture_default_str();
    app.add_option("--warmup", a.warmup, "warm-up steps")->capture_default_str();
    app.add_option("--eval-every", a.eval_every, "seconds between held-out evaluations")
        ->capture_default_str();
    app.add_option("--seed", a.seed, "initialisation, shuffling and sampling")
        ->capture_default_str();
    app.add_option("--prompt", a.prompt, "the sample's prompt")->capture_default_str();
    app.add_option("--sample-tokens", a.sample_tokens, "tokens to sample")->capture_default_str();
    return finish(app, argc, argv);
}

std::optional<int> parse(int argc, char** argv, generate_cli& c) {
    CLI::App app{
        "Continues a prompt with a GPT (Algorithm 14, KV cache): a checkpoint of "
        "typeformer-train, or Hugging Face's GPT-2 small with its tokenizer files."};
    app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train")
        ->capture_default_str();
    auto* hf = app.add_option("--hf-gpt2", c.hf_gpt2,
                              "GPT-2 small's model.safetensors (Hugging Face layout) instead");
    app.add_option("--gpt2-vocab", c.gpt2_vocab, "with --hf-gpt2: GPT-2's encoder.json")->needs(hf);
    app.add_option("--gpt2-merges", c.gpt2_merges, "with --hf-gpt2: GPT-2's vocab.bpe")->needs(hf);
    app.add_option("-p,--prompt", c.prompt, "the text to continue")->capture_default_str();
    app.add_option("-n,--tokens", c.tokens, "tokens to generate")->capture_default_str();
    app.add_option("--tau", c.tau, "temperature (0: argmax)")->capture_default_str();
    app.add_option("--top-k", c.top_k, "keep the k most likely tokens");
    app.add_option("--top-p", c.top_p, "nucleus sampling mass")->capture_default_str();
    app.add_option("--seed", c.seed, "the sampler's seed")->capture_default_str();
    app.add_flag("!--no-window", c.window, "stop at l_max instead of sliding the context window");
    app.add_flag("!--no-stop", c.stop_at_eot, "with --hf-gpt2: go on past <|endoftext|>");
    return finish(app, argc, argv);
}

std::optional<int> parse(int argc, char** argv, tokenize_cli& c) {
    CLI::App app{"Encodes stdin to token ids (one line, space separated) or decodes ids back."};
    app.add_option("--bpe", c.bpe_file, "a BPE file (typeformer-tokenize train); default: bytes");
    auto* v = app.add_option("--gpt2-vocab", c.gpt2_vocab, "GPT-2's encoder.json");
    auto* m = app.add_option("--gpt2-merges", c.gpt2_merges, "GPT-2's vocab.bpe");
    v->needs(m);
    m->needs(v);
    app.add_flag("-d,--decode", c.decode, "read ids from stdin, write the text");
    auto* train = app.add_subcommand("train", "learn BPE merges from a corpus");
    train->add_option("--corpus", c.corpus, "a text file or folder")->capture_default_str();
    train->add_option("--merges", c.merges, "how many merges")->capture_default_str();
    train->add_option("--out", c.out, "the BPE file to write")->capture_default_str();
    auto r = finish(app, argc, argv);
    c.train = train->parsed();
    return r;
}

std::optional<int> parse(int argc, char** argv, attention_cli& c) {
    CLI::App app{
        "Draws every attention head of a GPT checkpoint on a prompt (the softmax of Algorithm 4) "
        "as an SVG grid of heatmaps labelled with the prompt's tokens."};
    std::uint64_t seed = 0;
    auto* ckpt = app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train");
    auto* random = app.add_option("--seed", seed, "no checkpoint: random weights from this seed")
                       ->excludes(ckpt);
    app.add_option("--model", c.model, "with --seed: tiny, small or baby (byte tokens)")
        ->check(CLI::IsMember({"tiny", "small", "baby"}))
        ->needs(random)
        ->capture_default_str();
    app.add_option("-p,--prompt", c.prompt, "the text to run")->required();
    app.add_option("-o,--out", c.out, "the SVG to write")->capture_default_str();
    auto r = finish(app, argc, argv);
    if (random->count() > 0)
        c.seed = seed;
    return r;
}

std::optional<int> parse(int argc, char** argv, export_header_cli& c) {
    CLI::App app{
        "Writes a checkpoint of typeformer-train as a C++ header holding a constexpr parameter "
        "object (weights in flash for a microcontroller build)."};
    app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train")->required();
    app.add_option("-o,--out", c.out, "the header to write")->capture_default_str();
    app.add_option("--name", c.name, "the C++ name of the parameter object")->capture_default_str();
    return finish(app, argc, argv);
}

}  // namespace typeformer::tools
