// Memory: what the hardware makes of the cursor step's accesses, for one warp of the traced
// block (sim/teaching/warp_view.hpp). Each warp memory instruction of the step (one source access
// executed by the warp's active lanes) is drawn under a row of its 32 lanes:
//   - global memory: the 128-byte segments the lanes touch as a strip of 32-byte sectors, each
//     sector with its 8 words, a word filled in the colour of the lane that reads it; a
//     coalesced access fills 4 sectors of one segment, an uncoalesced one 32 sectors of 32 segments;
//   - shared memory: 32 bank columns; each distinct word is a cell in its bank's column, one
//     row per wavefront, so a bank conflict is a column taller than one cell and a broadcast
//     is one cell that several lanes point at, labelled with those lanes;
//   - constant memory: one line of text (the addresses and the passes they take).
// Lanes are coloured by lane number (heat ramp, lane 0 dark, lane 31 light); hovering a lane
// or a cell says which thread, element and word it is; clicking a lane selects its thread.
// `[` and `]` (or the arrows at the top) pick the warp; selecting a thread anywhere shows its
// warp. Source lines where nvcc's instructions differ from this per-element model carry a note.
#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "figure_notes.hpp"
#include "layout.hpp"
#include "memory_fit.hpp"
#include "panels.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/teaching/warp_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

using sim::AccessKind;
using sim::kWarpLanes;
using sim::WarpInstruction;

std::string elementName(const sim::Trace& t, uint8_t array, int32_t index)
{
    const sim::ArrayInfo& a = t.arrays[array];
    if (a.rows > 1) return a.name + "[" + std::to_string(a.rowCol(index).row) + "][" + std::to_string(a.rowCol(index).col) + "]";
    return a.name + "[" + std::to_string(index) + "]";
}

std::string threadName(const sim::Trace& t, unsigned thread)
{
    const unsigned bx = t.blockDim.x;
    if (t.blockDim.y == 1 && t.blockDim.z == 1) return "thread tx = " + std::to_string(thread);
    return "thread (ty, tx) = (" + std::to_string(thread / bx) + ", " + std::to_string(thread % bx) + ")";
}

const char* kindWords(AccessKind k)
{
    switch (k) {
    case AccessKind::GlobalLoad: return "global load";
    case AccessKind::GlobalStore: return "global store";
    case AccessKind::SharedLoad: return "shared load";
    case AccessKind::SharedStore: return "shared store";
    case AccessKind::SharedAtomic: return "shared atomic";
    case AccessKind::GlobalAtomic: return "global atomic";
    case AccessKind::Branch: return "branch";
    case AccessKind::ConstantLoad: break;
    }
    return "constant load";
}

