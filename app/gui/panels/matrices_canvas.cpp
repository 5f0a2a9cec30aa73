// The Matrices panel's canvas (app/gui/panels/matrices_panel.cpp): the fit picture of M, N and
// P, zoom and pan (a large problem opens zoomed to its lesson, focusRect), the grids drawn in
// turn, and the clicks on them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "figure_fit.hpp"
#include "figure_notes.hpp"
#include "heatmap.hpp"
#include "heatmap_view.hpp"
#include "matrices_panel_internal.hpp"
#include "widgets.hpp"

namespace ts::app::matrices_detail {

namespace {

/// Cells smaller than this (pixels at UI scale 1) are too small to read a value in: a large
/// matrix opens zoomed to its lesson instead (focusRect), and its tiles are outlined, not
/// its cells framed.
constexpr float kReadableCell = 20.0f;

/// A matrix side above which a problem is large: it opens zoomed to its lesson where its
/// cells are too small to read (focusRect); the lecture presets of 4x4 and 8x8 never do.
constexpr int kLargeSide = 16;

/// What a large problem opens zoomed to, in fit-picture pixels (the canvas's fit layout:
/// M's corner `fitM`, P's `fitP`, cells `cell`): the traced block's tile of M in the phase
/// at the cursor, with its zero-filled slots past M's edge, and its tile of P beside it where
/// both fit the canvas `avail` at kReadableCell; else the tile of M alone (the tile of P
/// before the first phase and for an untiled kernel). A margin of a sixteenth of a tile, at
/// least a cell, round it. Empty when there is no traced block.
std::optional<std::pair<ImVec2, ImVec2>> focusRect(const Ctx& c, ImVec2 fitM, ImVec2 fitP, ImVec2 cell, ImVec2 avail)
{
    if (!c.blockP) return std::nullopt;
    auto rect = [&](ImVec2 corner, int row0, int col0, int rows, int cols) {
        return std::pair(ImVec2(corner.x + col0 * cell.x, corner.y + row0 * cell.y),
                         ImVec2(corner.x + (col0 + cols) * cell.x, corner.y + (row0 + rows) * cell.y));
    };
    const sim::TileRect& bp = *c.blockP;
    const auto pTile = rect(fitP, bp.row0, bp.col0, c.tiles.rows, c.tiles.cols);
    std::optional<std::pair<ImVec2, ImVec2>> mTile;
    const int arrM = c.s.arrayIndex("M");
    if (c.f.view.cursor >= 0 && arrM >= 0) {
        const int phase = c.s.trace.steps[c.f.view.cursor].phase;
        auto it = c.phaseTiles->find({phase, arrM});
        if (it == c.phaseTiles->end())
            it = c.phaseTiles->emplace(std::pair{phase, arrM}, sim::phaseTileOf(c.s.trace, phase, arrM)).first;
        if (it->second) mTile = rect(fitM, it->second->row0, it->second->col0, c.tiles.rows, c.tiles.depth);
    }
    const float margin = std::max(1.0f, std::max(c.tiles.rows, c.tiles.cols) / 16.0f);
    auto grow = [&](std::pair<ImVec2, ImVec2> r) {
        return std::pair(ImVec2(r.first.x - margin * cell.x, r.first.y - margin * cell.y),
                         ImVec2(r.second.x + margin * cell.x, r.second.y + margin * cell.y));
    };
    if (!mTile) return grow(pTile);
    const std::pair<ImVec2, ImVec2> both(ImVec2(std::min(mTile->first.x, pTile.first.x), std::min(mTile->first.y, pTile.first.y)),
                                         ImVec2(std::max(mTile->second.x, pTile.second.x),
                                                std::max(mTile->second.y, pTile.second.y)));
    const auto b = grow(both);
    const float zoom = std::min(avail.x / (b.second.x - b.first.x), avail.y / (b.second.y - b.first.y));
    if (std::min(cell.x, cell.y) * zoom >= kReadableCell * scaled(1)) return b;
    return grow(*mTile);
}

}  // namespace

void MatricesPanel::canvas(Ctx& c, const FigureShape& shape, bool corner)
{
    Frame& f = c.f;
    const sim::Simulation* s = &c.s;
    const int arrM = s->arrayIndex("M"), arrN = s->arrayIndex("N"), arrP = s->arrayIndex("P");
    const sim::Scenario& sc = s->scenario;
    const CanvasCells cc = canvasCells(sc, c.tiles);
    const int ghostK = cc.ghostK, ghostJ = cc.ghostJ, ghostL = cc.ghostL;
    const float lbl = cc.label;
    c.dl = ImGui::GetWindowDrawList();
    const ImVec2 avail(std::max(1.0f, ImGui::GetContentRegionAvail().x), std::max(1.0f, ImGui::GetContentRegionAvail().y));
    const ImVec2 o = ImGui::GetCursorScreenPos();

    // The fit picture (zoom 1, no pan): cells as large as the canvas allows (figure_fit.hpp),
    // labels wider than their matrices taking width from the cells.
    const std::string jk = std::to_string(sc.j) + " x " + std::to_string(sc.k);
    const std::string kl = std::to_string(sc.k) + " x " + std::to_string(sc.l);
    const std::string jl = std::to_string(sc.j) + " x " + std::to_string(sc.l);
    // Cells square, or up to kCellStretch times longer along the axis the panel has room on.
    const CellSize fit = fitCells(shape, avail.x, avail.y, kMostCell * f.theme.scale, kCellStretch);
    const float cw = std::max(0.05f, fit.w), ch = std::max(0.05f, fit.h);
    const float leftW = std::max((sc.k + ghostK) * cw, shape.across[0].least);
    const float rightW = std::max((sc.l + ghostL) * cw, shape.across[1].least);
    const float bandN = std::max((sc.k + ghostK) * ch, shape.down[0].least);   // N sits at its band's foot
    const float total = figureWidth(shape, cw);
    // Fit-picture corners, in pixels from the canvas's top-left corner.
    const float x0 = std::max(0.0f, (avail.x - total) * 0.5f);
    const ImVec2 fitN(x0 + scaled(4) + leftW + scaled(14), lbl + bandN - (sc.k + ghostK) * ch);
    const ImVec2 fitP(fitN.x, lbl + bandN + lbl);
    const ImVec2 fitM(x0 + scaled(4), fitP.y);
    const ImVec2 fitLo(x0, 0), fitHi(fitP.x + std::max((sc.l + ghostL) * cw, rightW) + 2, fitP.y + (sc.j + ghostJ) * ch + 2);
    mostZoom_ = std::max(8.0f, 64.0f * f.theme.scale / std::min(cw, ch));

    // Zoom and pan: the slider (about the canvas's centre), the wheel (at the cursor), a drag,
    // a double click (fit), then limits that keep some of the picture in sight.
    ImGui::InvisibleButton("##canvas", avail);
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    CanvasTransform t;
    t.origin = o;
    t.zoom = shownZoom_;
    t.pan = ImVec2(f.view.panX, f.view.panY);
    const ImVec2 centre(o.x + avail.x * 0.5f, o.y + avail.y * 0.5f);
    // A new simulation opens zoomed to the lesson (focusRect) until the user zooms or pans.
    if (focusGeneration_ != f.loaded.generation) {
        focusGeneration_ = f.loaded.generation;
        autoFocus_ = true;
    }
    if (f.view.zoom != shownZoom_) {
        t = zoomAt(t, centre, f.view.zoom / shownZoom_, 0.5f, mostZoom_);
        autoFocus_ = false;
    }
    if (t.zoom > mostZoom_ || t.zoom < 0.5f) t = zoomAt(t, centre, 1.0f, 0.5f, mostZoom_);   // another problem
    if (hovered && io.MouseWheel != 0.0f) {
        t = zoomAt(t, io.MousePos, std::pow(1.25f, io.MouseWheel), 0.5f, mostZoom_);
        autoFocus_ = false;
    }
    // Keys over the canvas: + (or =) and - zoom about its centre, 0 fits (not while a practice
    // question takes typed digits and minus signs).
    if (hovered && !practiceWaiting(f.view.practice))
        for (ImWchar ch : io.InputQueueCharacters) {
            if (ch == '+' || ch == '=') t = zoomAt(t, centre, 1.25f, 0.5f, mostZoom_);
            else if (ch == '-') t = zoomAt(t, centre, 0.8f, 0.5f, mostZoom_);
            else if (ch == '0') t = fitted(t);
            else continue;
            autoFocus_ = false;
        }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        t = dragBy(t, io.MouseDelta);
        autoFocus_ = false;
    }
    // While a practice question waits for cells, clicks choose cells: no double click fits.
    const bool choosing = practiceWantsCells(f.view.practice);
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && !choosing) {
        t = fitted(t);
        autoFocus_ = false;
        doubleClick_ = true;
        pendingTrace_.reset();   // its first click was not meant to trace a block
    }
    // The legend in the corner: while the matrices are zoomed or panned it keeps a strip of
    // the canvas to itself, where no cell is drawn, so that it never covers one: the strip
    // right of it or the band below it, whichever leaves the cells more room. The rest runs
    // from `keepLo` to the canvas's far corner (canvas pixels); the lesson's tiles fit it.
    ImVec2 keepLo(0, 0);
    if (corner) {
        const float right = x0 + scaled(4) + std::max(legendColumn_.x, ImGui::GetFontSize() * 4) + scaled(8);
        const float below = lbl + bandN + scaled(4);
        if ((avail.x - right) * avail.y >= avail.x * (avail.y - below)) keepLo.x = std::min(right, avail.x - 1);
        else keepLo.y = std::min(below, avail.y - 1);
    }
    // Only a large problem (a side over kLargeSide) opens zoomed: a small one is its lesson
    // whole, even where a narrow column makes its cells small.
    const bool large = std::max({sc.j, sc.k, sc.l}) > kLargeSide;
    if (autoFocus_ && (!large || std::min(cw, ch) >= kReadableCell * f.theme.scale)) {
        t = fitted(t);   // readable at the fit (the canvas may have grown since the first frames)
    } else if (autoFocus_) {
        // Cells too small to read at the fit: the lesson's tiles at a readable size instead, in
        // the canvas the legend leaves. Zooming to them pays only where it enlarges
        // them at least twice (a small problem on a slide, whose cells are a little under the
        // readable size at the fit, is better seen whole).
        const ImVec2 room(avail.x - keepLo.x, avail.y - keepLo.y);
        const auto focus = focusRect(c, fitM, fitP, ImVec2(cw, ch), room);
        const float z = focus ? std::min({room.x / (focus->second.x - focus->first.x),
                                           room.y / (focus->second.y - focus->first.y), mostZoom_})
                              : 1.0f;
        if (z < 2.0f) {
            t = fitted(t);
        } else {
            const ImVec2 lo = focus->first, hi = focus->second;
            t.zoom = z;
            t.pan = ImVec2((lo.x + hi.x) * 0.5f * z - (keepLo.x + room.x * 0.5f), (lo.y + hi.y) * 0.5f * z - (keepLo.y + room.y * 0.5f));
            // The tiles as near the middle as the picture allows without leaving part of the
            // canvas empty beyond the picture's edge (block (0, 0) sits in its corner).
            if ((fitHi.x - fitLo.x) * z >= room.x) t.pan.x = std::clamp(t.pan.x, fitLo.x * z - keepLo.x, fitHi.x * z - avail.x);
            if ((fitHi.y - fitLo.y) * z >= room.y) t.pan.y = std::clamp(t.pan.y, fitLo.y * z - keepLo.y, fitHi.y * z - avail.y);
        }
    }
    // A click is a press and release without a drag; the second click of a double click fits only.
    const bool dragged = io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] >= io.MouseDragThreshold * io.MouseDragThreshold;
    c.clicked = ImGui::IsItemDeactivated() && !doubleClick_ && !dragged && !choosing;
    if (ImGui::IsItemDeactivated()) doubleClick_ = false;
    t = clampPan(t, fitLo, fitHi, avail, scaled(40));
    const bool zoomed = t.zoom != 1.0f || t.pan.x != 0.0f || t.pan.y != 0.0f;
    f.view.zoom = shownZoom_ = t.zoom;
    f.view.panX = t.pan.x;
    f.view.panY = t.pan.y;
    if (ImGui::BeginPopupContextItem("##canvas-menu")) {
        if (ImGui::MenuItem("State colours", nullptr, !f.view.heatmap && !f.view.values)) f.view.heatmap = f.view.values = false;
        if (ImGui::MenuItem("Heatmap of global loads", nullptr, f.view.heatmap)) {
            f.view.heatmap = true;
            f.view.values = false;
        }
        if (ImGui::MenuItem("Values", nullptr, !f.view.heatmap && f.view.values)) {
            f.view.heatmap = false;
            f.view.values = true;
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Fit (double click, 0)")) {
            autoFocus_ = false;
            f.view.zoom = shownZoom_ = 1.0f;
            f.view.panX = f.view.panY = 0;
        }
        ImGui::EndPopup();
    }

    const bool legendStrip = corner && zoomed;
    if (legendStrip) ImGui::PushClipRect(ImVec2(o.x + keepLo.x, o.y + keepLo.y), ImVec2(o.x + avail.x, o.y + avail.y), true);
    auto grid = [&](int array, const char* name, int rows, int cols, ImVec2 at) {
        const ScreenGrid sg = onScreen(t, GridPlace{at, ImVec2(cw, ch), rows, cols});
        return Grid{{sg.corner, sg.cell, 0, 0, rows, cols}, array, name};
    };
    Grid M = grid(arrM, "M", sc.j, sc.k, fitM);
    Grid N = grid(arrN, "N", sc.k, sc.l, fitN);
    Grid P = grid(arrP, "P", sc.j, sc.l, fitP);
    std::string why;
    HeatmapRenderer* renderer = nullptr;
    if (!f.view.vectorOnly && !gpuRefused_ && M.side() < kMinCell) {
        renderer = sharedHeatmapRenderer(&why);
        if (!renderer) gpuRefused_ = true;
    }
    for (Grid* g : {&M, &N, &P}) {
        const int k = g == &M ? 0 : g == &N ? 1 : 2;
        if (g->side() >= kMinCell) drawCells(c, *g);
        else if (!renderer || !drawHeat(c, *g, gpu_[k], *renderer, why)) drawBins(c, *g, bins_[k]);
        tileLines(c, *g);
    }
    if (!why.empty()) {
        // Said once: from now on the matrices are drawn in bins, as without OpenGL 3.3.
        gpuRefused_ = true;
        f.view.notice = "Large matrices are drawn in bins, without the heatmap shaders: " + why + ".";
        f.view.noticeIsError = true;
    }
    blockBand(c, M);
    blockBand(c, N);
    phaseTile(c, M);
    phaseTile(c, N);
    blockOutline(c, P);
    // Practice mode's marks on cells too small for a frame (drawCells marks larger ones), over
    // the tiles' frames (their edges would cover a mark on a tile's corner).
    for (Grid* g : {&M, &N, &P})
        if (g->side() < kMinCell) practiceSmallMarks(f, c.dl, g->name, g->origin, g->cell, g->rows, g->cols);
    label(c, M, jk.c_str(), labelFont_);
    label(c, N, kl.c_str(), labelFont_);
    label(c, P, jl.c_str(), labelFont_);
    // The figure the pixel checks measure: the three matrices with their labels and ghost
    // cells, as far as the canvas shows them (its clip rectangle, inside the panel's).
    {
        const ImVec2 a = t.toScreen(fitLo), b = t.toScreen(fitHi);
        const ImVec2 clipA = c.dl->GetClipRectMin(), clipB = c.dl->GetClipRectMax();
        const ImVec2 lo(std::max(a.x, clipA.x), std::max(a.y, clipA.y)), hi(std::min(b.x, clipB.x), std::min(b.y, clipB.y));
        if (lo.x < hi.x && lo.y < hi.y) noteFigure(lo, hi);
    }
    if (legendStrip) ImGui::PopClipRect();
    if (corner) {
        // The legend in the corner the figure leaves empty, above M and left of N (where the
        // fit picture has it; it stays there while the matrices are zoomed and panned).
        ImGui::SetCursorScreenPos(ImVec2(o.x + x0 + scaled(4), o.y));
        // As wide as it was measured, so that its items wrap as they did then.
        ImGui::BeginChild("legend", ImVec2(std::max(legendColumn_.x, ImGui::GetFontSize() * 4), lbl + bandN - scaled(4)), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        legendColumn();
        ImGui::EndChild();
    }
    for (Grid* g : {&M, &N, &P}) interact(c, *g);
    if (c.traceBlock) pendingTrace_ = std::pair(*c.traceBlock, ImGui::GetTime());
    if (pendingTrace_ && ImGui::GetTime() - pendingTrace_->second > io.MouseDoubleClickTime) {
        if (!f.busy.simulating) {
            sim::Scenario sc2 = sc;
            sc2.block = pendingTrace_->first;
            f.requests.load = presetFor(f.loaded, sc2);
        }
        pendingTrace_.reset();
    }
}

}  // namespace ts::app::matrices_detail
