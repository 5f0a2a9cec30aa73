#include "conv_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ts::app {
namespace {

/// Cells may be this much taller than wide (or wider than tall) in 2D, to fill the room.
constexpr float kAspect2D = 1.2f;
/// 1D rows may be this many times as tall as their cells are wide.
constexpr float kAspect1D = 3.0f;

void check(const ConvFitInput& in)
{
    auto size = [](float v, const char* name) {
        if (!(v >= 0) || !std::isfinite(v))
            throw std::invalid_argument(std::string("fitConvBoards: ") + name + " must be a size of 0 pixels or more, not " +
                                        std::to_string(v) + ".");
    };
    size(in.width, "width");
    size(in.height, "height");
    size(in.label, "label");
    size(in.gap, "gap");
    size(in.mostCell, "mostCell");
    auto count = [](int v, int least, const char* name) {
        if (v < least)
            throw std::invalid_argument(std::string("fitConvBoards: ") + name + " must be " + std::to_string(least) +
                                        " or more, not " + std::to_string(v) + ".");
    };
    count(in.nRows, 1, "nRows");
    count(in.nCols, 1, "nCols");
    count(in.mask, 1, "mask");
    count(in.ndsRows, 0, "ndsRows");
    count(in.ndsCols, 0, "ndsCols");
    if ((in.ndsRows == 0) != (in.ndsCols == 0))
        throw std::invalid_argument("fitConvBoards: N_ds must have both rows and columns, or neither (" +
                                    std::to_string(in.ndsRows) + " x " + std::to_string(in.ndsCols) + ").");
}

ConvFit fit1D(const ConvFitInput& in)
{
    ConvFit f;
    const bool nds = in.ndsCols > 0;
    const float L = in.label, g = in.gap;
    const float most = std::max(in.mostCell, kLeastFitCell);
    const float w = std::clamp(in.width / in.nCols, kLeastFitCell, most);
    const float mw = std::clamp(in.width / in.mask, kLeastFitCell, most * 1.125f);
    // N's label, the index row, N_ds's gap and label, M's and P's.
    const float fixed = 2 * L + (nds ? g + L : 0) + 2 * (g + L);
    const int k = nds ? 3 : 2;   // rows of N's cells: N, N_ds, P
    const float room = in.height - fixed;
    float h = room / (k + 1);
    float mh = std::min(h, mw);
    h = std::clamp((room - mh) / k, kLeastFitCell, std::min(kAspect1D * w, kAspect1D * most));
    mh = std::clamp(std::min(mw, h), kLeastFitCell, mw);
    // What the rows leave goes between them (at most two label rows each), so that the
    // figure spans the canvas.
    const int gaps = k;   // N_ds, M, P start after one
    const float extra = std::clamp((room - k * h - mh) / gaps, 0.0f, 2 * L);
    f.n = FitBoard{0, L, w, h, 1, in.nCols};
    f.indicesY = f.n.bottom();
    float y = f.indicesY + L;
    if (nds) {
        f.nds = FitBoard{0, y + g + extra + L, w, h, 1, in.ndsCols};
        y = f.nds.bottom();
    } else {
        f.nds = FitBoard{0, y, w, h, 0, 0};
    }
    f.m = FitBoard{0, y + g + extra + L, mw, mh, 1, in.mask};
    f.p = FitBoard{0, f.m.bottom() + g + extra + L, w, h, 1, in.nCols};
    f.right = std::max(f.n.right(), f.m.right());
    f.bottom = f.p.bottom();
    return f;
}

/// 2D, arrangement `a`: the cells' width and height that fill the canvas, before the
/// aspect limits.
void cells2D(const ConvFitInput& in, int a, int mid, float grow, float& cw, float& ch)
{
    const float L = in.label, g = in.gap;
    const int ndsRows = in.ndsRows;
    if (a == 0) {
        // N | N_ds over M | P: M as wide as N_ds (mid columns of cells), square in cells;
        // the middle column's cells `grow` times N's.
        cw = (in.width - 2 * g) / (2 * in.nCols + mid * grow);
        const float middle = ndsRows > 0 ? (in.height - 2 * L - g) / ((ndsRows + mid) * grow) : (in.height - L) / (mid * grow);
        ch = std::min((in.height - L) / in.nRows, middle);
    } else {
        // N | N_ds over M | P, in two rows: M under N, P under N_ds; `grow` is 1.
        cw = (in.width - g) / (2 * in.nCols);
        const int top = std::max(in.nRows, ndsRows);
        ch = (in.height - 2 * L - g) / (top + std::max(in.nRows, mid));
    }
}

ConvFit place2D(const ConvFitInput& in, int a, int mid, float grow, float cw, float ch)
{
    ConvFit f;
    f.arrangement = a;
    const float L = in.label, g = in.gap;
    const bool nds = in.ndsCols > 0;
    // The mask's cells: M spans `mid` of N's cells across and down.
    const float mw = grow * cw * mid / in.mask, mh = grow * ch * mid / in.mask;
    if (a == 0) {
        const float used = (2 * in.nCols + mid * grow) * cw;
        const float spread = std::clamp((in.width - used) / 2 - g, 0.0f, 4 * g);
        f.n = FitBoard{0, L, cw, ch, in.nRows, in.nCols};
        const float x1 = f.n.right() + g + spread;
        f.nds = FitBoard{x1, L, grow * cw, grow * ch, in.ndsRows, in.ndsCols};
        f.m = FitBoard{x1, nds ? f.nds.bottom() + g + L : L, mw, mh, in.mask, in.mask};
        // M at the bottom of its column when the column is shorter than N.
        const float low = f.n.bottom() - f.m.rows * mh;
        if (nds && low > f.m.y) f.m.y = low;
        f.p = FitBoard{x1 + mid * grow * cw + g + spread, L, cw, ch, in.nRows, in.nCols};
    } else {
        const int top = std::max(in.nRows, in.ndsRows);
        const float usedH = (top + std::max(in.nRows, mid)) * ch + 2 * L + g;
        const float spreadY = std::clamp(in.height - usedH, 0.0f, 4 * g);
        const float spreadX = std::clamp(in.width - 2 * in.nCols * cw - g, 0.0f, 4 * g);
        f.n = FitBoard{0, L, cw, ch, in.nRows, in.nCols};
        const float x1 = f.n.right() + g + spreadX;
        f.nds = FitBoard{x1, L, cw, ch, in.ndsRows, in.ndsCols};
        const float y2 = L + top * ch + g + spreadY + L;
        f.m = FitBoard{0, y2, mw, mh, in.mask, in.mask};
        f.p = FitBoard{x1, y2, cw, ch, in.nRows, in.nCols};
    }
    f.right = std::max({f.n.right(), f.nds.right(), f.m.right(), f.p.right()});
    f.bottom = std::max({f.n.bottom(), f.nds.bottom(), f.m.bottom(), f.p.bottom()});
    return f;
}

}  // namespace

