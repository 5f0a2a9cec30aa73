// Shared memory: every shared array of the traced block (Mds, Nds) at the cursor, each slot
// with its value, the thread (ty, tx) that wrote it and the element it was loaded from;
// slots read or written by the current step and zero-filled slots are marked, so are slots
// from which a read of this step got a wrong value (with a barrier dropped: an old, a
// never-written or the next phase's value) and the slot of the hazard shown in Hazards.
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cell_canvas.hpp"
#include "figure_fit.hpp"
#include "figure_notes.hpp"
#include "layout.hpp"
#include "meanings.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

std::string elementText(const sim::Trace& t, uint8_t array, int32_t idx)
{
    const sim::ArrayInfo& a = t.arrays[array];
    const sim::RowCol rc = a.rowCol(idx);   // the element's row and column, whatever its layout
    return a.name + "[" + std::to_string(rc.row) + "][" + std::to_string(rc.col) + "]";
}

std::string threadText(const sim::Trace& t, uint16_t thread)
{
    const int bx = static_cast<int>(t.blockDim.x);
    return "(" + std::to_string(thread / bx) + "," + std::to_string(thread % bx) + ")";
}

/// The reads of array `array` in the cursor step that got a wrong value: Loaded::wrongReads
/// where the app compared the run with one that keeps every barrier (a preset that drops
/// one), else the reads the simulator marked stale (sim::kStale: another thread wrote the
/// slot later in the same barrier interval, or never; a student's kernel without a barrier).
std::vector<const sim::Event*> wrongReads(const Frame& f, const sim::Trace& t, int array)
{
    std::vector<const sim::Event*> out;
    if (f.view.cursor < 0 || f.view.cursor >= static_cast<int>(t.steps.size())) return out;
    const bool compared = f.loaded.wrongReads.size() == t.events.size();
    const sim::Step& st = t.steps[f.view.cursor];
    for (int i = st.begin; i < st.end; ++i) {
        const sim::Event& e = t.events[i];
        if (e.array != array || e.op != sim::Op::SharedLoad) continue;
        if (compared ? f.loaded.wrongReads[i] != 0 : (e.flags & sim::kStale) != 0) out.push_back(&e);
    }
    return out;
}

/// What a read of slot `slot` got in the cursor step where that is not the value the slot
/// holds after it: the selected thread's read of the slot, else the first wrong read
/// (`wrong`). The slot shows that value, the one the reading thread actually used.
struct ReadGot {
    bool shown = false;
    float value = 0;
    uint16_t thread = sim::kNoThread;
};

ReadGot readGot(const Frame& f, const sim::Trace& t, int array, int slot, const sim::SlotView& sl,
                const std::vector<const sim::Event*>& wrong)
{
    ReadGot g;
    auto differs = [&](float v) { return !sl.written || std::memcmp(&v, &sl.value, sizeof v) != 0; };
    if (f.view.cursor < 0 || f.view.cursor >= static_cast<int>(t.steps.size())) return g;
    const sim::Step& st = t.steps[f.view.cursor];
    for (int i = st.begin; i < st.end; ++i) {
        const sim::Event& e = t.events[i];
        if (e.array == array && e.index == slot && e.op == sim::Op::SharedLoad && e.thread == f.view.thread) {
            if (differs(e.value)) g = ReadGot{true, e.value, e.thread};
            return g;
        }
    }
    for (const sim::Event* e : wrong)
        if (e->index == slot && differs(e->value)) return ReadGot{true, e->value, e->thread};
    return g;
}

