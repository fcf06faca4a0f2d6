// Host program run by the firmware build: trains the firmware's models and exports them with
// tf::io::export_header, as the headers the firmware programs hold in flash.
//
//   export_weights <text file> <output folder> [f405]
//
//   tiny_trained.hpp     tiny_trained<gpt>: the tiny GPT after Adam (lr 3e-3) over `steps`
//                        random 32-character windows of the text (the inference firmware)
//   tiny_trained_q8.hpp  tiny_trained_q8<q8<gpt>>: the same weights quantized to int8 here, on
//                        the host (the firmware's compiler quantizes nothing)
//   tiny_init.hpp        tiny_init<gpt>: tf::init(model, 1), the training firmware's starting
//                        point (initialised on the host: the device needs no double-precision
//                        sampler)
//   f405_q8.hpp          with `f405`: weights<q8<DTransformer<float, f405>>>, the largest int8
//                        GPT of the STM32F405 (grid.hpp), 500 Adam steps (lr 1e-3, ~4 s) on the
//                        text's bytes, exported as typeformer-export-header --q8 writes a
//                        checkpoint (gpt_generate)
//   finetune_base.hpp    with `f405`: base<DTransformer<float, gpt235k>>, the float GPT that
//                        gpt_finetune adapts on the device, 300 Adam steps (lr 1e-3) on the text's
//                        bytes
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/io/export_header.hpp>

#include "grid.hpp"
#include "tiny.hpp"

using firmware::gpt;
using firmware::tiny;
namespace tf = typeformer;

namespace {

// `steps` Adam steps of batch 1 over random l_max-token windows of data; returns false unless
// the loss per token fell by `by` nats from the first 50 steps to the last 50.
template <class Model>
bool train(Model& theta, const std::vector<tf::token>& data, int steps, float lr, double by,
           const char* name) {
    constexpr std::size_t l_max = Model::l_max::size;
    auto grads = std::make_unique<Model>();
    auto ws = std::make_unique<tf::training_workspace<Model>>();
    auto adam = std::make_unique<tf::adam_state<Model>>();
    tf::rng gen(7);
    double first = 0, last = 0;
    const int window = steps < 100 ? steps / 2 : 50;
    for (int step = 0; step < steps; ++step) {
        const std::size_t start =
            tf::prng::uniform_below(gen, static_cast<std::uint32_t>(data.size() - l_max));
        const std::span<const tf::token> x(data.data() + start, l_max);
        tf::zero(*grads);
        const float loss = tf::loss_and_grad(theta, x, *grads, *ws);
        tf::adam_step(theta, *grads, *adam, {.lr = lr});
        const double per_token = loss / (l_max - 1.0);
        if (step < window)
            first += per_token / window;
        if (step >= steps - window)
            last += per_token / window;
    }
    std::printf("export_weights: %s: loss per token %.3f (first %d steps) -> %.3f (last %d)\n",
                name, first, window, last, window);
    if (!(last < first - by)) {
        std::fprintf(stderr, "export_weights: training %s did not learn\n", name);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const bool f405 = argc == 4 && std::string(argv[3]) == "f405";
    if (argc != 3 && !f405) {
        std::fprintf(stderr, "usage: export_weights <text file> <output folder> [f405]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string text(std::istreambuf_iterator<char>(in), {});
    if (text.size() < 4 * tiny::l_max) {
        std::fprintf(stderr, "export_weights: %s holds too little text\n", argv[1]);
        return 1;
    }
    const std::filesystem::path out(argv[2]);

    // the tiny GPT over the 64-character alphabet
    std::vector<tf::token> chars(text.size());
    firmware::encode(text, chars);
    auto theta = std::make_unique<gpt>();
    tf::init(*theta, 1);
    tf::io::export_header(*theta, out / "tiny_init.hpp", "tiny_init");
    if (!train(*theta, chars, 1500, 3e-3f, 0.5, "tiny"))
        return 1;
    tf::io::export_header(*theta, out / "tiny_trained.hpp", "tiny_trained");
    auto q = std::make_unique<tf::q8<gpt>>();
    tf::quantize(*theta, *q);
    tf::io::export_header(*q, out / "tiny_trained_q8.hpp", "tiny_trained_q8");

    if (!f405)
        return 0;
    // the STM32F405's largest int8 GPT over bytes
    using big = tf::DTransformer<float, firmware::f405>;
    std::vector<tf::token> bytes(text.begin(), text.end());
    for (auto& b : bytes)
        b = static_cast<unsigned char>(b);
    auto large = std::make_unique<big>();
    tf::init(*large, 1);
    if (!train(*large, bytes, 500, 1e-3f, 0.5, "f405"))
        return 1;
    auto large_q8 = std::make_unique<tf::q8<big>>();
    tf::quantize(*large, *large_q8);
    tf::io::export_header(*large_q8, out / "f405_q8.hpp", "weights");

    // the base the device fine-tunes: bytes as tokens (N_V 256)
    using base = tf::DTransformer<float, firmware::gpt235k>;
    auto b = std::make_unique<base>();
    tf::init(*b, 2);
    if (!train(*b, bytes, 300, 1e-3f, 0.5, "gpt235k"))
        return 1;
    tf::io::export_header(*b, out / "finetune_base.hpp", "base");
    return 0;
}
