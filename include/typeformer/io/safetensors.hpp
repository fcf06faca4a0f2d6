// Weights files: safetensors, named and shaped as in docs/weights.md.
//
//   save(model, path [, dtype::f64])       atomic: temp file, flush, fsync, rename over path
//   load(model, path)                      all-or-nothing: on any error the model is unchanged
//   load_state(model, bytes [, source])    the same from memory (tests, fuzzers, embedded blobs)
//   save_state(model [, dtype]) -> bytes   the same file image in memory
//   try_load / try_load_state / try_save   the same without exceptions: -> result{code, message}
//   non_finite_values::accept              (last argument of try_load / try_load_state) loads
//                                          NaN and ±∞ values; by default they are rejected
//   metadata                               string pairs of the header's "__metadata__": written
//                                          by try_save(…, md), read back by try_load(…, &md)
//   try_read_metadata / try_read_signature a file's metadata / model signature, header only
//
// A typeformer model's file carries its signature (signature.hpp: every dimension and variant);
// load refuses a file of another model type naming the first field that differs, a nanoGPT or
// Hugging Face file naming the importer that reads it (import.hpp), and a PyTorch checkpoint
// naming the conversion. A file without a signature is checked by its tensors alone.
//
// Names come from the generic walk (params.hpp: `layers.0.attn.W_q`), shapes are the
// paper's (file_shape: W_q is [H, d_attn, d_e]), data row-major, little-endian. Loading
// reads F32, F64, BF16 and F16 and converts to the model's scalar type; saving writes
// F32 (default) or F64. Errors name the file and the tensor; every problem of a file is
// reported at once (missing, unexpected, mis-shaped tensors, ...).
//
// Host only: <string>, <vector>, <cstdio>, fmt, exceptions (try_* work without them).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "../params.hpp"
#include "atomic_file.hpp"
#include "json.hpp"
#include "read_file.hpp"
#include "signature.hpp"

#if __has_include(<unistd.h>) && __has_include(<fcntl.h>) && __has_include(<sys/stat.h>)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define TYPEFORMER_IO_POSIX 1
#else
#define TYPEFORMER_IO_POSIX 0
#endif

namespace typeformer::io {

// Scalar types a file may hold that load converts from; save writes f32 or f64.
enum class dtype : std::uint8_t { f32, f64, bf16, f16 };

constexpr std::string_view dtype_name(dtype d) noexcept {
    switch (d) {
        case dtype::f32:
            return "F32";
        case dtype::f64:
            return "F64";
        case dtype::bf16:
            return "BF16";
        case dtype::f16:
            return "F16";
    }
    return "?";
}

enum class status : std::uint8_t {
    ok,
    io_error,           // cannot open / read / write / rename
    malformed_header,   // too short, bad header length, not UTF-8, not the expected JSON
    missing_tensor,     // the model has a parameter the file lacks
    unexpected_tensor,  // the file has a tensor the model lacks
    shape_mismatch,
    bad_dtype,           // unknown, or not a floating type load converts from
    bad_offsets,         // data_offsets out of range, inconsistent, overlapping or with gaps
    non_finite,          // a NaN or ±∞ value (or one that overflows the model's scalar type)
    signature_mismatch,  // the file records another model type (H, ε, GELU form, …) than this one
    foreign_layout,      // a nanoGPT or Hugging Face file given to load: an importer reads it
    unchecked_signature,  // an importer cannot check H, ε or GELU (no config): refused unless asked
};

// What load does with NaN and ±∞ in a file: reject them (the default: a model that computes
// NaN from its first step is never what the caller wanted), or accept them when the caller asks
// explicitly (inspecting a diverged run's weights).
enum class non_finite_values : bool { reject, accept };

struct result {
    status code = status::ok;
    std::string message;