std::string plural(uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// The colour of lane `lane`: the heat ramp from lane 0 (dark) to lane 31 (light).
ImU32 laneColour(unsigned lane) { return heatColour(static_cast<float>(lane) / (kWarpLanes - 1)); }

/// The lowest lane of `mask`.
unsigned firstLane(uint32_t mask) { return static_cast<unsigned>(std::countr_zero(mask)); }

/// What the layout of one instruction's picture needs, for a width.
struct PictureSize {
    float min = 0, want = 0;
};

/// The measures every picture shares: `width` pixels for 32 lanes.
struct Measures {
    float width = 0, lane = 0;        ///< the picture's width; a lane column's width
    float laneH = 0, label = 0;       ///< the lane row's height; a row of small labels
    ImFont* small = nullptr;
    float fs = 0;                     ///< the small font's size
    Measures(const Frame& f, float w)
    {
        width = w;
        lane = w / kWarpLanes;
        small = f.theme.fonts.small;
        fs = small->FontSize;
        laneH = fs + scaled(6);
        label = fs + scaled(3);
    }
    float textWidth(const std::string& s) const { return small->CalcTextSizeA(fs, FLT_MAX, 0, s.c_str()).x; }
};

/// How a global instruction's 128-byte segments are laid out: `perRow` a row, sectors `sector`
/// pixels wide.
struct Strip {
    size_t lines = 0, perRow = 1, rows = 1;
    float sector = 0, gap = 0;
};

Strip stripOf(const WarpInstruction& in, const Measures& m)
{
    Strip s;
    s.lines = std::max<size_t>(1, in.cacheLines.size());
    s.gap = scaled(8);
    const float least = scaled(12);
    s.perRow = s.lines;
    while (s.perRow > 1 && (m.width - s.gap * static_cast<float>(s.perRow - 1)) / (4.0f * s.perRow) < least) --s.perRow;
    s.rows = (s.lines + s.perRow - 1) / s.perRow;
    s.sector = std::min((m.width - s.gap * static_cast<float>(s.perRow - 1)) / (4.0f * s.perRow), m.width / 4);
    return s;
}

/// What memory_fit.hpp needs of instruction `in`'s picture.
WarpPictureInput pictureInput(const WarpInstruction& in, const Measures& m)
{
    WarpPictureInput p;
    p.width = m.width;
    p.font = m.fs;
    p.unit = scaled(1);
    const bool global = sim::spaceOf(in.kind) == sim::Space::Global;
    p.global = global;
    p.rows = global ? static_cast<int>(stripOf(in, m).rows) : static_cast<int>(std::max(1u, in.transactions.wavefronts));
    p.connectors = !global || p.rows == 1;
    return p;
}

PictureSize pictureSize(const WarpInstruction& in, const Measures& m)
{
    if (sim::spaceOf(in.kind) == sim::Space::Constant) return {};
    const WarpPictureSize w = warpPictureSize(pictureInput(in, m));
    return {w.min, w.want};
}

/// The texts drawn above and under an instruction's picture.
struct Texts {
    std::string head;                 ///< "source line 34 · global load · M"
    std::string source;               ///< the source line, for the head's tooltip
    std::string figures;              ///< "1 request · 4 sectors · 2 segments · ..."
    std::string brief, note;          ///< a compiled note, if the line has one
    std::vector<std::string> more;    ///< verdicts: coalesced or not, broadcasts, conflicts
    size_t key = 0;                   ///< the verdict a slide keeps: the conflict, else the broadcast
};

Texts textsOf(const sim::Simulation& s, const WarpInstruction& in)
{
    const sim::Trace& t = s.trace;
    Texts x;
    const sim::ArrayInfo& a = t.arrays[in.array];
    x.head = "source line " + std::to_string(in.line) + " \u00b7 " + kindWords(in.kind) + " \u00b7 " + a.name;
    if (const sim::KernelInfo* k = s.scenario.kernelInfo()) {
        const std::string& text = sim::kernelSource(k->sourceFile);
        size_t b = 0;
        for (unsigned n = 1; n < in.line && b != std::string::npos; ++n) b = text.find('\n', b) + 1;
        if (b != std::string::npos && b < text.size()) {
            const size_t e = text.find('\n', b);
            x.source = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
            x.source.erase(0, x.source.find_first_not_of(' '));
        }
    }
    const sim::WarpTransactions& tr = in.transactions;
    const std::string lanes = plural(tr.lanes, "lane", "lanes");
    switch (sim::spaceOf(in.kind)) {
    case sim::Space::Global: {
        // Distinct words: the bytes the lanes use of the sectors moved.
        std::vector<uint32_t> words;
        for (const sim::WarpLane& l : in.lanes)
            if (l.active) words.push_back(l.word);
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        const uint64_t used = 4 * words.size(), moved = uint64_t{tr.sectors} * sim::kSectorBytes;
        x.figures = "1 request \u00b7 " + plural(tr.sectors, "sector", "sectors") + " \u00b7 " +
                    plural(tr.cacheLines, "segment", "segments") + " \u00b7 " + std::to_string(used) + " of " +
                    std::to_string(moved) + " bytes used (" + std::to_string(moved ? 100 * used / moved : 0) + "%)";
        const uint64_t fewest = (words.size() + 7) / 8;
        size_t runs = words.empty() ? 0 : 1;   // stretches of consecutive words
        for (size_t i = 1; i < words.size(); ++i) runs += words[i] != words[i - 1] + 1;
        if (tr.sectors <= fewest)
            x.more.push_back("Coalesced: " + lanes + " in " + plural(tr.sectors, "sector", "sectors") +
                             ", the fewest their " + std::to_string(used) + " bytes fit in.");
        else if (tr.sectors >= words.size() && words.size() < tr.lanes)
            x.more.push_back("The " + lanes + " read only " + plural(words.size(), "distinct word", "distinct words") +
                             ", too far apart to share a sector: " + plural(tr.sectors, "sector", "sectors") +
                             ", each serving every lane that reads its word.");
        else if (tr.sectors >= words.size())
            x.more.push_back("Not coalesced: every word in a sector of its own, " +
                             plural(tr.sectors, "sector", "sectors") + " moved where " + std::to_string(fewest) +
                             " would hold the " + std::to_string(used) + " bytes the " + lanes + " use.");
        else
            x.more.push_back("Partly coalesced: the words lie in " + std::to_string(runs) + " stretches, so " +
                             plural(tr.sectors, "sector", "sectors") + " move where " + std::to_string(fewest) +
                             " would hold the " + std::to_string(used) + " bytes.");
        break;
    }
    case sim::Space::Shared: {
        x.figures = "1 request \u00b7 " + plural(tr.wavefronts, "wavefront", "wavefronts") + " \u00b7 " +
                    plural(in.conflicts(), "bank conflict", "bank conflicts") + " \u00b7 " +
                    plural(in.groups.size(), "word", "words") + " for " + lanes;
        // Broadcasts: words several lanes share.
        std::vector<std::string> shared;
        for (const sim::LaneGroup& g : in.groups)
            if (std::popcount(g.lanes) > 1)
                shared.push_back("lanes " + sim::laneRanges(g.lanes) + " share " +
                                 elementName(t, in.array, in.lanes[firstLane(g.lanes)].index) + " (bank " +
                                 std::to_string(g.bank) + ")");
        if (!shared.empty()) {
            x.key = x.more.size();
            std::string s = "Broadcast: ";
            for (size_t i = 0; i < shared.size() && i < 2; ++i) s += (i ? "; " : "") + shared[i];
            if (shared.size() > 2) s += "; and " + std::to_string(shared.size() - 2) + " more words";
            x.more.push_back(s + ".");
        }
        // Conflicts: banks with more than one word.
        std::vector<uint32_t> banks;
        uint32_t deepest = 0;
        for (const sim::LaneGroup& g : in.groups)
            if (g.wavefront == 1) banks.push_back(g.bank);
        for (const sim::LaneGroup& g : in.groups) deepest = std::max(deepest, g.wavefront + 1);
        if (!banks.empty()) x.key = x.more.size();
        if (banks.size() == 1) {
            std::string cells;
            for (const sim::LaneGroup& g : in.groups)
                if (g.bank == banks[0])
                    cells += (cells.empty() ? "" : ", ") + elementName(t, in.array, in.lanes[firstLane(g.lanes)].index) +
                             (std::popcount(g.lanes) > 1 ? " for lanes " : " for lane ") + sim::laneRanges(g.lanes);
            x.more.push_back("Conflict: bank " + std::to_string(banks[0]) + " holds " + std::to_string(deepest) +
                             " words (" + cells + "): " + std::to_string(deepest) + " wavefronts, one per word.");
        } else if (!banks.empty()) {
            // The banks as ranges, and whether every one of them is as deep as the deepest.
            uint32_t mask = 0, deep = 0;
            for (uint32_t b : banks) mask |= 1u << b;
            for (const sim::LaneGroup& g : in.groups)
                if (g.wavefront + 1 == deepest) deep |= 1u << g.bank;
            const bool even = (deep & mask) == mask;
            x.more.push_back("Conflict: banks " + sim::laneRanges(mask) + " hold " + (even ? "" : "up to ") +
                             std::to_string(deepest) + " words each: " + std::to_string(deepest) +
                             " wavefronts, one per word (hover a cell for its lanes).");
        } else if (shared.empty()) {
            x.more.push_back("No conflict: every word in a bank of its own.");
        }
        break;
    }
    case sim::Space::Constant: {
        x.figures = "1 request \u00b7 " + plural(tr.wavefronts, "pass", "passes") + " of the constant cache";
        std::string s;
        for (size_t i = 0; i < in.groups.size() && i < 3; ++i)
            s += std::string(i ? "; " : "") + "lanes " + sim::laneRanges(in.groups[i].lanes) + " read " +
                 elementName(t, in.array, in.lanes[firstLane(in.groups[i].lanes)].index);
        if (in.groups.size() > 3) s += "; and " + std::to_string(in.groups.size() - 3) + " more addresses";
        x.more.push_back(s + (in.groups.size() == 1 ? ": one address, served to all at once." : ": one pass per address."));
        break;
    }
    }
    const std::vector<const sim::CompiledNote*> notes = sim::compiledNotesFor(s.scenario, in.line, a.name);
    if (!notes.empty()) {
        x.brief = notes.front()->brief;
        x.note = notes.front()->note;
    }
    return x;
}

/// The lane row at `o`: 32 cells in lane colours, the selected thread framed, lane numbers
/// where they fit. Returns the lane hovered, or -1.
int drawLanes(Frame& f, const WarpInstruction& in, ImVec2 o, const Measures& m, unsigned threads)
{
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = f.theme.palette;
    const bool numbers = m.textWidth("31") <= m.lane - 2;
    int hovered = -1;
    for (unsigned l = 0; l < kWarpLanes; ++l) {
        const ImVec2 a(o.x + l * m.lane, o.y), b(o.x + (l + 1) * m.lane - 1, o.y + m.laneH);
        // Active lanes in their colour, inactive ones as frames, lanes past the block's last
        // thread (a block of fewer than 32 threads) barely there.
        if (in.lanes[l].active) dl->AddRectFilled(a, b, laneColour(l), 2);
        else if (in.lanes[l].thread < threads) dl->AddRect(a, b, pal.dimText, 2);
        else dl->AddRectFilled(a, b, pal.chartBg, 2);
        if (ImGui::IsMouseHoveringRect(a, b)) hovered = static_cast<int>(l);
    }
    // Every lane number where they fit, else lanes 0, 8, 16 and 24 over two cells; then the
    // selected thread's frame over them.
    for (unsigned l = 0; l < kWarpLanes; ++l) {
        const ImVec2 a(o.x + l * m.lane, o.y), b(o.x + (l + 1) * m.lane - 1, o.y + m.laneH);
        if (numbers || l % 8 == 0)
            centredText(dl, m.small, a, numbers ? b : ImVec2(a.x + m.lane * 2, b.y),
                        in.lanes[l].active ? textOn(laneColour(l)) : pal.dimText, std::to_string(l));
        if (in.lanes[l].thread == f.view.thread)
            dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), pal.selected, 2, 0, scaled(2));
    }
    return hovered;
}

