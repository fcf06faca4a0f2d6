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
// It checks every option and path first (nothing is written before the first checkpoint, so a
// refused run leaves --out as it was), reads the text, builds the tokenizer (BPE merges are
// trained on the text) or takes the checkpoint's, splits off the last 10% as held-out text, cuts
// both into sequences of l_max tokens, trains with DTraining (AdamW, minibatches, warm-up and
// cosine decay, clipping, per-token mean loss) up to a step or for a time, reports progress and
// held-out loss / bits per byte, and checkpoints — model.ckpt, then loss.csv and loss.svg, which
// describe it (the rows are in the checkpoint too) — at every held-out evaluation, every
// --save-every steps, at the end and on SIGINT/SIGTERM (then it exits 130/143); it never writes
// a checkpoint without a step taken in this run. Then it prints a sample.
//
// Resuming (--resume): the checkpoint's model, tokenizer, options, counters and generator; the
// options given on the command line that differ are applied (--lr, --weight-decay, --clip,
// --warmup, --batch, printed) or refused with both values (--seed, --model, --tokenizer);
// --steps is the step to end at, as on a first run (at most the steps done is an error), and
// --seconds this run's time. The cosine is fitted to where this run ends, from the step it
// starts at (a first run and a resumed one alike).
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
#include "run.hpp"
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

// One row of loss.csv: a held-out evaluation.
struct loss_row {
    std::uint64_t step = 0;
    double seconds = 0;
    std::uint64_t tokens = 0;
    double train_loss = 0, held_out_loss = 0, bits_per_byte = 0;
};

inline std::string loss_csv(const std::vector<loss_row>& rows) {
    std::string s = "step,seconds,tokens,train_loss,held_out_loss,held_out_bits_per_byte\n";
    for (const auto& r : rows)
        s += fmt::format("{},{:.2f},{},{:.5f},{:.5f},{:.5f}\n", r.step, r.seconds, r.tokens,
                         r.train_loss, r.held_out_loss, r.bits_per_byte);
    return s;
}

// The rows of loss_csv(rows) back, those up to `last_step` (a checkpoint's own).
inline std::vector<loss_row> parse_loss_csv(const std::string& s, std::uint64_t last_step) {
    std::vector<loss_row> rows;
    std::size_t pos = s.find('\n');
    while (pos != std::string::npos && pos + 1 < s.size()) {
        const std::size_t end = s.find('\n', pos + 1);
        const std::string line = s.substr(pos + 1, end - pos - 1);
        pos = end;
        loss_row r;
        unsigned long long step = 0, tokens = 0;
        if (std::sscanf(line.c_str(), "%llu,%lf,%llu,%lf,%lf,%lf", &step, &r.seconds, &tokens,
                        &r.train_loss, &r.held_out_loss, &r.bits_per_byte) == 6 &&
            step <= last_step) {
            r.step = step, r.tokens = tokens;
            rows.push_back(r);
        }
    }
    return rows;
}

inline constexpr const char* key_text = "typeformer-train.text";
inline constexpr const char* key_seconds = "typeformer-train.seconds";
inline constexpr const char* key_tokens = "typeformer-train.tokens";
inline constexpr const char* key_loss_csv = "typeformer-train.loss_csv";