    bool ok() const noexcept { return code == status::ok; }
    explicit operator bool() const noexcept { return ok(); }
};

#if TYPEFORMER_HAS_EXCEPTIONS
// What load / save throw: the message names the file and the tensor.
class error : public std::runtime_error {
public:
    error(status code, const std::string& message) : std::runtime_error(message), code_(code) {}
    status code() const noexcept { return code_; }

private:
    status code_;
};
#endif

namespace detail {

inline constexpr std::uint64_t max_header_size = 100'000'000;  // as the reference implementation
inline constexpr int max_json_depth = 64;
inline constexpr std::size_t max_rank = 32;
inline constexpr std::size_t max_listed_problems = 20;

// ---- dtypes a safetensors file may name ----

struct file_dtype_info {
    std::string_view name;
    std::size_t size;
    bool loadable;  // a floating type load converts from
    dtype as_dtype;
};
inline constexpr file_dtype_info file_dtypes[] = {
    {"F32", 4, true, dtype::f32},      {"F64", 8, true, dtype::f64},
    {"BF16", 2, true, dtype::bf16},    {"F16", 2, true, dtype::f16},
    {"BOOL", 1, false, dtype::f32},    {"U8", 1, false, dtype::f32},
    {"I8", 1, false, dtype::f32},      {"F8_E5M2", 1, false, dtype::f32},
    {"F8_E4M3", 1, false, dtype::f32}, {"I16", 2, false, dtype::f32},
    {"U16", 2, false, dtype::f32},     {"I32", 4, false, dtype::f32},
    {"U32", 4, false, dtype::f32},     {"I64", 8, false, dtype::f32},
    {"U64", 8, false, dtype::f32},
};
inline const file_dtype_info* find_dtype(std::string_view name) noexcept {
    for (const auto& d : file_dtypes)
        if (d.name == name)
            return &d;
    return nullptr;
}

// A name from a file, printable whatever bytes it holds (control characters escaped,
// long names cut).
inline std::string printable(std::string_view s) {
    std::string r = "'";
    std::size_t n = 0;
    for (char ch : s) {
        if (++n > 160) {
            r += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(ch);
        if (u < 0x20 || u == 0x7F || ch == '\'' || ch == '\\')
            r += fmt::format("\\x{:02x}", u);
        else
            r += ch;
    }
    r += '\'';
    return r;
}

template <class Dims>
std::string shape_string(const Dims& dims) {
    return fmt::format("[{}]", fmt::join(dims, ", "));
}

// ---- UTF-8 validation (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF) ----

// Offset of the first byte that is not part of valid UTF-8, or npos.
inline std::size_t invalid_utf8_at(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        unsigned lo = 0x80, hi = 0xBF;  // range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            if (c == 0xED)
                hi = 0x9F;  // no surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            if (c == 0xF4)
                hi = 0x8F;
        } else {
            return i;
        }
        if (n - i < len)
            return i;
        if (p[i + 1] < lo || p[i + 1] > hi)
            return i;
        for (std::size_t k = 2; k < len; ++k)
            if (p[i + k] < 0x80 || p[i + k] > 0xBF)
                return i;
        i += len;
    }
    return std::string_view::npos;
}

// ---- the header, read by io/json.hpp's reader ----

struct tensor_entry {
    std::string name;
    std::string dtype;  // as written; checked after parsing
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0, end = 0;
    bool used = false;
};

struct parsed_header {
    std::vector<tensor_entry> tensors;
    std::vector<std::pair<std::string, std::string>> metadata;
};

// The header's JSON: an object of tensor entries and at most one "__metadata__" object of
// strings; unknown fields of an entry are checked and ignored. Duplicate tensor names are found
// after parsing (sorted, not O(n²)).
class header_parser {
public:
    explicit header_parser(std::string_view text) noexcept : r_(text, max_json_depth) {}

    bool parse(parsed_header& out) {
        if (r_.peek() != json::kind::object)
            return r_.fail("the header is not a JSON object (it must begin with '{')");
        bool seen_metadata = false;
        const bool ok = r_.object(
            [&](std::string& key) {
                if (key == "__metadata__") {
                    if (seen_metadata)
                        return r_.fail("duplicate \"__metadata__\"");
                    seen_metadata = true;
                    return parse_metadata(out.metadata);
                }
                tensor_entry e;
                e.name = std::move(key);
                if (!parse_tensor(e))
                    return false;
                out.tensors.push_back(std::move(e));
                return true;
            },
            "the header object", "a tensor name");
        // the padding (spaces) after the object
        return ok && r_.finish("unexpected bytes after the header's JSON object");
    }

    const std::string& error() const noexcept { return r_.error(); }

private:
    json::reader r_;

    bool parse_metadata(std::vector<std::pair<std::string, std::string>>& md) {
        if (r_.peek() != json::kind::object)
            return r_.fail("\"__metadata__\" must be an object of strings");
        return r_.object(
            [&](std::string& key) {
                if (r_.peek() != json::kind::string)
                    return r_.fail("\"__metadata__\" values must be strings");
                std::string value;
                if (!r_.string(value))
                    return false;
                md.emplace_back(std::move(key), std::move(value));
                return true;
            },
            "\"__metadata__\"", "a metadata key");
    }

    bool parse_uint_array(std::vector<std::uint64_t>& out, const std::string& what) {
        if (r_.peek() != json::kind::array)
            return r_.fail(what + " must be an array of integers");
        return r_.array(
            [&] {
                if (out.size() >= max_rank)
                    return r_.fail(what + " has too many entries");
                std::uint64_t v = 0;
                if (!r_.uint64(v, "an entry of " + what))
                    return false;
                out.push_back(v);
                return true;
            },
            what);
    }