void laneTooltip(Frame& f, const sim::Simulation& s, const WarpInstruction& in, unsigned lane)
{
    const sim::Trace& t = s.trace;
    const sim::WarpLane& l = in.lanes[lane];
    ImGui::BeginTooltip();
    if (l.thread >= t.blockDim.count()) {
        ImGui::Text("lane %u: no thread (the block has %llu threads)", lane,
                    static_cast<unsigned long long>(t.blockDim.count()));
        ImGui::EndTooltip();
        return;
    }
    ImGui::Text("lane %u: %s", lane, threadName(t, l.thread).c_str());
    if (!l.active) {
        ImGui::TextUnformatted("inactive: the thread does not make this access here");
    } else {
        ImGui::PushFont(f.theme.fonts.mono);
        ImGui::Text("%s %s", sim::isStore(in.kind) ? (l.zeroFill ? "zero-fills" : "writes") : "reads",
                    elementName(t, in.array, l.index).c_str());
        ImGui::PopFont();
        switch (sim::spaceOf(in.kind)) {
        case sim::Space::Global:
            ImGui::Text("word %u (byte %llu of %s), sector %u, 128-byte segment %u", l.word,
                        4ull * l.word, t.arrays[in.array].name.c_str(), l.sector, l.cacheLine);
            break;
        case sim::Space::Shared:
            ImGui::Text("shared word %u, bank %u, wavefront %u", l.word, l.bank, l.wavefront + 1);
            break;
        case sim::Space::Constant: ImGui::Text("constant-cache pass %u", l.wavefront + 1); break;
        }
    }
    ImGui::TextDisabled("click: select this thread");
    ImGui::EndTooltip();
}