void slotTooltip(const Frame& f, const sim::Trace& t, int array, int i, const std::vector<const sim::Event*>& wrong)
{
    const sim::SlotView& sl = f.replay.slots[array][i];
    const sim::ArrayInfo& a = t.arrays[array];
    ImGui::BeginTooltip();
    ImGui::PushFont(f.theme.fonts.mono);
    ImGui::Text("%s[%d][%d]  (slot %d)", a.name.c_str(), i / a.cols, i % a.cols, i);
    ImGui::PopFont();
    if (!sl.written) {
        ImGui::TextUnformatted("not written yet");
    } else {
        ImGui::Text("value %.6g", sl.value);
        ImGui::Text("written by thread (ty, tx) = %s at step %d: %s", threadText(t, sl.writer).c_str(), sl.writeStep,
                    t.steps[sl.writeStep].label.c_str());
        if (sl.zeroFilled) ImGui::TextUnformatted("zero-filled: its tile element lies outside the matrix");
        else if (sl.sourceIndex >= 0)
            ImGui::Text("loaded from %s (flat %d)", elementText(t, sl.sourceArray, sl.sourceIndex).c_str(), sl.sourceIndex);
    }
    if (sl.readNow) ImGui::TextUnformatted("read by the current step");
    if (const ReadGot g = readGot(f, t, array, i, sl, wrong); g.shown)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.theme.palette.wrongReadText),
                           "shown: %.6g, the value thread %s read here (the slot holds %s after the step)", g.value,
                           threadText(t, g.thread).c_str(), sl.written ? cellValue(sl.value, false).c_str() : "nothing");
    for (const sim::Event* r : wrong) {
        if (r->index != i) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, f.theme.palette.wrongReadText);
        const std::string who = threadText(t, r->thread);
        if (std::isnan(r->value))
            ImGui::Text("wrong read by thread %s: the slot had never been written (NaN)", who.c_str());
        else if (r->flags & sim::kStale)
            ImGui::Text("wrong read by thread %s: got %.6g, a stale value (its owner writes the new one later)",
                        who.c_str(), r->value);
        else
            ImGui::Text("wrong read by thread %s: got %.6g, already overwritten with the next phase's tile",
                        who.c_str(), r->value);
        ImGui::PopStyleColor();
    }
    if (const sim::Hazard* h = focusedHazard(f.loaded, f.view); h && h->array == array && h->slot == i)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.theme.palette.hazardText), "%s hazard: %s by %s, then %s by %s",
                           sim::hazardName(h->kind), h->first.write ? "write" : "read", threadText(t, h->first.thread).c_str(),
                           h->second.write ? "write" : "read", threadText(t, h->second.thread).c_str());
    if (sl.writtenNow) ImGui::TextUnformatted("written by the current step");
    ImGui::TextDisabled("click: select the thread that wrote it");
    ImGui::EndTooltip();
}

/// The fill of a written slot: a convolution's N_ds slot in the colour of its role (internal,
/// halo cell, ghost cell), as the Convolution panel draws it; else in shared memory, or
/// zero-filled.
ImU32 slotFill(const Palette& pal, const sim::SlotView& sl, const sim::ConvSlot* conv)
{
    if (!sl.written) return pal.cell;
    if (sl.zeroFilled) return colourOf(Meaning::ZeroFill, pal);
    if (conv && conv->role == sim::ConvRole::Halo) return colourOf(Meaning::Halo, pal);
    if (conv && conv->role == sim::ConvRole::Internal) return colourOf(Meaning::Internal, pal);
    return colourOf(Meaning::InShared, pal);
}