template <class Model, class Tokenizer>
int train(const train_args& a) {
    using clock = std::chrono::steady_clock;
    namespace fs = std::filesystem;
    constexpr std::size_t l_max = Model::l_max::size;
    static_assert(Model::N_V::size >= 259, "the tokenizers need N_V ≥ 259");
    const bool tty = ::isatty(::fileno(stdout));
    auto given = [&](const char* option) { return a.given.count(option) > 0; };

    // ---- everything checked before anything is written ----
    const fs::path out(a.out), ckpt = out / "model.ckpt", csv_path = out / "loss.csv",
                               svg_path = out / "loss.svg";
    check_output_dir(a.out, "--out");
    for (const fs::path& p : {ckpt, csv_path, svg_path})
        if (same_file(p, a.text))
            throw std::runtime_error("the text " + a.text + " is also an output (" + p.string() +
                                     "): choose another --out");
    training_options opt{
        .epochs = 1'000'000,
        .batch_size = a.batch,
        .lr = a.lr,
        .weight_decay = a.weight_decay,
        .clip_norm = a.clip,
        .schedule = {.warmup_steps = a.warmup, .decay_steps = 0, .min_lr = a.lr / 10},
        .reduction = loss_reduction::mean_per_token,
        .seed = a.seed};
    if (const status s = check_training_options(opt); s != status::ok)
        throw std::runtime_error(std::string("the options are refused: ") + status_message(s));

    auto model = std::make_unique<Model>();
    auto st = std::make_unique<training_state<Model, train_threads>>();
    Tokenizer tok;
    std::vector<loss_row> rows;  // loss.csv, the checkpoint's first when resuming
    double seconds_before = 0;
    std::uint64_t tokens_before = 0;
    std::vector<std::string> changes;  // options a resumed run applies
    if (!a.resume.empty()) {
        const checkpoint_info info = inspect_checkpoint(a.resume, true);
        if (info.model != a.model || info.tokenizer != a.tokenizer)
            throw std::runtime_error(
                fmt::format("{} holds preset {} with {} tokens but this run is {} with {} tokens",
                            a.resume, info.model, info.tokenizer, a.model, a.tokenizer));
        training_options saved;
        std::string tok_state;
        if (auto r = io::try_load_checkpoint(a.resume, *model, *st, &saved, &tok_state); !r)
            throw std::runtime_error(load_problem(r, a.resume));
        tok = tokenizer_from<Tokenizer>(tok_state);
        if (given("--seed") && a.seed != saved.seed)
            throw std::runtime_error(fmt::format(
                "--seed {} differs from the checkpoint's seed {}: a resumed run continues the "
                "checkpoint's random stream (leave --seed out, or start a new run)",
                a.seed, saved.seed));
        if (given("--steps") && a.steps <= st->step)
            throw std::runtime_error(fmt::format(
                "--steps {} is not beyond the {} steps the checkpoint has done: --steps is the "
                "step to end at, counted from the first run",
                a.steps, st->step));
        auto apply = [&](const char* option, auto& field, auto value) {
            if (!given(option) || field == value)
                return;
            changes.push_back(fmt::format("{} {} (the checkpoint's: {})", option, value, field));
            field = value;
        };
        apply("--lr", saved.lr, a.lr);
        if (given("--lr"))
            saved.schedule.min_lr = saved.lr / 10;
        apply("--weight-decay", saved.weight_decay, a.weight_decay);
        apply("--clip", saved.clip_norm, a.clip);
        apply("--warmup", saved.schedule.warmup_steps, std::uint64_t{a.warmup});
        apply("--batch", saved.batch_size, a.batch);
        opt = saved;
        opt.epochs = 1'000'000;
        seconds_before = std::strtod(metadata_value(info.md, key_seconds).c_str(), nullptr);
        tokens_before = std::strtoull(metadata_value(info.md, key_tokens).c_str(), nullptr, 10);
        rows = parse_loss_csv(metadata_value(info.md, key_loss_csv), st->step);
        if (const std::string was = metadata_value(info.md, key_text);
            !was.empty() && was != a.text)
            changes.push_back(
                fmt::format("the text {} (the checkpoint's: {}; the tokenizer "
                            "stays the checkpoint's)",
                            a.text, was));
    }
    const std::string text = read_text(a.text);
    if (text.empty())
        throw std::runtime_error(a.text + " is empty: there is nothing to train on");
    if (a.resume.empty()) {
        init(*model, a.seed);
        if constexpr (std::is_same_v<Tokenizer, tokenize::bpe>) {
            const std::size_t merges = Model::N_V::size - 259;
            fmt::print("learning {} BPE merges from {} bytes ...\n", merges, text.size());
            tok = tokenize::bpe::train(text, merges);
            if (tok.merge_count() != merges)
                throw std::runtime_error(fmt::format(
                    "{} gives only {} BPE merges of the {} this model's N_V = {} needs: give "
                    "more text or --tokenizer byte",
                    a.text, tok.merge_count(), merges, Model::N_V::size));
        }
    }
    const auto ids = tok.encode(text);
    const auto [train_ids, held_ids] = tokenize::split(ids, 0.1);
    const auto train_seqs = tokenize::chunk(train_ids, l_max);
    auto held_seqs = tokenize::chunk(held_ids, l_max);
    if (held_seqs.size() > 24)
        held_seqs.resize(24);  // a fixed sample keeps evaluations cheap
    if (train_seqs.size() < opt.batch_size || held_seqs.empty() || held_seqs[0].size() < 2)
        throw std::runtime_error(fmt::format(
            "{}: {} bytes is too little text: {} tokens make {} training sequences of {} tokens "
            "for a batch of {}, and 10% must be held out",
            a.text, text.size(), ids.size(), train_seqs.size(), l_max, opt.batch_size));
    // The output folder: made now, and never another run's. A new run into a folder that holds
    // a checkpoint (or a resumed run writing beside another one) is refused without --overwrite,
    // as Hugging Face's scripts refuse a non-empty output_dir without --overwrite_output_dir:
    // re-running a command by mistake must not replace hours of training.
    std::error_code ec;
    if (!a.overwrite && fs::exists(ckpt, ec) && (a.resume.empty() || !same_file(ckpt, a.resume)))
        throw std::runtime_error(fmt::format(
            "--out {} already holds a checkpoint of another run ({}): --resume {} continues it, "
            "--overwrite starts over in its place, or choose another --out",
            a.out, ckpt.string(), ckpt.string()));
    make_output_dir(a.out, "--out");

    // A preset's checkpoint names it, so --resume needs neither --model nor --tokenizer; a
    // configuration of one's own (docs/training.md) is found by its type instead.
    const bool is_preset = run_preset(a.model, a.tokenizer, [&]<class M, class T>() {
        return std::is_same_v<M, Model> && std::is_same_v<T, Tokenizer>;
    });

    // ---- the banner (nanoGPT's: the model, its size, the run) ----
    const double bytes_per_token =
        static_cast<double>(text.size()) / static_cast<double>(ids.size());
    fmt::print("{} (GPT, Algorithm 10){}: {}\n", Model::name,
               is_preset ? fmt::format(", preset {} with {} tokens", a.model, a.tokenizer) : "",
               describe<Model>());
    fmt::print("{:.2f}M parameters, {:.1f} MB to train with AdamW\n",
               static_cast<double>(parameter_count<Model>) / 1e6,
               static_cast<double>(footprint<Model>.adam_step_total) / 1e6);
    fmt::print(
        "{}: {} bytes, {} tokens ({:.2f} bytes per token), {} training sequences of {}, "
        "{} held out\n",
        a.text, text.size(), ids.size(), bytes_per_token, train_seqs.size(), l_max,
        held_seqs.size());
    fmt::print(
        "{} sequences per step; AdamW η = {:g} (warm-up {} steps, cosine to {:g}), "
        "λ = {:g}, clip {:g}, seed {}\n",
        opt.batch_size, opt.lr, opt.schedule.warmup_steps, opt.schedule.min_lr, opt.weight_decay,
        opt.clip_norm, opt.seed);
    if (!a.resume.empty())
        fmt::print("resuming {} at step {}{}{}\n", a.resume, st->step,
                   changes.empty() ? "" : " with ", fmt::join(changes, ", "));
    std::fflush(stdout);

    // ---- checkpoints: model.ckpt, then loss.csv and loss.svg describing it ----
    plot::series train_curve{"training loss (nats/token)", {}, {}};
    for (const auto& r : rows)
        train_curve.x.push_back(static_cast<double>(r.step)), train_curve.y.push_back(r.train_loss);
    std::uint64_t saved_step = st->step;  // nothing to save before a step of this run
    const auto start = clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
    std::uint64_t tokens = 0;
    auto save = [&] {
        if (st->step == saved_step)
            return;
        make_output_dir(a.out, "--out");  // again, if it went away during the run
        const std::string csv = loss_csv(rows);
        io::metadata extra = {{key_text, a.text},
                              {key_seconds, fmt::format("{:.3f}", seconds_before + elapsed())},
                              {key_tokens, std::to_string(tokens_before + tokens)},
                              {key_loss_csv, csv}};
        if (is_preset)
            extra.insert(extra.begin(), {{key_model, a.model}, {key_tokenizer, a.tokenizer}});
        io::save_checkpoint(ckpt, *model, *st, opt, tok.serialize(), extra);
        io::write_file(csv_path, csv);
        plot::series held_curve{"held-out loss (nats/token)", {}, {}};
        for (const auto& r : rows)
            held_curve.x.push_back(static_cast<double>(r.step)),
                held_curve.y.push_back(r.held_out_loss);
        const std::vector<plot::series> curves = {train_curve, held_curve};
        plot::write(
            svg_path,
            plot::line_svg(curves, {.title = fmt::format("{} on {}", Model::name,
                                                         fs::path(a.text).filename().string()),
                                    .x_label = "step",
                                    .y_label = "loss (nats per token)"}));
        saved_step = st->step;
    };

    auto iws = std::make_unique<inference_workspace<Model>>();
    double next_eval = 0, last_print = -1, ema = -1;
    auto evaluate = [&](std::uint64_t step) {
        const auto [sum, n] = held_out_loss(*model, held_seqs, *iws);
        const double per_token = sum / static_cast<double>(n);
        const double bpb = per_token / std::log(2.0) / bytes_per_token;
        rows.push_back(
            {step, seconds_before + elapsed(), tokens_before + tokens, ema, per_token, bpb});
        end_progress_line();
        fmt::print("step {:6d}  held-out loss {:.4f} nats/token, {:.3f} bits per byte\n", step,
                   per_token, bpb);
        std::fflush(stdout);
        return per_token;
    };
    const double budget = a.seconds > 0 ? a.seconds : 1e300;
    const std::uint64_t first_step = st->step;
    auto observer = [&](const step_report& r) {
        if (r.code != status::ok)
            return false;
        tokens += r.tokens;
        ema = ema < 0 ? r.loss : 0.9 * ema + 0.1 * r.loss;
        train_curve.x.push_back(static_cast<double>(r.step));
        train_curve.y.push_back(r.loss);
        const double t = elapsed();
        if (t >= next_eval) {
            evaluate(r.step);
            next_eval = t + a.eval_every;
            save();
        } else if (a.save_every > 0 && r.step % a.save_every == 0) {
            save();
        }
        const double tok_s = static_cast<double>(tokens) / std::max(t, 1e-9);
        const double frac = a.steps ? static_cast<double>(r.step - first_step) /
                                          static_cast<double>(a.steps - first_step)
                                    : t / budget;
        if (tty) {
            const int width = 30, done = static_cast<int>(std::min(frac, 1.0) * width);
            fmt::print("\r[{}{}] step {} loss {:.3f} lr {:.2e} {:.0f} tok/s ETA {:.0f}s\033[K",
                       std::string(static_cast<std::size_t>(done), '#'),
                       std::string(static_cast<std::size_t>(width - done), '.'), r.step, ema, r.lr,
                       tok_s, std::max(0.0, t / std::max(frac, 1e-9) - t));
            std::fflush(stdout);
            progress_open = true;
        } else if (t - last_print >= 5) {
            fmt::print("step {:6d}  loss {:.4f}  lr {:.2e}  {:.0f} tokens/s  {:.0f}s\n", r.step,
                       ema, r.lr, tok_s, t);
            std::fflush(stdout);
            last_print = t;
        }
        return interrupt_signal == 0 && (a.steps == 0 || r.step < a.steps) && t < budget;
    };
    // The cosine ends where this run ends: at --steps, or where the --seconds budget reaches at
    // the speed a few steps measure; with neither, η stays at its peak after the warm-up.
    auto fit_schedule = [&](double seconds_per_step) {
        std::uint64_t end = 0;
        if (a.steps)
            end = a.steps;
        else if (a.seconds > 0)
            end = st->step + static_cast<std::uint64_t>(std::max(
                                 0.0, (budget - elapsed()) / std::max(seconds_per_step, 1e-9)));
        opt.schedule.decay_steps = end == 0 ? 0
                                   : end > opt.schedule.warmup_steps
                                       ? end - opt.schedule.warmup_steps
                                       : 1;
    };
    catch_interrupts();
    status s = status::ok;
    if (interrupt_signal == 0) {
        std::size_t probe = 0;
        if (a.steps || a.seconds == 0) {
            fit_schedule(0);
        } else {
            s = DTraining(*model, train_seqs, opt, *st,
                          [&](const step_report& r) { return observer(r) && ++probe < 10; });
            fit_schedule(elapsed() / static_cast<double>(std::max<std::size_t>(probe, 1)));
        }
        if (s == status::ok && interrupt_signal == 0 && (a.steps == 0 || st->step < a.steps) &&
            elapsed() < budget)
            s = DTraining(*model, train_seqs, opt, *st, observer);
    }
    end_progress_line();
    if (interrupt_signal != 0) {
        save();
        fmt::print(stderr, "interrupted at step {}{}\n", st->step,
                   st->step > first_step ? fmt::format(": saved {}; continue with --resume {}",
                                                       ckpt.string(), ckpt.string())
                                         : std::string(" before a step was taken: nothing saved"));
        return interrupted_exit_code();
    }
    if (s != status::ok) {
        save();  // the last good step, if this run took one
        fmt::print(stderr, "typeformer-train: training stopped at step {}: {}{}\n", st->step,
                   status_message(s),
                   st->step > first_step
                       ? fmt::format(" (step {} is saved in {})", st->step, ckpt.string())
                       : std::string(" (nothing was saved)"));
        return exit_error;
    }
    double final_loss = rows.empty() ? 0 : rows.back().held_out_loss;
    if (rows.empty() || rows.back().step != st->step)
        final_loss = evaluate(st->step);
    save();
    fmt::print("{} steps, {} tokens in {:.1f}s ({:.0f} tokens/s); held-out loss {:.4f}\n", st->step,
               tokens, elapsed(), static_cast<double>(tokens) / std::max(elapsed(), 1e-9),
               final_loss);
    if (st->step > first_step)
        fmt::print("wrote {}, {}, {}\n", ckpt.string(), csv_path.string(), svg_path.string());

    // A sample: Algorithm 14 through the KV cache.
    if (a.sample_tokens == 0)
        return 0;
    auto cache = std::make_unique<kv_cache<Model>>();
    auto prompt = tok.encode(a.prompt);
    if (prompt.empty())
        prompt.push_back(0);
    if (prompt.size() > l_max / 2)
        prompt.erase(prompt.begin(), prompt.end() - static_cast<std::ptrdiff_t>(l_max / 2));
    rng gen(opt.seed);
    fmt::print("\n--- sample (tau {}, top-k {}) ---\n{}", a.tau, a.top_k, a.prompt);
    DInference(*model, *cache, prompt, a.sample_tokens,
               {.tau = a.tau, .top_k = a.top_k, .when_full = context_policy::sliding_window}, gen,
               [&](token t) {
                   fmt::print("{}", tok.piece(t));
                   return std::fflush(stdout) == 0 && interrupt_signal == 0;
               });
    fmt::print("\n---\n");
    return interrupt_signal != 0 ? interrupted_exit_code() : 0;
}

}  // namespace typeformer::tools
