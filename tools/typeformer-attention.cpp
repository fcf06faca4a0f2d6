// typeformer-attention: the attention matrices of a byte-level DTransformer on a prompt, as a
// grid of heatmaps (one per layer and head) with the prompt's characters as axis labels.
//
//   typeformer-attention --weights w.safetensors --prompt "to be or" --out attention.svg
//   typeformer-attention --seed 1 --prompt "..." --out a.svg     random weights (a demo, tests)
//
// Each byte is one token (N_V = 259: the 256 bytes and the special tokens mask, bos, eos).
// Row t_x of a heatmap is query position t_x; column t_z its weight on position t_z: the
// softmax of Algorithm 4 (line 6), which the forward pass keeps in the training workspace
// (ws.layers[l].attn_cache.A[h], A(t_z, t_x)).
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/io/plot.hpp>
#include <typeformer/io/safetensors.hpp>
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

// The byte-level model this tool reads (the training tool's byte preset has these sizes).
struct byte_cfg {
    static constexpr std::size_t N_V = 259, l_max = 64, L = 2, H = 4, d_e = 64, d_mlp = 256,
                                 d_attn = 16, d_mid = 16;
};
using model_t = tf::DTransformer<float, byte_cfg>;

static int usage() {
    std::fputs(
        "usage: typeformer-attention (--weights FILE | --seed N) --prompt TEXT --out FILE.svg\n"
        "  the model: DTransformer, byte tokens, N_V 259, l_max 64, L 2, H 4, d_e 64, d_mlp 256\n",
        stderr);
    return 2;
}

int main(int argc, char** argv) {
    std::string weights, prompt, out;
    long long seed = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--weights"))
            weights = argv[i + 1];
        else if (!std::strcmp(argv[i], "--prompt"))
            prompt = argv[i + 1];
        else if (!std::strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else if (!std::strcmp(argv[i], "--seed"))
            seed = std::atoll(argv[i + 1]);
        else
            return usage();
    }
    if (argc % 2 == 0 || prompt.empty() || out.empty() || (weights.empty() == (seed < 0)))
        return usage();
    if (prompt.size() > byte_cfg::l_max) {
        std::fprintf(stderr, "typeformer-attention: the prompt has %zu bytes; l_max is %zu\n",
                     prompt.size(), byte_cfg::l_max);
        return 1;
    }
    try {
        auto model = std::make_unique<model_t>();
        if (weights.empty())
            tf::init(*model, static_cast<std::uint64_t>(seed));
        else
            tf::load(*model, weights);
        std::vector<tf::token> x;
        std::vector<std::string> labels;
        for (unsigned char c : prompt) {
            x.push_back(c);
            labels.emplace_back(1, static_cast<char>(c));
        }
        auto ws = std::make_unique<tf::training_workspace<model_t>>();  // keeps every layer
        tf::forward(*model, x, *ws);
        std::vector<tf::plot::heatmap> maps;
        const std::size_t l = x.size();
        for (std::size_t layer = 0; layer < byte_cfg::L; ++layer)
            for (std::size_t h = 0; h < byte_cfg::H; ++h) {
                const auto& A = ws->layers[layer].attn_cache.A[h];  // (l_z, l_x)
                tf::plot::heatmap m;
                m.title = "layer " + std::to_string(layer) + ", head " + std::to_string(h);
                m.rows = m.cols = l;
                m.row_labels = m.col_labels = labels;
                for (std::size_t tx = 0; tx < l; ++tx)  // rows: queries
                    for (std::size_t tz = 0; tz < l; ++tz)
                        m.values.push_back(A(tz, tx));
                maps.push_back(std::move(m));
            }
        tf::plot::write(out,
                        tf::plot::heatmap_grid_svg(
                            maps, byte_cfg::H,
                            "attention softmax(S/sqrt(d_attn)): rows query t_x, columns key t_z"));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "typeformer-attention: %s\n", e.what());
        return 1;
    }
    return 0;
}