/// One shared array as a grid of slots `cell.w` x `cell.h` pixels under its name; `conv` the
/// convolution's view when the array is its N_ds (else null). Notes the grid with its name as
/// part of the panel's figure.
void drawArray(Frame& f, const sim::Trace& t, int array, CellSize cell, const sim::ConvView* conv)
{
    const Palette& pal = f.theme.palette;
    const sim::ArrayInfo& a = t.arrays[array];
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 head = ImGui::GetCursorScreenPos();
    ImGui::PushFont(f.theme.fonts.bold);
    ImGui::TextUnformatted(a.name.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%d x %d", a.rows, a.cols);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(a.name.c_str(), ImVec2(cell.w * a.cols, cell.h * a.rows));
    noteFigure(head, ImVec2(std::max(o.x + cell.w * a.cols, ImGui::GetItemRectMax().x), o.y + cell.h * a.rows));
    // Frames and marks scale with the slot's shorter side.
    const float side = std::min(cell.w, cell.h);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    // A slot shows its value, the element it was loaded from and its writer in the cell font,
    // else the small one, where three lines fit; else its value alone where that fits.
    ImFont* mono = f.theme.fonts.cell;
    if (3 * mono->FontSize + scaled(6) > cell.h) mono = f.theme.fonts.small;
    const bool threeLines = 3 * mono->FontSize + scaled(6) <= cell.h;
    const float lh = mono->FontSize;
    const std::vector<const sim::Event*> wrong = wrongReads(f, t, array);
    const sim::Hazard* hz = focusedHazard(f.loaded, f.view);
    // Values in every written slot or in none: where one does not fit its slot ("-0.04"
    // where "0.53" fits), none is written, so that an empty slot never reads as "no value".
    const bool compact = !threeLines || cell.w < 7 * lh * 0.6f;
    bool valuesFit = true;
    std::vector<ReadGot> got(static_cast<size_t>(a.size()));
    for (int i = 0; i < a.size() && valuesFit; ++i) {
        const sim::SlotView& sl = f.replay.slots[array][i];
        got[i] = readGot(f, t, array, i, sl, wrong);
        if (sl.written) valuesFit = mono->CalcTextSizeA(lh, 1e9f, 0, cellValue(sl.value, compact).c_str()).x <= cell.w - scaled(6);
        if (got[i].shown)
            valuesFit = valuesFit && mono->CalcTextSizeA(lh, 1e9f, 0, cellValue(got[i].value, compact).c_str()).x <= cell.w - scaled(6);
    }
    // Below a readable slot (PMPP's 16x16 N_ds of conv2d at the desk: 6 px) a frame on each
    // slot the step touches reads as hatching: one outline round them instead.
    const bool tileOutline = side < scaled(14);
    for (int i = 0; i < a.size(); ++i) {
        const sim::SlotView& sl = f.replay.slots[array][i];
        const ImVec2 p0(o.x + (i % a.cols) * cell.w, o.y + (i / a.cols) * cell.h);
        const ImVec2 p1(p0.x + cell.w - 2, p0.y + cell.h - 2);
        const sim::ConvSlot* cs = nullptr;
        if (conv)
            for (const sim::ConvSlot& x : conv->slots)
                if (x.slot == i) cs = &x;
        const ImU32 fill = slotFill(pal, sl, cs);
        dl->AddRectFilled(p0, p1, fill, 3);
        // This step: an outer frame where the step writes the slot, an inner one where it reads it
        // (slots too small for frames get one outline round them all, below).
        if (sl.writtenNow && !tileOutline) stepFrame(dl, p0, p1, pal, 3, std::min(scaled(4.0f), side / 6));
        if (sl.readNow && !tileOutline) {
            const float in = std::min(scaled(5.0f), side / 8);
            stepFrame(dl, ImVec2(p0.x + in, p0.y + in), ImVec2(p1.x - in, p1.y - in), pal, 2, std::min(scaled(2.5f), side / 10));
        }
        if (sl.written && sl.writer == f.view.thread) {
            const float d = std::min(scaled(12.0f), side / 4);
            dl->AddTriangleFilled(p0, ImVec2(p0.x + d, p0.y), ImVec2(p0.x, p0.y + d), pal.selected);
        }
        if (std::any_of(wrong.begin(), wrong.end(), [&](const sim::Event* r) { return r->index == i; })) {
            const float d = std::min(scaled(18.0f), side / 3);
            dl->AddTriangleFilled(p1, ImVec2(p1.x - d, p1.y), ImVec2(p1.x, p1.y - d), pal.wrongRead);
            markFrame(dl, ImVec2(p0.x + 3, p0.y + 3), ImVec2(p1.x - 3, p1.y - 3), pal.wrongRead, pal, std::min(scaled(2.5f), side / 10), 2);
        }
        if (hz && hz->array == array && hz->slot == i)
            markFrame(dl, ImVec2(p0.x - 1, p0.y - 1), ImVec2(p1.x + 1, p1.y + 1), pal.hazard, pal, std::min(scaled(5.0f), side / 5), 4);
        // Practice mode: the slot remembered for scripted clicks, and its mark.
        practiceCellDrawn(f, dl, CellRef{a.name, sim::Cell{i / a.cols, i % a.cols}}, p0, p1);
        // A read of this step that got another value than the slot holds (stale, or NaN from a
        // slot never written) shows what the reading thread got, and who read it.
        const ReadGot& g = got[i];
        if (cell.h < lh + scaled(6) || !(sl.written || g.shown) || !valuesFit) continue;
        const ImU32 tc = textOn(fill);
        const float cx = (p0.x + p1.x) * 0.5f;
        auto line = [&](float y, const std::string& s, ImU32 col) {
            const float w = mono->CalcTextSizeA(lh, 1e9f, 0, s.c_str()).x;
            if (w > cell.w - scaled(6)) return;
            // On the slot's fill, over the frames of small slots, so that it reads as well there.
            dl->AddRectFilled(ImVec2(cx - w * 0.5f - 1, y), ImVec2(cx + w * 0.5f + 1, y + lh), fill);
            dl->AddText(mono, lh, ImVec2(cx - w * 0.5f, y), col, s.c_str());
        };
        if (!threeLines) {
            line((p0.y + p1.y - lh) * 0.5f, cellValue(g.shown ? g.value : sl.value, compact), tc);
            continue;
        }
        const float y0 = (p0.y + p1.y) * 0.5f - 1.5f * lh;
        if (g.shown) {
            line(y0, cellValue(g.value, compact), tc);
            line(y0 + lh, "got by", tc);
            line(y0 + 2 * lh, threadText(t, g.thread), tc);
            continue;
        }
        line(y0, cellValue(sl.value, compact), tc);
        line(y0 + lh, sl.zeroFilled ? "zero fill" : sl.sourceIndex >= 0 ? elementText(t, sl.sourceArray, sl.sourceIndex) : "", tc);
        line(y0 + 2 * lh, "by " + threadText(t, sl.writer), tc);
    }
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const int c = std::clamp(static_cast<int>((m.x - o.x) / cell.w), 0, a.cols - 1);
        const int r = std::clamp(static_cast<int>((m.y - o.y) / cell.h), 0, a.rows - 1);
        const int i = r * a.cols + c;
        slotTooltip(f, t, array, i, wrong);
        // While a practice question waits for a slot, a click chooses it.
        if (practiceCellClicked(f, CellRef{a.name, sim::Cell{r, c}}, clicked)) return;
        if (clicked && f.replay.slots[array][i].written) f.view.thread = f.replay.slots[array][i].writer;
    }
    if (tileOutline) {
        CellGrid g;
        g.origin = o;
        g.cell = ImVec2(cell.w, cell.h);
        g.rows = a.rows;
        g.cols = a.cols;
        const auto& slots = f.replay.slots[array];
        auto touched = [&](int r, int c) {
            if (r < 0 || c < 0 || r >= a.rows || c >= a.cols) return false;
            const sim::SlotView& sl = slots[static_cast<size_t>(r) * a.cols + c];
            return sl.writtenNow || sl.readNow;
        };
        regionOutline(dl, g, 0, a.rows, 0, a.cols, touched, pal.readNow, pal.stepOutline, std::max(1.0f, side / 4), false);
    }
}