    bool parse_tensor(tensor_entry& e) {
        const std::string who = "tensor " + printable(e.name);
        bool has_dtype = false, has_shape = false, has_offsets = false;
        if (r_.peek() != json::kind::object)
            return r_.fail(who + ": expected an object {\"dtype\", \"shape\", \"data_offsets\"}");
        const bool ok = r_.object(
            [&](std::string& key) {
                if (key == "dtype") {
                    if (has_dtype)
                        return r_.fail(who + ": duplicate \"dtype\"");
                    has_dtype = true;
                    if (r_.peek() != json::kind::string)
                        return r_.fail(who + ": \"dtype\" must be a string");
                    return r_.string(e.dtype);
                }
                if (key == "shape") {
                    if (has_shape)
                        return r_.fail(who + ": duplicate \"shape\"");
                    has_shape = true;
                    return parse_uint_array(e.shape, who + "'s \"shape\"");
                }
                if (key == "data_offsets") {
                    if (has_offsets)
                        return r_.fail(who + ": duplicate \"data_offsets\"");
                    has_offsets = true;
                    std::vector<std::uint64_t> off;
                    if (!parse_uint_array(off, who + "'s \"data_offsets\""))
                        return false;
                    if (off.size() != 2)
                        return r_.fail(who + ": \"data_offsets\" must be [begin, end]");
                    e.begin = off[0];
                    e.end = off[1];
                    return true;
                }
                return r_.skip();  // unknown fields are ignored
            },
            who);
        if (!ok)
            return false;
        if (!has_dtype)
            return r_.fail(who + ": no \"dtype\"");
        if (!has_shape)
            return r_.fail(who + ": no \"shape\"");
        if (!has_offsets)
            return r_.fail(who + ": no \"data_offsets\"");
        return true;
    }
};

// ---- checking a parsed header against a model ----

struct problem_list {
    status first = status::ok;
    std::vector<std::string> lines;
    void add(status s, std::string line) {
        if (first == status::ok)
            first = s;
        lines.push_back(std::move(line));
    }
    bool empty() const noexcept { return lines.empty(); }
};

inline result make_error(status s, std::string_view source, std::string_view what) {
    return {s, fmt::format("typeformer::io: cannot load {}: {}", source, what)};
}

inline result report(const problem_list& p, std::string_view source) {
    if (p.lines.size() == 1)
        return make_error(p.first, source, p.lines.front());
    std::string msg =
        fmt::format("typeformer::io: cannot load {}: {} problems:", source, p.lines.size());
    for (std::size_t i = 0; i < p.lines.size() && i < max_listed_problems; ++i) {
        msg += "\n  ";
        msg += p.lines[i];
    }
    if (p.lines.size() > max_listed_problems)
        msg += fmt::format("\n  ... and {} more", p.lines.size() - max_listed_problems);
    return {p.first, std::move(msg)};
}

// A parameter tensor as the file code handles it: its name, its shape in the file, and its
// storage (file element k, row-major (r, c), is data[r + c·rows] for a matrix, data[k] for a
// vector). A model is walked into these once; the per-tensor work (validation, conversion,
// formatting) then runs in plain loops, compiled once per model instead of once for every tensor
// type at every member the walk passes: that was most of the object code of a file that loads or
// saves a model.
struct file_leaf {
    std::string name;
    std::array<std::size_t, 4> dims{};
    std::size_t rank = 0;
    const void* data = nullptr;
    void* mutable_data = nullptr;  // null when the model was const
    bool is_double = false;        // else float
    std::size_t rows = 0, cols = 1;

    std::span<const std::size_t> shape() const noexcept { return {dims.data(), rank}; }
    std::size_t elements() const noexcept { return rows * cols; }
    std::size_t storage_index(std::size_t k) const noexcept { return k / cols + (k % cols) * rows; }
};

template <class Model>
std::vector<file_leaf> file_leaves(Model& model) {
    std::vector<file_leaf> out;
    out.reserve(parameter_tensor_count<std::remove_cv_t<Model>>);
    for_each_param(model, [&](const param_name& name, auto& leaf) {
        using Leaf = std::remove_cvref_t<decltype(leaf)>;
        using T = typename Leaf::value_type;
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                      "typeformer::io: weights files hold float or double parameters");
        constexpr auto shape = file_shape<Leaf>;
        static_assert(shape.rank <= 4);
        file_leaf f;
        f.name = name.view();
        std::copy(shape.dims.begin(), shape.dims.end(), f.dims.begin());
        f.rank = shape.rank;
        f.data = leaf.data();
        if constexpr (!std::is_const_v<std::remove_reference_t<decltype(leaf)>>)
            f.mutable_data = leaf.data();
        f.is_double = std::is_same_v<T, double>;
        if constexpr (requires { typename Leaf::rows_dim; })
            f.rows = Leaf::rows_dim::size, f.cols = Leaf::cols_dim::size;
        else
            f.rows = leaf_elements<Leaf>;
        out.push_back(std::move(f));
    });
    return out;
}

struct load_plan {
    parsed_header header;
    std::vector<std::size_t> entry_of_leaf;  // walk order → index into header.tensors
};

// The header text → its parsed JSON (UTF-8 checked first).
inline result parse_header(std::string_view header_text, std::string_view source,
                           parsed_header& out) {
    if (const auto bad = invalid_utf8_at(header_text); bad != std::string_view::npos)
        return make_error(status::malformed_header, source,
                          fmt::format("the header is not valid UTF-8 (header byte {})", bad));
    header_parser parser(header_text);
    if (!parser.parse(out))
        return make_error(status::malformed_header, source, "malformed header: " + parser.error());
    return {};
}

// A tensor's name without the prefixes torch.compile (`_orig_mod.`) and Hugging Face's
// GPT2LMHeadModel (`transformer.`) put on it.
inline std::string_view strip_prefixes(std::string_view name) noexcept {
    for (std::string_view p : {std::string_view("_orig_mod."), std::string_view("transformer.")})
        if (name.substr(0, p.size()) == p)
            name.remove_prefix(p.size());
    return name;
}

// "nanoGPT" or "Hugging Face GPT-2" when the tensors are a GPT in one of those layouts (by
// c_attn's orientation: nn.Linear [3·d_e, d_e], Conv1D [d_e, 3·d_e]), else "".
inline std::string_view gpt_layout_of(const parsed_header& h) noexcept {
    bool wte = false;
    const tensor_entry* c_attn = nullptr;
    for (const auto& t : h.tensors) {
        const std::string_view n = strip_prefixes(t.name);
        wte = wte || n == "wte.weight";
        if (n == "h.0.attn.c_attn.weight")
            c_attn = &t;
    }
    if (!wte || !c_attn || c_attn->shape.size() != 2)
        return {};
    return c_attn->shape[0] > c_attn->shape[1] ? "nanoGPT" : "Hugging Face GPT-2";
}

