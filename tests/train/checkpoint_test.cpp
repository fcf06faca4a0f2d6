// io/checkpoint.hpp: a run stopped, saved, loaded into fresh objects and continued ends with the
// same bits as the run that never stopped; a bad or foreign checkpoint changes nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/io.hpp>
#include <typeformer/typeformer.hpp>

#include "models/model_support.hpp"
#include "train_config.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

using train::cfg;
struct other_cfg {  // same shapes, another ε: only the signature tells them apart
    static constexpr std::size_t N_V = 11, l_max = 7, L = 2, H = 2, d_e = 6, d_mlp = 8, d_attn = 3,
                                 d_mid = 4, d_f = 5;
    static constexpr double eps = 1e-6;
};

std::string temp_file(const std::string& name) {
    return (std::filesystem::path(TYPEFORMER_TEST_BINARY_DIR) / name).string();
}

std::vector<std::vector<tf::token>> corpus() {
    std::vector<std::vector<tf::token>> xs;
    for (std::size_t k = 0; k < 7; ++k)
        xs.push_back(random_tokens(2 + k % 5, cfg::N_V, 50 + k));
    return xs;
}

tf::training_options options() {
    tf::training_options o{.epochs = 3,
                           .batch_size = 2,
                           .lr = 0.01,
                           .weight_decay = 0.1,
                           .clip_norm = 0.7,
                           .schedule = {.warmup_steps = 2, .decay_steps = 8, .min_lr = 1e-3},
                           .reduction = tf::loss_reduction::mean_per_token,
                           .p_mask = 0.4,
                           .bert_replacement = true,
                           .seed = 9};
    return o;
}

template <class Model, class Train>
void expect_resume_is_bit_identical(Train train, const std::string& file) {
    const auto data = corpus();
    const auto opt = options();
    // straight through
    auto a = std::make_unique<Model>();
    tf::init(*a, 1);
    auto sa = std::make_unique<tf::training_state<Model>>();
    ASSERT_EQ(train(*a, data, opt, *sa, [](const tf::step_report&) { return true; }),
              tf::status::ok);
    ASSERT_EQ(sa->step, 12u);  // 4 steps per epoch (2 + 2 + 2 + 1 sequences)
    // stopped after 5 steps (mid-epoch), saved, loaded into fresh objects, continued
    auto b = std::make_unique<Model>();
    tf::init(*b, 1);
    auto sb = std::make_unique<tf::training_state<Model>>();
    int n = 0;
    ASSERT_EQ(train(*b, data, opt, *sb, [&](const tf::step_report&) { return ++n < 5; }),
              tf::status::ok);
    const std::string tokenizer("merges\n\x00\xff binary", 17);
    tf::save_checkpoint(file, *b, *sb, opt, tokenizer);
    auto c = std::make_unique<Model>();
    auto sc = std::make_unique<tf::training_state<Model>>();
    tf::training_options opt_c{};
    std::string tok_c;
    tf::load_checkpoint(file, *c, *sc, &opt_c, &tok_c);
    EXPECT_EQ(tok_c, tokenizer);
    EXPECT_EQ(opt_c.lr, opt.lr);
    EXPECT_EQ(opt_c.schedule.decay_steps, opt.schedule.decay_steps);
    EXPECT_EQ(opt_c.reduction, opt.reduction);
    EXPECT_TRUE(opt_c.bert_replacement);
    EXPECT_EQ(sc->step, 5u);
    ASSERT_EQ(train(*c, data, opt_c, *sc, [](const tf::step_report&) { return true; }),
              tf::status::ok);
    EXPECT_EQ(sc->step, sa->step);
    EXPECT_TRUE(tf::bit_equal(*c, *a));
    EXPECT_TRUE(tf::bit_equal(sc->adam.m, sa->adam.m));
    EXPECT_TRUE(tf::bit_equal(sc->adam.v, sa->adam.v));
    EXPECT_EQ(sc->gen, sa->gen);
    // and the stopped run really differs from the finished one (the test can fail)
    EXPECT_FALSE(tf::bit_equal(*b, *a));
}

TEST(Checkpoint, ResumingIsBitIdenticalToNotStopping) {
    expect_resume_is_bit_identical<tf::DTransformer<float, cfg>>(
        [](auto& m, const auto& d, const auto& o, auto& s, auto obs) {
            return tf::DTraining(m, d, o, s, obs);
        },
        temp_file("d.ckpt"));
    expect_resume_is_bit_identical<tf::ETransformer<float, cfg>>(
        [](auto& m, const auto& d, const auto& o, auto& s, auto obs) {
            return tf::ETraining(m, d, o, s, obs);
        },
        temp_file("e.ckpt"));
    expect_resume_is_bit_identical<tf::DTransformer<double, cfg>>(
        [](auto& m, const auto& d, const auto& o, auto& s, auto obs) {
            return tf::DTraining(m, d, o, s, obs);
        },
        temp_file("d64.ckpt"));
}

