// Training checkpoints: everything a run needs to continue as if it had not stopped.
//
//   save_checkpoint(path, model, state, options[, tokenizer])     atomic (safetensors' writer)
//   load_checkpoint(path, model, state[, &options, &tokenizer])   all-or-nothing
//   try_save_checkpoint / try_load_checkpoint                      the same without exceptions
//
// One safetensors file (F64 when the model is double, else F32, so a float run resumes bit for
// bit): the tensors `model.<name>`, `adam_m.<name>`, `adam_v.<name>` (docs/weights.md's names)
// and, in "__metadata__", the model's type (signature.hpp's "typeformer.*" entries: architecture,
// scalar, every dimension and variant — a checkpoint loads only into the same type, and a refusal
// names the first field that differs; a checkpoint of before them carries "typeformer.model",
// read the same way), the counters (step, epoch,
// position in the epoch and its order, Adam's t), the generator's state, the training options
// (so the schedule continues) and an opaque tokenizer string (base64; e.g. tokenize::bpe's
// serialize()). Resuming from it gives bit-identical parameters to not stopping (tests/io).
//
// A partial mode's run (train/dtraining.hpp's step_training_state, DTraining(base, tr, …)) saves
// the same way with its trainable part in place of the model: `model.*` are tr's tensors
// (`model.layers.0.attn.W_q.A`), Adam's moments have tr's type, the "typeformer.*" signature is
// the base model's, and "typeformer.trains" names the part ("lora r=4 targets=5 alpha=4",
// "gains_biases", "last k=2"), so a part of another mode or model does not load. The frozen base
// is not in it: it comes from its own weights (a file, or constexpr data in flash).
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <boost/hana/define_struct.hpp>

#include "../train/dtraining.hpp"  // step_training_state
#include "../train/trainable.hpp"
#include "../train/training.hpp"
#include "safetensors.hpp"

namespace typeformer::io {

namespace detail {

// The tensors of a checkpoint, named model.*, adam_m.*, adam_v.* by the generic walk.
template <class Model>
struct checkpoint_tensors {
    BOOST_HANA_DEFINE_STRUCT(checkpoint_tensors, (Model, model), (Model, adam_m), (Model, adam_v));
};

// "DTransformer<f32> N_V=65 l_max=256 L=6 …": the type as one line (signature.hpp's legacy_text),
// as the tools print and compare it and exported headers carry it.
template <class Model>
std::string model_signature() {
    return legacy_text(signature_of<Model>());
}

// The model whose signature a checkpoint of Params carries: Params, or the model of a part.
template <class Params>
struct model_signed_for {
    using type = Params;
};
template <class Params>
    requires is_trainable_part<Params>
struct model_signed_for<Params> {
    using type = typename Params::model_type;
};

// "typeformer.trains": what a checkpoint's part trains ("" for a whole model, which has none).
template <class Params>
std::string trains_text() {
    if constexpr (is_trainable_part<Params>) {
        using S = selection_of<Params>;
        std::string s = S::name;
        if constexpr (requires { S::k; })
            s += fmt::format(" k={}", S::k);
        if constexpr (is_lora<S>)
            s += fmt::format(" r={} targets={} alpha={}", S::rank,
                             static_cast<unsigned>(S::targets), S::alpha);
        return s;
    } else {
        return {};
    }
}

// A training state whose gradient (and Adam's moments) have Params' type: training_state<Model>,
// or train/dtraining.hpp's step_training_state (a trainable part's).
template <class State, class Params>
concept training_state_for =
    std::is_same_v<std::remove_cvref_t<decltype(std::declval<State&>().grads)>, Params> &&
    std::is_base_of_v<training_progress, State> && requires(State& st) {
    st.adam.m;
    st.adam.v;
    st.adam.step;
};

inline constexpr char base64_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

inline std::string base64_encode(std::string_view in) {
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char ch : in) {
        acc = (acc << 8) | static_cast<unsigned char>(ch);
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += base64_chars[(acc >> bits) & 63];
        }
    }
    if (bits > 0)
        out += base64_chars[(acc << (6 - bits)) & 63];
    while (out.size() % 4 != 0)
        out += '=';
    return out;
}

