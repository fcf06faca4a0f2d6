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

#include <typeformer/io/plot.hpp>

#include "cli.hpp"
#include "presets.hpp"
#include "run.hpp"

namespace tf = typeformer;

template <class Model, class Tokenizer>
void draw(const Model& m, const Tokenizer& tokenizer, const std::string& prompt,
          const std::string& out) {
    using tr = typename Model::traits;
    const auto x = tokenizer.encode(prompt);
    if (x.empty())
        throw std::runtime_error("the prompt is empty: give at least one character");
    if (x.size() > tr::l_max::size)
        throw std::runtime_error(
            fmt::format("the prompt is {} tokens; this model's l_max is {}: shorten it", x.size(),
                        tr::l_max::size));
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
    tf::tools::attention_cli c;
    if (const auto code = tf::tools::parse(argc, argv, c))
        return *code;
    return tf::tools::run_tool("typeformer-attention", [&] {
        tf::tools::check_output_file(c.out, "--out", {c.checkpoint});
        if (!c.checkpoint.empty()) {
            tf::tools::with_checkpoint(c.checkpoint, [&](const auto& m, const auto& tokenizer) {
                draw(m, tokenizer, c.prompt, c.out);
            });
        } else if (c.seed) {
            tf::tools::run_preset(c.model, "byte", [&]<class Model, class Tokenizer>() {
                auto m = std::make_unique<Model>();
                tf::init(*m, *c.seed);
                draw(*m, Tokenizer{}, c.prompt, c.out);
            });
        } else {
            throw std::runtime_error("give a checkpoint, or --seed for random weights");
        }
        return 0;
    });
}