// A partial mode's run (DTraining(base, tr, …), train/dtraining.hpp): the checkpoint holds the
// trainable part and its Adam state, and resuming gives the same bits; a part of another mode,
// and a plain model, refuse it.
template <class S>
void expect_partial_resume_is_bit_identical(const std::string& file) {
    using M = tf::DTransformer<float, cfg>;
    using P = tf::trainable<M, S>;
    using St = tf::step_training_state<M, S>;
    const auto data = corpus();
    auto opt = options();
    opt.bert_replacement = false;
    auto base = std::make_unique<M>();
    tf::init(*base, 4);
    auto start = [&] {
        auto p = std::make_unique<P>();
        if constexpr (tf::is_lora<S>)
            tf::init_lora(*p, 5);
        else
            tf::trainable_from(*base, *p);
        return p;
    };
    auto all = [](const tf::step_report&) { return true; };
    auto a = start();
    auto sa = std::make_unique<St>();
    ASSERT_EQ(tf::DTraining(*base, *a, data, opt, *sa, all), tf::status::ok);
    ASSERT_EQ(sa->step, 12u);
    auto b = start();
    auto sb = std::make_unique<St>();
    int n = 0;
    ASSERT_EQ(
        tf::DTraining(*base, *b, data, opt, *sb, [&](const tf::step_report&) { return ++n < 5; }),
        tf::status::ok);
    tf::save_checkpoint(file, *b, *sb, opt);
    auto c = std::make_unique<P>();
    auto sc = std::make_unique<St>();
    tf::training_options opt_c{};
    tf::load_checkpoint(file, *c, *sc, &opt_c);
    EXPECT_EQ(sc->step, 5u);
    ASSERT_EQ(tf::DTraining(*base, *c, data, opt_c, *sc, all), tf::status::ok);
    EXPECT_TRUE(tf::bit_equal(*c, *a));
    EXPECT_TRUE(tf::bit_equal(sc->adam.m, sa->adam.m));
    EXPECT_TRUE(tf::bit_equal(sc->adam.v, sa->adam.v));
    EXPECT_FALSE(tf::bit_equal(*b, *a));
    // the part of another mode, or the model itself, does not load it and stays as it was
    using Q = tf::trainable<M, tf::train_last<1>>;
    auto q = std::make_unique<Q>();
    auto sq = std::make_unique<tf::step_training_state<M, tf::train_last<1>>>();
    const auto r = tf::io::try_load_checkpoint(file, *q, *sq);
    EXPECT_FALSE(r);
    EXPECT_NE(r.message.find(std::string("the checkpoint trains ") + S::name), std::string::npos)
        << r.message;
    EXPECT_TRUE(tf::bit_equal(*q, Q{}));
    auto m = std::make_unique<M>();
    auto sm = std::make_unique<tf::training_state<M>>();
    EXPECT_FALSE(tf::io::try_load_checkpoint(file, *m, *sm));
}

TEST(Checkpoint, PartialModesResumeBitIdentical) {
    expect_partial_resume_is_bit_identical<tf::train_gains_biases>(temp_file("gains.ckpt"));
    expect_partial_resume_is_bit_identical<
        tf::train_lora<2, tf::lora_target::W_q | tf::lora_target::W_o>>(temp_file("lora.ckpt"));
}

// train_all over a step workspace writes the model's own checkpoint: today's state reads it.
TEST(Checkpoint, StepWorkspaceRunsWriteTheModelsCheckpoint) {
    using M = tf::DTransformer<float, cfg>;
    const auto data = corpus();
    auto opt = options();
    opt.bert_replacement = false;
    auto m = std::make_unique<M>();
    tf::init(*m, 6);
    auto st = std::make_unique<tf::step_training_state<M>>();
    ASSERT_EQ(tf::DTraining(*m, data, opt, *st), tf::status::ok);
    const auto file = temp_file("step_all.ckpt");
    tf::save_checkpoint(file, *m, *st, opt);
    auto m2 = std::make_unique<M>();
    auto st2 = std::make_unique<tf::training_state<M>>();
    tf::load_checkpoint(file, *m2, *st2);
    EXPECT_TRUE(tf::bit_equal(*m2, *m));
    EXPECT_TRUE(tf::bit_equal(st2->adam.v, st->adam.v));
    EXPECT_EQ(st2->step, st->step);
}

TEST(Checkpoint, ForeignOrBrokenCheckpointsChangeNothing) {
    using M = tf::DTransformer<float, cfg>;
    using O = tf::DTransformer<float, other_cfg>;
    auto m = std::make_unique<M>();
    tf::init(*m, 2);
    auto st = std::make_unique<tf::training_state<M>>();
    const auto file = temp_file("m.ckpt");
    tf::save_checkpoint(file, *m, *st, options(), "tok");

    auto o = std::make_unique<O>();
    tf::init(*o, 3);
    const auto o0 = std::make_unique<O>(*o);
    auto ost = std::make_unique<tf::training_state<O>>();
    ost->step = 42;
    const auto r = tf::io::try_load_checkpoint(file, *o, *ost);
    EXPECT_FALSE(r);
    EXPECT_NE(r.message.find("the checkpoint is for DTransformer<f32>"), std::string::npos)
        << r.message;
    EXPECT_TRUE(tf::bit_equal(*o, *o0));
    EXPECT_EQ(ost->step, 42u);

    // a plain weights file is not a checkpoint
    auto m2 = std::make_unique<M>(*m);
    const auto weights = temp_file("w.safetensors");
    tf::save(*m2, weights);
    EXPECT_THROW(tf::load_checkpoint(weights, *m2, *st), tf::io::error);
    // truncated
    std::string bytes;
    {
        std::ifstream in(file, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto cut = temp_file("cut.ckpt");
    {
        std::ofstream out(cut, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
    }
    auto m3 = std::make_unique<M>();
    EXPECT_FALSE(tf::io::try_load_checkpoint(cut, *m3, *st));
    EXPECT_TRUE(tf::bit_equal(*m3, M{}));
}

}  // namespace
