// The plot of bench/README.md: tokens/s against model size, drawn with typeformer's own
// io/plot.hpp from the points bench/report_models.py --plot-data writes ("series<TAB>x<TAB>y"
// lines, x = log10 of the parameter count, y = tokens/s).
//
//   plot_models points.txt models.svg
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <typeformer/io/plot.hpp>

namespace plot = typeformer::plot;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: plot_models points.txt out.svg\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "plot_models: cannot read %s\n", argv[1]);
        return 1;
    }
    std::vector<plot::series> data;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name;
        double x = 0, y = 0;
        if (!std::getline(fields, name, '\t') || !(fields >> x >> y))
            continue;
        plot::series* s = nullptr;
        for (auto& d : data)
            if (d.name == name)
                s = &d;
        if (s == nullptr)
            s = &data.emplace_back(plot::series{name, {}, {}});
        s->x.push_back(x);
        s->y.push_back(y);
    }
    plot::write(argv[2], plot::line_svg(data, {.title = "bench_models: tokens/s against model size "
                                                        "(tiny, small, baby, gpt2; 2 threads)",
                                               .x_label = "log10(parameters)",
                                               .y_label = "tokens/s",
                                               .log_y = true}));
    return 0;
}
