// The Convolution panel's overview (app/gui/panels/conv_panel.cpp): the whole N and P of a
// large input above the close-up (1D: strips, 2D: squares), drawn by the heatmap shaders or
// in bins, with white frames round the close-up's part, labels, a note, hover and click.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cell_canvas.hpp"
#include "conv_panel_internal.hpp"
#include "heatmap.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app::conv_detail {

namespace {

/// Whether P element `idx` as shown at the cursor differs from the CPU reference, bit for
/// bit: the traced block's elements once stored, the others' final values.
bool wrongP(const Ctx& c, int32_t idx, const sim::ElementView* e, bool inBlock)
{
    if (inBlock && !(e && e->stored)) return false;
    const float v = e && e->stored ? e->storedValue : c.s.P[idx];
    return static_cast<size_t>(idx) < c.s.reference.size() && std::memcmp(&v, &c.s.reference[idx], sizeof v) != 0;
}

/// Whether (row, col) of P is one of the traced block's outputs.
bool inBlockP(const sim::ConvGeometry& g, int row, int col)
{
    return row >= g.outRow0 && row < g.outRow0 + g.outRows && col >= g.outCol0 && col < g.outCol0 + g.outCols;
}

/// The flags (HeatFlag per element, row-major, height x width) of N or P at the cursor. N:
/// what the traced block loaded (this phase, this step, earlier) and what sits in N_ds, an
/// element read through its N_ds slot by this step counting as read now. P: the block's
/// outputs, stored ones, and elements that differ from the CPU reference.
std::vector<uint8_t> overviewFlags(const Ctx& c, bool isP, OverviewImage& oi)
{
    const sim::ConvGeometry& g = c.v.geo;
    const size_t n = static_cast<size_t>(g.height) * g.width;
    std::vector<uint8_t> flags;
    if (isP)
        flags = pBaseFlags(oi, c.f.loaded.generation, g.height, g.width,
                           sim::TileRect{g.outRow0, g.outCol0, g.outRows, g.outCols}, c.s.matchesReference,
                           [&](int32_t idx) { return wrongP(c, idx, nullptr, false); });
    else
        flags.assign(n, 0);
    WrongAtCursor wrong;
    if (isP)
        wrong = [&](int32_t idx, const sim::ElementView& e, uint8_t b) {
            return wrongP(c, idx, &e, (b & kInBlock) != 0);
        };
    addReplayFlags(flags, c.f.replay.elements[isP ? c.v.pArray : c.v.nArray], true, wrong);
    if (!isP && c.v.ndsArray >= 0)
        for (const sim::SlotView& sv : c.f.replay.slots[c.v.ndsArray])
            if (sv.readNow && sv.sourceArray == c.v.nArray && sv.sourceIndex >= 0 && static_cast<size_t>(sv.sourceIndex) < n)
                flags[sv.sourceIndex] |= kReadNow;
    return flags;
}

/// Level `level` of a pyramid of `rows` x `cols` elements, its row repeated `repeat` times
/// (1D strips; `rows` is then 1).
template <class T>
std::vector<T> texels(const std::vector<std::vector<T>>& pyramid, int level, int repeat)
{
    const std::vector<T>& row = pyramid[std::min<size_t>(level, pyramid.size() - 1)];
    std::vector<T> out;
    out.reserve(row.size() * repeat);
    for (int i = 0; i < repeat; ++i) out.insert(out.end(), row.begin(), row.end());
    return out;
}

int log2Of(int powerOfTwo)
{
    int l = 0;
    while ((1 << l) < powerOfTwo) ++l;
    return l;
}

/// Draws overview `p` through the heatmap shaders. Returns false when the GPU cannot draw it
/// (the caller draws bins instead); `why` then says why.
bool drawOverviewGpu(const Ctx& c, const Overview& p, OverviewImage& oi, HeatmapRenderer& renderer, std::string& why)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float fb = framebufferScale();
    const int wPx = std::max(1, static_cast<int>(std::lround(p.w * fb)));
    const int hPx = std::max(1, static_cast<int>(std::lround(p.h * fb)));
    // 1D: about one texel per pixel across, repeated down the strip.
    int factor = 1, repeat = 1;
    if (!g.twoD) {
        while (g.width / (factor * 2) >= wPx) factor *= 2;
        const int texCols = (g.width + factor - 1) / factor;
        repeat = std::max(1, static_cast<int>(std::ceil(hPx / (static_cast<float>(wPx) / texCols))));
    } else {
        factor = oi.factor;   // 1 unless the driver refused the whole array before
    }
    const uint64_t gen = c.f.loaded.generation;
    const int texCols0 = (g.width + factor - 1) / factor;
    if (oi.flagsStale(g.twoD ? (g.height + factor - 1) / factor : repeat, texCols0, gen, c.f.view.cursor) ||
        oi.factor != factor || oi.repeat != repeat) {
        const std::vector<uint8_t> flags = overviewFlags(c, p.isP, oi);
        std::vector<std::vector<uint8_t>> pyramid;
        for (;;) {
            const int texRows = g.twoD ? (g.height + factor - 1) / factor : repeat;
            const int texCols = (g.width + factor - 1) / factor;
            bool ok;
            if (factor == 1 && repeat == 1) {
                ok = oi.image.setFlags(texRows, texCols, flags);
            } else {
                if (pyramid.empty()) pyramid = flagPyramid(flags, g.twoD ? g.height : 1, g.width);
                ok = oi.image.setFlags(texRows, texCols, texels(pyramid, log2Of(factor), repeat));
            }
            if (ok) break;
            if (!g.twoD || factor >= (1 << 10)) {
                why = "an array of " + std::to_string(g.height) + " x " + std::to_string(g.width) +
                      " elements is larger than the OpenGL driver's largest texture";
                return false;
            }
            factor *= 2;   // a smaller picture of the same array
        }
        if (oi.factor != factor || oi.repeat != repeat) oi.scalarGeneration = ~0ull;
        oi.factor = factor;
        oi.repeat = repeat;
        oi.flagsUploaded(gen, c.f.view.cursor);
    }
    const HeatMode mode = c.f.view.heatmap && !p.isP ? HeatMode::Loads : HeatMode::State;
    if (mode == HeatMode::Loads && oi.scalarGeneration != gen) {
        const std::vector<uint32_t>& n = c.s.counters.elementLoads[c.v.nArray];
        std::vector<float> v(n.begin(), n.end());
        v.resize(static_cast<size_t>(g.height) * g.width, 0.0f);
        if (factor == 1 && repeat == 1) oi.image.setScalars(v, true);
        else oi.image.setScalars(texels(scalarPyramid(v, g.twoD ? g.height : 1, g.width, true), log2Of(factor), repeat), true);
        oi.scalarGeneration = gen;
    }
    HeatView v;
    // 1D: square texels across the strip, repeated down it.
    const float across1D = static_cast<float>(wPx) / ((g.width + factor - 1) / factor);
    v.cellW = g.twoD ? p.cellW() * fb * factor : across1D;
    v.cellH = g.twoD ? p.cellH() * fb * factor : across1D;
    v.width = wPx;
    v.height = hPx;
    v.mode = mode;
    v.isP = p.isP;
    v.lo = 0;
    v.hi = static_cast<float>(c.ov->loadsMax);
    return showHeatPicture(c.dl, renderer, oi.image, v, c.f.theme.palette, p.origin,
                           ImVec2(p.origin.x + wPx / fb, p.origin.y + hPx / fb), why);
}

