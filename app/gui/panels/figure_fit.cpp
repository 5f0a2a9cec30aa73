// Cell sizes and value fonts for figures of square cells (figure_fit.hpp).
#include "figure_fit.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace ts::app {
namespace {

float extent(const std::vector<FigureSpan>& spans, float fixed, float cell)
{
    float px = fixed;
    for (const FigureSpan& s : spans) px += std::max(s.cells * cell, s.least);
    return px;
}

float cellsOf(const std::vector<FigureSpan>& spans)
{
    float n = 0;
    for (const FigureSpan& s : spans) n += s.cells;
    return n;
}

}  // namespace

float figureWidth(const FigureShape& s, float cell) { return extent(s.across, s.fixedWide, cell); }

float figureHeight(const FigureShape& s, float cell) { return extent(s.down, s.fixedHigh, cell); }

float fitCell(const FigureShape& s, float width, float height, float most)
{
    if (cellsOf(s.across) <= 0 || cellsOf(s.down) <= 0 || most <= 0) return 0;
    auto fits = [&](float cell) { return figureWidth(s, cell) <= width && figureHeight(s, cell) <= height; };
    if (!fits(0)) return 0;
    if (fits(most)) return most;
    // Width and height grow with the cell size (piecewise linear), so the largest size that
    // fits is found by halving the interval [fits, does not fit].
    float lo = 0, hi = most;
    while (hi - lo > 1.0f / 64) {
        const float mid = (lo + hi) * 0.5f;
        (fits(mid) ? lo : hi) = mid;
    }
    return std::floor(lo * 64) / 64;
}

CellSize fitCells(const FigureShape& s, float width, float height, float most, float stretch)
{
    const float side = fitCell(s, width, height, most);
    if (side <= 0) return {};
    // Each axis on its own: the largest cell that fits its length, between the square's side
    // and `stretch` times it (fitCell() with the other axis unbounded).
    const float longest = std::max(side, std::min(most, side * std::max(1.0f, stretch)));
    const float w = std::clamp(fitCell(s, width, FLT_MAX, longest), side, longest);
    const float h = std::clamp(fitCell(s, FLT_MAX, height, longest), side, longest);
    return CellSize{w, h};
}

int valueChars(float largest, bool negative, int decimals)
{
    if (!std::isfinite(largest) || largest < 0) largest = 0;
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, static_cast<double>(largest));
    return n + (negative ? 1 : 0);
}

ValueFormat valueFormat(float cell, float margin, std::span<const float> advances, float largest, bool negative,
                        bool largestFont)
{
    auto fits = [&](size_t f, int d) {
        return static_cast<float>(valueChars(largest, negative, d)) * advances[f] <= cell - margin;
    };
    if (largestFont) {
        for (size_t f = 0; f < advances.size(); ++f)
            for (int d = 3; d >= 1; --d)
                if (fits(f, d)) return ValueFormat{static_cast<int>(f), d};
        return ValueFormat{};
    }
    // Two decimals in a smaller font before one in a larger: the Shared memory panel and the
    // tooltips write two or three, and a value should read the same everywhere.
    for (size_t f = 0; f < advances.size(); ++f)
        for (int d = 3; d >= 2; --d)
            if (fits(f, d)) return ValueFormat{static_cast<int>(f), d};
    for (size_t f = 0; f < advances.size(); ++f)
        if (fits(f, 1)) return ValueFormat{static_cast<int>(f), 1};
    return ValueFormat{};
}

}  // namespace ts::app
