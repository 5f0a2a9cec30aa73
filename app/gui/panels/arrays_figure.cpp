// The Matrices panel's picture of an array problem (sim::Family::Array: a student's
// element-wise, 1D or 2D kernel, or a described registry row such as PMPP's 3D stencil): its
// input arrays and its output under their own names, a 1D array as a strip wrapped at a
// multiple of a warp's 32 elements, a 2D one as its grid, a 3D one as three of its planes
// side by side (the selected thread's plane and its neighbours, where a seven-point stencil
// reads). The
// colours come from the traced block's replay at the cursor as in the other families'
// pictures: loaded by the block, now in shared memory, touched by this step (yellow frame),
// touched by the selected thread (white frame), output stored (green), and output elements
// that differ from the CPU reference formula (red cross).
#include "arrays_figure.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "figure_notes.hpp"
#include "layout.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/simulate.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// Elements drawn at most per array (the rest is said in words).
constexpr int kMaxDrawn = 1 << 16;

struct Shape {
    int rows = 1, cols = 1;    ///< as drawn: a 1D array wrapped into rows; a 3D array's plane
    bool oneD = true;
    int first = 0;             ///< 1D: the first element drawn (a window round the traced block's)
    int size = 0;              ///< elements drawn (1D), all of them (2D)
    int slices = 1;            ///< 3D: planes of the array (each rows x cols)
    int firstPlane = 0, planes = 1;   ///< 3D: the planes drawn, side by side
    /// Columns of cells the drawing takes, with one empty column between planes.
    int drawnCols() const { return planes * cols + planes - 1; }
};

/// The planes of array `name` of the simulation's problem (1 unless its description makes it 3D).
int slicesOf(const sim::Simulation& s, const std::string& name)
{
    const auto spec = sim::arraySpecOf(s.scenario.kernel);
    const sim::ArrayDecl* a = spec ? spec->find(name) : nullptr;
    sim::ArrayShape sh;
    std::string error;
    if (!a || !spec->shape(*a, spec->sizeValues(s.scenario), sh, error)) return 1;
    return sh.dims == 3 ? sh.slices : 1;
}

/// `format` filled in with `values` (snprintf's rules).
template <class... V>
std::string formatted(const char* format, V... values)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, format, values...);
    return buf;
}

std::string valueText(float v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", static_cast<double>(v));
    return b;
}

std::string elementText(const sim::ArrayInfo& a, int idx, int slices = 1)
{
    if (slices > 1) {
        const int plane = a.rows / slices;
        return a.name + "[" + std::to_string(idx / a.cols / plane) + "][" + std::to_string(idx / a.cols % plane) + "][" +
               std::to_string(idx % a.cols) + "]";
    }
    if (a.rows == 1) return a.name + "[" + std::to_string(idx) + "]";
    return a.name + "[" + std::to_string(idx / a.cols) + "][" + std::to_string(idx % a.cols) + "]";
}

/// The chip of one colour and its words, on the legend's line.
void chip(ImU32 fill, ImU32 frame, const char* words)
{
    const float h = ImGui::GetTextLineHeight();
    // A chip that does not fit what is left of the line starts the next one.
    if (ImGui::GetContentRegionAvail().x < h + scaled(4) + ImGui::CalcTextSize(words).x) ImGui::NewLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + h - 4, p.y + h - 2), fill);
    if (frame) dl->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + h - 4, p.y + h - 2), frame, 0, 0, 2.0f);
    ImGui::Dummy(ImVec2(h - 2, h));
    ImGui::SameLine(0, scaled(4));
    ImGui::TextUnformatted(words);
    ImGui::SameLine(0, scaled(14));
}

}  // namespace