/// Draws overview `p` in bins of many elements with ImGui rectangles (at most 14 x 14 in 2D,
/// 128 in 1D), each showing the most telling state of its elements, or the most global loads
/// of one of them with the heatmap on; never a rectangle per element.
void drawOverviewBins(const Ctx& c, const Overview& p, OverviewBins& bins)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const int br = std::min(p.rows, g.twoD ? 14 : 1), bc = std::min(p.cols, g.twoD ? 14 : 128);
    auto binOf = [&](int32_t idx) {
        const long long r = idx / g.width, col = idx % g.width;
        return static_cast<size_t>(r * br / p.rows * bc + col * bc / p.cols);
    };
    if (bins.generation != c.f.loaded.generation || bins.rows != br || bins.cols != bc) {
        bins = OverviewBins{c.f.loaded.generation, br, bc, {}, {}};
        bins.loads.assign(static_cast<size_t>(br) * bc, 0);
        bins.wrong.assign(bins.loads.size(), 0);
        if (p.isP) {
            if (!c.s.matchesReference)
                for (int32_t idx = 0; idx < g.height * g.width; ++idx)
                    if (!inBlockP(g, idx / g.width, idx % g.width) && wrongP(c, idx, nullptr, false)) bins.wrong[binOf(idx)] = 1;
        } else {
            const std::vector<uint32_t>& n = c.s.counters.elementLoads[c.v.nArray];
            for (size_t i = 0; i < n.size(); ++i) {
                uint32_t& m = bins.loads[binOf(static_cast<int32_t>(i))];
                m = std::max(m, n[i]);
            }
        }
    }
    const bool heat = c.f.view.heatmap && !p.isP;
    std::vector<ImU32> colour(bins.loads.size(), pal.cell);
    std::vector<int> prio(colour.size(), 0);
    std::vector<uint8_t> now(colour.size(), 0);
    for (size_t b = 0; b < colour.size(); ++b) {
        if (heat) colour[b] = heatColour(static_cast<float>(bins.loads[b]) / static_cast<float>(c.ov->loadsMax));
        if (bins.wrong[b]) {
            prio[b] = 5;
            colour[b] = pal.error;
        }
    }
    for (const auto& [idx, e] : c.f.replay.elements[p.isP ? c.v.pArray : c.v.nArray]) {
        if (idx < 0 || idx >= g.height * g.width) continue;
        const size_t b = binOf(idx);
        const bool wrong = p.isP && wrongP(c, idx, &e, true);
        const BinState st = binState(e, wrong, true, heat, pal);
        if (st.priority > prio[b]) {
            prio[b] = st.priority;
            colour[b] = st.colour;
        }
        // "This step" is a frame round the bin over its fill, never a fill (meanings.hpp).
        if (e.readNow && !wrong) now[b] = 1;
    }
    drawBinGrid(c.dl, colour, now, bc, 0, br, 0, bc, pal.readNow, [&](int r, int col) {
        return std::pair(ImVec2(p.origin.x + col * p.w / bc, p.origin.y + r * p.h / br),
                         ImVec2(p.origin.x + (col + 1) * p.w / bc, p.origin.y + (r + 1) * p.h / br));
    });
}