inline bool base64_decode(std::string_view in, std::string& out) {
    out.clear();
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char ch : in) {
        if (ch == '=')
            break;
        const char* p = std::char_traits<char>::find(base64_chars, 64, ch);
        if (!p)
            return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(p - base64_chars);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return true;
}

inline std::string number(double v) {
    return fmt::format("{:.17g}", v);
}
inline std::string number(std::uint64_t v) {
    return fmt::format("{}", v);
}

// Reads a metadata value written by number(); false if absent or malformed.
template <class V>
bool read_number(const std::map<std::string, std::string>& md, const std::string& key, V& v) {
    const auto it = md.find(key);
    if (it == md.end())
        return false;
    const char* first = it->second.data();
    const char* last = first + it->second.size();
    if constexpr (std::is_floating_point_v<V>) {
        char* end = nullptr;
        const std::string s(first, last);
        v = std::strtod(s.c_str(), &end);
        return end == s.c_str() + s.size() && !s.empty();
    } else {
        const auto [p, ec] = std::from_chars(first, last, v);
        return ec == std::errc{} && p == last;
    }
}

}  // namespace detail

// `extra`: more "__metadata__" pairs, the caller's (typeformer-train's keys; read back with
// try_read_metadata).
template <class Model, detail::training_state_for<Model> State>
result try_save_checkpoint(const std::filesystem::path& path, const Model& model, const State& st,
                           const training_options& opt, std::string_view tokenizer = {},
                           const metadata& extra = {}) {
    auto t = std::make_unique<detail::checkpoint_tensors<Model>>();
    copy_params(model, t->model);
    copy_params(st.adam.m, t->adam_m);
    copy_params(st.adam.v, t->adam_v);
    const auto g = st.gen.state();
    using detail::number;
    metadata md = {
        {"typeformer.checkpoint", "1"},
        {"step", number(st.step)},
        {"epoch", number(st.epoch)},
        {"next", number(st.next)},
        {"order_a", number(st.order_a)},
        {"order_b", number(st.order_b)},
        {"started", st.started ? "1" : "0"},
        {"adam_step", number(st.adam.step)},
        {"rng", fmt::format("{},{},{},{}", g[0], g[1], g[2], g[3])},
        {"opt.epochs", number(std::uint64_t{opt.epochs})},
        {"opt.batch_size", number(std::uint64_t{opt.batch_size})},
        {"opt.method", opt.method == optimizer::sgd ? "sgd" : "adamw"},
        {"opt.lr", number(opt.lr)},
        {"opt.beta1", number(opt.beta1)},
        {"opt.beta2", number(opt.beta2)},
        {"opt.eps", number(opt.eps)},
        {"opt.weight_decay", number(opt.weight_decay)},
        {"opt.decay_gains_and_biases", opt.decay_gains_and_biases ? "1" : "0"},
        {"opt.clip_norm", number(opt.clip_norm)},
        {"opt.warmup_steps", number(opt.schedule.warmup_steps)},
        {"opt.decay_steps", number(opt.schedule.decay_steps)},
        {"opt.min_lr", number(opt.schedule.min_lr)},
        {"opt.reduction", number(std::uint64_t(static_cast<int>(opt.reduction)))},
        {"opt.p_mask", number(opt.p_mask)},
        {"opt.bert_replacement", opt.bert_replacement ? "1" : "0"},
        {"opt.shuffle", opt.shuffle ? "1" : "0"},
        {"opt.seed", number(opt.seed)},
        {"tokenizer", detail::base64_encode(tokenizer)},
    };
    write_signature(signature_of<typename detail::model_signed_for<Model>::type>(), md);
    if (const std::string trains = detail::trains_text<Model>(); !trains.empty())
        md.emplace_back("typeformer.trains", trains);
    md.insert(md.end(), extra.begin(), extra.end());
    constexpr dtype dt = sizeof(typename Model::value_type) == 8 ? dtype::f64 : dtype::f32;
    return try_save(*t, path, dt, md);
}