/// A global instruction: lanes above, the 128-byte segments they touch below as sectors of 8
/// words, each segment named under its sectors (the connectors end at the sectors' top).
void drawGlobal(Frame& f, const sim::Simulation& s, const WarpInstruction& in, ImVec2 o, const Measures& m0, float h,
                int& hoveredLane)
{
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = f.theme.palette;
    const Strip st = stripOf(in, m0);
    const WarpPictureParts parts = splitWarpPicture(pictureInput(in, m0), h);
    Measures m = m0;
    m.laneH = parts.lanes;
    const float conn = parts.gap;
    const float rowH = parts.cell + parts.perRow;
    const float sectorH = parts.cell;
    hoveredLane = drawLanes(f, in, o, m, static_cast<unsigned>(s.trace.blockDim.count()));
    const float wordW = st.sector / 8;
    // Where each segment sits: its row and its x.
    auto lineOrigin = [&](size_t i) {
        const size_t r = i / st.perRow, c = i % st.perRow;
        return ImVec2(o.x + c * (4 * st.sector + st.gap), o.y + m.laneH + conn + r * rowH);
    };
    auto wordRect = [&](uint32_t word, ImVec2& a, ImVec2& b) {
        const uint32_t line = word / 32;
        const size_t i = static_cast<size_t>(std::lower_bound(in.cacheLines.begin(), in.cacheLines.end(), line) -
                                             in.cacheLines.begin());
        const ImVec2 lo = lineOrigin(i);
        a = ImVec2(lo.x + (word % 32) * wordW, lo.y);
        b = ImVec2(a.x + wordW, a.y + sectorH);
    };
    // Connectors: lane to word, one row of segments only.
    if (st.rows == 1)
        for (unsigned l = 0; l < kWarpLanes; ++l) {
            if (!in.lanes[l].active) continue;
            ImVec2 a, b;
            wordRect(in.lanes[l].word, a, b);
            dl->AddLine(ImVec2(o.x + (l + 0.5f) * m.lane, o.y + m.laneH), ImVec2((a.x + b.x) * 0.5f, a.y),
                        laneColour(l), std::max(1.0f, scaled(1.2f)));
        }
    const sim::ArrayInfo& arr = s.trace.arrays[in.array];
    // The segments' names, all in the longest form that fits every one: their elements
    // ("M[384..415]"), "segment 12" or "12".
    auto lineName = [&](uint32_t line, int form) {
        if (form == 0) return arr.name + "[" + std::to_string(line * 32) + ".." + std::to_string(line * 32 + 31) + "]";
        return (form == 1 ? "segment " : "") + std::to_string(line);
    };
    int form = 0;
    for (; form < 3; ++form) {
        bool fits = true;
        for (uint32_t line : in.cacheLines) fits &= m.textWidth(lineName(line, form)) <= 4 * st.sector - 2;
        if (fits) break;
    }
    for (size_t i = 0; i < in.cacheLines.size(); ++i) {
        const ImVec2 lo = lineOrigin(i);
        const uint32_t line = in.cacheLines[i];
        if (form < 3) {
            // Under the sectors and the lanes they serve, where no connector passes.
            const std::string n = lineName(line, form);
            dl->AddText(m.small, m.fs, ImVec2(lo.x + 1, lo.y + sectorH + m.label + scaled(2)), pal.dimText, n.c_str());
        }
        for (uint32_t sec = 0; sec < 4; ++sec) {
            const uint32_t sector = line * 4 + sec;
            const ImVec2 a(lo.x + sec * st.sector, lo.y), b(a.x + st.sector - 1, a.y + sectorH);
            const auto g = std::find_if(in.groups.begin(), in.groups.end(),
                                        [&](const sim::LaneGroup& x) { return x.unit == sector; });
            const bool moved = g != in.groups.end();
            dl->AddRectFilled(a, b, moved ? pal.cell : pal.chartBg, 2);
            if (moved) {
                for (unsigned l = 0; l < kWarpLanes; ++l) {
                    if (!in.lanes[l].active || in.lanes[l].sector != sector) continue;
                    ImVec2 wa, wb;
                    wordRect(in.lanes[l].word, wa, wb);
                    dl->AddRectFilled(ImVec2(wa.x + (wordW > 3 ? 0.5f : 0), wa.y),
                                      ImVec2(wb.x - (wordW > 3 ? 0.5f : 0), wb.y), laneColour(l));
                }
                dl->AddRect(a, b, pal.readNow, 2, 0, std::max(1.0f, scaled(1.5f)));
                // The lanes under the sector, spreading under the segment's sectors that move
                // nothing where the sector is too narrow.
                const std::string lanes = sim::laneRanges(g->lanes);
                auto moves = [&](uint32_t x) {
                    return std::any_of(in.groups.begin(), in.groups.end(), [&](const sim::LaneGroup& y) { return y.unit == x; });
                };
                uint32_t lo = sec, hi = sec;
                while (lo > 0 && !moves(line * 4 + lo - 1)) --lo;
                while (hi < 3 && !moves(line * 4 + hi + 1)) ++hi;
                const float left = lo == sec ? a.x : a.x - (sec - lo) * st.sector + st.sector * 0.5f;
                const float right = hi == sec ? b.x : b.x + (hi - sec) * st.sector - st.sector * 0.5f;
                const float w = m.textWidth(lanes);
                if (w <= right - left - 2) {
                    const float x0 = std::clamp((a.x + b.x - w) * 0.5f, left, right - w);
                    dl->AddText(m.small, m.fs, ImVec2(x0, b.y + scaled(2)), pal.cellText, lanes.c_str());
                }
            } else {
                dl->AddRect(a, b, pal.chartLine, 2);
            }
            if (ImGui::IsMouseHoveringRect(a, b)) {
                ImGui::BeginTooltip();
                ImGui::Text("sector %u (bytes %u..%u of %s), in 128-byte segment %u", sector, sector * 32,
                            sector * 32 + 31, arr.name.c_str(), line);
                if (moved) {
                    ImGui::Text("moved for lanes %s", sim::laneRanges(g->lanes).c_str());
                    ImGui::PushFont(f.theme.fonts.mono);
                    for (unsigned l = 0; l < kWarpLanes; ++l)
                        if (in.lanes[l].active && in.lanes[l].sector == sector)
                            ImGui::Text("lane %2u  %s", l, elementName(s.trace, in.array, in.lanes[l].index).c_str());
                    ImGui::PopFont();
                } else {
                    ImGui::TextUnformatted("no lane touches it: not moved");
                }
                ImGui::EndTooltip();
            }
        }
    }
}

