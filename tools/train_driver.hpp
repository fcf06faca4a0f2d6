// The training job behind typeformer-train, for any DTransformer type and tokenizer: a user's own
// configuration reuses it in a few lines (docs/training.md):
//
//   struct my_cfg { static constexpr std::size_t N_V = 259, l_max = 64, L = 3, H = 4, d_e = 96,
//                   d_mlp = 384, d_attn = 24, d_mid = 24; };
//   int main(int argc, char** argv) {
//       typeformer::tools::train_args args;            // cli.hpp; or parse(argc, argv, train_cli&)
//       return typeformer::tools::train<typeformer::DTransformer<float, my_cfg>,
//                                       typeformer::tokenize::byte_level>(args);
//   }
//
// It reads the text, builds the tokenizer (BPE merges are trained on the text), splits off the
// last 10% as held-out text, cuts both into sequences of l_max tokens, trains with DTraining
// (AdamW, minibatches, warm-up and cosine decay, clipping, per-token mean loss) for a time or a
// number of steps, reports progress and held-out loss / bits per byte, writes loss.csv, loss.svg
// and model.ckpt (a checkpoint with the tokenizer) to the output folder, and prints a sample.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/io/plot.hpp>
#include <typeformer/tokenize.hpp>
#include <typeformer/typeformer.hpp>

#include "cli.hpp"
#include "presets.hpp"
#include "text.hpp"

