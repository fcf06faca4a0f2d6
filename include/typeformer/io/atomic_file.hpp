// Writing a file so that a reader, a crash or a full disk never sees half of it: the one path
// every file typeformer writes takes (safetensors and checkpoints, BPE merges, plots, headers,
// the tools' CSV).
//
//   write_atomically(path, write)   write(std::FILE*) → bool fills a new temporary file beside
//                                   path (<path>.tmp.<pid>.<n>, created exclusively), which is
//                                   flushed, fsync'ed, closed and renamed over path; on any
//                                   failure it is removed and path is as it was. Returns an
//                                   atomic_write_outcome: where it failed and errno.
//   write_file(path, bytes)         the same for a string; throws std::runtime_error
//                                   "cannot write <path>: <reason>"
//
// Host only (<cstdio>, <filesystem>); no fmt, so the tokenizers can use it too.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "../config.hpp"

#if __has_include(<unistd.h>) && __has_include(<fcntl.h>)
#include <fcntl.h>
#include <unistd.h>
#define TYPEFORMER_ATOMIC_FILE_POSIX 1
#else
#define TYPEFORMER_ATOMIC_FILE_POSIX 0
#endif

namespace typeformer::io {

struct atomic_write_outcome {
    enum class stage { none, create, write, rename };
    stage failed = stage::none;  // none: written
    int error = 0;               // errno of the failure (or std::error_code's value for rename)
    std::filesystem::path temp;  // the temporary file (already removed on failure)
    explicit operator bool() const noexcept { return failed == stage::none; }
    std::string reason() const { return std::error_code(error, std::generic_category()).message(); }
};

namespace detail {

inline std::filesystem::path temp_path_for(const std::filesystem::path& path) {
    static std::atomic<unsigned> counter{0};
#if TYPEFORMER_ATOMIC_FILE_POSIX
    const long pid = static_cast<long>(::getpid());
#else
    const long pid = 0;
#endif
    std::filesystem::path tmp = path;
    tmp += ".tmp." + std::to_string(pid) + "." + std::to_string(counter.fetch_add(1));
    return tmp;
}

}  // namespace detail

template <class Write>
atomic_write_outcome write_atomically(const std::filesystem::path& path, Write&& write) {
    using stage = atomic_write_outcome::stage;
    atomic_write_outcome out;
    out.temp = detail::temp_path_for(path);
    std::FILE* f = std::fopen(out.temp.string().c_str(), "wbx");  // x: never clobber
    if (!f) {
        out.failed = stage::create;
        out.error = errno;
        return out;
    }
    errno = 0;
    bool ok = write(f);
    int err = errno;
    if (ok && std::fflush(f) != 0)
        ok = false, err = errno;
#if TYPEFORMER_ATOMIC_FILE_POSIX
    if (ok && ::fsync(::fileno(f)) != 0)
        ok = false, err = errno;
#endif
    if (std::fclose(f) != 0 && ok)
        ok = false, err = errno;
    std::error_code ec;
    if (!ok) {
        std::filesystem::remove(out.temp, ec);
        out.failed = stage::write;
        out.error = err != 0 ? err : EIO;
        return out;
    }
    std::filesystem::rename(out.temp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(out.temp, ignored);
        out.failed = stage::rename;
        out.error = ec.value();
        return out;
    }
#if TYPEFORMER_ATOMIC_FILE_POSIX
    // Make the rename itself durable (best effort: some file systems refuse).
    std::filesystem::path dir = path.parent_path();
    if (dir.empty())
        dir = ".";
    if (const int fd = ::open(dir.string().c_str(), O_RDONLY | O_DIRECTORY); fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
#endif
    return out;
}

#if TYPEFORMER_HAS_EXCEPTIONS  // (io's try_* functions are built with -fno-exceptions too)
// The bytes as the whole new content of path; std::runtime_error names the path and the reason.
inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
    const auto r = write_atomically(path, [&](std::FILE* f) {
        return std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    });
    if (!r)
        throw std::runtime_error("cannot write " + path.string() + ": " + r.reason());
}
#endif

}  // namespace typeformer::io