/// A shared instruction: lanes above, 32 bank columns below with one cell per distinct word
/// and one row per wavefront.
void drawShared(Frame& f, const sim::Simulation& s, const WarpInstruction& in, ImVec2 o, const Measures& m0, float h,
                int& hoveredLane)
{
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = f.theme.palette;
    const float rows = static_cast<float>(std::max(1u, in.transactions.wavefronts));
    const WarpPictureParts parts = splitWarpPicture(pictureInput(in, m0), h);
    Measures m = m0;
    m.laneH = parts.lanes;
    const float conn = parts.gap;
    const float cellH = parts.cell;
    hoveredLane = drawLanes(f, in, o, m, static_cast<unsigned>(s.trace.blockDim.count()));
    const float top = o.y + m.laneH + conn;
    auto cellRect = [&](const sim::LaneGroup& g, ImVec2& a, ImVec2& b) {
        a = ImVec2(o.x + g.bank * m.lane, top + g.wavefront * cellH);
        b = ImVec2(a.x + m.lane - 1, a.y + cellH - 1);
    };
    // Bank columns: empty slots, a frame around a column that takes more than one wavefront.
    std::vector<uint32_t> depth(sim::kSharedBanks, 0);
    for (const sim::LaneGroup& g : in.groups) depth[g.bank] = std::max(depth[g.bank], g.wavefront + 1);
    for (unsigned b = 0; b < sim::kSharedBanks; ++b)
        for (unsigned w = 0; w < static_cast<unsigned>(rows); ++w)
            dl->AddRectFilled(ImVec2(o.x + b * m.lane, top + w * cellH),
                              ImVec2(o.x + (b + 1) * m.lane - 1, top + (w + 1) * cellH - 1), pal.chartBg, 2);
    // Connectors from each lane to the top of its bank's column (a word of a later
    // wavefront sits lower in the column, under the cells of the earlier ones: a line to it
    // would cross their labels).
    for (unsigned l = 0; l < kWarpLanes; ++l) {
        if (!in.lanes[l].active) continue;
        const float x = o.x + (in.lanes[l].bank + 0.5f) * m.lane;
        dl->AddLine(ImVec2(o.x + (l + 0.5f) * m.lane, o.y + m.laneH), ImVec2(x, top), laneColour(l),
                    std::max(1.0f, scaled(1.2f)));
    }
    // Which cells of a row are taken, so that a label may spread over free neighbours.
    std::vector<std::vector<bool>> taken(static_cast<size_t>(rows), std::vector<bool>(sim::kSharedBanks, false));
    for (const sim::LaneGroup& g : in.groups) taken[g.wavefront][g.bank] = true;
    // The cells first, then their labels: a label that spreads over free neighbours claims
    // them, so that no later cell or label is drawn over it (text takes its colour from the
    // cell it sits on, theme.hpp textOn()).
    for (const sim::LaneGroup& g : in.groups) {
        ImVec2 a, b;
        cellRect(g, a, b);
        const ImU32 c = laneColour(firstLane(g.lanes));
        dl->AddRectFilled(a, b, c, 2);
        if (std::popcount(g.lanes) > 1) dl->AddRect(a, b, pal.selected, 2, 0, std::max(1.0f, scaled(1.5f)));
        if (g.wavefront > 0) dl->AddRect(a, b, pal.error, 2, 0, std::max(1.0f, scaled(2)));
        if (ImGui::IsMouseHoveringRect(a, b)) {
            const std::string lanes = sim::laneRanges(g.lanes);
            ImGui::BeginTooltip();
            ImGui::Text("bank %u, wavefront %u: shared word %u", g.bank, g.wavefront + 1, g.unit);
            ImGui::PushFont(f.theme.fonts.mono);
            ImGui::TextUnformatted(elementName(s.trace, in.array, in.lanes[firstLane(g.lanes)].index).c_str());
            ImGui::PopFont();
            ImGui::Text(std::popcount(g.lanes) > 1 ? "lanes %s: one broadcast serves them all" : "lane %s",
                        lanes.c_str());
            if (depth[g.bank] > 1)
                ImGui::Text("bank %u holds %u different words: %u wavefronts, one after the other", g.bank,
                            depth[g.bank], depth[g.bank]);
            ImGui::EndTooltip();
        }
    }
    for (const sim::LaneGroup& g : in.groups) {
        // (A label needs a little more than its font's height: the outlines of the cells above
        // and below reach into a cell that is only as tall as the text.)
        if (cellH < m.fs + std::max(2.0f, scaled(3))) break;
        ImVec2 a, b;
        cellRect(g, a, b);
        const ImU32 c = laneColour(firstLane(g.lanes));
        // The lanes as a label: in the cell, or over the free cells beside it.
        const std::string lanes = sim::laneRanges(g.lanes);
        const std::string count = std::to_string(std::popcount(g.lanes));
        std::vector<bool>& row = taken[g.wavefront];
        unsigned lo = g.bank, hi = g.bank;
        while (lo > 0 && !row[lo - 1] && (g.bank - lo) < 6) --lo;
        while (hi + 1 < sim::kSharedBanks && !row[hi + 1] && (hi - g.bank) < 6) ++hi;
        const float w = m.textWidth(lanes);
        const float cx = (a.x + b.x) * 0.5f;
        const float left = o.x + lo * m.lane, right = o.x + (hi + 1) * m.lane - 1;
        const float y = (a.y + b.y - m.fs) * 0.5f;
        if (w <= m.lane - 2) {
            dl->AddText(m.small, m.fs, ImVec2(cx - w * 0.5f, y), textOn(c), lanes.c_str());
        } else if (w + 4 <= right - left) {
            // A wider cell over the free neighbours, centred on the bank where it can be.
            const float x0 = std::clamp(cx - w * 0.5f - 2, left, right - w - 4);
            const ImVec2 la(x0, a.y), lb(x0 + w + 4, b.y);
            dl->AddRectFilled(la, lb, c, 2);
            dl->AddRect(la, lb, pal.selected, 2, 0, std::max(1.0f, scaled(1.5f)));
            dl->AddText(m.small, m.fs, ImVec2(x0 + 2, y), textOn(c), lanes.c_str());
            for (unsigned k = lo; k <= hi; ++k)
                if (o.x + (k + 1) * m.lane > la.x && o.x + k * m.lane < lb.x) row[k] = true;
        } else if (std::popcount(g.lanes) > 1 && m.textWidth(count) <= m.lane - 2) {
            dl->AddText(m.small, m.fs, ImVec2(cx - m.textWidth(count) * 0.5f, y), textOn(c), count.c_str());
        }
    }
    // Bank numbers under the columns (every one where they fit, else every 4th or 8th), and
    // the depth of a conflicting column.
    const float y = top + rows * cellH + scaled(1);
    // In the cell font (14 px at 1x) where it fits the label row, else the small one; dimText
    // keeps 4.5:1 on the window in both themes (tests/app/palette_test.cpp).
    ImFont* font = f.theme.fonts.cell->FontSize <= m.label ? f.theme.fonts.cell : m.small;
    auto width = [&](const char* t) { return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, t).x; };
    const bool all = width("31") <= m.lane - 2;
    const unsigned every = all ? 1 : width("28") + scaled(6) <= 4 * m.lane ? 4 : 8;
    for (unsigned b = 0; b < sim::kSharedBanks;) {
        const ImVec2 a(o.x + b * m.lane, y), z(o.x + (b + 1) * m.lane, y + m.label);
        if (depth[b] > 1) {
            // A run of banks as deep as this one gets one "N×" under it, where it fits.
            unsigned e = b + 1;
            while (e < sim::kSharedBanks && depth[e] == depth[b]) ++e;
            const std::string d = std::to_string(depth[b]) + "\u00d7";
            centredText(dl, font, a, ImVec2(o.x + e * m.lane, z.y), pal.error, d);
            b = e;
            continue;
        }
        if (b % every == 0)
            centredText(dl, font, a, all ? z : ImVec2(a.x + std::min(3u, every - 1) * m.lane, z.y), pal.dimText,
                        std::to_string(b));
        ++b;
    }
}

