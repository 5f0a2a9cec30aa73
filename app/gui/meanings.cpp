#include "meanings.hpp"

#include <algorithm>
#include <array>

#include "glossary.hpp"
#include "panels/widgets.hpp"
#include "practice.hpp"
#include "sim/engine/trace.hpp"

namespace ts::app {
namespace {

// The table. Words are what a student at the back of the room reads; the tooltip says it in
// full, with the textbook's section where there is one.
constexpr std::array<MeaningStyle, 17> kTable{{
    {Meaning::Cell, "nothing yet", "An element the traced block has not touched yet.", Mark::Fill, &Palette::cell},
    {Meaning::InShared, "in shared memory", "The element's value sits in a shared-memory slot of the traced block now "
     "(Mds/Nds, PMPP sec. 5.4).", Mark::Fill, &Palette::inShared},
    {Meaning::LoadedEarlier, "loaded earlier", "Loaded from global memory by the traced block at an earlier step and "
     "not in shared memory now: its slot has been overwritten since, or the kernel keeps no copy.", Mark::Fill,
     &Palette::loadedEarlier},
    {Meaning::LoadedThisPhase, "loaded this phase", "Read from global memory by the traced block in the current phase "
     "(dashed orange frame).", Mark::Dashed, &Palette::loadedThisPhase},
    {Meaning::ThisStep, "this step", "Touched by the current step (solid yellow frame): an outer frame where it is read "
     "from or written to memory, an inner frame where it is read through its copy in shared memory. Where cells are "
     "too small for a frame each, one yellow outline round the elements it touches.", Mark::Frame,
     &Palette::readNow},
    {Meaning::Internal, "internal", "In the traced block's output tile: the elements it owns (tiled convolution, PMPP "
     "sec. 7.4).", Mark::Fill, &Palette::inShared},
    {Meaning::Halo, "halo cell", "Outside the output tile but reached by the mask: the block loads them too (halo "
     "cells, PMPP sec. 7.4).", Mark::Fill, &Palette::halo},
    {Meaning::ZeroFill, "ghost cell: 0", "Past the edge of the input: no element there, so the thread stores 0 in the "
     "tile slot instead of loading (boundary checks, PMPP sec. 5.5; ghost cells, sec. 7.1).", Mark::Fill,
     &Palette::zeroFill},
    {Meaning::Finished, "P finished", "P element stored by the traced block.", Mark::Fill, &Palette::finished},
    {Meaning::WrongP, "wrong P", "P element that differs from the CPU reference (fmaf in k order): a race gave it a "
     "stale operand (frame with a corner stroke).", Mark::Frame, &Palette::error},
    {Meaning::WrongRead, "wrong read", "A thread read this slot in the current step and got a different value than it "
     "gets with every barrier in place: a stale one (old, or never written) without the barrier after the load, the "
     "next phase's without the barrier after the use (corner and inner frame).", Mark::Corner, &Palette::wrongRead},
    {Meaning::Hazard, "hazard", "A slot of the hazard shown in the Hazards panel (solid frame).", Mark::Frame,
     &Palette::hazard},
    {Meaning::Selected, "selected thread", "The selected thread: a corner on what it touches in this step, a small "
     "frame inside the P elements it computes. A frame round a whole tile marks the traced block's tile.", Mark::Corner,
     &Palette::selected},
    {Meaning::PracticeChosen, "chosen", "Practice mode: a cell you chose (frame and dot).", Mark::Glyph,
     &Palette::selected},
    {Meaning::PracticeRight, "right", "Practice mode: chosen and expected (frame and tick).", Mark::Glyph,
     &Palette::practiceRight},
    {Meaning::PracticeWrong, "wrong", "Practice mode: chosen but not expected (frame and cross).", Mark::Glyph,
     &Palette::practiceWrong},
    {Meaning::PracticeMissed, "missed", "Practice mode: expected but not chosen (dashed frame and ring).", Mark::Glyph,
     &Palette::practiceMissed},
}};

constexpr bool tableInOrder()
{
    for (size_t i = 0; i < kTable.size(); ++i)
        if (static_cast<size_t>(kTable[i].meaning) != i) return false;
    return true;
}
static_assert(tableInOrder(), "kTable lists the meanings in the enum's order");

PracticeMark practiceMarkOf(Meaning m)
{
    switch (m) {
    case Meaning::PracticeChosen: return PracticeMark::Chosen;
    case Meaning::PracticeRight: return PracticeMark::Right;
    case Meaning::PracticeWrong: return PracticeMark::Wrong;
    case Meaning::PracticeMissed: return PracticeMark::Missed;
    default: return PracticeMark::None;
    }
}

}  // namespace

std::span<const MeaningStyle> meaningTable() { return kTable; }

const MeaningStyle& styleOf(Meaning m) { return kTable[static_cast<size_t>(m)]; }

FigureContents contentsOf(const sim::Trace& t)
{
    FigureContents c;
    for (const sim::Event& e : t.events) {
        if (e.array != sim::kNoArray && e.array < t.arrays.size() && t.arrays[e.array].space == sim::Space::Shared)
            c.shared = true;
        if (e.op == sim::Op::ZeroFill) c.zeroFills = true;
        if (e.op == sim::Op::GlobalStore) c.stores = true;
        if (e.op == sim::Op::Barrier) c.barriers = true;
    }
    c.phases = std::any_of(t.steps.begin(), t.steps.end(), [](const sim::Step& s) { return s.phase > 0; });
    return c;
}

const FigureContents& contentsOf(const sim::Trace& t, uint64_t generation)
{
    static uint64_t cachedGeneration = ~0ull;
    static const sim::Trace* cachedTrace = nullptr;
    static FigureContents cached;
    if (cachedGeneration != generation || cachedTrace != &t) {
        cached = contentsOf(t);
        cachedGeneration = generation;
        cachedTrace = &t;
    }
    return cached;
}

namespace {

/// The space between two entries on one line of a legend.
float entryGap() { return scaled(14); }

}  // namespace

float legendEntryWidth(Meaning m)
{
    return ImGui::GetTextLineHeight() * 1.3f + scaled(5) + ImGui::CalcTextSize(styleOf(m).words).x;
}

float legendWidth(std::span<const LegendItem> items)
{
    float w = 0;
    for (const LegendItem& i : items) w = std::max(w, legendEntryWidth(i.meaning));
    return w;
}

int legendRows(std::span<const LegendItem> items, float width)
{
    int rows = 0;
    float x = 0;
    for (const LegendItem& i : items) {
        const float w = legendEntryWidth(i.meaning);
        if (rows > 0 && x + entryGap() + w <= width) {
            x += entryGap() + w;
        } else {
            ++rows;
            x = w;
        }
    }
    return rows;
}

void legendEntry(Meaning m, bool first, const char* more)
{
    const MeaningStyle& st = styleOf(m);
    const Palette& pal = currentPalette();
    const ImU32 colour = pal.*st.colour;
    const float h = ImGui::GetTextLineHeight();
    const float w = h * 1.3f;
    if (!first) {
        const float gap = entryGap(), width = legendEntryWidth(m);
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a(p.x, p.y + 1), b(p.x + w, p.y + h - 1);
    const float t = std::max(2.0f, scaled(3));
    switch (st.mark) {
    case Mark::Fill: dl->AddRectFilled(a, b, colour, 2.0f); break;
    case Mark::Frame:
        dl->AddRectFilled(a, b, pal.cell);
        if (m == Meaning::ThisStep) stepFrame(dl, a, b, pal, 0, t);
        else markFrame(dl, a, b, colour, pal, t);
        break;
    case Mark::Dashed:
        dl->AddRectFilled(a, b, pal.cell);
        dashedRect(dl, a, b, colour, t, pal.stepOutline);
        break;
    case Mark::Corner: {
        dl->AddRectFilled(a, b, pal.cell);
        const float d = (b.y - a.y) * 0.6f;
        dl->AddTriangleFilled(ImVec2(b.x, b.y), ImVec2(b.x - d, b.y), ImVec2(b.x, b.y - d), colour);
        break;
    }
    case Mark::Glyph:
        dl->AddRectFilled(a, b, pal.cell);
        drawPracticeMark(dl, a, ImVec2(a.x + (b.y - a.y), b.y), practiceMarkOf(m), pal);
        break;
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine(0, scaled(5));
    ImGui::TextUnformatted(st.words);
    // The words link to the glossary's entry for their term (glossary.hpp).
    const char* term = glossaryTermOf(m);
    if (term && ImGui::IsItemClicked()) openGlossaryAt(term);
    if (ImGui::IsItemHovered() || ImGui::IsMouseHoveringRect(a, b)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(st.means);
        if (more) ImGui::TextUnformatted(more);
        if (term) ImGui::TextDisabled("Click: '%s' in the glossary.", term);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace ts::app