// On any error (unreadable, malformed, another model type, a bad metadata field) the model, the
// state, the options and the tokenizer are unchanged.
template <class Model, detail::training_state_for<Model> State>
result try_load_checkpoint(const std::filesystem::path& path, Model& model, State& st,
                           training_options* opt = nullptr, std::string* tokenizer = nullptr) {
    const std::string src = detail::printable(path.string());
    auto bad = [&](const std::string& what) {
        return detail::make_error(status::malformed_header, src, what);
    };
    // The model type first (from the header alone): a checkpoint of another type is named as
    // such, not as a list of the tensors whose shapes differ.
    metadata md_list;
    if (auto r = try_read_metadata(path, md_list); !r)
        return r;
    signature file;
    if (const auto r = read_signature(md_list, file); !r.ok)
        return bad(r.problem);
    const auto is_checkpoint = [&] {
        for (const auto& [k, v] : md_list)
            if (k == "typeformer.checkpoint")
                return true;
        return false;
    };
    if (!is_checkpoint())
        return bad("not a training checkpoint (no \"typeformer.checkpoint\" in __metadata__)");
    if (file.empty())
        return bad(
            "the checkpoint names no model type (no typeformer.architecture in __metadata__)");
    const signature expected = signature_of<typename detail::model_signed_for<Model>::type>();
    if (const std::string d = first_difference(file, expected, true); !d.empty())
        return detail::make_error(status::signature_mismatch, src,
                                  fmt::format("another model type, {}: the checkpoint is for {}, "
                                              "the model is {}",
                                              d, describe(file), describe(expected)));
    std::string file_trains;
    for (const auto& [k, v] : md_list)
        if (k == "typeformer.trains")
            file_trains = v;
    if (const std::string trains = detail::trains_text<Model>(); file_trains != trains)
        return detail::make_error(
            status::signature_mismatch, src,
            fmt::format("another trainable part: the checkpoint trains {}, this part {}",
                        file_trains.empty() ? "every parameter" : file_trains,
                        trains.empty() ? "every parameter" : trains));
    auto t = std::make_unique<detail::checkpoint_tensors<Model>>();
    if (auto r = try_load(*t, path, &md_list); !r)
        return r;
    const std::map<std::string, std::string> md(md_list.begin(), md_list.end());
    auto* target = &st;
    std::uint64_t step = 0, epoch = 0, next = 0, a = 0, b = 0, adam_step = 0;
    std::array<std::uint64_t, 4> g{};
    bool ok = detail::read_number(md, "step", step) && detail::read_number(md, "epoch", epoch) &&
              detail::read_number(md, "next", next) && detail::read_number(md, "order_a", a) &&
              detail::read_number(md, "order_b", b) &&
              detail::read_number(md, "adam_step", adam_step);
    if (ok && md.count("rng")) {
        const std::string& s = md.at("rng");
        std::size_t start = 0;
        for (std::size_t i = 0; i < 4 && ok; ++i) {
            const std::size_t end = i < 3 ? s.find(',', start) : s.size();
            ok = end != std::string::npos &&
                 std::from_chars(s.data() + start, s.data() + end, g[i]).ptr == s.data() + end;
            start = end + 1;
        }
    } else {
        ok = false;
    }
    training_options o{};
    if (opt) {
        std::uint64_t epochs = 0, batch = 0, reduction = 0;
        ok = ok && detail::read_number(md, "opt.epochs", epochs) &&
             detail::read_number(md, "opt.batch_size", batch) &&
             detail::read_number(md, "opt.lr", o.lr) &&
             detail::read_number(md, "opt.beta1", o.beta1) &&
             detail::read_number(md, "opt.beta2", o.beta2) &&
             detail::read_number(md, "opt.eps", o.eps) &&
             detail::read_number(md, "opt.weight_decay", o.weight_decay) &&
             detail::read_number(md, "opt.clip_norm", o.clip_norm) &&
             detail::read_number(md, "opt.warmup_steps", o.schedule.warmup_steps) &&
             detail::read_number(md, "opt.decay_steps", o.schedule.decay_steps) &&
             detail::read_number(md, "opt.min_lr", o.schedule.min_lr) &&
             detail::read_number(md, "opt.reduction", reduction) &&
             detail::read_number(md, "opt.p_mask", o.p_mask) &&
             detail::read_number(md, "opt.seed", o.seed) && reduction <= 2;
        o.epochs = static_cast<std::size_t>(epochs);
        o.batch_size = static_cast<std::size_t>(batch);
        o.reduction = static_cast<loss_reduction>(reduction);
        auto flag = [&](const char* key) { return md.count(key) && md.at(key) == "1"; };
        o.method = md.count("opt.method") && md.at("opt.method") == "sgd" ? optimizer::sgd
                                                                          : optimizer::adamw;
        o.decay_gains_and_biases = flag("opt.decay_gains_and_biases");
        o.bert_replacement = flag("opt.bert_replacement");
        o.shuffle = flag("opt.shuffle");
    }
    std::string tok;
    if (ok && tokenizer)
        ok = md.count("tokenizer") && detail::base64_decode(md.at("tokenizer"), tok);
    if (!ok)
        return bad("a training-state field in __metadata__ is missing or malformed");
    // Everything read: commit.
    copy_params(t->model, model);
    copy_params(t->adam_m, target->adam.m);
    copy_params(t->adam_v, target->adam.v);
    target->adam.step = adam_step;
    target->step = step;
    target->epoch = epoch;
    target->next = next;
    target->order_a = a;
    target->order_b = b;
    target->started = md.count("started") && md.at("started") == "1";
    target->gen.set_state(g);
    if (opt)
        *opt = o;
    if (tokenizer)
        *tokenizer = std::move(tok);
    return {};
}