namespace typeformer::tools {

// Workers of a minibatch (training_state's Threads): the development machine's two cores.
inline constexpr std::size_t train_threads = 2;

// −Σ log P over next-token targets of the held-out sequences, and the number of targets.
template <class Model>
std::pair<double, std::size_t> held_out_loss(const Model& m,
                                             const std::vector<std::vector<token>>& seqs,
                                             inference_workspace<Model>& ws) {
    double sum = 0;
    std::size_t n = 0;
    for (const auto& x : seqs) {
        if (x.size() < 2)
            continue;
        sum += static_cast<double>(loss(m, x, ws));
        n += x.size() - 1;
    }
    return {sum, n};
}

template <class Model, class Tokenizer>
int train(const train_args& a) {
    using clock = std::chrono::steady_clock;
    namespace fs = std::filesystem;
    constexpr std::size_t l_max = Model::l_max::size;
    const bool tty = ::isatty(::fileno(stdout));

    auto model = std::make_unique<Model>();
    auto st = std::make_unique<training_state<Model, train_threads>>();
    training_options opt{
        .epochs = 1'000'000,
        .batch_size = a.batch,
        .lr = a.lr,
        .weight_decay = a.weight_decay,
        .clip_norm = a.clip,
        .schedule = {.warmup_steps = a.warmup, .decay_steps = 0, .min_lr = a.lr / 10},
        .reduction = loss_reduction::mean_per_token,
        .seed = a.seed};
    // The text, and the tokenizer: trained on it, or the checkpoint's.
    const std::string text = read_text(a.text);
    Tokenizer tok;
    if (!a.resume.empty()) {
        std::string tok_state;
        io::load_checkpoint(a.resume, *model, *st, &opt, &tok_state);
        tok = tokenizer_from<Tokenizer>(tok_state);
        fmt::print("resumed {} at step {}\n", a.resume, st->step);
    } else {
        init(*model, a.seed);
        if constexpr (std::is_same_v<Tokenizer, tokenize::bpe>) {
            const std::size_t merges = Model::N_V::size - 259;
            fmt::print("training {} BPE merges on {} bytes ...\n", merges, text.size());
            tok = tokenize::bpe::train(text, merges);
        }
    }
    static_assert(Model::N_V::size >= 259, "the tokenizers need N_V ≥ 259");
    const auto ids = tok.encode(text);
    const auto [train_ids, held_ids] = tokenize::split(ids, 0.1);
    const auto train_seqs = tokenize::chunk(train_ids, l_max);
    auto held_seqs = tokenize::chunk(held_ids, l_max);
    if (held_seqs.size() > 24)
        held_seqs.resize(24);  // a fixed sample keeps evaluations cheap
    if (train_seqs.size() < a.batch || held_seqs.empty())
        throw std::runtime_error(
            fmt::format("{}: {} bytes is too little text", a.text, text.size()));
    const double bytes_per_token =
        static_cast<double>(text.size()) / static_cast<double>(ids.size());
    fmt::print("{}: {} bytes, {} tokens ({:.2f} bytes per token), {} training sequences of {}\n",
               a.text, text.size(), ids.size(), bytes_per_token, train_seqs.size(), l_max);
    const auto fp = footprint<Model>;
    fmt::print("{} ({}): {} parameters, {:.1f} MB to train with Adam\n", Model::name,
               io::detail::model_signature<Model>(), parameter_count<Model>,
               static_cast<double>(fp.adam_step_total) / 1e6);

    fs::create_directories(a.out);
    std::FILE* csv = std::fopen((fs::path(a.out) / "loss.csv").string().c_str(), "w");
    if (!csv)
        throw std::runtime_error("cannot write " + (fs::path(a.out) / "loss.csv").string());
    std::fprintf(csv, "step,seconds,tokens,train_loss,held_out_loss,held_out_bits_per_byte\n");
    plot::series train_curve{"training loss (nats/token)", {}, {}};
    plot::series held_curve{"held-out loss (nats/token)", {}, {}};
    auto iws = std::make_unique<inference_workspace<Model>>();

    const auto start = clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
    double next_eval = 0, last_print = -1, ema = -1;
    std::size_t tokens = 0;
    auto evaluate = [&](std::uint64_t step) {
        const auto [sum, n] = held_out_loss(*model, held_seqs, *iws);
        const double per_token = sum / static_cast<double>(n);
        const double bpb = per_token / std::log(2.0) / bytes_per_token;
        held_curve.x.push_back(static_cast<double>(step));
        held_curve.y.push_back(per_token);
        std::fprintf(csv, "%llu,%.2f,%zu,%.5f,%.5f,%.5f\n", static_cast<unsigned long long>(step),
                     elapsed(), tokens, ema, per_token, bpb);
        std::fflush(csv);
        fmt::print("{}step {:6d}  held-out loss {:.4f} nats/token, {:.3f} bits per byte\n",
                   tty ? "\r\033[K" : "", step, per_token, bpb);
        std::fflush(stdout);
        return per_token;
    };
    const double budget = a.seconds > 0 ? a.seconds : 1e300;
    auto observer = [&](const step_report& r) {
        tokens += r.tokens;
        ema = ema < 0 ? r.loss : 0.9 * ema + 0.1 * r.loss;
        train_curve.x.push_back(static_cast<double>(r.step));
        train_curve.y.push_back(r.loss);
        const double t = elapsed();
        if (t >= next_eval) {
            evaluate(r.step);
            next_eval = t + a.eval_every;
        }
        const double tok_s = static_cast<double>(tokens) / std::max(t, 1e-9);
        const double frac =
            a.steps ? static_cast<double>(r.step) / static_cast<double>(a.steps) : t / budget;
        if (tty) {
            const int width = 30, done = static_cast<int>(std::min(frac, 1.0) * width);
            fmt::print("\r[{}{}] step {} loss {:.3f} lr {:.2e} {:.0f} tok/s ETA {:.0f}s\033[K",
                       std::string(static_cast<std::size_t>(done), '#'),
                       std::string(static_cast<std::size_t>(width - done), '.'), r.step, ema, r.lr,
                       tok_s, std::max(0.0, t / std::max(frac, 1e-9) - t));
            std::fflush(stdout);
        } else if (t - last_print >= 5) {
            fmt::print("step {:6d}  loss {:.4f}  lr {:.2e}  {:.0f} tokens/s  {:.0f}s\n", r.step,
                       ema, r.lr, tok_s, t);
            std::fflush(stdout);
            last_print = t;
        }
        return (a.steps == 0 || r.step < a.steps) && t < budget;
    };
    // A few steps to measure the speed, then the cosine over the steps the budget allows.
    std::size_t probe = 0;
    status s = DTraining(*model, train_seqs, opt, *st,
                         [&](const step_report& r) { return observer(r) && ++probe < 10; });
    if (s == status::ok && (a.steps == 0 || st->step < a.steps) && elapsed() < budget) {
        const double per_step = elapsed() / static_cast<double>(std::max<std::size_t>(probe, 1));
        const double by_time = a.seconds > 0 ? budget / per_step : 1e18;
        const double by_steps = a.steps ? static_cast<double>(a.steps) : 1e18;
        const auto total = static_cast<std::uint64_t>(std::min(by_time, by_steps));
        opt.schedule.decay_steps =
            total > opt.schedule.warmup_steps ? total - opt.schedule.warmup_steps : 1;
        s = DTraining(*model, train_seqs, opt, *st, observer);
    }
    if (tty)
        fmt::print("\n");
    if (s != status::ok)
        fmt::print(stderr, "training stopped: {}\n", status_message(s));
    const double final_loss = evaluate(st->step);
    std::fclose(csv);

    const fs::path ckpt = fs::path(a.out) / "model.ckpt";
    io::save_checkpoint(ckpt, *model, *st, opt, tok.serialize());
    const std::vector<plot::series> curves = {train_curve, held_curve};
    plot::write(fs::path(a.out) / "loss.svg",
                plot::line_svg(curves, {.title = fmt::format("{} on {}", Model::name,
                                                             fs::path(a.text).filename().string()),
                                        .x_label = "step",
                                        .y_label = "loss (nats per token)"}));
    fmt::print("{} steps, {} tokens in {:.1f}s ({:.0f} tokens/s); held-out loss {:.4f}\n", st->step,
               tokens, elapsed(), static_cast<double>(tokens) / elapsed(), final_loss);
    fmt::print("wrote {}, {}, {}\n", ckpt.string(), (fs::path(a.out) / "loss.csv").string(),
               (fs::path(a.out) / "loss.svg").string());

    // A sample: Algorithm 14 through the KV cache.
    auto cache = std::make_unique<kv_cache<Model>>();
    auto prompt = tok.encode(a.prompt);
    if (prompt.empty())
        prompt.push_back(0);
    if (prompt.size() > l_max / 2)
        prompt.erase(prompt.begin(), prompt.end() - static_cast<std::ptrdiff_t>(l_max / 2));
    rng gen(a.seed);
    fmt::print("\n--- sample (tau {}, top-k {}) ---\n{}", a.tau, a.top_k, a.prompt);
    DInference(*model, *cache, prompt, a.sample_tokens,
               {.tau = a.tau, .top_k = a.top_k, .when_full = context_policy::sliding_window}, gen,
               [&](token t) {
                   fmt::print("{}", tok.piece(t));
                   std::fflush(stdout);
                   return true;
               });
    fmt::print("\n---\n");
    return s == status::ok ? 0 : 1;
}

}  // namespace typeformer::tools
