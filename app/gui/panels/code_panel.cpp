// Code: the kernel's own source file (embedded at build time, the very text the simulator
// and nvcc compiled) with the current step's line highlighted, and for the selected thread
// every access of the step as its index expression with the thread's numbers put in,
// evaluated, next to the index the simulator recorded. Beside each droppable barrier
// (x.syncthreads(AFTER_LOAD), x.syncthreads(AFTER_COMPUTE)) a toggle re-simulates with that
// barrier dropped; the two lines of the hazard chosen in Hazards are marked. Beside each line
// that accesses memory, columns for the whole run as Nsight Compute's source view has them
// (sim::memoryByLine of the simulation's access sites): warp memory requests, global sectors
// per request, shared wavefronts and bank conflicts, with a mark where nvcc compiles the line
// differently from the per-element model (sim::compiledNotesFor); at the desk a checkbox
// turns them off, on a slide they show while the Memory panel does.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "sim/catalogue/loaded_kernels.hpp"
#include "kernels/context.cuh"
#include "diagnosis_report.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "sim/teaching/warp_view.hpp"
#include "student_kernel.hpp"
#include "widgets.hpp"
#include "code_panel_internal.hpp"

namespace ts::app {

using namespace code_panel_detail;

namespace code_panel_detail {

const char* verb(sim::Op op)
{
    switch (op) {
    case sim::Op::GlobalLoad:
    case sim::Op::SharedLoad:
    case sim::Op::ConstantLoad: return "reads ";
    case sim::Op::ZeroFill: return "zero-fills ";
    case sim::Op::Atomic: return "adds atomically to ";
    default: return "writes ";
    }
}

/// The width of each line of code in `text` in characters, from `from` (a line number) on:
/// its indentation (halved with `compact`) and its code up to a trailing // comment (a
/// comment wraps at its spaces; code should not wrap at all). Comment lines are left out.
std::vector<int> codeWidths(const std::string& text, unsigned from, bool compact)
{
    std::vector<int> widths;
    size_t b = 0;
    for (unsigned n = 1; b <= text.size(); ++n) {
        size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        const size_t first = std::min(e, text.find_first_not_of(' ', b));
        size_t end = std::min(e, text.find("//", first));
        while (end > first && text[end - 1] == ' ') --end;
        if (n >= from && end > first)
            widths.push_back(static_cast<int>(first - b) / (compact ? 2 : 1) + static_cast<int>(end - first));
        if (e == text.size()) break;
        b = e + 1;
    }
    return widths;
}

/// How many of `widths` are wider than `cols`.
int wrapping(const std::vector<int>& widths, int cols)
{
    return static_cast<int>(std::count_if(widths.begin(), widths.end(), [&](int w) { return w > cols; }));
}

}  // namespace code_panel_detail

namespace {

/// The ts::kernels::Barrier bit a source line's barrier call names, or 0.
unsigned barrierOnLine(const char* b, const char* e)
{
    const std::string line(b, e);
    if (line.find("syncthreads(AFTER_LOAD)") != std::string::npos) return kernels::AFTER_LOAD;
    if (line.find("syncthreads(AFTER_COMPUTE)") != std::string::npos) return kernels::AFTER_COMPUTE;
    if (line.find("threadfence(FENCE)") != std::string::npos) return kernels::FENCE;
    return 0;
}

/// The "drop this barrier" toggle after a barrier line: re-simulates the loaded scenario
/// with the barrier's bit flipped.
void dropToggle(Frame& f, const sim::Simulation& s, unsigned bit, unsigned line)
{
    bool dropped = (s.scenario.dropBarriers & bit) != 0;
    ImGui::PushID(static_cast<int>(line));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(2, 0));
    ImGui::BeginDisabled(f.busy.simulating);
    if (ImGui::Checkbox(bit == kernels::FENCE ? "drop this fence" : "drop this barrier", &dropped)) {
        sim::Scenario d = s.scenario;
        d.dropBarriers ^= bit;
        f.requests.load = presetFor(f.loaded, d);
    }
    ImGui::EndDisabled();
    ImGui::PopStyleVar();
    ImGui::PopID();
    tooltip(bit == kernels::FENCE
                ? "Re-simulate with this __threadfence() skipped. The simulator runs one block to its end before the "
                  "next, so the scan stays right; Hazards then lists each hand-over where a GPU could show the next "
                  "block the flag before the running sum it guards (PMPP sec. 11.7)."
            : bit == kernels::AFTER_LOAD
                ? "Re-simulate with every thread skipping this __syncthreads() (the same flag for the whole "
                  "block, as on the GPU). Without it a thread can read a tile slot before its owner has "
                  "written it: a read-after-write (RAW) hazard, a true dependence (PMPP sec. 5.4, Fig. 5.9)."
                : "Re-simulate with every thread skipping this __syncthreads() (the same flag for the whole "
                  "block, as on the GPU). Without it a thread can overwrite a slot with the next phase's tile "
                  "while others still read the old one: a write-after-read (WAR) hazard, a false dependence "
                  "(PMPP sec. 5.4, Fig. 5.9).");
}

/// Kernel `text` as CUDA writes it, line for line (the simulator's line numbers stay right):
/// the single-source spellings of kernels/context.cuh shown as the CUDA they stand for.
/// `x.syncthreads(AFTER_LOAD)` is __syncthreads(), `x.threadfence(FENCE)` __threadfence(), x.threadIdx threadIdx, TS_SHARED_2D(float,
/// Mds, R, C); `__shared__ float Mds[R][C];`, a GlobalPtr<const float> parameter `const
/// float*`, the context parameter and its template argument disappear. The x.ldg4(),
/// x.unrolled() and x.mask1d() of the simulator's own kernels stay. A student's file is shown
/// untouched (it is CUDA already).
std::string cudaText(const std::string& text)
{
    static const std::vector<std::pair<std::regex, std::string>> rules = {
        {std::regex(R"(\bx\.syncthreads\((AFTER_LOAD|AFTER_COMPUTE)?\))"), "__syncthreads()"},
        {std::regex(R"(\bx\.threadfence\((FENCE)?\))"), "__threadfence()"},
        {std::regex(R"(\bx\.(threadIdx|blockIdx|blockDim|gridDim)\b)"), "$1"},
        {std::regex(R"(TS_SHARED_2D\(\s*(\w+)\s*,\s*(\w+)\s*,\s*([^,]+?)\s*,\s*([^)]+?)\s*\);)"), "__shared__ $1 $2[$3][$4];"},
        {std::regex(R"(TS_SHARED_1D\(\s*(\w+)\s*,\s*(\w+)\s*,\s*([^)]+?)\s*\);)"), "__shared__ $1 $2[$3];"},
        {std::regex(R"(typename X::template GlobalPtr<(const |volatile )?(float|unsigned int)>\s*)"), "$1$2* "},
        {std::regex(R"(TS_DEVICE (\w+) (\w+)\(X& x,\s*)"), "__global__ $1 $2("},
        {std::regex(R"(template <(.+), class X>)"), "template <$1>"},
        {std::regex(R"(^template <class X>$)"), ""},
    };
    std::string out;
    size_t b = 0;
    for (;;) {
        size_t e = text.find('\n', b);
        const bool lastLine = e == std::string::npos;
        std::string line = text.substr(b, lastLine ? std::string::npos : e - b);
        for (const auto& [re, with] : rules) line = std::regex_replace(line, re, with);
        out += line;
        if (lastLine) break;
        out += '\n';
        b = e + 1;
    }
    return out;
}

/// Whether `c` belongs to an identifier or a number (a row never breaks between two such).
bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

/// Whether a row may break before text[p]: at a token boundary, never inside an identifier,
/// a number or a two-character operator (+=, <=, ->, &&, ::).
bool breakable(const std::string& text, size_t p)
{
    const char a = text[p - 1], z = text[p];
    if (wordChar(a) && wordChar(z)) return false;
    static const std::string ops = "+-*/%=<>!&|^:";
    return !(ops.find(a) != std::string::npos && ops.find(z) != std::string::npos);
}

/// "<- RAW: write by (ty, tx)" after a line that holds an access of the chosen hazard.
std::string hazardTag(const sim::Trace& t, const sim::Hazard& h, unsigned line)
{
    std::string tag;
    const int bx = static_cast<int>(t.blockDim.x);
    for (const sim::HazardAccess* a : {&h.first, &h.second}) {
        if (a->line != line) continue;
        tag += std::string(tag.empty() ? "<- " : "; ") + (a == &h.first ? "1st: " : "2nd: ") +
               (a->write ? "write" : "read") + " by (" + std::to_string(a->thread / bx) + "," +
               std::to_string(a->thread % bx) + ")";
    }
    return tag.empty() ? tag : tag + " [" + sim::hazardName(h.kind) + "]";
}


/// What the listing drew in the last frame (codeReport).
struct CodeDrawn {
    int frame = -1;
    std::string report;
};
CodeDrawn gCodeDrawn;

/// The line a new run of `s` should show first: a barrier the scenario drops (struck
/// through), else the line of the run's mistake (Loaded::diagnosis); 0 for none.
unsigned targetLine(const Frame& f, const sim::Simulation& s, const std::string& original)
{
    if (s.scenario.dropBarriers) {
        size_t b = 0;
        for (unsigned n = 1; b <= original.size(); ++n) {
            size_t e = original.find('\n', b);
            if (e == std::string::npos) e = original.size();
            if (barrierOnLine(original.data() + b, original.data() + e) & s.scenario.dropBarriers) return n;
            if (e == original.size()) break;
            b = e + 1;
        }
    }
    return f.loaded.diagnosis.line;
}

/// One row of the listing as drawn: a piece of a source line (the whole line when it fits),
/// broken at a space, else at a token boundary, when the line is wider than the listing
/// (never inside an identifier unless it alone is wider), after `indent` spaces; only a
/// line's first piece carries its number. Continuation pieces are indented four spaces more
/// than their line.
struct Piece {
    size_t b = 0, e = 0;   ///< the piece, as offsets into its text (the source, or the tag)
    int indent = 0;        ///< spaces drawn before it
    bool numbered = false;
};

/// Breaks text[b, e) into pieces of at most `cols` characters after `indent` spaces (the
/// first) and `more` spaces (the rest), at spaces where it can, else at the last token
/// boundary (breakable()); only an identifier longer than a row is cut.
std::vector<Piece> wrapText(const std::string& text, size_t b, size_t e, int cols, int indent, int more)
{
    std::vector<Piece> out;
    size_t at = b;
    int ind = indent;
    do {
        const size_t room = static_cast<size_t>(std::max(4, cols - ind));
        size_t end = e;
        if (end - at > room) {
            end = at + room;
            const size_t space = text.rfind(' ', end);
            if (space != std::string::npos && space > at) {
                end = space;
            } else {
                size_t p = end;
                while (p > at + 1 && !breakable(text, p)) --p;
                if (p > at + 1) end = p;
            }
        }
        out.push_back(Piece{at, end, ind, at == b});
        at = end;
        while (at < e && text[at] == ' ') ++at;
        ind = std::min(more, cols / 2);
    } while (at < e);
    return out;
}

/// One source line of the listing: its pieces, the barrier toggle after it and the chosen
/// hazard's tag (each beside the line when they fit, else on rows of their own).
struct Line {
    unsigned number = 0;
    size_t b = 0, e = 0;
    std::vector<Piece> pieces;
    unsigned bit = 0;          ///< the droppable barrier on the line, if any
    bool toggleRow = false;    ///< the toggle goes on a row of its own
    std::string tag;           ///< the chosen hazard's accesses on the line, if any
    std::vector<Piece> tagPieces;
    bool tagBeside = false;    ///< the tag fits after the line (and its toggle)
    int rows() const
    {
        return static_cast<int>(pieces.size()) + toggleRow + (tagBeside ? 0 : static_cast<int>(tagPieces.size()));
    }
};

/// `text` as lines broken into pieces of at most `cols` characters of the (monospaced)
/// font; `toggleCols`: the width of a barrier's toggle in characters. On a slide
/// (`compact`) each level of indentation takes two spaces instead of four.
std::vector<Line> listing(const std::string& text, const std::string& original, int cols, const Frame& f,
                          const sim::Simulation& s, int toggleCols, bool compact)
{
    const sim::KernelInfo* info = s.scenario.kernelInfo();
    const sim::Hazard* hz = focusedHazard(f.loaded, f.view);
    cols = std::max(cols, 12);
    std::vector<Line> lines;
    // The droppable barriers, by line, from the kernel's own text (`text` may show them as
    // __syncthreads()).
    std::vector<unsigned> bits;
    for (size_t ob = 0; ob <= original.size();) {
        size_t oe = original.find('\n', ob);
        if (oe == std::string::npos) oe = original.size();
        bits.push_back(barrierOnLine(original.data() + ob, original.data() + oe));
        ob = oe + 1;
    }
    size_t b = 0;
    for (unsigned n = 1; b <= text.size(); ++n) {
        size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        Line l;
        l.number = n;
        l.b = b;
        l.e = e;
        const size_t first = std::min(e, text.find_first_not_of(' ', b));
        const int indent = static_cast<int>(first - b) / (compact ? 2 : 1);
        l.pieces = wrapText(text, first, e, cols, std::min(indent, cols / 2), indent + (compact ? 2 : 4));
        if (first == e) l.pieces = {Piece{e, e, 0, true}};
        const Piece& last = l.pieces.back();
        const int lastCols = static_cast<int>(last.e - last.b) + last.indent;
        l.bit = info && n <= bits.size() ? bits[n - 1] & info->barriers : 0;
        if (l.bit) l.toggleRow = lastCols + 3 + toggleCols > cols;
        if (hz) l.tag = hazardTag(s.trace, *hz, n);
        if (!l.tag.empty()) {
            const int after = l.bit ? (l.toggleRow ? indent + 4 : lastCols + 3) + toggleCols : lastCols;
            l.tagBeside = after + 2 + static_cast<int>(l.tag.size()) <= cols;
            l.tagPieces = wrapText(l.tag, 0, l.tag.size(), cols, compact ? 2 : 4, compact ? 4 : 6);
        }
        lines.push_back(std::move(l));
        if (e == text.size()) break;
        b = e + 1;
    }
    return lines;
}

/// The first line of the kernel itself (its `template`, else its `__global__` line), where
/// slides start rather than at the file's header comment; 1 if there is none.
unsigned kernelStart(const std::vector<Line>& lines, const std::string& text)
{
    for (const Line& l : lines)
        if (text.compare(l.b, 9, "template ") == 0 || text.compare(l.b, 11, "__global__ ") == 0) return l.number;
    return 1;
}

/// Draws source line `l`, `lh` pixels a row: the step's line, another line the selected
/// thread ran in the step and the lines of the chosen hazard marked; a dropped barrier
/// struck through; the barrier's toggle and the hazard tag.
void drawLine(Frame& f, const sim::Simulation& s, const std::string& text, const Line& l, const sim::Step* st,
              const std::set<unsigned>& threadLines, float lh, const MemoryColumns& memory)
{
    const Palette& pal = f.theme.palette;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // A character's advance as the text is drawn (ImGui::CalcTextSize rounds it up).
    const float space = ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, " ").x;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = lh * static_cast<float>(l.rows());
    // One faint fill a line (the hazard's before the step's, before the thread's), so that
    // every text on it keeps 4.5:1; bars at the left edge say which it is at 3:1, the
    // step's yellow and the hazard's blue side by side where a line is both.
    const bool current = st && l.number == st->line;
    const bool hazard = !l.tag.empty() || (l.number == f.loaded.diagnosis.line && f.loaded.diagnosis.kind != Diagnosis::Kind::None);
    const ImU32 fill = hazard ? pal.hazardLine : current ? pal.codeLine : threadLines.count(l.number) ? pal.codeLineAlt : 0;
    if (fill) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), fill);
    const float bar = std::max(2.0f, scaled(3));
    // In the window's left padding, outside the content's clip rectangle.
    const ImVec2 win = ImGui::GetWindowPos();
    dl->PushClipRect(win, ImVec2(win.x + ImGui::GetWindowWidth(), win.y + ImGui::GetWindowHeight()), false);
    if (current) dl->AddRectFilled(ImVec2(p.x - 2 * bar - 2, p.y), ImVec2(p.x - bar - 2, p.y + h), pal.codeBar);
    if (hazard) dl->AddRectFilled(ImVec2(p.x - bar - 1, p.y), ImVec2(p.x - 1, p.y + h), pal.hazardText);
    dl->PopClipRect();
    if (memory.on)
        if (const auto it = memory.lines.find(l.number); it != memory.lines.end())
            drawColumns(f, s, memory, it->second, p.y + (lh - memory.font->FontSize) * 0.5f - 1);
    const bool dropped = (l.bit & s.scenario.dropBarriers) != 0;
    // The line number or blank columns, then `indent` spaces.
    auto start = [&](bool numbered, int indent) {
        if (memory.numbers) {
            if (numbered) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%3u", l.number);
            else ImGui::TextUnformatted("   ");
            ImGui::SameLine();
        } else {
            ImGui::Dummy(ImVec2(0, 0));
            ImGui::SameLine(0, 0);
        }
        if (indent > 0) {
            ImGui::Dummy(ImVec2(space * static_cast<float>(indent), 1));
            ImGui::SameLine(0, 0);
        }
    };
    for (const Piece& piece : l.pieces) {
        start(piece.numbered, piece.indent);
        if (dropped) ImGui::PushStyleColor(ImGuiCol_Text, pal.error);
        ImGui::TextUnformatted(text.data() + piece.b, text.data() + piece.e);
        if (dropped) {
            ImGui::PopStyleColor();
            const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
            dl->AddLine(ImVec2(a.x, (a.y + z.y) * 0.5f), ImVec2(z.x, (a.y + z.y) * 0.5f), pal.error, 2.0f);
        }
    }
    // Without the line numbers, hovering a line names it.
    if (!memory.numbers && ImGui::IsMouseHoveringRect(p, ImVec2(p.x + w, p.y + lh * static_cast<float>(l.pieces.size()))) &&
        ImGui::IsWindowHovered())
        ImGui::SetTooltip("line %u", l.number);
    if (l.bit) {
        if (l.toggleRow) start(false, l.pieces.front().indent + 4);
        else ImGui::SameLine(0, space * 3);
        dropToggle(f, s, l.bit, l.number);
    }
    if (l.tag.empty()) return;
    const ImVec4 colour = ImGui::ColorConvertU32ToFloat4(pal.hazardText);
    if (l.tagBeside) {
        ImGui::SameLine(0, space * 2);
        ImGui::TextColored(colour, "%s", l.tag.c_str());
        return;
    }
    for (const Piece& piece : l.tagPieces) {
        start(false, piece.indent);
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        ImGui::TextUnformatted(l.tag.data() + piece.b, l.tag.data() + piece.e);
        ImGui::PopStyleColor();
    }
}