void drawArrayFigure(Frame& f, const sim::Simulation& s)
{
    const Palette& pal = f.theme.palette;
    const sim::Trace& t = s.trace;
    if (const auto spec = sim::arraySpecOf(s.scenario.kernel)) {
        // A formula longer than the panel is wide (PMPP's stencil) is cut to the line, whole
        // in the tooltip.
        std::string ref = "Reference: " + spec->reference;
        const float avail = ImGui::GetContentRegionAvail().x - scaled(24);
        if (ImGui::CalcTextSize(ref.c_str()).x > avail) {
            while (ref.size() > 16 && ImGui::CalcTextSize((ref + "...").c_str()).x > avail) ref.resize(ref.size() - 4);
            ref += "...";
        }
        ImGui::TextUnformatted(ref.c_str());
        const std::string given = !sim::findLoadedKernel(s.scenario.kernel)
                                      ? "The CPU reference the description of " + s.scenario.kernel + " states"
                                      : "The CPU reference your file's header gives (" +
                                            (spec->referenceLine ? "line " + std::to_string(spec->referenceLine) : std::string("the exercise")) + ")";
        tooltip(given + ", computed in float as the GPU does; the output must equal it bit for bit (NAN: an element "
                        "the kernel leaves alone).\n\n" + spec->reference);
        // A cut formula fills its line; a short one has the verdict beside it.
        if (ref.back() != '.') ImGui::SameLine(0, scaled(16));
    }
    // The figure's key (this line's chips) is part of the figure, as in the other pictures.
    const ImVec2 keyTop(ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x, ImGui::GetCursorScreenPos().y);
    // A sum of arbitrary floats (KernelInfo::orderDependent) differs from the index-order sum
    // in its last bits on purpose: within a float sum's bound it is not wrong.
    const sim::KernelInfo* info = sim::findKernel(s.scenario.kernel);
    std::optional<sim::SumOrderCheck> order;
    if (info && info->orderDependent && s.error.empty()) order = sim::sumOrderCheck(s.M, s.P, s.reference);
    const bool orderOnly = order && order->within && !s.matchesReference;
    if (s.matchesReference) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.okText), "output equals the reference");
    else if (orderOnly) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.okText), "output is the sum in another order");
        tooltip(formatted("The kernel's total is %.9g, the reference's sum in index order %.9g: %.3g apart (%.3g units in the "
                        "last place), within %.3g, the bound a float sum of these %zu inputs meets in any order. The tree's order and the order of the "
                        "blocks' atomicAdds decide the last bits; try the reverse or random schedule (PMPP sec. 10.7).",
                        s.P.empty() ? 0.0 : static_cast<double>(s.P[0]), s.reference.empty() ? 0.0 : static_cast<double>(s.reference[0]),
                        order->difference, order->ulps, order->bound, s.M.size()));
    } else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.error), "output differs from the reference");
    chip(pal.loadedEarlier, 0, "loaded by the block");
    chip(pal.inShared, 0, "in shared memory");
    chip(pal.cell, pal.readNow, "this step");
    chip(pal.cell, pal.selected, "selected thread");
    chip(pal.finished, 0, "stored");
    chip(pal.cell, pal.error, "wrong");
    ImGui::NewLine();
    // Where the output first differs, wherever the traced block is (the strips may show
    // another block's elements).
    if (orderOnly && s.arrays.size() > 2)
        colouredText(pal.dimText, formatted("%s = %.9g, the sum in index order %.9g: %.3g units in the last place apart, "
                                            "within a float sum's bound",
                                            s.arrays[2].name.c_str(), s.P.empty() ? 0.0 : static_cast<double>(s.P[0]),
                                            s.reference.empty() ? 0.0 : static_cast<double>(s.reference[0]), order->ulps));
    else if (!s.matchesReference && s.arrays.size() > 2 && s.P.size() == s.reference.size())
        for (size_t i = 0; i < s.P.size(); ++i)
            if (std::memcmp(&s.P[i], &s.reference[i], sizeof(float)) != 0) {
                colouredText(pal.error, "First wrong: " + elementText(s.arrays[2], static_cast<int>(i), slicesOf(s, s.arrays[2].name)) + " = " +
                                            (std::isnan(s.P[i]) ? std::string("never written") : valueText(s.P[i])) +
                                            " (reference " + valueText(s.reference[i]) + ")");
                break;
            }

    // The selected thread's elements in the cursor step, and every element of this step.
    std::vector<std::pair<int, int32_t>> mine, now;
    if (f.view.cursor >= 0 && f.view.cursor < static_cast<int>(t.steps.size()))
        for (int i = t.steps[f.view.cursor].begin; i < t.steps[f.view.cursor].end; ++i) {
            const sim::Event& e = t.events[i];
            if (e.array == sim::kNoArray) continue;
            now.emplace_back(e.array, e.index);
            if (e.thread == f.view.thread) mine.emplace_back(e.array, e.index);
        }
    // 3D arrays: the plane the selected thread works on (that of its first element in the
    // trace; for a thread that touches none, its global z), with its neighbours.
    int slices[3] = {1, 1, 1}, centre[3] = {0, 0, 0};
    for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()); ++a) {
        slices[a] = slicesOf(s, s.arrays[static_cast<size_t>(a)].name);
        if (slices[a] == 1) continue;
        const sim::ArrayInfo& info = s.arrays[static_cast<size_t>(a)];
        const long long planeSize = 1ll * info.cols * (info.rows / slices[a]);
        // The plane of the thread's store to the output when the output has the same planes
        // (a stencil's point: its inputs lie on both sides of it), else of its first element here.
        long long z = -1;
        for (int pass = 0; pass < 2 && z < 0; ++pass)
            for (const sim::Event& e : t.events)
                if (e.thread == f.view.thread && (pass ? e.array == a : e.array == 2 && e.op == sim::Op::GlobalStore &&
                                                                         s.arrays.size() > 2 && s.arrays[2].rows == info.rows &&
                                                                         s.arrays[2].cols == info.cols)) {
                    z = e.index / planeSize;
                    break;
                }
        if (z < 0) {
            const long long bx = std::max(1u, t.blockDim.x), by = std::max(1u, t.blockDim.y);
            z = 1ll * s.scenario.block.z * t.blockDim.z + f.view.thread / bx / by;
        }
        centre[a] = static_cast<int>(std::clamp<long long>(z, 0, slices[a] - 1));
    }
    auto listed = [](const std::vector<std::pair<int, int32_t>>& l, int a, int32_t i) {
        return std::find(l.begin(), l.end(), std::pair<int, int32_t>(a, i)) != l.end();
    };

    // The picture is the panel's elastic region: at least a few rows of cells, and as much
    // room as the layout can give it (without this the layout saw only the legend above and
    // left the arrays a strip about 130 px tall).
    const float least = 8 * ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("arrays", ImVec2(0, elasticHeight(least, FLT_MAX)), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float width = std::max(scaled(100), ImGui::GetContentRegionAvail().x - scaled(4));
    const float font = ImGui::GetFontSize();
    const float titleH = ImGui::GetTextLineHeightWithSpacing() + scaled(4);
    // 1D arrays are strips with their name at the left; one line above them says their length.
    float labelW = 0;
    for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()); ++a)
        if (s.arrays[static_cast<size_t>(a)].size() > 0 && s.arrays[static_cast<size_t>(a)].rows == 1)
            labelW = std::max(labelW, ImGui::CalcTextSize(s.arrays[static_cast<size_t>(a)].name.c_str()).x + scaled(8));
    const float height = ImGui::GetContentRegionAvail().y - (labelW > 0 ? titleH : 0);
    // The largest cell at which every array fits the panel (a 1D array wraps at a multiple
    // of 32 elements, a warp's); below 3 pixels the panel scrolls.
    // The elements of each array the traced block touches, first to last: where a 1D array
    // too long for readable cells is shown in a window.
    int touchedLo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, touchedHi[3] = {-1, -1, -1};
    for (const sim::Event& e : t.events)
        if (e.array < 3) {
            touchedLo[e.array] = std::min<int>(touchedLo[e.array], e.index);
            touchedHi[e.array] = std::max<int>(touchedHi[e.array], e.index);
        }
    bool window = false;
    auto shapeAt = [&](const sim::ArrayInfo& info, float cell, int a) {
        Shape sh;
        sh.size = info.size();
        sh.oneD = info.rows == 1;
        if (slices[a] > 1) {
            sh.oneD = false;
            sh.slices = slices[a];
            sh.rows = info.rows / slices[a];
            sh.cols = info.cols;
            sh.firstPlane = std::max(0, std::min(centre[a] - 1, slices[a] - 3));
            sh.planes = std::min(3, slices[a]);
            return sh;
        }
        if (sh.oneD && window && touchedHi[a] >= 0) {
            sh.first = touchedLo[a] - touchedLo[a] % 32;
            sh.size = std::min(info.size() - sh.first, touchedHi[a] + 1 - sh.first);
        }
        if (sh.oneD) {
            int perRow = std::max(1, static_cast<int>((width - labelW) / cell));
            if (perRow >= 32) perRow -= perRow % 32;
            else if (perRow >= 8) perRow -= perRow % 8;
            sh.cols = std::min(perRow, sh.size);
            sh.rows = (sh.size + sh.cols - 1) / sh.cols;
        } else {
            sh.rows = info.rows;
            sh.cols = info.cols;
        }
        return sh;
    };
    auto fit = [&] {
        float c = font * 2.2f;
        for (; c > 3.0f; c *= 0.92f) {
            float need = 0;
            bool wide = false;
            for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()); ++a) {
                const sim::ArrayInfo& info = s.arrays[static_cast<size_t>(a)];
                if (info.size() == 0) continue;
                const Shape sh = shapeAt(info, c, a);
                need += (sh.oneD ? scaled(4) : titleH) + c * static_cast<float>(sh.rows) +
                        (sh.slices > 1 ? ImGui::GetTextLineHeightWithSpacing() + scaled(6) + ImGui::GetStyle().ItemSpacing.y
                                       : 0.0f);   // a 3D array's plane labels and the gap below it
                wide = wide || c * static_cast<float>(sh.drawnCols()) + (sh.oneD ? labelW : 0) > width;
            }
            if (need <= height && !wide) break;
        }
        return c;
    };
    float cell = fit();
    // 1D arrays whose whole length leaves cells too small to read: the traced block's part.
    if (cell < font * 0.75f) {
        window = true;
        cell = std::max(cell, fit());
    }
    // 2D arrays side by side, as the textbook draws an input beside its output, when that
    // gives larger cells than one above the other.
    bool sideBySide = false;
    {
        // 2D arrays, or 3D arrays' planes (each array's three side by side, then the next's).
        int sumCols = 0, maxRows = 0, count = 0;
        bool all2D = true, any3D = false;
        for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()); ++a) {
            const sim::ArrayInfo& info = s.arrays[static_cast<size_t>(a)];
            if (info.size() == 0) continue;
            const Shape sh = shapeAt(info, cell, a);
            all2D = all2D && info.rows > 1;
            any3D = any3D || sh.slices > 1;
            sumCols += sh.slices > 1 ? sh.drawnCols() : info.cols;
            maxRows = std::max(maxRows, sh.slices > 1 ? sh.rows : info.rows);
            ++count;
        }
        const float gap = scaled(16);
        const float labels = any3D ? ImGui::GetTextLineHeightWithSpacing() + scaled(6) + ImGui::GetStyle().ItemSpacing.y : 0.0f;
        const float side = std::min((width - gap * static_cast<float>(count - 1)) / static_cast<float>(std::max(1, sumCols)),
                                    (height - titleH - labels) / static_cast<float>(std::max(1, maxRows)));
        if (all2D && count > 1 && side > cell) {
            sideBySide = true;
            cell = std::min(side, font * 2.2f);
        }
    }
    cell = std::max(cell, 3.0f);
    for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()) && labelW > 0; ++a) {
        const sim::ArrayInfo& info = s.arrays[static_cast<size_t>(a)];
        if (info.size() == 0 || info.rows != 1) continue;
        const Shape sh = shapeAt(info, cell, a);
        std::string names;
        for (int b = 0; b < 3 && b < static_cast<int>(s.arrays.size()); ++b)
            if (s.arrays[static_cast<size_t>(b)].size() > 0 && s.arrays[static_cast<size_t>(b)].rows == 1)
                names += (names.empty() ? "" : ", ") + s.arrays[static_cast<size_t>(b)].name;
        std::string line = names + ": " +
                           (sh.size < info.size() ? "elements " + std::to_string(sh.first) + ".." + std::to_string(sh.first + sh.size - 1) +
                                                        " of " + std::to_string(info.size()) + " (the traced block's)"
                                                  : std::to_string(info.size()) + " elements") +
                           ", " + std::to_string(sh.cols) + " a row";
        ImGui::TextUnformatted(line.c_str());
        break;
    }
    const ImVec2 top = ImGui::GetCursorScreenPos();
    float nextX = top.x;
    for (int a = 0; a < 3 && a < static_cast<int>(s.arrays.size()); ++a) {
        const sim::ArrayInfo& info = s.arrays[static_cast<size_t>(a)];
        if (info.size() == 0) continue;
        const bool output = a == 2;
        const Shape sh = shapeAt(info, cell, a);
        if (sideBySide) {
            ImGui::SetCursorScreenPos(ImVec2(nextX, top.y));
            ImGui::BeginGroup();
        }
        const int drawnRows = std::min(sh.rows, std::max(1, kMaxDrawn / sh.drawnCols()));
        const std::string title = info.name + (output ? " (output" : " (input") + ", " +
                                  (sh.slices > 1 ? std::to_string(sh.slices) + " x " + std::to_string(sh.rows) + " x " + std::to_string(sh.cols)
                                   : sh.oneD ? std::to_string(info.size()) + " elements" : std::to_string(info.rows) + " x " + std::to_string(info.cols)) +
                                  (sh.oneD && sh.size < info.size()
                                       ? "; " + std::to_string(sh.first) + ".." + std::to_string(sh.first + sh.size - 1) + " shown, the traced block's"
                                       : std::string()) +
                                  (sh.oneD && sh.rows > 1 ? ", " + std::to_string(sh.cols) + " a row" : std::string()) + ")";
        ImVec2 origin = ImGui::GetCursorScreenPos();
        if (sh.oneD) {
            // The name at the left of the strip's first row.
            dl->AddText(ImVec2(origin.x, origin.y + std::max(0.0f, (cell - font) / 2)), pal.cellText, info.name.c_str());
            origin.x += labelW;
        } else {
            ImGui::TextUnformatted(title.c_str());
            if (sh.slices > 1)
                tooltip("Three planes of the first index (PMPP's i): the selected thread's point lies in the middle "
                        "one, and a seven-point stencil reads the planes before and after it too.");
            origin = ImGui::GetCursorScreenPos();
        }
        const bool values = cell >= font * 2.0f;
        // Where cell (r, c) of the drawing lies in the array, or -1 for the gap between planes.
        auto indexAt = [&](int r, int c) {
            if (sh.slices > 1) {
                const int plane = c / (sh.cols + 1), col = c % (sh.cols + 1);
                if (col == sh.cols || plane >= sh.planes) return -1;
                return ((sh.firstPlane + plane) * sh.rows + r) * sh.cols + col;
            }
            return sh.oneD ? sh.first + r * sh.cols + c : r * info.cols + c;
        };
        // Each plane's first index, where it fits above the plane ("[4][.][.]", else "[4]").
        for (int plane = 0; plane < sh.planes && sh.slices > 1; ++plane) {
            std::string label = "[" + std::to_string(sh.firstPlane + plane) + "][.][.]";
            if (ImGui::CalcTextSize(label.c_str()).x > cell * static_cast<float>(sh.cols + 1))
                label = "[" + std::to_string(sh.firstPlane + plane) + "]";
            dl->AddText(ImVec2(origin.x + static_cast<float>(plane * (sh.cols + 1)) * cell, origin.y), pal.cellText, label.c_str());
        }
        if (sh.slices > 1) {
            ImGui::Dummy(ImVec2(0, font + scaled(2)));
            origin = ImGui::GetCursorScreenPos();
        }
        for (int r = 0; r < drawnRows; ++r)
            for (int c = 0; c < sh.drawnCols(); ++c) {
                if (sh.oneD && r * sh.cols + c >= sh.size) break;
                const int idx = indexAt(r, c);
                if (idx < 0) continue;
                const sim::ElementView& e = f.replay.element(a, idx);
                ImU32 fill = pal.cell;
                if (output) {
                    if (e.stored) fill = pal.finished;
                } else if (f.view.heatmap) {
                    fill = heatColour(static_cast<float>(s.counters.elementLoads[static_cast<size_t>(a)][static_cast<size_t>(idx)]) / 4.0f);
                } else if (e.inShared()) {
                    fill = pal.inShared;
                } else if (e.loadsSoFar > 0) {
                    fill = pal.loadedEarlier;
                }
                const ImVec2 p0(origin.x + c * cell, origin.y + r * cell), p1(p0.x + cell, p0.y + cell);
                dl->AddRectFilled(p0, p1, fill);
                if (cell >= 4) dl->AddRect(p0, p1, pal.grid);
                // Output: wrong against the reference as shown (stored by the traced block at
                // the cursor), or in the final P for the other blocks' elements.
                if (output && !orderOnly && static_cast<size_t>(idx) < s.reference.size()) {
                    const float v = e.stored ? e.storedValue : s.P[static_cast<size_t>(idx)];
                    if (std::memcmp(&v, &s.reference[static_cast<size_t>(idx)], sizeof v) != 0) {
                        dl->AddLine(ImVec2(p0.x + 2, p0.y + 2), ImVec2(p1.x - 2, p1.y - 2), pal.error, 2.0f);
                        dl->AddLine(ImVec2(p1.x - 2, p0.y + 2), ImVec2(p0.x + 2, p1.y - 2), pal.error, 2.0f);
                    }
                }
                if (listed(now, a, idx)) {
                    // Small cells keep their fill visible under a thin frame.
                    if (cell >= 10) dl->AddRect(p0, p1, pal.stepOutline, 0, 0, 4.0f);
                    dl->AddRect(p0, p1, pal.readNow, 0, 0, cell >= 10 ? 2.0f : 1.0f);
                }
                if (listed(mine, a, idx)) dl->AddRect(ImVec2(p0.x - 1, p0.y - 1), ImVec2(p1.x + 1, p1.y + 1), pal.selected, 0, 0, 2.0f);
                if (values) {
                    const float v = output ? (e.stored ? e.storedValue : s.P[static_cast<size_t>(idx)])
                                           : (a == 0 ? s.M : s.N)[static_cast<size_t>(idx)];
                    char b[16];
                    std::snprintf(b, sizeof b, "%.2f", static_cast<double>(v));
                    if (!std::isnan(v)) dl->AddText(ImVec2(p0.x + 2, p0.y + (cell - font) / 2), pal.cellText, b);
                }
            }
        if (sh.oneD) ImGui::SetCursorScreenPos(origin);
        ImGui::Dummy(ImVec2(cell * static_cast<float>(sh.drawnCols()), std::max(cell * static_cast<float>(drawnRows), sh.oneD ? font : 0.0f)));
        if (ImGui::IsItemHovered()) {
            const ImVec2 m = ImGui::GetMousePos();
            const int c = static_cast<int>((m.x - origin.x) / cell), r = static_cast<int>((m.y - origin.y) / cell);
            const int idx = c >= 0 && r >= 0 && r < sh.rows ? indexAt(r, c) : -1;
            if (idx >= 0 && c < sh.drawnCols() && (sh.oneD ? idx - sh.first < sh.size : idx < sh.size)) {
                const sim::ElementView& e = f.replay.element(a, idx);
                std::string tip = elementText(info, idx, sh.slices);
                if (output) {
                    tip += " = " + (e.stored ? valueText(e.storedValue) + " (stored by the traced block)"
                                             : std::isnan(s.P[static_cast<size_t>(idx)]) ? std::string("never written")
                                                                                         : valueText(s.P[static_cast<size_t>(idx)]) + " (final)");
                    if (static_cast<size_t>(idx) < s.reference.size()) tip += "\nreference: " + valueText(s.reference[static_cast<size_t>(idx)]);
                } else {
                    tip += " = " + valueText((a == 0 ? s.M : s.N)[static_cast<size_t>(idx)]) + "\nloaded " + std::to_string(e.loadsSoFar) +
                           " time(s) by the traced block so far, " +
                           std::to_string(s.counters.elementLoads[static_cast<size_t>(a)][static_cast<size_t>(idx)]) + " by the whole grid";
                }
                tooltip(tip);
            }
        }
        if (drawnRows < sh.rows)
            ImGui::TextUnformatted(("(the first " + std::to_string(drawnRows * sh.cols) + " of " + std::to_string(sh.size) + " elements are drawn)").c_str());
        ImGui::Dummy(ImVec2(0, scaled(4)));
        if (sideBySide) {
            ImGui::EndGroup();
            nextX = ImGui::GetItemRectMax().x + scaled(16);
        }
    }
    ImGui::EndChild();
    noteFigure(keyTop, ImGui::GetItemRectMax());
}

}  // namespace ts::app