// The checks of a header that need no model: names unique (else an error), every dtype known,
// every shape·dtype its byte range, the ranges inside the data, back to back (into `problems`).
// `by_name` is the tensors' indices sorted by name.
inline result check_entries(const parsed_header& header, std::uint64_t data_len,
                            std::string_view source, problem_list& problems,
                            std::vector<std::size_t>& by_name) {
    const auto& tensors = header.tensors;
    by_name.resize(tensors.size());
    for (std::size_t i = 0; i < by_name.size(); ++i)
        by_name[i] = i;
    std::sort(by_name.begin(), by_name.end(),
              [&](std::size_t a, std::size_t b) { return tensors[a].name < tensors[b].name; });
    for (std::size_t i = 1; i < by_name.size(); ++i)
        if (tensors[by_name[i]].name == tensors[by_name[i - 1]].name)
            return make_error(status::malformed_header, source,
                              fmt::format("tensor {} appears twice in the header",
                                          printable(tensors[by_name[i]].name)));

    // Each tensor's own entry: dtype known, shape·dtype = its byte range, range inside the data.
    bool offsets_ok = true;
    std::size_t past_end = 0;
    for (const auto& t : tensors) {
        const auto* dt = find_dtype(t.dtype);
        if (!dt) {
            problems.add(status::bad_dtype, fmt::format("tensor {}: unknown dtype {}",
                                                        printable(t.name), printable(t.dtype)));
            offsets_ok = false;
            continue;
        }
        std::uint64_t bytes = dt->size;
        bool overflow = false;
        for (std::uint64_t d : t.shape) {
            if (d != 0 && bytes > ~std::uint64_t{0} / d)
                overflow = true;
            bytes *= d;
        }
        if (t.begin > t.end) {
            problems.add(status::bad_offsets,
                         fmt::format("tensor {}: data_offsets [{}, {}] begin after end",
                                     printable(t.name), t.begin, t.end));
            offsets_ok = false;
        } else if (t.end > data_len) {
            if (past_end++ == 0)  // one line for a truncated file, not one per tensor
                problems.add(
                    status::bad_offsets,
                    fmt::format(
                        "tensor {}: data_offsets [{}, {}] past the end of the data ({} bytes; "
                        "truncated file?)",
                        printable(t.name), t.begin, t.end, data_len));
            offsets_ok = false;
        } else if (overflow || t.end - t.begin != bytes) {
            problems.add(
                status::bad_offsets,
                fmt::format(
                    "tensor {}: data_offsets [{}, {}] hold {} bytes, but shape {} of {} needs {}",
                    printable(t.name), t.begin, t.end, t.end - t.begin, shape_string(t.shape),
                    t.dtype, overflow ? std::string("more than 2^64") : std::to_string(bytes)));
            offsets_ok = false;
        }
    }

    if (past_end > 1)
        problems.add(status::bad_offsets,
                     fmt::format("{} more tensors lie past the end of the data", past_end - 1));

    // The data is exactly the tensors, back to back: no overlap, no hole, nothing after.
    if (offsets_ok) {
        std::vector<std::size_t> order(tensors.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return tensors[a].begin != tensors[b].begin ? tensors[a].begin < tensors[b].begin
                                                        : tensors[a].end < tensors[b].end;
        });
        std::uint64_t covered = 0;
        const tensor_entry* prev = nullptr;
        for (std::size_t i : order) {
            const auto& t = tensors[i];
            if (t.begin < covered)
                problems.add(
                    status::bad_offsets,
                    fmt::format("tensor {}: data_offsets [{}, {}] overlap tensor {} [{}, {}]",
                                printable(t.name), t.begin, t.end, printable(prev->name),
                                prev->begin, prev->end));
            else if (t.begin > covered)
                problems.add(
                    status::bad_offsets,
                    fmt::format("tensor {}: data_offsets [{}, {}] leave {} unused bytes before it",
                                printable(t.name), t.begin, t.end, t.begin - covered));
            if (t.end > covered) {
                covered = t.end;
                prev = &t;
            }
        }
        if (covered != data_len)
            problems.add(
                status::bad_offsets,
                fmt::format(
                    "{} bytes after the last tensor's data (data is {} bytes, tensors end at {})",
                    data_len - covered, data_len, covered));
    }
    return {};
}

// The file's recorded model against Model's type (a typeformer model; any other parameter
// struct, e.g. a checkpoint's tensors, is compared by its owner): a file that records another
// type is refused naming the first field that differs; a nanoGPT or Hugging Face file says which
// importer reads it. A file without a signature (written before signatures existed) is checked
// by its tensors' names and shapes only.
template <class Model>
result check_signature(const parsed_header& header, std::string_view source) {
    signature file;
    if (const auto r = read_signature(header.metadata, file); !r.ok)
        return make_error(status::malformed_header, source, r.problem);
    if constexpr (signed_model<Model>) {
        if (!file.empty()) {
            const signature model = signature_of<Model>();
            if (const std::string d = first_difference(file, model); !d.empty())
                return make_error(status::signature_mismatch, source,
                                  fmt::format("another model type, {}: the file is for {}, the "
                                              "model is {}",
                                              d, describe(file), describe(model)));
            return {};
        }
    }
    if (file.empty())
        if (const std::string_view layout = gpt_layout_of(header); !layout.empty())
            return make_error(
                status::foreign_layout, source,
                fmt::format("this is a {0} checkpoint, not a typeformer weights file: read it with "
                            "tf::io::import_{1}(model, path) (`typeformer-inspect {2}` prints the "
                            "config it needs)",
                            layout, layout == "nanoGPT" ? "nanogpt" : "hf_gpt2", source));
    return {};
}

