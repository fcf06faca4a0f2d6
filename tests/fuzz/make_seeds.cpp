// Writes the seed corpora (corpus/<harness>/): a good weights file and a good checkpoint of
// fuzz::model, and a few tokenizer inputs. Built in the fuzz configuration as fuzz_make_seeds;
// run once from tests/fuzz when the model or the file formats change.
#include <filesystem>
#include <fstream>
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
    return 0;
}
