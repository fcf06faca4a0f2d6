// A small plotting layer: SVG line plots (loss curves) and grids of heatmaps (attention
// matrices), with the standard library and fmt only.
//
//   plot::line_svg(series, {.title, .x_label, .y_label, .log_y})   several series, axes with
//                                                                   ticks and labels, a legend
//   plot::heatmap_grid_svg(maps, columns, title)                    heatmaps (values in [0, 1]
//                                                                   by default) with text labels
//   plot::write(path, svg)                                          throws io::error on failure
//
// Text is XML-escaped; UTF-8 passes through, other bytes that are not printable show as \xNN.
// Host only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "safetensors.hpp"  // io::error, io::status

namespace typeformer::plot {

struct series {
    std::string name;
    std::vector<double> x, y;
};

struct line_options {
    std::string title, x_label, y_label;
    bool log_y = false;
    int width = 720, height = 440;  // the canvas widens for a long legend name
};

struct heatmap {
    std::string title;
    std::size_t rows = 0, cols = 0;
    std::vector<double> values;  // row-major, rows × cols
    std::vector<std::string> row_labels, col_labels;
    double lo = 0, hi = 1;  // the colour scale's ends
};

namespace detail {

// Length of the well-formed UTF-8 sequence at s[i] (shortest form, no surrogates, ≤ U+10FFFF),
// or 0 when the bytes there are not one.
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    const std::size_t n = c >= 0xC2 && c <= 0xDF   ? 2
                          : c >= 0xE0 && c <= 0xEF ? 3
                          : c >= 0xF0 && c <= 0xF4 ? 4
                                                   : 0;
    if (n == 0 || i + n > s.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((b(i + k) & 0xC0) != 0x80)
            return 0;
    const unsigned char c1 = b(i + 1);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
        return 0;  // overlong, surrogate or past U+10FFFF
    return n;
}

// XML text: escapes markup; well-formed UTF-8 passes through; control characters and bytes that
// are not UTF-8 (a BPE piece may end inside a character) show as \xNN.
inline std::string escape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                if (const std::size_t n = c >= 0x80 ? utf8_length(s, i) : 0; n > 0) {
                    out += s.substr(i, n);
                    i += n - 1;
                } else if (c < 0x20 || c >= 0x7f) {
                    out += fmt::format("\\x{:02X}", c);
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out;
}

// 1, 2 or 5 times a power of ten, about n steps over [lo, hi].
inline std::vector<double> nice_ticks(double lo, double hi, int n = 5) {
    if (!(hi > lo))
        return {lo};
    const double raw = (hi - lo) / n;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        t.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return t;
}

inline const char* palette(std::size_t i) {
    static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    return colours[i % 8];
}

// White → dark blue.
inline std::string shade(double v) {
    v = std::clamp(v, 0.0, 1.0);
    auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * v)); };
    return fmt::format("#{:02x}{:02x}{:02x}", mix(255, 8), mix(255, 48), mix(255, 107));
}

}  // namespace detail

inline std::string line_svg(std::span<const series> data, const line_options& o = {}) {
    // The legend sits right of the plot; the canvas widens so the longest name fits (about 7 px
    // a character at 12 px sans-serif) and the plot keeps its width.
    std::size_t longest = 0;
    for (const auto& d : data)
        longest = std::max(longest, d.name.size());
    const double left = 70, right = std::max(150.0, 50 + 7.0 * static_cast<double>(longest)),
                 top = 40, bottom = 55;
    const double canvas = o.width - 150 + right;
    const double pw = o.width - left - 150, ph = o.height - top - bottom;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    auto ty = [&](double y) { return o.log_y ? std::log10(y) : y; };
    for (const auto& s : data)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.y[i]) || (o.log_y && s.y[i] <= 0))
                continue;
            x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
            y0 = std::min(y0, ty(s.y[i])), y1 = std::max(y1, ty(s.y[i]));
        }
    if (!(x1 >= x0))
        x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    if (x1 == x0)
        x1 = x0 + 1;
    if (y1 == y0)
        y0 -= 0.5, y1 += 0.5;
    if (o.log_y)
        y0 = std::floor(y0), y1 = std::ceil(y1);
    auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
    auto py = [&](double y) { return top + ph - (y - y0) / (y1 - y0) * ph; };

    std::string s = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)"
        "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        canvas, o.height);
    s += fmt::format(R"(<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>)"
                     "\n",
                     left + pw / 2, detail::escape(o.title));
    s += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black"/>)"
                     "\n",
                     left, top, pw, ph);
    for (double t : detail::nice_ticks(x0, x1))
        s += fmt::format(
            R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="black"/><text x="{0}" y="{3}" text-anchor="middle">{4:g}</text>)"
            "\n",
            px(t), top + ph, top + ph + 5, top + ph + 18, t);
    const std::vector<double> yt = o.log_y ? [&] {
        std::vector<double> v;
        for (double e = y0; e <= y1 + 1e-9; ++e)
            v.push_back(e);
        return v;
    }()
                                           : detail::nice_ticks(y0, y1);
    for (double t : yt)
        s += fmt::format(
            R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="black"/><line x1="{2}" y1="{1}" x2="{3}" y2="{1}" stroke="#dddddd"/><text x="{4}" y="{5}" text-anchor="end">{6:g}</text>)"
            "\n",
            left - 5, py(t), left, left + pw, left - 8, py(t) + 4, o.log_y ? std::pow(10.0, t) : t);
    s += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                     "\n",
                     left + pw / 2, o.height - 12, detail::escape(o.x_label));
    s += fmt::format(
        R"x(<text x="16" y="{0}" text-anchor="middle" transform="rotate(-90 16 {0})">{1}</text>)x"
        "\n",
        top + ph / 2, detail::escape(o.y_label) + (o.log_y ? " (log)" : ""));
    for (std::size_t k = 0; k < data.size(); ++k) {
        std::string pts;
        for (std::size_t i = 0; i < data[k].x.size() && i < data[k].y.size(); ++i)
            if (std::isfinite(data[k].y[i]) && (!o.log_y || data[k].y[i] > 0))
                pts += fmt::format("{:.2f},{:.2f} ", px(data[k].x[i]), py(ty(data[k].y[i])));
        s += fmt::format(
            R"(<polyline class="series" fill="none" stroke="{}" stroke-width="1.5" points="{}"/>)"
            "\n",
            detail::palette(k), pts);
        const double ly = top + 10 + 18 * static_cast<double>(k);
        s += fmt::format(
            R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="2"/><text class="legend" x="{4}" y="{5}">{6}</text>)"
            "\n",
            left + pw + 10, ly, left + pw + 30, detail::palette(k), left + pw + 35, ly + 4,
            detail::escape(data[k].name));
    }
    return s + "</svg>\n";
}