// Parses and validates everything; on success `plan` says where each leaf's data is.
// Nothing here touches the model.
template <class Model>
result plan_load(const Model& model, std::string_view header_text, std::uint64_t data_len,
                 std::string_view source, load_plan& plan) {
    if (auto r = parse_header(header_text, source, plan.header); !r)
        return r;
    if (auto r = check_signature<Model>(plan.header, source); !r)
        return r;
    problem_list problems;
    std::vector<std::size_t> by_name;
    if (auto r = check_entries(plan.header, data_len, source, problems, by_name); !r)
        return r;
    auto& tensors = plan.header.tensors;

    // The model's parameters against the file's tensors, by name.
    plan.entry_of_leaf.clear();
    plan.entry_of_leaf.reserve(parameter_tensor_count<Model>);
    for (const file_leaf& leaf : file_leaves(model)) {
        const auto expected = leaf.shape();
        const std::string_view name = leaf.name;
        const auto it = std::lower_bound(by_name.begin(), by_name.end(), name,
                                         [&](std::size_t i, std::string_view n) {
                                             return std::string_view(tensors[i].name) < n;
                                         });
        if (it == by_name.end() || tensors[*it].name != name) {
            problems.add(status::missing_tensor,
                         fmt::format("missing tensor '{}' (expected shape {})", name,
                                     shape_string(expected)));
            plan.entry_of_leaf.push_back(0);
            continue;
        }
        auto& t = tensors[*it];
        t.used = true;
        plan.entry_of_leaf.push_back(*it);
        if (const auto* dt = find_dtype(t.dtype); dt && !dt->loadable)
            problems.add(
                status::bad_dtype,
                fmt::format("tensor '{}': dtype {} is not supported (F32, F64, BF16 and F16 are)",
                            name, t.dtype));
        const bool same_shape = t.shape.size() == expected.size() &&
                                std::equal(t.shape.begin(), t.shape.end(), expected.begin());
        if (!same_shape)
            problems.add(status::shape_mismatch,
                         fmt::format("tensor '{}': shape {} in the file, expected {}", name,
                                     shape_string(t.shape), shape_string(expected)));
    }
    for (const auto& t : tensors)
        if (!t.used)
            problems.add(
                status::unexpected_tensor,
                fmt::format(
                    "unexpected tensor {} (dtype {}, shape {}): the model has no such parameter",
                    printable(t.name), printable(t.dtype), shape_string(t.shape)));

    if (!problems.empty())
        return report(problems, source);
    return {};
}

// ---- scalar conversions (little-endian in the file, whatever the host) ----

inline std::size_t dtype_size(dtype d) noexcept {
    return d == dtype::f64 ? 8 : d == dtype::f32 ? 4 : 2;
}

inline std::uint16_t le16(const std::byte* p) noexcept {
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) |
                                      (std::to_integer<unsigned>(p[1]) << 8));
}
inline std::uint32_t le32(const std::byte* p) noexcept {
    return std::to_integer<std::uint32_t>(p[0]) | (std::to_integer<std::uint32_t>(p[1]) << 8) |
           (std::to_integer<std::uint32_t>(p[2]) << 16) |
           (std::to_integer<std::uint32_t>(p[3]) << 24);
}
inline std::uint64_t le64(const std::byte* p) noexcept {
    return static_cast<std::uint64_t>(le32(p)) | (static_cast<std::uint64_t>(le32(p + 4)) << 32);
}
inline void put_le32(std::byte* p, std::uint32_t v) noexcept {
    for (int k = 0; k < 4; ++k)
        p[k] = static_cast<std::byte>(v >> (8 * k));
}
inline void put_le64(std::byte* p, std::uint64_t v) noexcept {
    for (int k = 0; k < 8; ++k)
        p[k] = static_cast<std::byte>(v >> (8 * k));
}

inline float bf16_to_float(std::uint16_t h) noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
}
inline float f16_to_float(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    const std::uint32_t mant = h & 0x3FFu;
    if (exp == 0) {  // zero or subnormal: mant · 2^-24, exact in float
        const float v = static_cast<float>(mant) * 0x1p-24f;
        return sign ? -v : v;
    }
    if (exp == 31)
        return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));  // inf, NaN
    return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

// One leaf from the file's row-major bytes; Read(p) → a float or double.
template <class Read>
void copy_in(const file_leaf& leaf, const std::byte* src, std::size_t elem_size,
             Read read) noexcept {
    const std::size_t n = leaf.elements();
    if (leaf.is_double) {
        auto* d = static_cast<double*>(leaf.mutable_data);
        for (std::size_t k = 0; k < n; ++k)
            d[leaf.storage_index(k)] = static_cast<double>(read(src + k * elem_size));
    } else {
        auto* d = static_cast<float*>(leaf.mutable_data);
        for (std::size_t k = 0; k < n; ++k)
            d[leaf.storage_index(k)] = static_cast<float>(read(src + k * elem_size));
    }
}

// Element k of a tensor's row-major bytes p in dtype dt, as a double.
inline double read_element(dtype dt, const std::byte* p, std::size_t k) noexcept {
    switch (dt) {
        case dtype::f32:
            return std::bit_cast<float>(le32(p + 4 * k));
        case dtype::f64:
            return std::bit_cast<double>(le64(p + 8 * k));
        case dtype::bf16:
            return bf16_to_float(le16(p + 2 * k));
        case dtype::f16:
            return f16_to_float(le16(p + 2 * k));
    }
    return 0;
}

// Element k of a file tensor (row-major), whatever its dtype (looked up here: loops resolve it
// once and call the form above).
inline double read_element(const tensor_entry& t, const std::byte* data, std::size_t k) noexcept {
    return read_element(find_dtype(t.dtype)->as_dtype, data + t.begin, k);
}