// The model type a file's metadata names, as model_signature's one line: from its signature,
// or an old checkpoint's "typeformer.model" line as it is (even one that is no signature); ""
// when it names none.
inline std::string model_type(const metadata& md) {
    signature sig;
    if (const auto r = read_signature(md, sig); r.ok)
        return sig.empty() ? std::string{} : legacy_text(sig);
    for (const auto& [k, v] : md)
        if (k == "typeformer.model")
            return v;
    return {};
}

// The model type a checkpoint holds (model_type), to choose the type to load: `type` is "" for a
// readable weights file that names no model; the result is the reader's error when the file
// cannot be read (missing, truncated, not safetensors), and `type` is then left as it was.
inline result try_checkpoint_model(const std::filesystem::path& path, std::string& type) {
    metadata md;
    if (auto r = try_read_metadata(path, md); !r)
        return r;
    type = model_type(md);
    return {};
}

// The same, "" for any file that is not a readable checkpoint (the reason is dropped).
inline std::string checkpoint_model(const std::filesystem::path& path) {
    std::string type;
    return try_checkpoint_model(path, type) ? type : std::string{};
}

// Only the parameters (and the tokenizer) of a checkpoint, for inference: all-or-nothing.
template <class Model>
    requires param_struct<Model> result try_load_checkpoint_model(
        const std::filesystem::path& path, Model& model, std::string* tokenizer = nullptr) {
        auto st = std::make_unique<training_state<Model>>();
        auto copy = std::make_unique<Model>();
        if (auto r = try_load_checkpoint(path, *copy, *st, nullptr, tokenizer); !r)
            return r;
        copy_params(*copy, model);
        return {};
    }

