// A small plotting layer for what people look at: SVG line plots (loss curves). Host only, the
// standard library and fmt; the file opens in any browser.
//
//   series{name, xs, ys}                     one curve
//   line_plot{title, x_label, y_label, log_y, series}
//   write_svg(plot, path)                    atomic (temp + rename); throws std::runtime_error
//   to_svg(plot) -> std::string
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace typeformer::io {

struct series {
    std::string name;
    std::vector<double> xs, ys;
};

struct line_plot {
    std::string title, x_label, y_label;
    bool log_y = false;
    std::vector<series> lines;
};

namespace detail {

inline std::string xml_escape(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// About n "nice" tick values (1, 2, 5 × 10^k steps) covering [lo, hi].
inline std::vector<double> ticks(double lo, double hi, int n = 6) {
    const double span = hi - lo > 0 ? hi - lo : 1.0;
    const double raw = span / n;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 1.5   ? mag
                        : raw / mag < 3.5 ? 2 * mag
                        : raw / mag < 7.5 ? 5 * mag
                                          : 10 * mag;
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step)
        t.push_back(std::fabs(v) < 1e-12 * step ? 0.0 : v);
    return t;
}

}  // namespace detail

inline std::string to_svg(const line_plot& p) {
    constexpr double W = 800, H = 480, left = 70, right = 20, top = 40, bottom = 60;
    constexpr const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"};
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    auto ty = [&](double y) { return p.log_y ? std::log10(std::max(y, 1e-300)) : y; };
    for (const auto& s : p.lines)
        for (std::size_t i = 0; i < std::min(s.xs.size(), s.ys.size()); ++i) {
            if (!std::isfinite(s.ys[i]))
                continue;
            x0 = std::min(x0, s.xs[i]), x1 = std::max(x1, s.xs[i]);
            y0 = std::min(y0, ty(s.ys[i])), y1 = std::max(y1, ty(s.ys[i]));
        }
    if (!(x0 <= x1))
        x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    if (x1 == x0)
        x1 = x0 + 1;
    if (y1 == y0)
        y1 = y0 + 1;
    const double pad = 0.05 * (y1 - y0);
    y0 -= pad, y1 += pad;
    auto X = [&](double x) { return left + (x - x0) / (x1 - x0) * (W - left - right); };
    auto Y = [&](double y) { return H - bottom - (ty(y) - y0) / (y1 - y0) * (H - top - bottom); };
    std::string svg = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" font-size="13">)"
        "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        W, H, W, H);
    svg += fmt::format(R"(<text x="{}" y="24" text-anchor="middle" font-size="16">{}</text>)"
                       "\n",
                       W / 2, detail::xml_escape(p.title));
    // axes, ticks and grid
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black"/>)"
                       "\n",
                       left, top, W - left - right, H - top - bottom);
    for (const double t : detail::ticks(x0, x1)) {
        svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#ddd"/>)"
                           R"(<text x="{0:.1f}" y="{3}" text-anchor="middle">{4:g}</text>)"
                           "\n",
                           X(t), top, H - bottom, H - bottom + 18, t);
    }
    for (const double t : detail::ticks(y0, y1)) {
        const double y = H - bottom - (t - y0) / (y1 - y0) * (H - top - bottom);
        const double label = p.log_y ? std::pow(10.0, t) : t;
        svg += fmt::format(R"(<line x1="{1}" y1="{0:.1f}" x2="{2}" y2="{0:.1f}" stroke="#ddd"/>)"
                           R"(<text x="{3}" y="{4:.1f}" text-anchor="end">{5:.3g}</text>)"
                           "\n",
                           y, left, W - right, left - 6, y + 4, label);
    }
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                       "\n",
                       (left + W - right) / 2, H - 18, detail::xml_escape(p.x_label));
    svg += fmt::format(
        R"svg(<text x="18" y="{0}" text-anchor="middle" transform="rotate(-90 18 {0})">{1}</text>)svg"
        "\n",
        (top + H - bottom) / 2, detail::xml_escape(p.y_label));
    // the curves and the legend (its width from the longest name, ~7 px a character)
    std::size_t longest = 0;
    for (const auto& s : p.lines)
        longest = std::max(longest, s.name.size());
    const double legend_x = W - right - 40 - 7.0 * static_cast<double>(longest);
    for (std::size_t k = 0; k < p.lines.size(); ++k) {
        const auto& s = p.lines[k];
        const char* color = colors[k % std::size(colors)];
        std::string points;
        for (std::size_t i = 0; i < std::min(s.xs.size(), s.ys.size()); ++i)
            if (std::isfinite(s.ys[i]))
                points += fmt::format("{:.1f},{:.1f} ", X(s.xs[i]), Y(s.ys[i]));
        svg += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="1.8" points="{}"/>)"
                           "\n",
                           color, points);
        const double ly = top + 18 + 18 * static_cast<double>(k);
        svg += fmt::format(
            R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="3"/>)"
            R"(<text x="{4}" y="{5}">{6}</text>)"
            "\n",
            legend_x, ly, legend_x + 25, color, legend_x + 32, ly + 4, detail::xml_escape(s.name));
    }
    svg += "</svg>\n";
    return svg;
}

inline void write_svg(const line_plot& p, const std::filesystem::path& path) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        const std::string s = to_svg(p);
        f.write(s.data(), static_cast<std::streamsize>(s.size()));
        f.flush();
        if (!f)
            throw std::runtime_error("write_svg: cannot write " + tmp.string());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        throw std::runtime_error("write_svg: cannot rename over " + path.string());
}

}  // namespace typeformer::io