// Every value of a file tensor that a load would store must be finite once converted to the
// target's scalar type: NaN, ±∞ and finite F64 values that overflow a float target are counted
// (and the first one kept); `problems` gets one line per such tensor, the first few of them.
struct finite_check {
    problem_list problems;
    std::size_t bad_tensors = 0;

    void scan(const tensor_entry& t, const std::byte* data, bool target_is_double) {
        const file_dtype_info* info = find_dtype(t.dtype);
        const std::size_t n = (t.end - t.begin) / info->size;
        std::size_t count = 0, first = 0;
        double first_value = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const double v = read_element(info->as_dtype, data + t.begin, k);
            // Overflow is checked in double: converting an out-of-range double to float is
            // undefined behaviour in C++, even where the hardware gives ∞.
            const bool fits =
                target_is_double ||
                std::fabs(v) <= static_cast<double>(std::numeric_limits<float>::max());
            if (!std::isfinite(v) || !fits) {
                if (count++ == 0)
                    first = k, first_value = v;
            }
        }
        if (count > 0 && bad_tensors++ < max_listed_problems)
            problems.add(
                status::non_finite,
                fmt::format("tensor {}: {} non-finite value{} (first at flat index {}: "
                            "{}{}); pass non_finite_values::accept to load them anyway",
                            printable(t.name), count, count == 1 ? "" : "s", first, first_value,
                            std::isfinite(first_value) ? ", too large for the model's type" : ""));
    }
};

// Every value the load would store, converted to the model's scalar type, must be finite
// (reported by tensor and index, before anything is copied).
template <class Model>
result check_finite(const Model& model, const load_plan& plan, const std::byte* data,
                    std::string_view source) {
    finite_check check;
    std::size_t leaf = 0;
    for (const file_leaf& p : file_leaves(model))
        check.scan(plan.header.tensors[plan.entry_of_leaf[leaf++]], data, p.is_double);
    if (!check.problems.empty())
        return report(check.problems, source);
    return {};
}

// The copy: cannot fail (everything was validated by plan_load).
template <class Model>
void apply_load(Model& model, const load_plan& plan, const std::byte* data) noexcept {
    std::size_t leaf = 0;
    for (const file_leaf& p : file_leaves(model)) {
        const auto& t = plan.header.tensors[plan.entry_of_leaf[leaf++]];
        const std::byte* src = data + t.begin;
        switch (find_dtype(t.dtype)->as_dtype) {
            case dtype::f32:
                copy_in(p, src, 4,
                        [](const std::byte* q) { return std::bit_cast<float>(le32(q)); });
                break;
            case dtype::f64:
                copy_in(p, src, 8,
                        [](const std::byte* q) { return std::bit_cast<double>(le64(q)); });
                break;
            case dtype::bf16:
                copy_in(p, src, 2, [](const std::byte* q) { return bf16_to_float(le16(q)); });
                break;
            case dtype::f16:
                copy_in(p, src, 2, [](const std::byte* q) { return f16_to_float(le16(q)); });
                break;
        }
    }
}

// ---- writing ----

// A JSON string literal of s (UTF-8 passes through; quotes, backslashes, controls escaped).
inline std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\')
            out += '\\', out += ch;
        else if (c < 0x20)
            out += fmt::format("\\u{:04x}", c);
        else
            out += ch;
    }
    return out + '"';
}

// The header JSON, padded with spaces to a multiple of 8 bytes (so the data starts aligned).
// A typeformer model's file records its signature (signature.hpp) before the caller's entries;
// a caller's entry with a key already written is dropped (JSON objects have unique keys).
template <class Model>
std::string make_header(const Model& model, dtype dt, const metadata& user_md = {}) {
    metadata md;
    if constexpr (signed_model<Model>)
        write_signature(signature_of<Model>(), md);
    for (const auto& entry : user_md)
        if (entry.first != "format" && std::none_of(md.begin(), md.end(), [&](const auto& e) {
                return e.first == entry.first;
            }))
            md.push_back(entry);
    std::string h = R"({"__metadata__":{"format":"pt")";
    for (const auto& [key, value] : md)
        h += ',' + json_string(key) + ':' + json_string(value);
    h += '}';
    std::uint64_t offset = 0;
    for (const file_leaf& leaf : file_leaves(model)) {
        const std::uint64_t bytes = leaf.elements() * dtype_size(dt);
        // Walk names are [A-Za-z0-9_.]: member names and indices, nothing to escape.
        h += fmt::format(R"(,"{}":{{"dtype":"{}","shape":[{}],"data_offsets":[{},{}]}})", leaf.name,
                         dtype_name(dt), fmt::join(leaf.shape(), ","), offset, offset + bytes);
        offset += bytes;
    }
    h += '}';
    while (h.size() % 8 != 0)
        h += ' ';
    return h;
}

// Streams the file image to sink(const std::byte*, std::size_t) -> bool; false stops.
template <class Model, class Sink>
bool write_image(const Model& model, dtype dt, Sink&& sink, const metadata& md = {}) {
    const std::string header = make_header(model, dt, md);
    std::byte len[8];
    put_le64(len, header.size());
    if (!sink(len, 8))
        return false;
    if (!sink(reinterpret_cast<const std::byte*>(header.data()), header.size()))
        return false;
    std::vector<std::byte> buf;
    for (const file_leaf& leaf : file_leaves(model)) {
        const std::size_t es = dtype_size(dt), n = leaf.elements();
        buf.resize(n * es);
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = leaf.storage_index(k);
            const double x = leaf.is_double ? static_cast<const double*>(leaf.data)[i]
                                            : static_cast<const float*>(leaf.data)[i];
            if (dt == dtype::f64)
                put_le64(buf.data() + k * 8, std::bit_cast<std::uint64_t>(x));
            else
                put_le32(buf.data() + k * 4, std::bit_cast<std::uint32_t>(static_cast<float>(x)));
        }
        if (!sink(buf.data(), buf.size()))
            return false;
    }
    return true;
}

