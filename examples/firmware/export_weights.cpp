// Host program run by the firmware build: trains the tiny GPT on a small text and exports two
// headers with tf::io::export_header, the weights the firmware programs hold in flash.
//
//   export_weights <text file> <trained.hpp> <init.hpp>
//
//   trained.hpp   tiny_trained<gpt>: Adam (lr 3e-3) over `steps` random 32-character windows
//                 of the text (the inference firmware's weights)
//   init.hpp      tiny_init<gpt>: tf::init(model, 1), the training firmware's starting point
//                 (initialised on the host: the device needs no double-precision sampler)
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/io/export_header.hpp>

#include "tiny.hpp"

using firmware::gpt;
using firmware::tiny;
namespace tf = typeformer;

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: export_weights <text file> <trained.hpp> <init.hpp>\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string text(std::istreambuf_iterator<char>(in), {});
    if (text.size() < 4 * tiny::l_max) {
        std::fprintf(stderr, "export_weights: %s holds too little text\n", argv[1]);
        return 1;
    }
    std::vector<tf::token> data(text.size());
    firmware::encode(text, data);

    auto theta = std::make_unique<gpt>();
    auto grads = std::make_unique<gpt>();
    auto ws = std::make_unique<tf::training_workspace<gpt>>();
    auto adam = std::make_unique<tf::adam_state<gpt>>();
    tf::init(*theta, 1);
    tf::io::export_header(*theta, argv[3], "tiny_init");

    constexpr int steps = 1500;
    tf::rng gen(7);
    double first = 0, last = 0;
    for (int step = 0; step < steps; ++step) {
        const std::size_t start =
            tf::prng::uniform_below(gen, static_cast<std::uint32_t>(data.size() - tiny::l_max));
        const std::span<const tf::token> x(data.data() + start, tiny::l_max);
        tf::zero(*grads);
        const float loss = tf::loss_and_grad(*theta, x, *grads, *ws);
        tf::adam_step(*theta, *grads, *adam, {.lr = 3e-3});
        const double per_token = loss / (tiny::l_max - 1.0);
        if (step < 50)
            first += per_token / 50;
        if (step >= steps - 50)
            last += per_token / 50;
    }
    std::printf("export_weights: loss per token %.3f (first 50 steps) -> %.3f (last 50)\n", first,
                last);
    if (!(last < first - 0.5)) {
        std::fprintf(stderr, "export_weights: training did not learn\n");
        return 1;
    }
    tf::io::export_header(*theta, argv[2], "tiny_trained");
    return 0;
}