/// The source listing above `explain` pixels of explanations. At the desk the whole file, a
/// list that scrolls to the step's line once per step; on a slide as many lines of the
/// kernel around the step's line as fit, without scrolling.
void source(Frame& f, const sim::Simulation& s, const std::string& text, const std::string& original, float explain,
            Scrolled& scrolled, MemoryColumns& memory)
{
    const sim::Step* st = f.view.cursor >= 0 ? &s.trace.steps[f.view.cursor] : nullptr;
    std::set<unsigned> threadLines;
    if (st)
        for (int i = st->begin; i < st->end; ++i)
            if (s.trace.events[i].thread == f.view.thread) threadLines.insert(s.trace.events[i].line);
    const bool slide = f.view.presentation;
    // The font memoryHeader() chose: on a slide the cell font or the small one, so that more
    // of each line fits.
    ImFont* font = memory.listing;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float lh = font->FontSize + style.ItemSpacing.y;
    const float ch = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, "0").x;
    const float pad = 2 * style.WindowPadding.y;
    // Columns of text: the child's width less its padding, the line numbers and a scrollbar.
    const float inner = ImGui::GetContentRegionAvail().x - 2 * style.WindowPadding.x - (slide ? 0 : style.ScrollbarSize);
    // (One column to spare for the child's border.)
    // The memory columns take the right end of the text region.
    memory.right = ImGui::GetCursorScreenPos().x + style.WindowPadding.x + style.ChildBorderSize + inner;
    const float gutter = memory.on ? MemoryColumns::kChars * memory.charWidth : 0;
    const float numbers = memory.numbers ? 3 * ch + style.ItemSpacing.x : 0;
    const int cols = static_cast<int>((inner - gutter - numbers - 2 * style.ChildBorderSize) / ch) - 1;
    const float check = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
    const int toggleCols =
        static_cast<int>((check + font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, "drop this barrier").x) / ch) + 1;
    const std::vector<Line> lines = listing(text, original, cols, f, s, toggleCols, memory.compact);
    // A new run shows its target line (targetLine) until the step changes.
    // (So does the step of the run's mistake, where G leads.)
    if (scrolled.cursor != f.view.cursor || scrolled.generation != f.loaded.generation) {
        const bool keep = scrolled.generation != f.loaded.generation || f.view.cursor == f.loaded.diagnosis.step;
        scrolled = Scrolled{f.view.cursor, f.loaded.generation, 4, -1, 0, keep ? targetLine(f, s, original) : 0u};
    }
    // The line the listing centres: the step's, or with a target both where they fit, else the target.
    const unsigned stepLine = st ? std::max(1u, st->line) : 0u;
    unsigned centre = stepLine;
    int centreRows = 1;   // rows from the first to the last of the lines to show
    if (scrolled.target > 0 && scrolled.target <= lines.size()) {
        const unsigned a = stepLine ? std::min(stepLine, scrolled.target) : scrolled.target;
        const unsigned z = std::max(stepLine, scrolled.target);
        centreRows = 0;
        for (unsigned n = a; n <= z && n <= lines.size(); ++n) centreRows += lines[n - 1].rows();
        centre = scrolled.target;
    }
    size_t first = 0, last = lines.size();   // the lines shown: [first, last)
    int rows = 0;
    for (const Line& l : lines) rows += l.rows();
    float height;
    if (!slide) {
        height = elasticHeight(std::min(6.0f, static_cast<float>(rows)) * lh + pad, static_cast<float>(rows) * lh + pad,
                               explain);
    } else {
        first = kernelStart(lines, text) - 1;
        int kernelRows = 0;
        for (size_t i = first; i < lines.size(); ++i) kernelRows += lines[i].rows();
        // At least five rows of the slide's large code font (about the height eight rows of
        // the desk's font took), so that Code stays open beside the picture at 1080 lines.
        height = elasticHeight(std::min(5.0f, static_cast<float>(kernelRows)) * lh + pad,
                               static_cast<float>(kernelRows) * lh + pad, explain);
        // As many lines as fit: up to half the rows before the step's line, the rest after it.
        const int room = std::max(1, static_cast<int>((height - pad) / lh));
        size_t at = st ? std::min<size_t>(lines.size() - 1, std::max(1u, st->line) - 1) : first;
        if (scrolled.target > 0 && scrolled.target <= lines.size()) {
            // Both the step's line and the target where they fit, else the target.
            at = scrolled.target - 1;
            if (st && centreRows <= room) at = (std::min<size_t>(at, stepLine - 1) + std::max<size_t>(at, stepLine - 1)) / 2;
        }
        if (at < first) first = 0;
        int used = lines[at].rows();
        const int half = (room + used) / 2;
        size_t a = at, z = at + 1;
        while (a > first && used + lines[a - 1].rows() <= half) used += lines[--a].rows();
        while (z < lines.size() && used + lines[z].rows() <= room) used += lines[z++].rows();
        while (a > first && used + lines[a - 1].rows() <= room) used += lines[--a].rows();
        first = a;
        last = z;
    }
    const ImGuiWindowFlags flags = slide ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse : 0;
    ImGui::BeginChild("source", ImVec2(0, height), true, flags);
    if (!slide) markScrollingList();
    ImGui::PushFont(font);
    // The step's line is centred in the listing where the file allows, when the step
    // changes, while the layout still settles the panel's size after that (at most 30
    // frames), and when the listing's height changes.
    if (scrolled.height < 0) scrolled.height = height;
    if ((layoutSteadyFrames() < 2 && scrolled.frames < 30) || scrolled.height != height)
        scrolled.again = std::max(scrolled.again, 2);
    scrolled.height = height;
    ++scrolled.frames;
    const bool scroll = !slide && centre > 0 && scrolled.again > 0;
    // The target and the step's line both where the listing is tall enough for their rows.
    const bool both = scrolled.target > 0 && stepLine > 0 && static_cast<float>(centreRows) * lh <= height - pad;
    const unsigned from = both ? std::min(stepLine, scrolled.target) : centre;
    const unsigned to = both ? std::max(stepLine, scrolled.target) : centre;
    float fromY = 0;
    // --print-code: the rows and the lines at least half in view.
    std::string rowText;
    const ImRect clip = ImGui::GetCurrentWindow()->InnerClipRect;
    unsigned seenA = 0, seenZ = 0;
    for (size_t i = first; i < last; ++i) {
        const float y0 = ImGui::GetCursorScreenPos().y;
        drawLine(f, s, text, lines[i], st, threadLines, lh, memory);
        const float y1 = y0 + lh * static_cast<float>(lines[i].pieces.size());
        if (lines[i].number == from) fromY = y0;
        if (scroll && lines[i].number == to)
            ImGui::SetScrollFromPosY((fromY + ImGui::GetCursorScreenPos().y) * 0.5f - ImGui::GetWindowPos().y, 0.5f);
        if (std::min(y1, clip.Max.y) - std::max(y0, clip.Min.y) >= 0.5f * (y1 - y0) - 0.5f) {
            if (!seenA) seenA = lines[i].number;
            seenZ = lines[i].number;
        }
        // A row that continues on the next one keeps the spaces the break skipped, so that a
        // reader sees whether the break fell between two words or inside one.
        const std::vector<Piece>& ps = lines[i].pieces;
        for (size_t k = 0; k < ps.size(); ++k) {
            const size_t end = k + 1 < ps.size() ? ps[k + 1].b : ps[k].e;
            rowText += "code-row " + std::to_string(lines[i].number) + "|" + text.substr(ps[k].b, end - ps[k].b) + "\n";
        }
    }
    if (scrolled.again > 0) --scrolled.again;
    gCodeDrawn.frame = ImGui::GetFrameCount();
    gCodeDrawn.report = (seenA ? "code-lines " + std::to_string(seenA) + " " + std::to_string(seenZ) : std::string("code-lines none")) +
                        "\ncode-columns " + (memory.numbers ? "numbers" : "no-numbers") + " " +
                        (memory.on ? "memory" : "no-memory") + "\n" + rowText;
    ImGui::PopFont();
    ImGui::EndChild();
}

}  // namespace