ConvFit fitConvBoards(const ConvFitInput& in)
{
    check(in);
    if (!in.twoD) return fit1D(in);
    // M's columns of N's cells: as wide as N_ds, or half of N without one.
    const int mid = in.ndsCols > 0 ? in.ndsCols : std::max(1, in.nCols / 2);
    const float most = std::max(in.mostCell, kLeastFitCell);
    // The arrangement whose cells are largest, weighed by how much of the canvas it covers.
    ConvFit best;
    float bestScore = -1;
    // The wide arrangement may give N_ds and M up to twice N's cells, where the height
    // would otherwise go unused.
    for (int step = 0; step <= 11; ++step) {
        const int a = step <= 10 ? 0 : 1;
        const float grow = a == 0 ? 1.0f + 0.1f * step : 1.0f;
        float cw, ch;
        cells2D(in, a, mid, grow, cw, ch);
        cw = std::clamp(std::min(cw, ch * kAspect2D), kLeastFitCell, most);
        ch = std::clamp(std::min(ch, cw * kAspect2D), kLeastFitCell, most);
        const ConvFit f = place2D(in, a, mid, grow, cw, ch);
        const float covered = std::min(f.right, in.width) * std::min(f.bottom, in.height);
        const float score = cw * ch * covered;
        if (score > bestScore) {
            best = f;
            bestScore = score;
        }
    }
    return best;
}

float smallestCell(const ConvFit& f)
{
    float least = std::min({f.n.cellW, f.n.cellH, f.p.cellW, f.p.cellH});
    if (f.nds.cols > 0) least = std::min({least, f.nds.cellW, f.nds.cellH});
    return least;
}

float wantedConvHeight(const ConvFitInput& in)
{
    check(in);
    // Boards grow with the height until the width or the aspect limits stop them; find where
    // by bisection on the area of N's cells (which never shrinks as the canvas grows).
    auto area = [](const ConvFit& f) { return f.n.cellW * f.n.cellH; };
    ConvFitInput t = in;
    t.height = 4 * std::max(in.width, 1.0f) + 8 * in.label + 100;
    const float most = area(fitConvBoards(t));
    float lo = 0, hi = t.height;
    for (int i = 0; i < 40; ++i) {
        t.height = (lo + hi) / 2;
        (area(fitConvBoards(t)) >= most * 0.999f ? hi : lo) = t.height;
    }
    t.height = hi;
    return std::ceil(fitConvBoards(t).bottom);
}

}  // namespace ts::app
