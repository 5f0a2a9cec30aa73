// Matrices: M, N and P as grids of cells, laid out as in the textbook figures (N above P,
// M to its left, so a row of M and a column of N meet at their P element). At the cursor,
// colours show what the traced block loads in this phase, what sits in Mds/Nds, which tile
// slots were zero-filled past the edge, and which P elements are finished. Matrices whose
// cells are smaller than kMinCell pixels are drawn by the GPU (heatmap.hpp: one texel per
// element, a fragment shader for the colours), or, without OpenGL 3.3 shaders and in SVG
// exports, in bins of several elements; the heatmap colours M and N by global loads, the
// value mode every element by its value. P elements that differ from the CPU reference (a
// dropped barrier) are marked once shown.
// This file places the legend and sizes the canvas; the canvas, the cells, large matrices,
// the marks and the legend are drawn in matrices_canvas.cpp, matrices_cells.cpp,
// matrices_heat.cpp, matrices_marks.cpp and matrices_legend.cpp (matrices_panel_internal.hpp).
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "arrays_figure.hpp"
#include "figure_fit.hpp"
#include "figure_notes.hpp"
#include "layout.hpp"
#include "matrices_geometry.hpp"
#include "matrices_panel_internal.hpp"
#include "meanings.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/kernel_view.hpp"

