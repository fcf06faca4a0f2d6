// Reading a text corpus for the tools.
#pragma once

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <typeformer/io/read_file.hpp>

namespace typeformer::tools {

// The bytes of a file, or of every regular file in a folder (sorted by name; what is not a
// regular file in it is skipped). A FIFO, a device or a missing path is refused at once
// (io::read_file never blocks), and so is a folder without files.
inline std::string read_text(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return io::read_file(path);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_regular_file(ec))
            files.push_back(e.path());
    if (ec)
        throw std::runtime_error("cannot read the folder " + path.string() + ": " + ec.message());
    if (files.empty())
        throw std::runtime_error("the folder " + path.string() + " holds no files");
    std::sort(files.begin(), files.end());
    std::string text;
    for (const auto& f : files)
        text += io::read_file(f);
    return text;
}

}  // namespace typeformer::tools