/// The white frame round elements [row0, row0 + rows) x [col0, col0 + cols) of overview
/// `p` (clipped to the array), grown about its centre to at least kMinMarker pixels a side,
/// with a dark line either side so that it reads on the colour map's yellow as on grey.
void overviewFrame(const Ctx& c, const Overview& p, int row0, int rows, int col0, int cols)
{
    const int r0 = std::max(0, row0), r1 = std::min(p.rows, row0 + rows);
    const int c0 = std::max(0, col0), c1 = std::min(p.cols, col0 + cols);
    if (r1 <= r0 || c1 <= c0) return;
    ImVec2 a = p.at(static_cast<float>(r0), static_cast<float>(c0)), b = p.at(static_cast<float>(r1), static_cast<float>(c1));
    a = ImVec2(a.x - 2, a.y - 2);
    b = ImVec2(b.x + 2, b.y + 2);
    growToAtLeast(a, b, kMinMarker * c.f.theme.scale);
    // Inside the picture's edge (2 px out) where the picture is large enough: a frame at a
    // corner of N stays off the label.
    auto inside = [](float& lo, float& hi, float first, float last) {
        if (hi - lo > last - first) return;
        if (lo < first) { hi += first - lo; lo = first; }
        if (hi > last) { lo -= hi - last; hi = last; }
    };
    inside(a.x, b.x, p.origin.x - 2, p.origin.x + p.w + 2);
    inside(a.y, b.y, p.origin.y - 2, p.origin.y + p.h + 2);
    const ImU32 shade = IM_COL32(0, 0, 0, 200);
    const float t = 2.5f * std::max(1.0f, c.f.theme.scale * 0.75f);
    c.dl->AddRect(ImVec2(a.x - 1.5f, a.y - 1.5f), ImVec2(b.x + 1.5f, b.y + 1.5f), shade, 0, 0, t + 2.0f);
    c.dl->AddRect(a, b, c.f.theme.palette.selected, 0, 0, t);
}

/// The tooltip of an element of N on the overview: its name, value and global loads.
void tooltipOverviewN(const Ctx& c, int r, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const int32_t idx = r * g.width + col;
    const sim::Uint3 b = c.s.trace.block;
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    ImGui::TextUnformatted(sim::convElementName(g, r, col).c_str());
    ImGui::PopFont();
    ImGui::Text("value %.6g", c.s.N[idx]);
    ImGui::Text("global loads by the whole grid, all steps: %u (simulated)", c.s.counters.elementLoads[c.v.nArray][idx]);
    const sim::ElementView& e = c.f.replay.element(c.v.nArray, idx);
    if (g.twoD) ImGui::Text("global loads by block (%u, %u) up to this step: %u", b.x, b.y, e.loadsSoFar);
    else ImGui::Text("global loads by block %u up to this step: %u", b.x, e.loadsSoFar);
    if (g.role(r, col) != sim::ConvRole::Outside) ImGui::TextUnformatted(roleName(g.role(r, col)));
    if (e.readNow) ImGui::TextUnformatted("read from global memory by this step");
    ImGui::EndTooltip();
}