inline std::string errno_text(int e) {
    return std::error_code(e, std::generic_category()).message();
}

// The header length from a file's first 8 bytes, checked against its size. A PyTorch file
// (torch.save: a zip archive, or a pickle before torch 1.6) is named as such, with the command
// that converts nanoGPT's.
inline result header_length(const std::byte* first8, std::uint64_t size, std::string_view src,
                            std::uint64_t& n) {
    const auto b0 = std::to_integer<unsigned>(first8[0]), b1 = std::to_integer<unsigned>(first8[1]);
    const bool zip = b0 == 'P' && b1 == 'K' && std::to_integer<unsigned>(first8[2]) == 3 &&
                     std::to_integer<unsigned>(first8[3]) == 4;
    const bool pickle = b0 == 0x80 && b1 >= 2 && b1 <= 5;
    n = le64(first8);
    if ((zip || pickle) && (n > size - 8 || n < 2 || n > max_header_size))
        return make_error(
            status::malformed_header, src,
            fmt::format("this is a PyTorch checkpoint (torch.save's {} format, e.g. nanoGPT's "
                        "ckpt.pt), not safetensors: convert it with `/usr/bin/python3 "
                        "tools/typeformer_torch.py from-nanogpt {} gpt.safetensors`",
                        zip ? "zip" : "pickle", src));
    if (n > size - 8)
        return make_error(
            status::malformed_header, src,
            fmt::format("header length {} is larger than the file's {} bytes after the "
                        "length field (truncated or not a safetensors file)",
                        n, size - 8));
    if (n < 2 || n > max_header_size)
        return make_error(status::malformed_header, src,
                          fmt::format("header length {} is not sane", n));
    return {};
}

// A safetensors file opened, its header read (not parsed); the data is read by read_data.
struct open_file {
    std::FILE* f = nullptr;
    std::string header;
    std::uint64_t data_len = 0;

    open_file() = default;
    open_file(const open_file&) = delete;
    open_file& operator=(const open_file&) = delete;
    ~open_file() {
        if (f)
            std::fclose(f);
    }
};

inline result open_safetensors(const std::filesystem::path& path, std::string_view src,
                               open_file& out) {
    std::string problem;
    out.f = open_regular_file(path, problem);  // a FIFO is refused, never waited on
    if (!out.f)
        return make_error(status::io_error, src, problem);
        // The size of the file we opened (not of whatever is at `path` a moment later).
#if TYPEFORMER_IO_POSIX
    struct ::stat st {};
    if (::fstat(::fileno(out.f), &st) != 0)
        return make_error(status::io_error, src, errno_text(errno));
    if (!S_ISREG(st.st_mode))
        return make_error(status::io_error, src, "not a regular file");
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
#else
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return make_error(status::io_error, src, ec.message());
#endif
    std::byte len[8];
    if (size < 8 || std::fread(len, 1, 8, out.f) != 8)
        return make_error(status::malformed_header, src,
                          fmt::format("{} bytes is too short for a safetensors file", size));
    std::uint64_t n = 0;
    if (auto r = header_length(len, size, src, n); !r)
        return r;
    out.header.assign(static_cast<std::size_t>(n), '\0');
    if (std::fread(out.header.data(), 1, out.header.size(), out.f) != out.header.size())
        return make_error(status::malformed_header, src, "the file ends inside its header");
    out.data_len = size - 8 - n;
    return {};
}

inline result read_data(open_file& file, std::string_view src, std::vector<std::byte>& data) {
    data.resize(static_cast<std::size_t>(file.data_len));
    if (std::fread(data.data(), 1, data.size(), file.f) != data.size())
        return make_error(status::io_error, src,
                          "read error in the tensor data (did the file change?)");
    return {};
}

}  // namespace detail

// ---- the public functions ----

template <class Model>
    requires param_struct<Model> result try_load_state(
        Model& model, std::span<const std::byte> bytes, std::string_view source = "<memory>",
        metadata* md = nullptr, non_finite_values nf = non_finite_values::reject) {
        const std::string src = detail::printable(source);
        if (bytes.size() < 8)
            return detail::make_error(
                status::malformed_header, src,
                fmt::format("{} bytes is too short for a safetensors file", bytes.size()));
        std::uint64_t n = 0;
        if (auto r = detail::header_length(bytes.data(), bytes.size(), src, n); !r)
            return r;
        const std::string_view header(reinterpret_cast<const char*>(bytes.data() + 8),
                                      static_cast<std::size_t>(n));
        detail::load_plan plan;
        if (auto r = detail::plan_load(model, header, bytes.size() - 8 - n, src, plan); !r)
            return r;
        if (nf == non_finite_values::reject)
            if (auto r = detail::check_finite(model, plan, bytes.data() + 8 + n, src); !r)
                return r;
        detail::apply_load(model, plan, bytes.data() + 8 + n);
        if (md)
            *md = std::move(plan.header.metadata);
        return {};
    }