/// A student's kernel file: the errors of its last build, why its last run was not shown
/// (its sandboxed run stopped it), and what is wrong with the run shown, each in
/// the error colour above the listing. Returns whether it said anything.
bool studentNotes(Frame& f, const sim::Simulation* s)
{
    const Loaded& l = f.loaded;
    if (l.kernelFile.empty()) return false;
    const ImU32 red = f.theme.palette.error;
    bool said = false;
    if (!l.kernelErrors.empty()) {
        colouredText(red, "Your kernel did not compile" + std::string(s ? "; the last good run is shown:" : ":"));
        for (const std::string& e : l.kernelErrors) colouredText(red, e);
        said = true;
    }
    if (!l.kernelProblem.empty()) {
        colouredText(red, l.kernelProblem + (s ? " The run shown is the one before." : ""));
        said = true;
    }
    // (On a slide the caption says the run's mistake in the narration's place.)
    if (s && kernelFileOf(s->scenario) == l.kernelFile && !f.view.presentation)
        // (The loaded run's sentence was made once, when it arrived: not again every frame.)
        if (const std::string d = s == f.loaded.sim.get() ? f.loaded.diagnosis.sentence : runDiagnosis(*s); !d.empty()) {
            colouredText(red, "Wrong: " + d);
            said = true;
        }
    return said;
}