namespace ts::app {

using namespace matrices_detail;

namespace matrices_detail {

CanvasCells canvasCells(const sim::Scenario& sc, const TileGrid& tiles)
{
    CanvasCells cc;
    cc.ghostK = tiles.ghostK;
    cc.ghostJ = tiles.ghostJ;
    cc.ghostL = tiles.ghostL;
    cc.high = static_cast<float>(sc.k + cc.ghostK + sc.j + cc.ghostJ);
    cc.label = ImGui::GetTextLineHeight() + scaled(10);
    cc.frame = 2 * cc.label + scaled(10);
    return cc;
}

}  // namespace matrices_detail

namespace {

/// The fit picture as figure_fit.hpp sees it: M's column, then N's and P's, across; N's
/// rows, then P's, down. M's column is at least as wide as M's label and N's and P's as
/// wide as theirs (in the font `bold`), so that the labels of M and P never run into each
/// other on small matrices at a large UI scale; the margins and the two label lines do not
/// scale.
FigureShape figureShape(const sim::Scenario& sc, const CanvasCells& cc, const ImFont* bold)
{
    auto labelWidth = [&](const char* name, int rows, int cols) {
        const std::string t = std::string(name) + "  (" + std::to_string(rows) + " x " + std::to_string(cols) + ")";
        return bold->CalcTextSizeA(bold->FontSize, 1e9f, 0, t.c_str()).x;
    };
    FigureShape s;
    s.across = {FigureSpan{static_cast<float>(sc.k + cc.ghostK), labelWidth("M", sc.j, sc.k)},
                FigureSpan{static_cast<float>(sc.l + cc.ghostL),
                           std::max(labelWidth("N", sc.k, sc.l), labelWidth("P", sc.j, sc.l))}};
    s.down = {FigureSpan{static_cast<float>(sc.k + cc.ghostK), 0}, FigureSpan{static_cast<float>(sc.j + cc.ghostJ), 0}};
    s.fixedWide = scaled(22);
    s.fixedHigh = cc.frame;
    return s;
}

}  // namespace

void MatricesPanel::draw(Frame& f)
{
    // A convolution has its own panel (conv_panel.cpp).
    const sim::Picture picture = f.loaded.sim ? sim::problemOf(f.loaded.sim->scenario).picture : sim::Picture::Matrices;
    if (picture == sim::Picture::Convolution) return;
    // An array problem (a student's element-wise, 1D or 2D kernel): its own arrays.
    if (picture == sim::Picture::Arrays) {
        if (beginPanel(f, id)) {
            if (f.loaded.sim->trace.steps.empty()) ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
            else drawArrayFigure(f, *f.loaded.sim);
        }
        ImGui::End();
        return;
    }
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s || s->trace.steps.empty()) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
        } else {
            Ctx c{f, *s, ImGui::GetWindowDrawList(), {}, {}, {}, 1, {}, nullptr, false, {}, nullptr, {}};
            if (geometryGeneration_ != f.loaded.generation) {
                // Both read the trace or the whole of P: once per simulation.
                tiles_ = tileGrid(*s);
                blockP_ = blockRectInP(*s, s->trace.block);
                phaseTiles_.clear();
                firstStoreP_ = -1;
                const int arrP = s->arrayIndex("P");
                for (size_t i = 0; i < s->trace.steps.size() && firstStoreP_ < 0; ++i)
                    for (int e = s->trace.steps[i].begin; e < s->trace.steps[i].end; ++e)
                        if (s->trace.events[e].op == sim::Op::GlobalStore && s->trace.events[e].array == arrP) {
                            firstStoreP_ = static_cast<int>(i);
                            break;
                        }
                geometryGeneration_ = f.loaded.generation;
            }
            c.firstStoreP = firstStoreP_;
            c.tiles = tiles_;
            c.blockP = blockP_;
            c.phaseTiles = &phaseTiles_;
            const int arrM = s->arrayIndex("M"), arrN = s->arrayIndex("N");
            if (heatGeneration_ != f.loaded.generation) {
                heatMax_ = 1;
                for (int a : {arrM, arrN})
                    for (uint32_t n : s->counters.elementLoads[a]) heatMax_ = std::max(heatMax_, n);
                heatGeneration_ = f.loaded.generation;
            }
            c.heatMax = heatMax_;
            c.has = contentsOf(s->trace, f.loaded.generation);
            if (valuesGeneration_ != f.loaded.generation) {
                const std::vector<float>* of[3][2] = {{&s->M, nullptr}, {&s->N, nullptr}, {&s->P, &s->reference}};
                for (int k = 0; k < 3; ++k) {
                    largest_[k] = 0;
                    negative_[k] = false;
                    for (const std::vector<float>* v : of[k])
                        if (v)
                            for (float x : *v)
                                if (std::isfinite(x)) {
                                    largest_[k] = std::max(largest_[k], std::abs(x));
                                    negative_[k] = negative_[k] || x < 0;
                                }
                }
                valuesGeneration_ = f.loaded.generation;
            }
            c.largest = largest_;
            c.negative = negative_;
            if (registersGeneration_ != f.loaded.generation || registersThread_ != f.view.thread) {
                registers_ = registerElementsOfP(s->trace, s->arrayIndex("P"), f.view.thread);
                registersGeneration_ = f.loaded.generation;
                registersThread_ = f.view.thread;
            }
            c.registers = &registers_;
            if (f.view.cursor >= 0) {
                const sim::Step& st = s->trace.steps[f.view.cursor];
                for (int i = st.begin; i < st.end; ++i) {
                    const sim::Event& e = s->trace.events[i];
                    if (e.thread == f.view.thread && e.array != sim::kNoArray) c.selectedTouches.emplace_back(e.array, e.index);
                }
            }
            for (size_t a = 0; a < f.replay.slots.size(); ++a)
                for (const sim::SlotView& sl : f.replay.slots[a])
                    if (sl.readNow && sl.sourceIndex >= 0) c.sharedReads.emplace_back(sl.sourceArray, sl.sourceIndex);
            const CanvasCells cc = canvasCells(s->scenario, c.tiles);
            const ImVec2 room(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
            const float gap = scaled(16), most = kMostCell * f.theme.scale;

            // The legend as a column in the small font (measured when drawn so; at first seven
            // lines of 15 characters and the zoom slider): beside the figure, or in the corner
            // above M and left of N that the figure leaves empty, there making M's column and
            // N's rows at least as large as the legend.
            const ImFont* small = f.theme.fonts.small;
            const ImGuiStyle& style = ImGui::GetStyle();
            const ImVec2 column = legendColumn_.x > 0 ? legendColumn_
                                                      : ImVec2(small->FontSize * (0.6f * 15 + 1.3f) + scaled(5),
                                                               7 * (small->FontSize + style.ItemSpacing.y) +
                                                                   small->FontSize + 2 * style.FramePadding.y);
            // The legend above the figure as drawn last (at first three lines).
            const float above = legendAbove_ > 0 ? legendAbove_ : ImGui::GetFrameHeightWithSpacing() * 3;
            auto corner = [&](const FigureShape& sh) {
                FigureShape c = sh;
                c.across[0].least = std::max(sh.across[0].least, column.x);
                c.down[0].least = column.y - cc.label + scaled(8);
                return c;
            };
            // Labels in bold unless the small font gives the cells a tenth more room (64 x 64
            // in a narrow slide column, where bold labels are wider than their matrices).
            auto bestCell = [&](const FigureShape& sh) {
                return std::max({fitCell(sh, room.x, room.y - above, most), fitCell(corner(sh), room.x, room.y, most),
                                 column.y <= room.y ? fitCell(sh, room.x - column.x - gap, room.y, most) : 0.0f});
            };
            labelFont_ = bestCell(figureShape(s->scenario, cc, f.theme.fonts.small)) >
                                 1.1f * bestCell(figureShape(s->scenario, cc, f.theme.fonts.bold))
                             ? f.theme.fonts.small
                             : f.theme.fonts.bold;
            const FigureShape shape = figureShape(s->scenario, cc, labelFont_);
            const FigureShape cornered = corner(shape);
            // Each place's cells with the room the panel has now, and with the panel's width
            // and any height (what the panel asks the layout for: the height of its best).
            auto cellAt = [&](Legend at, float h) {
                switch (at) {
                case Legend::Above: return fitCell(shape, room.x, h - above, most);
                case Legend::Beside: return column.y <= h ? fitCell(shape, room.x - column.x - gap, h, most) : 0.0f;
                case Legend::Corner: return fitCell(cornered, room.x, h, most);
                }
                return 0.0f;
            };
            auto heightAt = [&](Legend at, float cell) {
                return at == Legend::Above ? above + figureHeight(shape, cell)
                       : at == Legend::Beside ? std::max(column.y, figureHeight(shape, cell)) : figureHeight(cornered, cell);
            };
            const Legend places[3] = {Legend::Above, Legend::Corner, Legend::Beside};
            Legend best = Legend::Above;
            for (Legend at : places)
                if (cellAt(at, FLT_MAX) > cellAt(best, FLT_MAX) * 1.001f) best = at;
            const float want = heightAt(best, cellAt(best, FLT_MAX)) + 1;
            float least = above + cc.frame + std::max(scaled(140), std::min(cc.high * scaled(10), scaled(200)));
            if (f.view.presentation) {
                // A slide cannot scroll: the least is that of cells of 10 px (at most 200 px of
                // rows) with the legend where it takes the least height, above or in the corner.
                const float cell10 = std::min(cc.high * scaled(10), scaled(200)) / std::max(1.0f, cc.high);
                least = heightAt(Legend::Above, cell10);
                if (figureWidth(cornered, cell10) <= room.x) least = std::min(least, heightAt(Legend::Corner, cell10));
            }
            least = std::min(want, least);
            // Where the panel has less than that, the place with the largest cells (the first
            // of above, corner, beside that has them: the choice depends on the room alone, not
            // on where the legend was drawn before, so that a view looks the same however it was
            // reached). The legend is measured in the first frames: above, then as a column where
            // a column may do better.
            Legend at = Legend::Above;
            for (Legend p : places)
                if (cellAt(p, room.y) > 1.001f * cellAt(at, room.y)) at = p;
            if (legendAbove_ <= 0) {
                at = Legend::Above;
            } else if (legendColumn_.x <= 0) {
                const Legend col = cellAt(Legend::Corner, room.y) > cellAt(Legend::Beside, room.y) ? Legend::Corner
                                                                                                : Legend::Beside;
                if (cellAt(col, room.y) > 0.8f * cellAt(Legend::Above, room.y)) at = col;
            }
            // Where the height bounds the cells (a wide panel), the legend beside them costs
            // them nothing, or a few percent, and the figure spreads over the panel's width:
            // beside, not in the corner.
            if (at == Legend::Corner && cellAt(Legend::Beside, room.y) >= 0.96f * cellAt(Legend::Corner, room.y))
                at = Legend::Beside;
            ctx_ = &c;
            const ImGuiWindowFlags canvasFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
            if (at == Legend::Above) {
                const float y0 = ImGui::GetCursorPosY();
                ImGui::BeginGroup();
                legendAndZoom(c);
                ImGui::EndGroup();
                noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());   // the figure's key, as in legendColumn()
                legendAbove_ = ImGui::GetCursorPosY() - y0;
                ImGui::BeginChild("canvas", ImVec2(0, elasticHeight(least - legendAbove_, want - legendAbove_)), false,
                                  canvasFlags);
                canvas(c, shape, false);
                ImGui::EndChild();
            } else if (at == Legend::Corner) {
                ImGui::BeginChild("canvas", ImVec2(0, elasticHeight(least, want)), false, canvasFlags);
                canvas(c, cornered, true);
                ImGui::EndChild();
            } else {
                const float h = elasticHeight(least, want);
                const float width = std::max(1.0f, room.x - column.x - gap);
                const float figure = std::min(width, figureWidth(shape, fitCells(shape, width, h, most, kCellStretch).w) + 1);
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, (room.x - figure - gap - column.x) * 0.5f));
                ImGui::BeginChild("canvas", ImVec2(figure, h), false, canvasFlags);
                canvas(c, shape, false);
                ImGui::EndChild();
                ImGui::SameLine(0, gap);
                ImGui::BeginChild("legend", ImVec2(std::max(column.x, ImGui::GetFontSize() * 4), h), false, canvasFlags);
                legendColumn();
                ImGui::EndChild();
            }
            ctx_ = nullptr;
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeMatricesPanel() { return std::make_unique<MatricesPanel>(); }

}  // namespace ts::app
