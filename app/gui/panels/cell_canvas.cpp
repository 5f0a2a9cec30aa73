// The cells-to-heatmap drawing the Matrices and Convolution panels share (cell_canvas.hpp).
#include "cell_canvas.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace ts::app {

bool CellGrid::hit(ImVec2 m, int& r, int& c) const
{
    r = row0 + static_cast<int>(std::floor((m.y - origin.y) / cell.y));
    c = col0 + static_cast<int>(std::floor((m.x - origin.x) / cell.x));
    return contains(r, c);
}

void HeatGrid::flagsUploaded(uint64_t generation, int cursor)
{
    flagsGeneration = generation;
    flagsCursor = cursor;
    if (!image.hasScalars()) scalarGeneration = ~0ull;
}

const std::vector<uint8_t>& pBaseFlags(HeatGrid& g, uint64_t generation, int rows, int cols,
                                       const std::optional<sim::TileRect>& block, bool matchesReference,
                                       const std::function<bool(int32_t idx)>& wrongElsewhere)
{
    const size_t n = static_cast<size_t>(rows) * cols;
    if (g.baseGeneration == generation && g.base.size() == n) return g.base;
    g.base.assign(n, 0);
    if (block)
        for (int r = std::max(0, block->row0); r < std::min(rows, block->row0 + block->rows); ++r)
            for (int c = std::max(0, block->col0); c < std::min(cols, block->col0 + block->cols); ++c)
                g.base[static_cast<size_t>(r) * cols + c] = kInBlock;
    if (!matchesReference)
        for (size_t idx = 0; idx < n; ++idx)
            if (!g.base[idx] && wrongElsewhere(static_cast<int32_t>(idx))) g.base[idx] = kWrong;
    g.baseGeneration = generation;
    return g.base;
}

void addReplayFlags(std::vector<uint8_t>& flags, const ReplayElements& elements, bool phases, const WrongAtCursor& wrong,
                    const sim::ArrayInfo* layout)
{
    for (const auto& [idx, e] : elements) {
        if (idx < 0 || static_cast<size_t>(idx) >= flags.size()) continue;
        // The flags are row-major; the replay counts elements by their offset in memory.
        size_t at = static_cast<size_t>(idx);
        if (layout && layout->columnMajor) {
            const sim::RowCol rc = layout->rowCol(idx);
            at = static_cast<size_t>(rc.row) * layout->cols + rc.col;
        }
        uint8_t b = flags[at];
        if (e.loadedThisPhase && phases) b |= kLoadedThisPhase;
        if (e.readNow) b |= kReadNow;
        if (e.inShared()) b |= kInShared;
        if (e.loadsSoFar > 0) b |= kLoadedEarlier;
        if (e.stored) b |= kStored;
        if (wrong && wrong(idx, e, b)) b |= kWrong;
        flags[at] = b;
    }
}

float framebufferScale() { return std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x); }

bool showHeatPicture(ImDrawList* dl, HeatmapRenderer& renderer, HeatImage& image, const HeatView& view,
                     const Palette& pal, ImVec2 a, ImVec2 b, std::string& why)
{
    const std::optional<HeatPicture> pic = renderer.draw(image, view, heatColours(pal), &why);
    if (!pic) return false;
    dl->AddImage(pic->texture, a, b, pic->uv0, pic->uv1);
    return true;
}

BinState binState(const sim::ElementView& e, bool wrong, bool phases, bool heat, const Palette& pal)
{
    if (wrong) return {5, pal.error};
    if (e.stored) return {3, pal.finished};
    if (e.inShared()) return {3, pal.inShared};
    if (e.loadedThisPhase && phases) return {2, pal.loadedThisPhase};
    if (e.loadsSoFar > 0 && !heat) return {1, pal.loadedEarlier};
    return {0, pal.cell};
}

void drawBinGrid(ImDrawList* dl, const std::vector<ImU32>& colour, const std::vector<uint8_t>& now, int binCols,
                 int r0, int r1, int c0, int c1, ImU32 frame,
                 const std::function<std::pair<ImVec2, ImVec2>(int r, int c)>& rect)
{
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
            const auto [a, z] = rect(r, c);
            dl->AddRectFilled(a, z, colour[static_cast<size_t>(r) * binCols + c]);
        }
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c)
            if (now[static_cast<size_t>(r) * binCols + c]) {
                const auto [a, z] = rect(r, c);
                dl->AddRect(a, z, frame, 0, 0, 1.0f);
            }
}

CellBand cellBand(float side)
{
    CellBand b;
    b.outer = std::clamp(side / 16.0f, 1.0f, scaled(2.5f));
    b.inner = std::clamp(side / 16.0f, 1.0f, scaled(3));
    b.band = b.outer + b.inner + 2;
    return b;
}