/// The panel; it keeps a convolution's view (N_ds's slots and their roles), made once per
/// simulation.
struct SharedMemoryPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;          ///< Loaded::generation that conv_ belongs to
    std::optional<sim::ConvView> conv_;
};

}  // namespace

void SharedMemoryPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        std::vector<int> shared;
        if (s)
            for (size_t a = 0; a < s->trace.arrays.size(); ++a)
                if (s->trace.arrays[a].space == sim::Space::Shared) shared.push_back(static_cast<int>(a));
        if (s && generation_ != f.loaded.generation) {
            generation_ = f.loaded.generation;
            const bool isConv =
                sim::problemOf(s->scenario).picture == sim::Picture::Convolution && !s->trace.steps.empty();
            conv_ = isConv ? std::optional<sim::ConvView>(sim::convView(*s)) : std::nullopt;
        }
        const sim::ConvView* conv = conv_ && conv_->ndsArray >= 0 ? &*conv_ : nullptr;
        if (!s) {
            ImGui::TextUnformatted("Simulating...");
        } else if (shared.empty()) {
            ImGui::TextWrapped("This kernel uses no shared memory: every operand comes from global memory.");
        } else {
            // The legend: the table's entries for what these arrays hold (meanings.hpp).
            const FigureContents has = contentsOf(s->trace, f.loaded.generation);
            std::vector<LegendItem> legend;
            if (conv) {
                legend.push_back({Meaning::Internal, "N_ds's slots for the block's output tile."});
                legend.push_back({Meaning::Halo, "N_ds's slots for the halo."});
            } else {
                legend.push_back({Meaning::InShared, "Here: the slot holds a value loaded from global memory."});
            }
            if (has.zeroFills) legend.push_back({Meaning::ZeroFill, nullptr});
            legend.push_back({Meaning::ThisStep, "Here: an outer frame where the step writes the slot, an inner one "
                                                 "where it reads it."});
            legend.push_back({Meaning::Selected, "Here: the slots the selected thread wrote (white corner)."});
            if (!f.loaded.wrongReads.empty()) legend.push_back({Meaning::WrongRead, nullptr});
            if (focusedHazard(f.loaded, f.view)) legend.push_back({Meaning::Hazard, nullptr});

            // The arrays side by side, or one above the other where that gives larger slots
            // (a tall panel on a slide); as large as the panel allows (figure_fit.hpp), at
            // least 1.2 font heights a slot for small tiles and 4 px for large ones.
            const ImVec2 room = ImGui::GetContentRegionAvail();
            const float head = ImGui::GetTextLineHeightWithSpacing();
            const float gap = scaled(24), spacing = ImGui::GetStyle().ItemSpacing.y;
            const float n = static_cast<float>(shared.size());
            FigureShape side, stacked;
            int rows = 0, widestArray = 0;
            // Each array at least as wide as its heading ("Mds 4 x 4", drawArray()).
            auto headWidth = [&](const sim::ArrayInfo& ai) {
                const ImFont* bold = f.theme.fonts.bold;
                const std::string dims = std::to_string(ai.rows) + " x " + std::to_string(ai.cols);
                return bold->CalcTextSizeA(bold->FontSize, FLT_MAX, 0, ai.name.c_str()).x + ImGui::GetStyle().ItemSpacing.x +
                       ImGui::CalcTextSize(dims.c_str()).x;
            };
            float widestHead = 0;
            for (int a : shared) {
                const sim::ArrayInfo& ai = s->trace.arrays[a];
                widestHead = std::max(widestHead, headWidth(ai));
                side.across.push_back(FigureSpan{static_cast<float>(ai.cols), headWidth(ai)});
                stacked.down.push_back(FigureSpan{static_cast<float>(ai.rows), 0});
                rows = std::max(rows, ai.rows);
                widestArray = std::max(widestArray, ai.cols);
            }
            side.down = {FigureSpan{static_cast<float>(rows), 0}};
            side.fixedWide = gap * (n - 1) + 2;
            side.fixedHigh = head;
            stacked.across = {FigureSpan{static_cast<float>(widestArray), widestHead}};
            stacked.fixedWide = 2;
            stacked.fixedHigh = n * head + (n - 1) * spacing;
            const float smallest = widestArray <= 8 ? ImGui::GetFontSize() * 1.2f : 4.0f;
            const float most = std::max(smallest, 150.0f * f.theme.scale);
            const bool stack = fitCell(stacked, room.x, room.y, most) > 1.1f * fitCell(side, room.x, room.y, most);
            // A little in favour of side by side, the textbook's picture.
            const FigureShape& shape = stack ? stacked : side;

            // The legend above the arrays (its entries in rows across the panel), or in a
            // column beside them where the panel is wide and short and that gives the slots
            // a quarter more area (the desk's Shared memory under Code).
            const float line = ImGui::GetTextLineHeightWithSpacing(), legendGap = scaled(16);
            const float aboveHigh = legendRows(legend, room.x) * line;
            const float column = legendWidth(legend), columnHigh = static_cast<float>(legend.size()) * line;
            auto area = [&](CellSize c) { return c.w * c.h; };
            const CellSize above = fitCells(shape, room.x, room.y - aboveHigh, most, kCellStretch);
            const CellSize beside = columnHigh <= room.y ? fitCells(shape, room.x - column - legendGap, room.y, most, kCellStretch)
                                                         : CellSize{};
            const bool besideIt = area(beside) > 1.25f * area(above);
            if (!besideIt) {
                ImGui::BeginGroup();
                for (size_t i = 0; i < legend.size(); ++i) legendEntry(legend[i].meaning, i == 0, legend[i].more);
                ImGui::EndGroup();
                // The legend keys the slots' colours: part of the figure the pixel checks measure.
                noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
            }
            const float wide = besideIt ? room.x - column - legendGap : room.x;
            const float widest = std::max(smallest, fitCell(shape, wide, FLT_MAX, most));
            const float want = figureHeight(shape, widest), least = figureHeight(shape, smallest);
            const float tall = besideIt ? elasticHeight(std::max(least, columnHigh), std::max(want, columnHigh))
                                        : elasticHeight(least, want);
            // Slots up to half as long again as high (or high as long) where the panel's
            // shape leaves room along one axis, so that the figure fills it.
            CellSize cell = fitCells(shape, wide, tall, most, kCellStretch);
            cell.w = std::max(cell.w, smallest);
            cell.h = std::max(cell.h, smallest);
            const float used = figureWidth(shape, cell.w);
            ImGui::BeginChild("arrays", ImVec2(besideIt ? std::min(wide, used + 2) : 0, tall), false,
                              ImGuiWindowFlags_NoScrollbar);
            for (size_t i = 0; i < shared.size(); ++i) {
                if (i && !stack) ImGui::SameLine(0, gap);
                ImGui::BeginGroup();
                drawArray(f, s->trace, shared[i], cell, conv && shared[i] == conv->ndsArray ? conv : nullptr);
                ImGui::EndGroup();
            }
            ImGui::EndChild();
            if (besideIt) {
                ImGui::SameLine(0, legendGap);
                ImGui::BeginChild("legend", ImVec2(column + 2, tall), false, ImGuiWindowFlags_NoScrollbar);
                ImGui::BeginGroup();
                for (size_t i = 0; i < legend.size(); ++i) legendEntry(legend[i].meaning, i == 0, legend[i].more);
                ImGui::EndGroup();
                noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
                ImGui::EndChild();
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeSharedMemoryPanel() { return std::make_unique<SharedMemoryPanel>(); }

}  // namespace ts::app