/// How much an instruction has to teach, to pick the one drawn when the step changes: a bank
/// conflict, then an uncoalesced global access, then a broadcast (the more distinct words
/// the warp reads, the more: nds-padded-64-tile16 shows its 16 Nds words over the 2 of
/// Mds), then the rest.
int interest(const WarpInstruction& in)
{
    switch (sim::spaceOf(in.kind)) {
    case sim::Space::Shared: {
        if (in.conflicts() > 0) return 100 + static_cast<int>(in.conflicts());
        for (const sim::LaneGroup& g : in.groups)
            if (std::popcount(g.lanes) > 1) return 50 + static_cast<int>(std::min<size_t>(in.groups.size(), 32)) / 4;
        return 30;
    }
    case sim::Space::Global: {
        uint32_t words = 0;
        for (const sim::LaneGroup& g : in.groups) {
            uint32_t seen = 0;   // distinct words of this sector (at most 8)
            for (unsigned l = 0; l < kWarpLanes; ++l)
                if (g.lanes & (1u << l)) seen |= 1u << (in.lanes[l].word % 8);
            words += static_cast<uint32_t>(std::popcount(seen));
        }
        return in.transactions.sectors > (words + 7) / 8 ? 80 : 40;
    }
    case sim::Space::Constant: break;
    }
    return 10 + static_cast<int>(in.transactions.wavefronts);
}

/// One row of the instruction list: the longest wording that fits `width` pixels.
std::string rowText(const sim::Trace& t, const WarpInstruction& in, float width)
{
    const std::string& array = t.arrays[in.array].name;
    const sim::WarpTransactions& tr = in.transactions;
    const bool global = sim::spaceOf(in.kind) == sim::Space::Global;
    const std::string line = std::to_string(in.line);
    const std::string figures = global ? plural(tr.sectors, "sector", "sectors") + ", " + plural(tr.cacheLines, "segment", "segments")
                                       : sim::spaceOf(in.kind) == sim::Space::Shared
                                             ? plural(tr.wavefronts, "wavefront", "wavefronts")
                                             : plural(tr.wavefronts, "pass", "passes");
    const std::string shortFigures = global ? std::to_string(tr.sectors) + " sect."
                                            : std::to_string(tr.wavefronts) +
                                                  (sim::spaceOf(in.kind) == sim::Space::Shared ? " wavef." : " pass.");
    const char* op = sim::isStore(in.kind) ? "st" : "ld";
    const std::string space = global ? "global" : sim::spaceOf(in.kind) == sim::Space::Shared ? "shared" : "const";
    const std::string options[] = {
        "source line " + line + " \u00b7 " + kindWords(in.kind) + " \u00b7 " + array + " \u00b7 " + figures,
        line + " \u00b7 " + space + " " + op + " " + array + " \u00b7 " + figures,
        line + " " + space + " " + op + " " + array + " \u00b7 " + shortFigures,
        line + " " + op + " " + array + " " + shortFigures,
    };
    for (const std::string& o : options)
        if (ImGui::CalcTextSize(o.c_str()).x <= width) return o;
    return options[3];
}

/// The texts a slide or the desk shows under an instruction's picture: all its verdicts, or
/// on a slide the key one without the advice to hover.
std::vector<std::string> verdicts(const Texts& x, bool slide)
{
    std::vector<std::string> more = x.more;
    if (slide && !more.empty()) {
        more = {x.more[std::min(x.key, x.more.size() - 1)]};
        const std::string hover = " (hover a cell for its lanes)";
        if (const size_t at = more[0].find(hover); at != std::string::npos) more[0].erase(at, hover.size());
    }
    return more;
}

/// The height of an instruction's block (its head where `head`, figures line, note, picture
/// and verdicts; its texts `x`, its picture's size `p`) at the picture's width: its texts'
/// (`fixed`), with the picture at its least and at its wanted size (the texts alone where it
/// has no picture).
struct BlockHeight {
    float fixed = 0, least = 0, want = 0;
    bool picture = false;
};
BlockHeight blockHeight(const Frame& f, const Texts& x, const PictureSize& p, const Measures& m, bool head)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    auto textH = [&](ImFont* font, const std::string& text) {
        return font->CalcTextSizeA(font->FontSize, FLT_MAX, m.width, text.c_str()).y + style.ItemSpacing.y;
    };
    BlockHeight b;
    b.picture = p.want > 0;
    b.fixed = (head ? textH(f.theme.fonts.bold, x.head) : 0) + textH(ImGui::GetFont(), x.figures);
    if (!x.brief.empty()) b.fixed += textH(ImGui::GetFont(), x.brief + "  (?)");
    for (const std::string& line : verdicts(x, f.view.presentation)) b.fixed += textH(ImGui::GetFont(), line);
    if (b.picture) b.fixed += style.ItemSpacing.y;
    b.least = b.fixed + (b.picture ? p.min : 0);
    b.want = b.fixed + (b.picture ? p.want : 0);
    return b;
}

/// The panel: the warp it shows follows the selected thread, and [ and ] move it (both in
/// App::handleKeys, so a key pressed in the frame a thread is chosen still counts).
struct MemoryPanel final : Panel {
    void draw(Frame& f) override;

private:
    /// The instructions of the step and the chosen one's picture. `besideThreads`, when not
    /// empty, says the line of the warp arrows has `besideWidth` pixels free: the combo box
    /// goes there where its shortest face fits, else this text (the warp's threads).
    void instructions(Frame& f, const sim::Simulation& s, const std::string& besideThreads, float besideWidth);
    // The instructions of (generation, cursor, warp), as last computed.
    uint64_t cachedGeneration_ = ~0ull;
    int cachedCursor_ = -1;
    int cachedWarp_ = -1;
    std::vector<WarpInstruction> cache_;
    /// The instruction drawn: chosen by hand (kept while the step has one of the same line,
    /// array and kind), or the one with the most to teach.
    size_t chosen_ = 0;
    bool byHand_ = false;
    unsigned chosenLine_ = 0;
    uint8_t chosenArray_ = sim::kNoArray;
    AccessKind chosenKind_ = AccessKind::GlobalLoad;
    /// The tallest block (blockHeight(), least and wanted) over every step of the trace for the
    /// warp shown, at the panel's width and font (reserveFor_): every step, a barrier's too,
    /// takes that much room, so that stepping moves no panel.
    float reserveLeast_ = 0, reserveWant_ = 0;
    std::string reserveFor_;
    void reserve(Frame& f, const sim::Simulation& s, float width);
};

