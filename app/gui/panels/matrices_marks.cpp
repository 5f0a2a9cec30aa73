// The marks over the Matrices panel's grids (app/gui/panels/matrices_panel.cpp): the lines
// between tiles, the phase's tile with its ghost cells, the traced block's frames, the labels.
#include <imgui.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cell_canvas.hpp"
#include "matrices_geometry.hpp"
#include "matrices_panel_internal.hpp"
#include "widgets.hpp"

namespace ts::app::matrices_detail {

namespace {

/// Frame [a, b] grown about its centre to at least kMinMarker (scaled) pixels a side.
void markerFrame(const Ctx& c, ImVec2 a, ImVec2 b, ImU32 colour, float thickness)
{
    growToAtLeast(a, b, kMinMarker * c.f.theme.scale);
    markFrame(c.dl, a, b, colour, c.f.theme.palette, thickness, 3);   // with the edge: 3:1 on any cell
}

}  // namespace

/// Thin lines between whole tiles: a block's rows of P and M, a phase's columns of M and
/// rows of N, a block's columns of N and P (tileGrid: BM, BK, BN on the register-tiled rungs).
void tileLines(const Ctx& c, const Grid& g)
{
    const bool isM = g.name == "M", isN = g.name == "N";
    const int down = isN ? c.tiles.depth : c.tiles.rows, across = isM ? c.tiles.depth : c.tiles.cols;
    const ImU32 line = IM_COL32(150, 160, 180, 110);
    if (g.cell.y * down >= 12)
        for (int r = down; r < g.rows; r += down) c.dl->AddLine(g.at(r, 0), g.at(r, g.cols), line, 1.5f);
    if (g.cell.x * across >= 12)
        for (int col = across; col < g.cols; col += across) c.dl->AddLine(g.at(0, col), g.at(g.rows, col), line, 1.5f);
}

/// The tile of the current phase on M or N, with ghost cells where it leaves the matrix and
/// its slots were zero-filled.
void phaseTile(const Ctx& c, const Grid& g)
{
    const sim::Trace& t = c.s.trace;
    if (c.f.view.cursor < 0) return;
    const Palette& pal = c.f.theme.palette;
    const int phase = t.steps[c.f.view.cursor].phase;
    const int source = c.s.arrayIndex(g.name);
    if (source < 0) return;
    auto it = c.phaseTiles->find({phase, source});
    if (it == c.phaseTiles->end()) it = c.phaseTiles->emplace(std::pair{phase, source}, sim::phaseTileOf(t, phase, source)).first;
    const std::optional<sim::TileRect>& tile = it->second;
    if (!tile) return;
    // Ghost cells: zero-filled slots of the tile arrays whose element lies outside the matrix,
    // placed as their load step placed the elements it loaded (an Nds stored transposed too).
    // The slots zero-filled by this step get one outline round them (not a frame on each).
    const std::vector<GhostCell> ghosts = ghostCells(t, c.f.replay, g.name, g.rows, g.cols);
    const CellBand band = cellBand(g.side());
    std::set<std::pair<int, int>> now;
    int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    for (const GhostCell& gc : ghosts) {
        const ImVec2 p0 = g.at(gc.row, gc.col), p1(p0.x + g.cell.x - 1, p0.y + g.cell.y - 1);
        const ImU32 ghost = (pal.zeroFill & 0x00FFFFFF) | 0x90000000u;
        c.dl->AddRectFilled(p0, p1, ghost);
        const float in = band.outer + 2;
        centredText(c.dl, c.f.theme.fonts.cell, ImVec2(p0.x + in, p0.y + in), ImVec2(p1.x - in, p1.y - in),
                    textOn(over(ghost, ImGui::GetColorU32(ImGuiCol_ChildBg))), "0");
        if (!gc.writtenNow) continue;
        if (now.empty()) r0 = r1 = gc.row, c0 = c1 = gc.col;
        now.insert({gc.row, gc.col});
        r0 = std::min(r0, gc.row), r1 = std::max(r1, gc.row), c0 = std::min(c0, gc.col), c1 = std::max(c1, gc.col);
    }
    if (!now.empty())
        regionOutline(c.dl, g, r0, r1 + 1, c0, c1 + 1, [&](int r, int col) { return now.count({r, col}) > 0; }, pal.readNow,
                      pal.stepOutline, band.outer, false);
    const ImVec2 a = g.at(tile->row0, tile->col0), b = g.at(tile->row0 + tile->rows, tile->col0 + tile->cols);
    markerFrame(c, ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 1, b.y + 1), pal.loadedThisPhase, 2.0f);
}

/// On matrices whose tiles are too small to read (a tile under kMinMarker pixels), a faint
/// frame round the traced block's rows of M and columns of N: what its phases walk along.
void blockBand(const Ctx& c, const Grid& g)
{
    if (!c.blockP || g.name == "P") return;
    const sim::TileRect& bp = *c.blockP;
    if (static_cast<float>(bp.rows) * g.cell.y >= kMinMarker * c.f.theme.scale) return;
    const bool isM = g.name == "M";
    const ImVec2 a = isM ? g.at(bp.row0, 0) : g.at(0, bp.col0);
    const ImVec2 b = isM ? g.at(bp.row0 + bp.rows, g.cols) : g.at(g.rows, bp.col0 + bp.cols);
    c.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), (c.f.theme.palette.selected & 0x00FFFFFF) | 0x90000000u,
                  0, 0, 1.0f);
}

/// The traced block's tile of P and the selected thread's element.
void blockOutline(const Ctx& c, const Grid& g)
{
    const Palette& pal = c.f.theme.palette;
    if (!c.blockP) return;
    const sim::TileRect& bp = *c.blockP;
    const ImVec2 a = g.at(bp.row0, bp.col0), b = g.at(bp.row0 + bp.rows, bp.col0 + bp.cols);
    markerFrame(c, ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 1, b.y + 1), pal.selected, 2.5f);
    if (c.registers && !c.registers->empty()) {
        // A rung's thread holds several elements in Pvalue: a frame on each that it stores.
        if (g.side() < kMinCell) return;
        for (const RegisterElement& e : *c.registers) {
            if (!g.contains(e.row, e.col)) continue;
            const ImVec2 p = g.at(static_cast<float>(e.row), static_cast<float>(e.col));
            c.dl->AddRect(ImVec2(p.x + 3, p.y + 3), ImVec2(p.x + g.cell.x - 4, p.y + g.cell.y - 4), pal.selected, 2, 0, 1.5f);
        }
        return;
    }
    const std::optional<sim::PElement> first = threadPElement(c.s.trace, c.f.view.thread);
    if (!first) return;
    const sim::PElement e = *first;
    if (g.contains(static_cast<int>(e.row), static_cast<int>(e.col)) && g.side() >= kMinCell) {
        const ImVec2 p = g.at(static_cast<float>(e.row), static_cast<float>(e.col));
        c.dl->AddRect(ImVec2(p.x + 3, p.y + 3), ImVec2(p.x + g.cell.x - 4, p.y + g.cell.y - 4), pal.selected, 2, 0, 1.5f);
    }
}

void label(const Ctx& c, const Grid& g, const char* dims, ImFont* font)
{
    const std::string text = g.name + "  (" + dims + ")";
    c.dl->AddText(font, font->FontSize,
                  ImVec2(g.origin.x, g.origin.y - ImGui::GetTextLineHeight() - scaled(4)), c.f.theme.palette.cellText, text.c_str());
}

}  // namespace ts::app::matrices_detail
