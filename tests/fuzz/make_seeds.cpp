// Writes the seed corpora (corpus/<harness>/): a good weights file and a good checkpoint of
// fuzz::model, and a few tokenizer inputs. Built in the fuzz configuration as fuzz_make_seeds;
// run once from tests/fuzz when the model or the file formats change.
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <string>

#include <typeformer/io/checkpoint.hpp>
#include <typeformer/tokenize.hpp>

#include "fuzz_model.hpp"

int main() {
    namespace tf = typeformer;
    auto m = std::make_unique<fuzz::model>();
    tf::init(*m, 1);
    tf::io::save(*m, "corpus/safetensors/good.safetensors");
    auto st = std::make_unique<tf::training_state<fuzz::model>>();
    st->step = 3;
    tf::io::save_checkpoint("corpus/checkpoint/good.ckpt", *m, *st, tf::training_options{}, "tok");
    auto put = [](const std::string& path, const std::string& bytes) {
        std::ofstream(path, std::ios::binary) << bytes;
    };
    // byte 0 selects the target (tokenize_fuzz.cpp)
    put("corpus/tokenize/byte_level", std::string(1, '\0') + "hello, world\n\xff\xfe");
    const auto b = tf::tokenize::bpe::train("the quick brown fox jumps over the lazy dog", 8);
    put("corpus/tokenize/bpe_merges", std::string(1, '\1') + b.serialize());
    put("corpus/tokenize/gpt2_files", std::string(1, '\2') +
                                          R"({"a":0,"b":1,"ab":2,"<|endoftext|>":3})" +
                                          std::string(1, '\0') + "#version: 0.2\na b\n");
    put("corpus/tokenize/round_trip", std::string(1, '\3') + "The lazy dog's 12 naps, 日本語!");
    put("corpus/tokenize/gpt2_merges",
        std::string(1, '\4') + "t h\nth e\n\u0120 t\n\u0120t he\r\ne r\n\u0120 the\n");
    put("corpus/tokenize/characters", std::string(1, '\5') +
                                          R"(["\n", " ", "!", "R", "e", "m", "o", "é", "\u00c0"])" +
                                          std::string(1, '\0') + "Roméo!\nÀ");
    // cli_fuzz.cpp: byte 0 selects the tool (6: token ids), then its arguments split at NUL
    std::filesystem::create_directories("corpus/cli");
    auto args = [&](const std::string& name, char tool, std::initializer_list<std::string> a) {
        std::string s(1, tool);
        for (const auto& x : a)
            s += x + std::string(1, '\0');
        s.pop_back();
        put("corpus/cli/" + name, s);
    };
    args("train", 0,
         {"/usr/share/common-licenses/GPL-3", "--model", "tiny", "--steps", "60", "--lr", "3e-3",
          "--batch", "8", "--seconds", "0", "--seed", "-1"});
    args("train_bad", 0, {"--lr", "nan", "--weight-decay", "-1", "--batch", "+0x10"});
    args("generate", 1,
         {"run/model.ckpt", "-n", "-1", "--top-k", "40", "--top-p", "0.9", "--tau", "1e-39", "-s",
          "18446744073709551615", "--no-window"});
    args("tokenize", 2, {"train", "--corpus", "c.txt", "--merges", "100", "--out", "m.bpe"});
    args("tokenize_gpt2", 2, {"--gpt2-vocab", "encoder.json", "--gpt2-merges", "vocab.bpe", "-d"});
    args("attention", 3, {"--seed", "5", "--model", "small", "-p", "The ", "-o", "a.svg"});
    args("export_header", 4, {"run/model.ckpt", "-o", "w.hpp", "--name", "_tiny_weights2"});
    args("help", 4, {"--help"});
    args("inspect", 5, {"model.safetensors", "--config", "config.json"});
    put("corpus/cli/ids", std::string(1, '\6') + std::string("\x11\xc4\0\0", 4) +
                              "15496 995\r\n 0 00000000000050256\t50257 18446744073709551616");
    return 0;
}
