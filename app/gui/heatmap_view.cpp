#include "heatmap_view.hpp"

#include <algorithm>
#include <cmath>

namespace ts::app {

CanvasTransform zoomAt(const CanvasTransform& t, ImVec2 at, float factor, float least, float most)
{
    if (!(factor > 0.0f) || !std::isfinite(factor)) return t;
    const ImVec2 p = t.toFit(at);
    CanvasTransform out = t;
    out.zoom = std::clamp(t.zoom * factor, least, most);
    // The fit point p stays at `at`: at = origin + p * zoom - pan.
    out.pan = ImVec2(t.origin.x + p.x * out.zoom - at.x, t.origin.y + p.y * out.zoom - at.y);
    return out;
}

CanvasTransform dragBy(const CanvasTransform& t, ImVec2 delta)
{
    CanvasTransform out = t;
    out.pan = ImVec2(t.pan.x - delta.x, t.pan.y - delta.y);
    return out;
}

CanvasTransform fitted(const CanvasTransform& t)
{
    CanvasTransform out = t;
    out.zoom = 1.0f;
    out.pan = ImVec2(0, 0);
    return out;
}

CanvasTransform clampPan(const CanvasTransform& t, ImVec2 lo, ImVec2 hi, ImVec2 size, float keep)
{
    CanvasTransform out = t;
    auto axis = [&](float lo1, float hi1, float extent, float pan) {
        // On screen the picture spans [lo1 * zoom - pan, hi1 * zoom - pan] from the origin.
        const float a = lo1 * t.zoom, b = hi1 * t.zoom;
        const float k = std::min(keep, std::min(b - a, extent));
        // Its right end at least k inside the left edge, its left end at least k inside the right.
        const float least = a - (extent - k), most = b - k;
        return least <= most ? std::clamp(pan, least, most) : pan;
    };
    out.pan.x = axis(lo.x, hi.x, size.x, t.pan.x);
    out.pan.y = axis(lo.y, hi.y, size.y, t.pan.y);
    return out;
}

ScreenGrid onScreen(const CanvasTransform& t, const GridPlace& g)
{
    return ScreenGrid{t.toScreen(g.corner), ImVec2(g.cell.x * t.zoom, g.cell.y * t.zoom)};
}

std::optional<std::pair<int, int>> elementAt(const CanvasTransform& t, const GridPlace& g, ImVec2 s)
{
    const ScreenGrid sg = onScreen(t, g);
    const double col = std::floor((static_cast<double>(s.x) - sg.corner.x) / sg.cell.x);
    const double row = std::floor((static_cast<double>(s.y) - sg.corner.y) / sg.cell.y);
    if (!(row >= 0 && col >= 0 && row < g.rows && col < g.cols)) return std::nullopt;
    return std::pair<int, int>(static_cast<int>(row), static_cast<int>(col));
}

std::optional<VisiblePart> visiblePart(ImVec2 corner, ImVec2 cell, int rows, int cols, ImVec2 clipLo, ImVec2 clipHi)
{
    if (!(cell.x > 0.0f) || !(cell.y > 0.0f) || rows <= 0 || cols <= 0) return std::nullopt;
    const float x0 = std::max(clipLo.x, corner.x), y0 = std::max(clipLo.y, corner.y);
    const float x1 = std::min(clipHi.x, corner.x + cols * cell.x), y1 = std::min(clipHi.y, corner.y + rows * cell.y);
    VisiblePart v;
    v.x = static_cast<int>(std::floor(x0));
    v.y = static_cast<int>(std::floor(y0));
    v.width = static_cast<int>(std::ceil(x1)) - v.x;
    v.height = static_cast<int>(std::ceil(y1)) - v.y;
    if (x1 <= x0 || y1 <= y0 || v.width <= 0 || v.height <= 0) return std::nullopt;
    v.firstCol = (static_cast<float>(v.x) - corner.x) / cell.x;
    v.firstRow = (static_cast<float>(v.y) - corner.y) / cell.y;
    return v;
}

}  // namespace ts::app