InkRows numberInk(const ImFont* font)
{
    InkRows ink{font->FontSize, 0};
    for (const char ch : std::string_view("0123456789-.")) {
        if (const ImFontGlyph* g = font->FindGlyphNoFallback(static_cast<ImWchar>(ch))) {
            ink.top = std::min(ink.top, g->Y0);
            ink.bottom = std::max(ink.bottom, g->Y1);
        }
    }
    if (ink.bottom <= ink.top) return InkRows{0, font->FontSize};   // no such glyphs: the whole line
    ink.top = std::floor(ink.top);
    ink.bottom = std::ceil(ink.bottom);
    return ink;
}

std::optional<ValuePlace> placeValue(ImVec2 a, ImVec2 b, ImVec2 inLo, ImVec2 inHi, ImVec2 size, bool glyph, float leastGlyph)
{
    const ImVec2 lo(a.x + inLo.x, a.y + inLo.y), hi(b.x - inHi.x, b.y - inHi.y);
    const float w = hi.x - lo.x, h = hi.y - lo.y;
    if (size.x > w || size.y > h) return std::nullopt;
    ValuePlace p;
    p.size = size;
    p.text = ImVec2(std::floor(lo.x + (w - size.x) * 0.5f), std::floor(lo.y + (h - size.y) * 0.5f));
    if (!glyph) return p;
    // The glyph in the top-right corner, up to half the shorter side; the value keeps clear
    // of it: beside it, or below it, whichever leaves the larger glyph.
    const float most = std::max(leastGlyph, std::min(w, h) * 0.5f);
    const float beside = std::min(most, std::min(h, w - size.x - 1));            // value at the left
    const float above = std::min(most, std::min(w, h - size.y - 1));            // value at the bottom
    float g = std::max(beside, above);
    if (g < leastGlyph) return std::nullopt;
    if (beside >= above) {
        p.text.x = std::floor(std::min(p.text.x, hi.x - g - 1 - size.x));
    } else {
        p.text.y = std::floor(std::max(p.text.y, lo.y + g + 1));
        if (p.text.y + size.y > hi.y) p.text.y = std::floor(hi.y - size.y);
    }
    p.glyphMin = ImVec2(hi.x - g, lo.y);
    p.glyphMax = ImVec2(hi.x, lo.y + g);
    return p;
}

void regionOutline(ImDrawList* dl, const CellGrid& g, int r0, int r1, int c0, int c1,
                   const std::function<bool(int r, int c)>& in, ImU32 colour, ImU32 edge, float thickness, bool dashed)
{
    const float t = std::max(1.0f, thickness);
    std::vector<std::pair<ImVec2, ImVec2>> bars;
    // Dashes of about 2.5 thicknesses (at least 4 px): each side of a cell an odd number of
    // pieces, dashes first and last, so that the corners of a tile read as corners.
    auto bar = [&](ImVec2 p, ImVec2 q, bool horizontal) {
        if (!dashed) {
            bars.emplace_back(p, q);
            return;
        }
        const float len = horizontal ? q.x - p.x : q.y - p.y;
        int pieces = std::max(1, static_cast<int>(len / std::max(scaled(4), 2.5f * t)));
        if (pieces % 2 == 0) ++pieces;
        const float piece = len / pieces;
        for (int i = 0; i < pieces; i += 2)
            bars.emplace_back(horizontal ? ImVec2(p.x + i * piece, p.y) : ImVec2(p.x, p.y + i * piece),
                              horizontal ? ImVec2(p.x + (i + 1) * piece, q.y) : ImVec2(q.x, p.y + (i + 1) * piece));
    };
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
            if (!in(r, c)) continue;
            // The cell's pitch (its last pixel row and column are the gap to the next cell).
            const ImVec2 a = g.at(static_cast<float>(r), static_cast<float>(c));
            const ImVec2 z(a.x + g.cell.x - 1, a.y + g.cell.y - 1);
            const bool up = !in(r - 1, c), down = !in(r + 1, c), left = !in(r, c - 1), right = !in(r, c + 1);
            // Sides that continue into a neighbour of the region reach across the gap to it.
            const float x1 = right ? z.x : a.x + g.cell.x, y1 = down ? z.y : a.y + g.cell.y;
            if (up) bar(ImVec2(a.x, a.y), ImVec2(x1, a.y + t), true);
            if (down) bar(ImVec2(a.x, z.y - t), ImVec2(x1, z.y), true);
            if (left) bar(ImVec2(a.x, a.y), ImVec2(a.x + t, y1), false);
            if (right) bar(ImVec2(z.x - t, a.y), ImVec2(z.x, y1), false);
        }
    if ((edge >> IM_COL32_A_SHIFT) & 0xFF)
        for (const auto& [p, q] : bars) dl->AddRectFilled(ImVec2(p.x - 1, p.y - 1), ImVec2(q.x + 1, q.y + 1), edge);
    for (const auto& [p, q] : bars) dl->AddRectFilled(p, q, colour);
}

DrawnCells& recordCells()
{
    static DrawnCells cells;
    return cells;
}

}  // namespace ts::app