void CodePanel::draw(Frame& f)
{
    // The listing scrolls, and takes the height the explanations leave it: the window itself
    // never scrolls (a scrollbar that came and went would change the width they wrap at).
    if (beginPanel(f, id, ImGuiWindowFlags_NoScrollbar)) {
        const sim::Simulation* s = f.loaded.sim.get();
        const sim::KernelInfo* info = s ? s->scenario.kernelInfo() : nullptr;
        if (!s || !info) {
            if (!studentNotes(f, nullptr))
                ImGui::TextUnformatted(f.busy.probing      ? "Running your kernel in its sandbox..."
                                       : f.busy.compiling  ? "Compiling your kernel..."
                                       : f.busy.simulating ? "Simulating..."
                                                           : "No kernel loaded.");
        } else {
            const std::string& text = sourceShown(f.loaded, *info);
            // A built-in kernel's file lies under kernels/; a student's is named by its own path.
            const bool loaded = sim::findLoadedKernel(info->name) == info;
            // The listing shows a built-in kernel in CUDA's words, a student's file as written.
            if (shownFrom_ != &text || (loaded ? shown_ != text : false)) {
                shown_ = loaded ? text : cudaText(text);
                shownFrom_ = &text;
            }
            const std::string file = loaded ? std::string(info->sourceFile) : std::string("kernels/") + info->sourceFile;
            // A slide names the file (a student's by its name alone: a path would break across
            // lines at that size); the desk says what it is.
            const std::string slideName = loaded ? file.substr(file.find_last_of('/') + 1) : file;
            colouredText(f.theme.palette.dimText,
                         f.view.presentation ? slideName
                         : loaded            ? file + ": your kernel, as the simulator runs it"
                                             : file + ": the source the simulator and the GPU both compile, "
                                                      "in CUDA's words");
            studentNotes(f, s);
            if (memoryGeneration_ != f.loaded.generation) {
                memory_.lines = lineFigures(*s);
                memoryGeneration_ = f.loaded.generation;
            }
            memoryHeader(f, *s, shown_);
            char key[128];
            std::snprintf(key, sizeof key, "%llu %d %.1f %.1f %d", static_cast<unsigned long long>(f.loaded.generation),
                          f.view.thread, ImGui::GetWindowWidth(), ImGui::GetFontSize(), f.view.presentation ? 1 : 0);
            if (explainFor_ != key) {
                explain_ = tallestExplanations(f, *s, text);
                explainFor_ = key;
            }
            const float spacing = ImGui::GetStyle().ItemSpacing.y;
            source(f, *s, shown_, text, explain_ + spacing, scrolled_, memory_);
            memoryColumnNames(f);
            const float y0 = ImGui::GetCursorPosY();
            explanations(f, *s, text);
            // Every step takes the room of the tallest (the content ends at the last item's
            // bottom, without the spacing after it, as measured).
            if (ImGui::GetCursorPosY() - spacing < y0 + explain_) ImGui::SetCursorPosY(y0 + explain_);
        }
    }
    ImGui::End();
}


std::unique_ptr<Panel> makeCodePanel() { return std::make_unique<CodePanel>(); }

std::string codeReport() { return gCodeDrawn.frame == ImGui::GetFrameCount() ? gCodeDrawn.report : std::string(); }

}  // namespace ts::app
