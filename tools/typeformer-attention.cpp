// typeformer-attention: what a trained GPT attends to. Runs a prompt through a checkpoint of
// typeformer-train and draws every layer's and head's attention matrix — the softmax of
// Algorithm 4, line 6, which the forward pass keeps in the training workspace
// (ws.layers[l].attn_cache.A[h], A(t_z, t_x)) — as a grid of heatmaps with the prompt's tokens
// as axis labels: row t_x is a query position, column t_z its weight on position t_z.
//
//   typeformer-attention typeformer-run/model.ckpt --prompt "to be, or not" --out attention.svg
//   typeformer-attention --model tiny --seed 1 --prompt "..." --out a.svg    random weights
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <typeformer/io/plot.hpp>

#include "presets.hpp"

namespace tf = typeformer;

template <class Model, class Tokenizer>
void draw(const Model& m, const Tokenizer& tokenizer, const std::string& prompt,
          const std::string& out) {
    using tr = typename Model::traits;
    const auto x = tokenizer.encode(prompt);
    if (x.empty())
        throw std::runtime_error("the prompt is empty");
    if (x.size() > tr::l_max::size)
        throw std::runtime_error(fmt::format("the prompt is {} tokens; this model's l_max is {}",
                                             x.size(), tr::l_max::size));
    std::vector<std::string> labels;  // the tokens' text, with blanks made visible
    for (const tf::token t : x) {
        std::string label;
        for (const char c : tokenizer.piece(t))
            label += c == ' ' ? "␣" : c == '\n' ? "↵" : c == '\t' ? "⇥" : std::string(1, c);
        labels.push_back(std::move(label));
    }
    auto ws = std::make_unique<tf::training_workspace<Model>>();  // keeps every layer's A
    tf::forward(m, x, *ws);
    std::vector<tf::plot::heatmap> maps;
    const std::size_t l = x.size();
    for (std::size_t layer = 0; layer < tr::L; ++layer)
        for (std::size_t h = 0; h < tr::H::size; ++h) {
            const auto& A = ws->layers[layer].attn_cache.A[h];  // (l_z, l_x)
            tf::plot::heatmap map;
            map.title = fmt::format("layer {}, head {}", layer, h);
            map.rows = map.cols = l;
            map.row_labels = map.col_labels = labels;
            for (std::size_t tx = 0; tx < l; ++tx)  // rows: queries
                for (std::size_t tz = 0; tz < l; ++tz)
                    map.values.push_back(A(tz, tx));
            maps.push_back(std::move(map));
        }
    tf::plot::write(out, tf::plot::heatmap_grid_svg(maps, tr::H::size,
                                                    "attention softmax(S/sqrt(d_attn)): rows "
                                                    "query t_x, columns key t_z"));
    fmt::print("wrote {}: {} layers × {} heads, {} tokens ({})\n", out, tr::L, tr::H::size, l,
               tf::tools::describe<Model>());
}

int main(int argc, char** argv) {
    CLI::App app{
        "Draws every attention head of a GPT checkpoint on a prompt (the softmax of Algorithm 4) "
        "as an SVG grid of heatmaps labelled with the prompt's tokens."};
    std::string checkpoint, prompt, out = "attention.svg", model = "tiny";
    std::uint64_t seed = 0;
    auto* ckpt = app.add_option("checkpoint", checkpoint, "a checkpoint of typeformer-train");
    auto* random = app.add_option("--seed", seed, "no checkpoint: random weights from this seed")
                       ->excludes(ckpt);
    app.add_option("--model", model, "with --seed: tiny, small or baby (byte tokens)")
        ->check(CLI::IsMember({"tiny", "small", "baby"}))
        ->needs(random)
        ->capture_default_str();
    app.add_option("-p,--prompt", prompt, "the text to run")->required();
    app.add_option("-o,--out", out, "the SVG to write")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        if (!checkpoint.empty()) {
            tf::tools::with_checkpoint(checkpoint, [&](const auto& m, const auto& tokenizer) {
                draw(m, tokenizer, prompt, out);
            });
        } else if (random->count() > 0) {
            tf::tools::run_preset(model, "byte", [&]<class Model, class Tokenizer>() {
                auto m = std::make_unique<Model>();
                tf::init(*m, seed);
                draw(*m, Tokenizer{}, prompt, out);
            });
        } else {
            throw std::runtime_error("give a checkpoint, or --seed for random weights");
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-attention: {}\n", e.what());
        return 1;
    }
    return 0;
}