inline std::string heatmap_grid_svg(std::span<const heatmap> maps, std::size_t columns,
                                    std::string_view title = {}) {
    columns = std::max<std::size_t>(columns, 1);
    std::size_t n = 1;
    for (const auto& m : maps)
        n = std::max({n, m.rows, m.cols});
    const double cell = std::clamp(360.0 / static_cast<double>(n), 6.0, 28.0);
    const double margin = 56, pane = cell * static_cast<double>(n) + margin + 16;
    const std::size_t grid_rows = (maps.size() + columns - 1) / columns;
    const double width = pane * static_cast<double>(columns) + 10,
                 height = pane * static_cast<double>(grid_rows) + 40;
    const double font = std::min(cell * 0.7, 12.0);
    std::string s = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" font-family="monospace" font-size="{:.1f}">)"
        "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        width, height, font);
    s += fmt::format(
        R"(<text x="{}" y="20" text-anchor="middle" font-size="14" font-family="sans-serif">{}</text>)"
        "\n",
        width / 2, detail::escape(title));
    for (std::size_t k = 0; k < maps.size(); ++k) {
        const heatmap& m = maps[k];
        const double ox = pane * static_cast<double>(k % columns) + margin,
                     oy = 40 + pane * static_cast<double>(k / columns) + margin;
        s += fmt::format(
            R"(<g class="heatmap"><text x="{}" y="{}" font-family="sans-serif" font-size="12">{}</text>)"
            "\n",
            ox, oy - margin + 12, detail::escape(m.title));
        for (std::size_t c = 0; c < m.cols && c < m.col_labels.size(); ++c)  // labels on top
            s += fmt::format(
                R"(<text class="col-label" x="{0:.1f}" y="{1:.1f}" text-anchor="middle">{2}</text>)"
                "\n",
                ox + cell * (static_cast<double>(c) + 0.5), oy - 4,
                detail::escape(m.col_labels[c]));
        for (std::size_t r = 0; r < m.rows; ++r) {
            if (r < m.row_labels.size())
                s += fmt::format(
                    R"(<text class="row-label" x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)"
                    "\n",
                    ox - 4, oy + cell * (static_cast<double>(r) + 0.5) + font * 0.35,
                    detail::escape(m.row_labels[r]));
            for (std::size_t c = 0; c < m.cols; ++c) {
                const double v = m.values[r * m.cols + c];
                s += fmt::format(
                    R"(<rect class="cell" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"><title>{:.4f}</title></rect>)"
                    "\n",
                    ox + cell * static_cast<double>(c), oy + cell * static_cast<double>(r), cell,
                    cell, detail::shade((v - m.lo) / (m.hi - m.lo)), v);
            }
        }
        s += fmt::format(
            R"(<rect x="{}" y="{}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#888888"/></g>)"
            "\n",
            ox, oy, cell * static_cast<double>(m.cols), cell * static_cast<double>(m.rows));
    }
    return s + "</svg>\n";
}

#if TYPEFORMER_HAS_EXCEPTIONS
inline void write(const std::filesystem::path& path, std::string_view svg) {
    const auto r = io::write_atomically(path, [&](std::FILE* f) {  // atomic_file.hpp
        return std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
    });
    if (!r)
        throw io::error(io::status::io_error,
                        "plot: cannot write " + path.string() + ": " + r.reason());
}
#endif

}  // namespace typeformer::plot