void MemoryPanel::reserve(Frame& f, const sim::Simulation& s, float width)
{
    char key[128];
    std::snprintf(key, sizeof key, "%llu %d %.1f %.1f %d", static_cast<unsigned long long>(f.loaded.generation),
                  f.view.warp, width, ImGui::GetFontSize(), f.view.presentation ? 1 : 0);
    if (reserveFor_ == key) return;
    reserveFor_ = key;
    reserveLeast_ = reserveWant_ = 0;
    const sim::Trace& t = s.trace;
    const Measures m(f, width);
    for (int step = 0; step < static_cast<int>(t.steps.size()); ++step) {
        if (t.steps[step].kind == sim::StepKind::Barrier) continue;
        const std::vector<WarpInstruction> ins = sim::warpInstructions(t, step, static_cast<unsigned>(f.view.warp));
        // Every instruction of the step: any of them may be the one drawn (chosen by hand).
        for (const WarpInstruction& in : ins) {
            const BlockHeight b = blockHeight(f, textsOf(s, in), pictureSize(in, m), m, ins.size() == 1);
            reserveLeast_ = std::max(reserveLeast_, b.least);
            reserveWant_ = std::max(reserveWant_, b.want);
        }
    }
}

void MemoryPanel::instructions(Frame& f, const sim::Simulation& s, const std::string& besideThreads, float besideWidth)
{
    const sim::Trace& t = s.trace;
    const sim::Step& st = t.steps[f.view.cursor];
    if (cachedGeneration_ != f.loaded.generation || cachedCursor_ != f.view.cursor || cachedWarp_ != f.view.warp) {
        if (cachedGeneration_ != f.loaded.generation) byHand_ = false;
        cache_ = sim::warpInstructions(t, f.view.cursor, static_cast<unsigned>(f.view.warp));
        cachedGeneration_ = f.loaded.generation;
        cachedCursor_ = f.view.cursor;
        cachedWarp_ = f.view.warp;
        chosen_ = 0;
        bool kept = false;
        for (size_t i = 0; i < cache_.size() && byHand_ && !kept; ++i)
            if (cache_[i].line == chosenLine_ && cache_[i].array == chosenArray_ && cache_[i].kind == chosenKind_) {
                chosen_ = i;
                kept = true;
            }
        if (!kept)
            for (size_t i = 1; i < cache_.size(); ++i)
                if (interest(cache_[i]) > interest(cache_[chosen_])) chosen_ = i;
    }
    const Palette& pal = f.theme.palette;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float faceBeside = besideWidth - ImGui::GetFrameHeight() - 2 * style.FramePadding.x;
    const bool comboBeside = !besideThreads.empty() && st.kind != sim::StepKind::Barrier && cache_.size() > 1 &&
                             ImGui::CalcTextSize(rowText(t, cache_[std::min(chosen_, cache_.size() - 1)], faceBeside).c_str()).x <=
                                 faceBeside;
    if (!besideThreads.empty() && !comboBeside) {
        // The threads beside the arrows, without their rows where they would wrap.
        const std::string shortThreads = besideThreads.substr(0, besideThreads.find(" ("));
        for (const std::string& text : {besideThreads, shortThreads})
            if (ImGui::CalcTextSize(text.c_str()).x <= besideWidth) {
                ImGui::SameLine();
                colouredText(pal.dimText, text);
                break;
            }
    }
    const float width = std::floor(ImGui::GetContentRegionAvail().x);
    reserve(f, s, width);
    // A step with nothing to draw keeps the room of the tallest (less its own sentence, which
    // stands where a step with instructions has their combo box).
    auto keepRoom = [&](float sentence) {
        if (reserveLeast_ <= 0) return;
        const float least = std::max(0.0f, reserveLeast_ - sentence);
        ImGui::Dummy(ImVec2(1, elasticHeight(least, std::max(least, reserveWant_ - sentence))));
    };
    if (st.kind == sim::StepKind::Barrier) {
        const float y0 = ImGui::GetCursorPosY();
        colouredText(pal.dimText, "A barrier: no memory access in this step.");
        keepRoom(ImGui::GetCursorPosY() - y0);
        return;
    }
    if (cache_.empty()) {
        const float y0 = ImGui::GetCursorPosY();
        const std::vector<unsigned> busy = sim::warpsWithAccesses(t, f.view.cursor);
        std::string which;
        for (size_t i = 0; i < busy.size() && i < 8; ++i) which += (i ? ", " : "") + std::to_string(busy[i]);
        if (busy.size() > 8) which += ", ...";
        colouredText(pal.dimText, busy.empty() ? std::string("No warp makes a memory access in this step.")
                                               : "Warp " + std::to_string(f.view.warp) +
                                                     " makes no memory access in this step (its threads skip it); "
                                                     "warps that do: " + which + ".");
        keepRoom(ImGui::GetCursorPosY() - y0);
        return;
    }
    const bool slide = f.view.presentation;
    const size_t n = cache_.size();
    auto choose = [&](size_t i) {
        chosen_ = i;
        byHand_ = true;
        chosenLine_ = cache_[i].line;
        chosenArray_ = cache_[i].array;
        chosenKind_ = cache_[i].kind;
    };
    const char* tip = "A warp memory instruction of this step: one source access executed by the warp's active "
                      "lanes. Click to draw it.";
    if (n > 1) {
        // The instructions in a combo box whose face is the one drawn, so that the picture
        // keeps the panel's room (a list of rows took four of them at the desk).
        if (comboBeside) ImGui::SameLine();
        ImGui::SetNextItemWidth(-FLT_MIN);
        const float face = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - 2 * style.FramePadding.x;
        if (ImGui::BeginCombo("##instruction", rowText(t, cache_[std::min(chosen_, n - 1)], face).c_str())) {
            for (size_t i = 0; i < n; ++i) {
                ImGui::PushID(static_cast<int>(i));
                if (ImGui::Selectable(rowText(t, cache_[i], FLT_MAX).c_str(), i == chosen_)) choose(i);
                ImGui::PopID();
            }
            ImGui::EndCombo();
        }
        tooltip(tip);
    } else {
        ImGui::Separator();
    }

    // The chosen instruction: its figures, a note where nvcc compiles it differently, the
    // picture, and what the picture shows. The texts are measured first, so that the picture
    // gets what the panel has left.
    const WarpInstruction& in = cache_[std::min(chosen_, n - 1)];
    const Texts x = textsOf(s, in);
    const Measures m(f, width);
    // The combo box names the instruction (the head only where there is none); a slide says
    // less: one verdict tells the story.
    const bool head = n == 1;
    const std::vector<std::string> more = verdicts(x, slide);
    const PictureSize p = pictureSize(in, m);
    const BlockHeight b = blockHeight(f, x, p, m, head);
    const float fixed = b.fixed;
    // The picture takes what the texts leave (memory_fit.hpp), the verdicts under it. It asks
    // the layout for the tallest block of any step (reserve()), or for the room it has where
    // that is more: a panel given more shows a taller picture (memory_fit.hpp shares the extra
    // among its parts) rather than an empty band, and keeps asking for what it fills.
    const float least = std::max(b.least, reserveLeast_);
    const float height = elasticHeight(
        least, b.picture ? std::max({b.want, reserveWant_, std::floor(ImGui::GetContentRegionAvail().y)})
                         : std::max(least, reserveWant_));
    // The head (the picture's title where no combo box names it) and the figures line head
    // the picture: the pixel checks count them with it.
    const ImVec2 figureTop = ImGui::GetCursorScreenPos();
    if (head) {
        ImGui::PushFont(f.theme.fonts.bold);
        ImGui::TextWrapped("%s", x.head.c_str());
        ImGui::PopFont();
        if (!x.source.empty()) tooltip(x.source);
    }
    ImGui::TextWrapped("%s", x.figures.c_str());
    if (!x.brief.empty()) {
        colouredText(pal.dimText, x.brief + "  (?)");
        tooltip(x.note);
    }
    if (p.want > 0) {
        const float h = std::floor(std::max(height - fixed, p.min));
        const ImVec2 o = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton("picture", ImVec2(m.width, h));
        const bool clicked = ImGui::IsItemClicked();
        noteFigure(figureTop, ImVec2(o.x + m.width, o.y + h));
        int lane = -1;
        if (sim::spaceOf(in.kind) == sim::Space::Global) drawGlobal(f, s, in, o, m, h, lane);
        else drawShared(f, s, in, o, m, h, lane);
        if (lane >= 0) {
            laneTooltip(f, s, in, static_cast<unsigned>(lane));
            if (clicked) f.view.thread = in.lanes[lane].thread;
        }
    }
    for (const std::string& line : more) ImGui::TextWrapped("%s", line.c_str());
    // The verdicts are the picture's caption (what it shows, in words): the checks count
    // them with it, as they count the figures line over it.
    if (p.want > 0 && !more.empty())
        noteFigure(figureTop, ImVec2(figureTop.x + m.width, ImGui::GetItemRectMax().y));
    // Without a picture (constant memory) the texts leave the rest of the room asked for empty.
    const float bottom = figureTop.y + height - style.ItemSpacing.y;
    if (!b.picture && ImGui::GetCursorScreenPos().y - style.ItemSpacing.y < bottom)
        ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, bottom));
}

void MemoryPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "No kernel loaded.");
        } else if (s->trace.steps.empty() || f.view.cursor < 0 || f.view.cursor >= static_cast<int>(s->trace.steps.size())) {
            ImGui::TextUnformatted("No traced block.");
        } else {
            const sim::Trace& t = s->trace;
            const int warps = static_cast<int>(sim::warpCount(t));
            f.view.warp = std::clamp(f.view.warp, 0, warps - 1);
            const unsigned first = static_cast<unsigned>(f.view.warp) * kWarpLanes;
            const unsigned last = std::min<unsigned>(first + kWarpLanes, static_cast<unsigned>(t.blockDim.count())) - 1;
            const std::string threads = "threads " + std::to_string(first) + "-" + std::to_string(last);
            std::string rows;
            if (t.blockDim.y > 1) {
                const unsigned bx = t.blockDim.x;
                rows = first / bx == last / bx ? " (ty " + std::to_string(first / bx) + ")"
                                               : " (ty " + std::to_string(first / bx) + "-" + std::to_string(last / bx) + ")";
            }
            ImGui::BeginDisabled(f.view.warp == 0);
            if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) --f.view.warp;
            ImGui::EndDisabled();
            tooltip("The previous warp ([)");
            ImGui::SameLine();
            ImGui::Text("warp %d of %d", f.view.warp, warps);
            tooltip("This warp: " + threads + rows +
                    ". Warps are 32 threads of the block by linear index (threadIdx.x fastest, then y): warp w "
                    "holds threads 32w to 32w + 31, its lanes 0 to 31. [ and ] pick the warp; selecting a thread "
                    "anywhere shows its warp.");
            ImGui::SameLine();
            ImGui::BeginDisabled(f.view.warp + 1 >= warps);
            if (ImGui::ArrowButton("##next", ImGuiDir_Right)) ++f.view.warp;
            ImGui::EndDisabled();
            tooltip("The next warp (])");
            // Beside the arrows: the instructions' combo box where almost half the width is left
            // (so that the picture keeps the panel's room), else as much of the threads as
            // fits there (on a slide nothing more), else the threads below.
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            const float at = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
            const float contentW = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
            if (right - at >= 0.45f * contentW) {
                instructions(f, *s, threads + rows, right - at);
            } else {
                bool shown = false;
                for (const std::string& text : {threads + rows, threads})
                    if (!shown && at + ImGui::CalcTextSize(text.c_str()).x <= right) {
                        ImGui::SameLine();
                        colouredText(f.theme.palette.dimText, text);
                        shown = true;
                    }
                if (!shown && !f.view.presentation) colouredText(f.theme.palette.dimText, threads + rows);
                instructions(f, *s, "", 0);
            }
        }
    }
    ImGui::End();
}

}  // namespace

std::unique_ptr<Panel> makeMemoryPanel() { return std::make_unique<MemoryPanel>(); }

}  // namespace ts::app
