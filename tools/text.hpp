// Reading a text corpus for the tools.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace typeformer::tools {

// The bytes of a file, or of every regular file in a folder (sorted by name).
inline std::string read_text(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    if (fs::is_directory(path)) {
        for (const auto& e : fs::directory_iterator(path))
            if (e.is_regular_file())
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
    } else if (fs::is_regular_file(path)) {
        files.push_back(path);
    } else {
        throw std::runtime_error("no such file or folder: " + path.string());
    }
    std::string text;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in)
            throw std::runtime_error("cannot read " + f.string());
        text.append(std::istreambuf_iterator<char>(in), {});
    }
    return text;
}

}  // namespace typeformer::tools
