// What every tool does around its work: paths checked before anything is read or written, the
// progress line ended before an error is printed, stdout checked when the tool is done (a full
// disk or /dev/full is an error, not a silent loss), interrupts caught so a run can save first,
// and one line per error: "typeformer-train: <what>" (exit codes: cli.hpp).
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <system_error>

#include <unistd.h>

#include <typeformer/io/read_file.hpp>

#include "cli.hpp"

namespace typeformer::tools {

// A progress line without its newline is on stdout (typeformer-train's bar on a terminal).
inline bool progress_open = false;

inline void end_progress_line() {
    if (progress_open) {
        std::fputs("\n", stdout);
        std::fflush(stdout);
        progress_open = false;
    }
}

// ---- paths ----

// Two paths naming one file: the same inode when both exist, else the same normalised path.
inline bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec;
    if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec))
        return std::filesystem::equivalent(a, b, ec);
    return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

// A file to read: refused at once if it is missing or not a regular file (a FIFO is never
// opened, so nothing blocks).
inline void check_input_file(const std::string& path, const std::string& what) {
    if (const std::string p = io::file_kind_problem(path); !p.empty())
        throw std::runtime_error(what + " " + path + " " + p);
}

// A file to (re)write: its folder must exist, and what is at the path now must be a regular
// file or nothing; it must not be one of the inputs.
inline void check_output_file(const std::string& path, const std::string& what,
                              std::initializer_list<std::string> inputs = {}) {
    namespace fs = std::filesystem;
    const std::string p = io::file_kind_problem(path);
    if (!p.empty() && p != "does not exist")
        throw std::runtime_error(what + " " + path + " " + p);
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty())
        dir = ".";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error(what + " " + path + ": the folder " + dir.string() +
                                 " does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        throw std::runtime_error(what + " " + path + ": the folder " + dir.string() +
                                 " is not writable");
    for (const std::string& in : inputs)
        if (!in.empty() && same_file(path, in))
            throw std::runtime_error(what + " " + path + " is also an input: choose another path");
}

// An output folder: a folder or nothing yet (created on the first write), in a writable place.
inline void check_output_dir(const std::string& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (st.type() != fs::file_type::not_found) {
        if (st.type() == fs::file_type::regular)
            throw std::runtime_error(what + " " + path + " is a file, not a folder");
        if (st.type() != fs::file_type::directory)
            throw std::runtime_error(what + " " + path + " " + io::file_kind_problem(path) +
                                     " (a folder is expected)");
        if (::access(path.c_str(), W_OK) != 0)
            throw std::runtime_error(what + " " + path + " is not writable");
        return;
    }
    fs::path parent = fs::absolute(fs::path(path), ec).parent_path();
    while (!parent.empty() && !fs::exists(parent, ec))
        parent = parent.parent_path();
    if (parent.empty() || !fs::is_directory(parent, ec) || ::access(parent.c_str(), W_OK) != 0)
        throw std::runtime_error(what + " " + path + " cannot be created in " + parent.string());
}

// An output folder made (with its parents) once everything is checked, before the work starts,
// so that a folder that cannot be made stops the run at once, not at its first checkpoint.
inline void make_output_dir(const std::string& path, const std::string& what) {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec)
        throw std::runtime_error(what + " " + path + " cannot be created: " + ec.message());
}

// ---- interrupts ----

inline volatile std::sig_atomic_t interrupt_signal = 0;

extern "C" inline void typeformer_tools_on_interrupt(int sig) {
    interrupt_signal = sig;
    std::signal(sig, SIG_DFL);  // a second one ends the process at once
}

// SIGINT and SIGTERM set interrupt_signal; the work polls it and stops cleanly.
inline void catch_interrupts() {
    std::signal(SIGINT, typeformer_tools_on_interrupt);
    std::signal(SIGTERM, typeformer_tools_on_interrupt);
}

inline int interrupted_exit_code() {
    return 128 + static_cast<int>(interrupt_signal);
}

// ---- the tool's main ----

// Library messages name the library ("typeformer::io: cannot load 'x': …"); a tool's say what
// happened to the user's file.
inline std::string for_user(std::string message) {
    for (const std::string prefix : {"typeformer::io: ", "typeformer::io:"})
        if (message.rfind(prefix, 0) == 0)
            message.erase(0, prefix.size());
    return message;
}

// Runs body() → exit code; an exception becomes one line on stderr and exit 1; output that
// could not be written (a full disk, /dev/full, a closed pipe) is an error too.
template <class Body>
int run_tool(const char* tool, Body&& body) {
    int rc = 0;
    try {
        rc = body();
    } catch (const std::exception& e) {
        end_progress_line();
        std::fflush(stdout);
        std::fprintf(stderr, "%s: %s\n", tool, for_user(e.what()).c_str());
        return exit_error;
    }
    end_progress_line();
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int e = errno;
        std::fprintf(stderr, "%s: cannot write the output: %s\n", tool,
                     std::error_code(e ? e : EIO, std::generic_category()).message().c_str());
        return exit_error;
    }
    return rc;
}

}  // namespace typeformer::tools