template <class Model>
    requires param_struct<Model> result try_load(Model& model, const std::filesystem::path& path,
                                                 metadata* md = nullptr,
                                                 non_finite_values nf = non_finite_values::reject) {
        const std::string src = detail::printable(path.string());
        detail::open_file file;
        if (auto r = detail::open_safetensors(path, src, file); !r)
            return r;
        detail::load_plan plan;
        if (auto r = detail::plan_load(model, file.header, file.data_len, src, plan); !r)
            return r;
        std::vector<std::byte> data;
        if (auto r = detail::read_data(file, src, data); !r)
            return r;
        if (nf == non_finite_values::reject)
            if (auto r = detail::check_finite(model, plan, data.data(), src); !r)
                return r;
        detail::apply_load(model, plan, data.data());
        if (md)
            *md = std::move(plan.header.metadata);
        return {};
    }

// Only the "__metadata__" of a file (its header is read and checked; no tensor data is read).
inline result try_read_metadata(const std::filesystem::path& path, metadata& md) {
    const std::string src = detail::printable(path.string());
    detail::open_file file;
    if (auto r = detail::open_safetensors(path, src, file); !r)
        return r;
    detail::parsed_header parsed;
    if (auto r = detail::parse_header(file.header, src, parsed); !r)
        return r;
    md = std::move(parsed.metadata);
    return {};
}

// The model type a file records (its "typeformer.*" metadata; empty for a file without one).
inline result try_read_signature(const std::filesystem::path& path, signature& sig) {
    metadata md;
    if (auto r = try_read_metadata(path, md); !r)
        return r;
    if (const auto r = read_signature(md, sig); !r.ok)
        return detail::make_error(status::malformed_header, detail::printable(path.string()),
                                  r.problem);
    return {};
}

// The whole file image in memory (what save writes).
template <class Model>
    requires param_struct<Model> std::vector<std::byte> save_state(const Model& model,
                                                                   dtype dt = dtype::f32) {
        TYPEFORMER_CHECK(dt == dtype::f32 || dt == dtype::f64, "save_state: F32 or F64 only");
        std::vector<std::byte> out;
        detail::write_image(model, dt, [&](const std::byte* p, std::size_t n) {
            out.insert(out.end(), p, p + n);
            return true;
        });
        return out;
    }

template <class Model>
    requires param_struct<Model> result try_save(const Model& model,
                                                 const std::filesystem::path& path,
                                                 dtype dt = dtype::f32, const metadata& md = {}) {
        const std::string dst = detail::printable(path.string());
        auto fail = [&](status s, const std::string& what) {
            return result{s, fmt::format("typeformer::io: cannot save {}: {}", dst, what)};
        };
        if (dt != dtype::f32 && dt != dtype::f64)
            return fail(
                status::bad_dtype,
                fmt::format("saving {} is not supported (F32 and F64 are)", dtype_name(dt)));

        // the one atomic path (atomic_file.hpp): temporary file, flush, fsync, rename
        const auto w = write_atomically(path, [&](std::FILE* f) {
            return detail::write_image(
                model, dt,
                [&](const std::byte* p, std::size_t n) { return std::fwrite(p, 1, n, f) == n; },
                md);
        });
        using stage = atomic_write_outcome::stage;
        if (w.failed == stage::create)
            return fail(status::io_error,
                        fmt::format("cannot create {}: {}", detail::printable(w.temp.string()),
                                    w.reason()));
        if (w.failed == stage::rename)
            return fail(status::io_error,
                        fmt::format("cannot rename {} over it: {}",
                                    detail::printable(w.temp.string()), w.reason()));
        if (w.failed == stage::write)
            return fail(status::io_error, fmt::format("write error: {}", w.reason()));
        return {};
    }

#if TYPEFORMER_HAS_EXCEPTIONS
// All-or-nothing load; throws io::error naming the file and the tensor(s).
template <class Model>
    requires param_struct<Model>
void load(Model& model, const std::filesystem::path& path) {
    if (auto r = try_load(model, path); !r)
        throw error(r.code, r.message);
}

template <class Model>
    requires param_struct<Model>
void load_state(Model& model, std::span<const std::byte> bytes,
                std::string_view source = "<memory>") {
    if (auto r = try_load_state(model, bytes, source); !r)
        throw error(r.code, r.message);
}

// Atomic save; throws io::error (the file at path, if any, is then untouched).
template <class Model>
    requires param_struct<Model>
void save(const Model& model, const std::filesystem::path& path, dtype dt = dtype::f32) {
    if (auto r = try_save(model, path, dt); !r)
        throw error(r.code, r.message);
}
#endif

// ---- a call of no form above: not a model's parameters (shape_error.hpp) ----

TYPEFORMER_PARAMETERS_FALLBACK(try_load_state, in::try_load_state);
TYPEFORMER_PARAMETERS_FALLBACK(try_load, in::try_load);
TYPEFORMER_PARAMETERS_FALLBACK(save_state, in::save_state);
TYPEFORMER_PARAMETERS_FALLBACK(try_save, in::try_save);
#if TYPEFORMER_HAS_EXCEPTIONS
TYPEFORMER_PARAMETERS_FALLBACK(load, in::load);
TYPEFORMER_PARAMETERS_FALLBACK(load_state, in::load_state);
TYPEFORMER_PARAMETERS_FALLBACK(save, in::save);
#endif

}  // namespace typeformer::io

#if TYPEFORMER_HAS_EXCEPTIONS
namespace typeformer {
using io::load;  // tf::load(*model, "w.safetensors"), as in the design's public surface
using io::save;
}  // namespace typeformer
#endif
