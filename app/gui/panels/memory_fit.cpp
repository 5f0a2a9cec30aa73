#include "memory_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ts::app {
namespace {

void check(const WarpPictureInput& in)
{
    for (const auto& [v, name] : {std::pair{in.width, "width"}, std::pair{in.font, "font"}, std::pair{in.unit, "unit"}})
        if (!(v >= 0) || !std::isfinite(v))
            throw std::invalid_argument(std::string("warpPictureSize: ") + name +
                                        " must be a size of 0 pixels or more, not " + std::to_string(v) + ".");
    if (in.rows < 1)
        throw std::invalid_argument("warpPictureSize: rows must be 1 or more, not " + std::to_string(in.rows) + ".");
}

/// Each part's least and most.
struct Range {
    float lanesMin, lanesMax, perRow, bottom;
    float gapMin, gapMax, cellMin, cellMax;
};

Range rangeOf(const WarpPictureInput& in)
{
    const float u = in.unit, fs = in.font;
    Range r;
    r.lanesMin = fs + 6 * u;
    r.lanesMax = 2 * fs + 6 * u;
    r.perRow = in.global ? 2 * (fs + 3 * u) + 4 * u : 0;
    r.bottom = in.global ? 0 : fs + 3 * u;
    r.gapMin = in.connectors ? 10 * u : 6 * u;
    // Long connectors show where each lane goes: up to half the width.
    r.gapMax = in.connectors ? std::max(48 * u, 0.5f * in.width) : 6 * u;
    // Cells hold their lanes' label where they are tall enough; a deep conflict draws bars.
    r.cellMin = in.global || in.rows <= 2 ? fs + 4 * u : 8 * u;
    r.cellMax = in.rows <= 8 ? std::max(r.cellMin, 3 * fs) : r.cellMin;
    return r;
}

}  // namespace

WarpPictureSize warpPictureSize(const WarpPictureInput& in)
{
    check(in);
    const Range r = rangeOf(in);
    const float fixed = in.rows * r.perRow + r.bottom;
    return {fixed + r.lanesMin + r.gapMin + in.rows * r.cellMin, fixed + r.lanesMax + r.gapMax + in.rows * r.cellMax};
}

WarpPictureParts splitWarpPicture(const WarpPictureInput& in, float height)
{
    if (!(height >= 0) || !std::isfinite(height))
        throw std::invalid_argument("splitWarpPicture: height must be a size of 0 pixels or more, not " +
                                    std::to_string(height) + ".");
    const WarpPictureSize size = warpPictureSize(in);
    const Range r = rangeOf(in);
    const float t = size.want > size.min ? std::clamp((height - size.min) / (size.want - size.min), 0.0f, 1.0f) : 0.0f;
    WarpPictureParts p;
    p.lanes = r.lanesMin + t * (r.lanesMax - r.lanesMin);
    p.gap = r.gapMin + t * (r.gapMax - r.gapMin);
    p.cell = r.cellMin + t * (r.cellMax - r.cellMin);
    p.perRow = r.perRow;
    p.bottom = r.bottom;
    // Above the wanted height the picture still fills its room: the rest goes half to the
    // connectors (where there are any) and half to the rows' cells, so that a slide's tall
    // panel shows taller bank cells and longer lines rather than an empty band.
    if (height > size.want) {
        const float extra = height - size.want;
        const float toGap = in.connectors ? 0.5f * extra : 0.0f;
        p.gap += toGap;
        p.cell += (extra - toGap) / static_cast<float>(in.rows);
    }
    return p;
}

}  // namespace ts::app
