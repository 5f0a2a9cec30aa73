// The cells-to-heatmap drawing the Matrices and Convolution panels share (cell_canvas.hpp).
#include "cell_canvas.hpp"

#include <cmath>

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

}  // namespace ts::app