/// The 1D strips' height in pixels (at the current scale): the most, and the least drawn.
float stripHeight() { return scaled(18); }
float leastStripHeight() { return scaled(8); }

/// The 2D overview's side the canvas asks for at `width` pixels across, and the least drawn.
float wantedOverviewSide(float width) { return std::clamp(width * 0.3f, scaled(80), scaled(220)); }
float leastOverviewSide() { return scaled(36); }

}  // namespace

/// Whether N needs the overview: its whole (with the block's ghost cells) does not fit at
/// kMinCell pixels per element in the width the close-up would have. Decided on the width
/// alone, so that canvasHeight() and canvas() agree.
bool needsOverview(const sim::ConvGeometry& g, float width)
{
    int first, count;
    if (!g.twoD) {
        extent(g.width, g.inCol0, g.inCols, g.tile, width - 8, first, count);
        return first > std::min(0, g.inCol0) || first + count < std::max(g.width, g.inCol0 + g.inCols);
    }
    int r0, rn;
    extent(g.height, g.inRow0, g.inRows, g.tile, width * 0.5f, r0, rn);
    extent(g.width, g.inCol0, g.inCols, g.tile, width * 0.5f, first, count);
    return rn < std::max(g.height, g.inRow0 + g.inRows) - std::min(0, g.inRow0) ||
           count < std::max(g.width, g.inCol0 + g.inCols) - std::min(0, g.inCol0);
}

/// The pixels the overviews want above the close-up (canvasHeight() asks for them; the least
/// height it asks for is the close-up's alone, so that a short canvas keeps its close-up).
float overviewHeight(const sim::ConvGeometry& g, float width)
{
    const float lbl = ImGui::GetTextLineHeight() + 8;
    if (!g.twoD) return 2 * (lbl + stripHeight()) + scaled(10);
    return lbl + wantedOverviewSide(width) + scaled(12);
}

/// Places the overviews at the top of the canvas (corner `o`, `avail` pixels), leaving the
/// close-up below at least `closeUp` pixels (its least height; 2D: and 70 % of the rest);
/// nothing when that leaves the overview too small to draw or the close-up too little.
std::optional<OverviewLayout> layoutOverview(const Ctx& c, ImVec2 o, ImVec2 avail, float closeUp)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float lbl = ImGui::GetTextLineHeight() + 8;
    OverviewLayout l;
    const float x = std::floor(o.x + 4);
    if (!g.twoD) {
        const float h = std::floor(std::min(stripHeight(), (avail.y - closeUp - 2 * lbl - scaled(10)) / 2));
        if (h < leastStripHeight()) return std::nullopt;
        const float w = std::floor(avail.x - 8);
        l.N = Overview{false, ImVec2(x, std::floor(o.y + lbl)), w, h, 1, g.width};
        l.P = Overview{true, ImVec2(x, std::floor(l.N.origin.y + h + lbl + scaled(2))), w, h, 1, g.width};
        l.height = l.P.origin.y + h + scaled(8) - o.y;
        return l;
    }
    const float side = std::floor(std::min(wantedOverviewSide(avail.x), (avail.y - 2 * lbl - scaled(20)) * 0.3f));
    if (side < leastOverviewSide()) return std::nullopt;
    const float cell = side / std::max(g.height, g.width);
    const float w = std::max(1.0f, std::round(g.width * cell)), h = std::max(1.0f, std::round(g.height * cell));
    l.N = Overview{false, ImVec2(x, std::floor(o.y + lbl)), w, h, g.height, g.width};
    l.P = Overview{true, ImVec2(std::floor(x + side + scaled(24)), l.N.origin.y), w, h, g.height, g.width};
    l.notePos = ImVec2(l.P.origin.x + side + scaled(20), l.N.origin.y - lbl + 4);
    l.noteW = o.x + avail.x - 8 - l.notePos.x;
    l.noteH = side + lbl - 4;
    l.height = l.N.origin.y + side + scaled(12) - o.y;
    if (avail.y - l.height < closeUp) return std::nullopt;   // the close-up first
    return l;
}

