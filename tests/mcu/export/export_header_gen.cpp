// Writes the export round trip's headers with tf::io::export_header (export/models.hpp):
//
//   export_header_gen <output folder>
//
// each model initialised with its own seed (the int8 ones quantized from the float ones);
// export_header_test includes the headers and compares their objects with the same models built
// again in memory.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>

#include <typeformer/io/export_header.hpp>

#include "models.hpp"

using namespace roundtrip;

template <class Model>
std::unique_ptr<Model> made(std::uint64_t seed) {
    auto m = std::make_unique<Model>();
    tf::init(*m, seed);
    return m;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: export_header_gen <output folder>\n");
        return 2;
    }
    const std::filesystem::path out(argv[1]);
    try {
        tf::io::export_header(*made<d_plain>(1), out / "d_plain.hpp", "d_plain_weights");
        tf::io::export_header(*made<d_variants>(2), out / "d_variants.hpp", "d_variants_weights");
        tf::io::export_header(*made<d_double>(3), out / "d_double.hpp", "d_double_weights");
        tf::io::export_header(*made<e_plain>(4), out / "e_plain.hpp", "e_plain_weights");
        tf::io::export_header(*made<ed_variants>(5), out / "ed_variants.hpp",
                              "ed_variants_weights");
        auto q = std::make_unique<q8_plain>();
        tf::quantize(*made<d_plain>(1), *q);
        tf::io::export_header(*q, out / "q8_plain.hpp", "q8_plain_weights");
        auto qv = std::make_unique<q8_variants>();
        tf::quantize(*made<d_variants>(2), *qv);
        tf::io::export_header(*qv, out / "q8_variants.hpp", "q8_variants_weights");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "export_header_gen: %s\n", e.what());
        return 1;
    }
    return 0;
}