#if TYPEFORMER_HAS_EXCEPTIONS
template <class Model, detail::training_state_for<Model> State>
void save_checkpoint(const std::filesystem::path& path, const Model& model, const State& st,
                     const training_options& opt, std::string_view tokenizer = {},
                     const metadata& extra = {}) {
    if (auto r = try_save_checkpoint(path, model, st, opt, tokenizer, extra); !r)
        throw error(r.code, r.message);
}

template <class Model, detail::training_state_for<Model> State>
void load_checkpoint(const std::filesystem::path& path, Model& model, State& st,
                     training_options* opt = nullptr, std::string* tokenizer = nullptr) {
    if (auto r = try_load_checkpoint(path, model, st, opt, tokenizer); !r)
        throw error(r.code, r.message);
}
#endif

// ---- a call of no form above: not a model, or a state of another model (shape_error.hpp) ----

namespace detail {
// St is a training state of Model (training_state<Model, Threads>, or a step_training_state whose
// gradient has Model's type: the model, or the trainable part it trains).
template <class Model, class St>
concept checkpoint_operands = ::typeformer::param_struct<Model> &&
    training_state_for<std::remove_cvref_t<St>, std::remove_cvref_t<Model>>;
template <class Model, class St>
constexpr auto checkpoint_error() {
    using M = std::remove_cvref_t<Model>;
    using S = std::remove_cvref_t<St>;
    using B = ::typeformer::detail::belongs_to<S>;
    auto kind = [] {  // not a training state at all: Adam's alone, a workspace, ...
        if constexpr (requires { typename B::model; })
            return ::typeformer::detail::what<typename B::template role<typename B::model>,
                                              needed<training_state<M>>>{};
        else
            return ::typeformer::detail::what<arguments<S>, needed<training_state<M>>>{};
    };
    return ::typeformer::detail::first_error(::typeformer::detail::check_parameters<Model>(),
                                             ::typeformer::detail::check_belongs<M, St>(), kind());
}
}  // namespace detail
// (save's options are spelled out: a braced {...} argument deduces nothing in a pack)
template <class Model, class St, class... A>
    requires(!detail::checkpoint_operands<Model, St>)
auto try_save_checkpoint(const std::filesystem::path& path, Model&& model, St&& st,
                         const training_options& opt, A&&... args)
    -> decltype(::typeformer::detail::shape_error_of<in::try_save_checkpoint>(
        detail::checkpoint_error<Model, St>()));
template <class Model, class St, class... A>
    requires(!detail::checkpoint_operands<Model, St>)
auto try_load_checkpoint(const std::filesystem::path& path, Model&& model, St&& st, A&&... args)
    -> decltype(::typeformer::detail::shape_error_of<in::try_load_checkpoint>(
        detail::checkpoint_error<Model, St>()));
#if TYPEFORMER_HAS_EXCEPTIONS
template <class Model, class St, class... A>
    requires(!detail::checkpoint_operands<Model, St>)
auto save_checkpoint(const std::filesystem::path& path, Model&& model, St&& st,
                     const training_options& opt, A&&... args)
    -> decltype(::typeformer::detail::shape_error_of<in::save_checkpoint>(
        detail::checkpoint_error<Model, St>()));
template <class Model, class St, class... A>
    requires(!detail::checkpoint_operands<Model, St>)
auto load_checkpoint(const std::filesystem::path& path, Model&& model, St&& st, A&&... args)
    -> decltype(::typeformer::detail::shape_error_of<in::load_checkpoint>(
        detail::checkpoint_error<Model, St>()));
#endif
template <class Model, class... A>
    requires(!::typeformer::param_struct<Model>)
auto try_load_checkpoint_model(const std::filesystem::path& path, Model&& model, A&&... args)
    -> decltype(::typeformer::detail::shape_error_of<in::try_load_checkpoint_model>(
        ::typeformer::detail::check_parameters<Model>()));

}  // namespace typeformer::io

namespace typeformer {
#if TYPEFORMER_HAS_EXCEPTIONS
using io::load_checkpoint;
using io::save_checkpoint;
#endif
}  // namespace typeformer