/// The overviews of the whole N and P, with white frames round the close-up's part
/// (rows [row0, row0 + rows), columns [col0, col0 + cols)), labels, a note, hover and click.
void drawOverviews(Ctx& c, const OverviewLayout& l, int row0, int rows, int col0, int cols)
{
    const sim::ConvGeometry& g = c.v.geo;
    Overviews& ov = *c.ov;
    if (ov.loadsGeneration != c.f.loaded.generation) {
        ov.loadsMax = 1;
        for (uint32_t n : c.s.counters.elementLoads[c.v.nArray]) ov.loadsMax = std::max(ov.loadsMax, n);
        ov.loadsGeneration = c.f.loaded.generation;
    }
    std::string why;
    HeatmapRenderer* renderer = nullptr;
    if (!c.f.view.vectorOnly && !ov.gpuRefused) {
        renderer = sharedHeatmapRenderer(&why);
        if (!renderer) ov.gpuRefused = true;
    }
    for (int k = 0; k < 2; ++k) {
        const Overview& p = k ? l.P : l.N;
        if (!renderer || !drawOverviewGpu(c, p, ov.gpu[k], *renderer, why)) drawOverviewBins(c, p, ov.bins[k]);
        if (renderer && !why.empty()) renderer = nullptr;   // the P picture in bins as well
    }
    if (!why.empty()) {
        // Said once: from now on the overviews are drawn in bins, as without OpenGL 3.3.
        ov.gpuRefused = true;
        c.f.view.notice = "The convolution's overview is drawn in bins, without the heatmap shaders: " + why + ".";
        c.f.view.noticeIsError = true;
    }
    // N's edge, faint, where the picture is dark.
    for (const Overview* p : {&l.N, &l.P})
        c.dl->AddRect(ImVec2(p->origin.x - 1, p->origin.y - 1), ImVec2(p->origin.x + p->w + 1, p->origin.y + p->h + 1),
                      c.f.theme.palette.dimText, 0, 0, 1.0f);
    overviewFrame(c, l.N, row0, rows, col0, cols);
    overviewFrame(c, l.P, row0, rows, col0, cols);
    const std::string size = g.twoD ? std::to_string(g.height) + " x " + std::to_string(g.width)
                                    : std::to_string(g.width) + " elements";
    const std::string loads = "global loads 0-" + std::to_string(ov.loadsMax);
    const float pRight = g.twoD ? l.notePos.x - scaled(8) : 0.0f;
    if (c.f.view.heatmap)
        boardLabel(c, Board{l.N.origin}, {"N, whole: " + size + ", " + loads + " (whole grid)", "N, whole: " + loads, "N, whole", "N"},
                   g.twoD ? l.P.origin.x - scaled(8) : 0.0f);
    else
        boardLabel(c, Board{l.N.origin}, {"N, whole: " + size + " (white frame: the part below)", "N, whole: " + size, "N, whole", "N"},
                   g.twoD ? l.P.origin.x - scaled(8) : 0.0f);
    boardLabel(c, Board{l.P.origin}, {"P, whole: " + size, "P, whole", "P"}, pRight);
    if (g.twoD && l.noteW >= scaled(110)) {
        // The note beside the pictures, the longest that fits.
        const std::string colour = c.f.view.heatmap ? "N is coloured by its global loads over the whole grid (0 to " +
                                                          std::to_string(ov.loadsMax) + "). "
                                                    : "";
        for (const std::string& t : {"The whole input and output. " + colour +
                                         "The white frames mark the part shown below: the traced block's tile with "
                                         "its halo. Hover for an element; click P to trace its block.",
                                     "Whole N and P. " + colour + "White frames: the part shown below.",
                                     std::string("White frames: the part below.")}) {
            const ImVec2 sz = ImGui::CalcTextSize(t.c_str(), nullptr, false, l.noteW);
            if (sz.y > l.noteH) continue;
            c.dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), l.notePos, c.f.theme.palette.dimText, t.c_str(), nullptr,
                          l.noteW);
            break;
        }
    }
    if (!ImGui::IsWindowHovered()) return;
    int r, col;
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (l.N.hit(m, r, col)) tooltipOverviewN(c, r, col);
    if (l.P.hit(m, r, col)) interactP(c, r, col);
}

}  // namespace ts::app::conv_detail
