// Trains a BERT-style ETransformer (Algorithm 9) by masked language modelling — ETraining,
// Algorithm 12, with BERT's 80/10/10 replacement and AdamW — on byte-level text, then measures the
// masked-token accuracy on held-out text against the unigram baseline (always guessing the most
// frequent byte) and fills the masks of a sentence.
//
//   train_bert [text file or folder] [seconds = 30] [steps = 0: no limit]
//
// Exits non-zero unless the held-out accuracy beats the unigram baseline. Post-norm BERT first
// sits on the unigram plateau (predicting byte frequencies whatever the context) for a
// thousand-odd steps before attention learns to read the neighbours; short sequences (l_max = 16)
// shorten that plateau to seconds.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/tokenize.hpp>
#include <typeformer/typeformer.hpp>

#include "../tools/text.hpp"

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

struct cfg {  // bytes + mask, bos, eos
    static constexpr std::size_t N_V = tk::byte_level::N_V, l_max = 16, L = 2, H = 4, d_e = 96,
                                 d_mlp = 384, d_attn = 24, d_mid = 24;
};
using model = tf::ETransformer<float, cfg>;

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "/usr/share/common-licenses";
    const double seconds = argc > 2 ? std::atof(argv[2]) : 30.0;
    const std::size_t steps = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 0;
    const auto ids = tk::byte_level::encode(tf::tools::read_text(path));
    const auto [train_ids, held_ids] = tk::split(ids, 0.1);
    const auto train = tk::chunk(train_ids, cfg::l_max);
    auto held = tk::chunk(held_ids, cfg::l_max);
    held.resize(std::min<std::size_t>(held.size(), 200));

    auto m = std::make_unique<model>();
    tf::init(*m, 3);
    auto st = std::make_unique<tf::training_state<model>>();
    tf::training_options opt{.epochs = 1000,
                             .batch_size = 16,
                             .lr = 2e-3,
                             .weight_decay = 0.01,
                             .clip_norm = 1.0,
                             .schedule = {.warmup_steps = 50},
                             .reduction = tf::loss_reduction::mean_per_token,
                             .p_mask = 0.15,
                             .bert_replacement = true};
    std::printf("ETransformer: %zu parameters; %zu training sequences of %zu bytes\n",
                tf::parameter_count<model>, train.size(), cfg::l_max);
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    double running = 0, next = std::min(seconds / 6, 5.0);
    int since = 0;
    tf::ETraining(*m, train, opt, *st, [&](const tf::step_report& r) {
        running += r.loss, ++since;
        if (elapsed() >= next) {
            std::printf("step %5llu  masked-token loss %.3f  %.0fs\n",
                        static_cast<unsigned long long>(r.step), running / since, elapsed());
            std::fflush(stdout);
            running = 0, since = 0, next += std::min(seconds / 6, 5.0);
        }
        return elapsed() < seconds && (steps == 0 || r.step < steps);
    });

    // Held-out accuracy: mask every 7th byte (from a different offset per sequence), predict it.
    std::array<std::size_t, 256> freq{};
    for (const auto t : train_ids)
        ++freq[t];
    const auto unigram =
        static_cast<tf::token>(std::max_element(freq.begin(), freq.end()) - freq.begin());
    auto ws = std::make_unique<tf::inference_workspace<model>>();
    std::size_t right = 0, baseline = 0, total = 0;
    for (std::size_t k = 0; k < held.size(); ++k) {
        auto x_tilde = held[k];
        for (std::size_t t = k % 7; t < x_tilde.size(); t += 7)
            x_tilde[t] = tf::mask_token<cfg::N_V>;
        for (const auto& p : tf::fill_mask(*m, x_tilde, 1, *ws)) {
            right += p.top[0] == held[k][p.position];
            baseline += unigram == held[k][p.position];
            ++total;
        }
    }
    const double acc = static_cast<double>(right) / total,
                 base = static_cast<double>(baseline) / total;
    std::printf("held-out masked-token accuracy %.1f%% (%zu masks); unigram baseline %.1f%%\n",
                100 * acc, total, 100 * base);

    // Fill-mask on a sentence: each _ is masked, the model's top 3 guesses are shown.
    const std::string sentence = "th_ GNU Lic_nse";
    auto x = tk::byte_level::encode(sentence);
    for (auto& t : x)
        if (t == '_')
            t = tf::mask_token<cfg::N_V>;
    std::printf("%s\n", sentence.c_str());
    for (const auto& p : tf::fill_mask(*m, x, 3, *ws)) {
        std::printf("  position %2zu:", p.position);
        for (auto t : p.top)
            std::printf(" '%s'", tk::byte_level::piece(t).c_str());
        std::printf("\n");
    }
    return acc > base ? 0 : 1;
}
