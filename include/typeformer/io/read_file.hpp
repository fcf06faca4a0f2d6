// Reading a whole input file without ever blocking on something that is not a file: the path is
// opened non-blocking and checked with fstat before a byte is read, so a FIFO, a directory or a
// device given where a file is expected is refused at once, with what it is.
//
//   file_kind_problem(path)   "" for a regular file (or a symlink to one), else what it is:
//                             "is a directory", "is a named pipe (FIFO)", "does not exist", …
//   read_file(path)           its bytes; std::runtime_error "cannot read <path>: <problem>"
//   open_regular_file(path, problem)   a std::FILE* to read it with (fclose it), or nullptr and
//                             `problem`: the OS's reason (missing, no permission) or what it is
//                             when it is no regular file; for readers that take the file piece by
//                             piece (safetensors' try_load reads the header before the data)
//
// Host only (POSIX open/fstat where there are; elsewhere std::filesystem's status first).
#pragma once

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "../config.hpp"

#if __has_include(<unistd.h>) && __has_include(<fcntl.h>) && __has_include(<sys/stat.h>)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define TYPEFORMER_READ_FILE_POSIX 1
#else
#define TYPEFORMER_READ_FILE_POSIX 0
#endif

namespace typeformer::io {

namespace detail {

inline std::string kind_problem(std::filesystem::file_type t) {
    using ft = std::filesystem::file_type;
    switch (t) {
        case ft::regular:
            return {};
        case ft::directory:
            return "is a directory, not a file";
        case ft::fifo:
            return "is a named pipe (FIFO), not a file";
        case ft::character:
            return "is a character device, not a file";
        case ft::block:
            return "is a block device, not a file";
        case ft::socket:
            return "is a socket, not a file";
        case ft::not_found:
            return "does not exist";
        default:
            return "is not a regular file";
    }
}

}  // namespace detail

inline std::string file_kind_problem(const std::filesystem::path& path) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);  // follows symlinks
    if (ec && st.type() != std::filesystem::file_type::not_found)
        return "cannot be read: " + ec.message();
    return detail::kind_problem(st.type());
}

namespace detail {

#if TYPEFORMER_READ_FILE_POSIX
inline std::filesystem::file_type kind_of(const struct ::stat& st) {
    using ft = std::filesystem::file_type;
    return S_ISREG(st.st_mode)    ? ft::regular
           : S_ISDIR(st.st_mode)  ? ft::directory
           : S_ISFIFO(st.st_mode) ? ft::fifo
           : S_ISCHR(st.st_mode)  ? ft::character
           : S_ISBLK(st.st_mode)  ? ft::block
           : S_ISSOCK(st.st_mode) ? ft::socket
                                  : ft::unknown;
}
#endif

}  // namespace detail

inline std::FILE* open_regular_file(const std::filesystem::path& path, std::string& problem) {
#if TYPEFORMER_READ_FILE_POSIX
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        problem = std::error_code(errno, std::generic_category()).message();
        return nullptr;
    }
    struct ::stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        problem = detail::kind_problem(detail::kind_of(st));
        ::close(fd);
        return nullptr;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // reads block as usual
    std::FILE* f = ::fdopen(fd, "rb");
    if (!f) {
        problem = std::error_code(errno, std::generic_category()).message();
        ::close(fd);
    }
    return f;
#else
    if (const std::string p = file_kind_problem(path); !p.empty() && p != "does not exist") {
        problem = p;
        return nullptr;
    }
    std::FILE* f = std::fopen(path.string().c_str(), "rb");
    if (!f)
        problem = std::error_code(errno, std::generic_category()).message();
    return f;
#endif
}

#if TYPEFORMER_HAS_EXCEPTIONS  // (safetensors.hpp, which uses open_regular_file, builds without)
inline std::string read_file(const std::filesystem::path& path) {
    auto fail = [&](const std::string& why) -> std::runtime_error {
        return std::runtime_error("cannot read " + path.string() + ": " + why);
    };
#if TYPEFORMER_READ_FILE_POSIX
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        if (e == ENOENT)
            throw fail("does not exist");
        throw fail(std::error_code(e, std::generic_category()).message());
    }
    struct ::stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw fail(detail::kind_problem(detail::kind_of(st)));
    }
    std::string out(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    for (;;) {
        if (got == out.size())
            out.resize(out.size() + 4096);  // the file grew: read on
        const ::ssize_t n = ::read(fd, out.data() + got, out.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            throw fail(std::error_code(e, std::generic_category()).message());
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    out.resize(got);
    return out;
#else
    if (const std::string p = file_kind_problem(path); !p.empty())
        throw fail(p);
    std::FILE* f = std::fopen(path.string().c_str(), "rb");
    if (!f)
        throw fail(std::error_code(errno, std::generic_category()).message());
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
        out.append(buf, n);
    const bool bad = std::ferror(f) != 0;
    std::fclose(f);
    if (bad)
        throw fail("read error");
    return out;
#endif
}
#endif

}  // namespace typeformer::io
