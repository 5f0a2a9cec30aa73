// The Code panel's memory columns (app/gui/panels/code_panel.cpp): each line's warp memory
// figures for the whole run, as Nsight Compute's source view has them, and the fonts and room
// the listing leaves for them (CodePanel::memoryHeader).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "code_panel_internal.hpp"
#include "widgets.hpp"

namespace ts::app::code_panel_detail {

namespace {

/// A count in at most 5 characters: 12345, 123k, 1.2M.
std::string compact(uint64_t v)
{
    char b[16];
    if (v < 100000) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
    else if (v < 10000000) std::snprintf(b, sizeof b, "%lluk", static_cast<unsigned long long>(v / 1000));
    else if (v < 100000000) std::snprintf(b, sizeof b, "%.1fM", static_cast<double>(v) / 1e6);
    else if (v < 100000000000ull) std::snprintf(b, sizeof b, "%lluM", static_cast<unsigned long long>(v / 1000000));
    else std::snprintf(b, sizeof b, "%.1fG", static_cast<double>(v) / 1e9);
    return b;
}

std::string ratio(uint64_t a, uint64_t b)
{
    if (b == 0) return "-";
    char buf[16];
    const double r = static_cast<double>(a) / static_cast<double>(b);
    std::snprintf(buf, sizeof buf, r < 10 ? "%.2f" : r < 100 ? "%.1f" : "%.0f", r);
    return buf;
}

}  // namespace

/// The figures of every line of `s` that accesses memory.
std::map<unsigned, LineFigures> lineFigures(const sim::Simulation& s)
{
    std::map<unsigned, LineFigures> out;
    for (const sim::LineMemory& m : sim::memoryByLine(s.accessSites)) {
        LineFigures& l = out[m.line];
        l.requests += m.requests;
        if (m.space == sim::Space::Global) {
            l.globalRequests += m.requests;
            l.sectors += m.sectors;
        } else if (m.space == sim::Space::Shared) {
            l.sharedRequests += m.requests;
            l.wavefronts += m.wavefronts;
            l.conflicts += m.conflicts();
        }
        l.rows.push_back(m);
    }
    for (auto& [line, l] : out) l.notes = sim::compiledNotesFor(s.scenario, line);
    return out;
}

namespace {

const char* const kColumnNames[4] = {"req", "s/req", "wavef", "confl"};
const char* const kColumnTips[4] = {
    "Warp memory requests of the line over the whole run: one per source access executed by the active lanes "
    "of a warp (global, shared and constant).",
    "Global memory: 32-byte sectors per request. 4 for a coalesced warp reading 128 consecutive bytes, up to 32 "
    "when every lane needs a sector of its own.",
    "Shared memory: wavefronts, the passes through the 32 banks; one per request without bank conflicts.",
    "Shared memory: bank conflicts, the wavefronts beyond the fewest the request needs (one for 32-bit "
    "accesses; for a 128-bit one, one per 128 bytes of each half-warp): lanes reading different words of one "
    "bank wait for each other."};

/// The four column texts of a line.
std::array<std::string, 4> columnTexts(const LineFigures& l)
{
    return {compact(l.requests), ratio(l.sectors, l.globalRequests),
            l.sharedRequests ? compact(l.wavefronts) : "-",
            l.sharedRequests ? compact(l.conflicts) : "-"};
}

/// The x (screen) where column `c` ends.
float columnRight(const MemoryColumns& m, int c)
{
    return m.right - static_cast<float>((3 - c) * (MemoryColumns::kColumn + 1)) * m.charWidth;
}
}  // namespace

/// Draws `l`'s columns on the row at `y`; a tooltip with the line's figures when hovered.
void drawColumns(const Frame& f, const sim::Simulation& s, const MemoryColumns& m, const LineFigures& l, float y)
{
    const Palette& pal = f.theme.palette;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = m.font;
    const std::array<std::string, 4> texts = columnTexts(l);
    for (int c = 0; c < 4; ++c) {
        const float w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, texts[c].c_str()).x;
        const bool conflict = c == 3 && l.sharedRequests && l.wavefronts > l.sharedRequests;
        dl->AddText(font, font->FontSize, ImVec2(columnRight(m, c) - w, y), conflict ? pal.error
                                                                             : texts[c] == "-" ? pal.dimText : pal.cellText,
                    texts[c].c_str());
    }
    const float left = columnRight(m, 0) - (MemoryColumns::kColumn + 2) * m.charWidth;
    if (!l.notes.empty()) dl->AddText(font, font->FontSize, ImVec2(left, y), pal.warnText, "*");
    if (!ImGui::IsMouseHoveringRect(ImVec2(left, y), ImVec2(m.right, y + font->FontSize + 2))) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    for (const sim::LineMemory& r : l.rows) {
        std::string arrays;
        for (uint8_t a : r.arrays) arrays += (arrays.empty() ? "" : ", ") + s.arrays.at(a).name;
        const char* space = r.space == sim::Space::Global ? "global" : r.space == sim::Space::Shared ? "shared" : "constant";
        std::string text = std::string(space) + (r.store ? " store " : " load ") + arrays + ": " +
                           std::to_string(r.requests) + " requests for " + std::to_string(r.lanes) + " lanes";
        if (r.space == sim::Space::Global)
            text += ", " + std::to_string(r.sectors) + " sectors (" + ratio(r.sectors, r.requests) + " a request), " +
                    std::to_string(r.cacheLines) + " 128-byte lines";
        else if (r.space == sim::Space::Shared)
            text += ", " + std::to_string(r.wavefronts) + " wavefronts, " + std::to_string(r.conflicts()) +
                    " bank conflicts";
        else
            text += ", " + std::to_string(r.wavefronts) + " passes of the constant cache";
        ImGui::TextUnformatted(text.c_str());
    }
    for (const sim::CompiledNote* n : l.notes) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warnText);
        ImGui::TextWrapped("* %s: %s", n->array, n->note);
        ImGui::PopStyleColor();
    }
    ImGui::TextDisabled("Whole run, every block (simulated warp memory model).");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void CodePanel::memoryHeader(Frame& f, const sim::Simulation& s, const std::string& text)
{
    // At the desk a checkbox; on a slide the columns follow the Memory panel.
    const bool slide = f.view.presentation;
    const bool wanted = !memory_.lines.empty() && (slide ? f.view.open[panelId("memory")] : f.view.codeMemory);
    // The fonts of the listing and the columns: at the desk the code font and the cell font,
    // else the cell font for both, else the cell and the small font, until the listing keeps
    // 24 characters of source beside the columns (source() measures the same way); on a
    // slide the slide's code font (Fonts::code, capitals of 22 px at 1080 lines, read from the
    // back of the hall), else the cell font, else the small one, the first that leaves 40
    // columns of source, or 36 beside the memory columns. Never smaller than the small font.
    const ImGuiStyle& style = ImGui::GetStyle();
    const Fonts& fonts = f.theme.fonts;
    const float inner = ImGui::GetContentRegionAvail().x - 2 * style.WindowPadding.x - (slide ? 0 : style.ScrollbarSize);
    auto advance = [](const ImFont* font) { return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, "0").x; };
    auto roomWith = [&](const ImFont* code, const ImFont* columns, bool on) {
        const float ch = advance(code);
        return (inner - (on ? MemoryColumns::kChars * advance(columns) : 0) - 3 * ch - style.ItemSpacing.x) / ch;
    };
    using FontPair = std::pair<ImFont*, ImFont*>;   // the listing's, the columns'
    std::vector<FontPair> candidates;
    if (slide) candidates = {{fonts.code, fonts.code}, {fonts.cell, fonts.cell}, {fonts.small, fonts.small}};
    else if (wanted) candidates = {{fonts.mono, fonts.cell}, {fonts.cell, fonts.cell}, {fonts.cell, fonts.small}, {fonts.small, fonts.small}};
    else candidates = {{fonts.mono, fonts.cell}};
    const float need = slide ? (wanted ? 36.0f : 40.0f) : 24.0f;
    FontPair chosen = candidates.front();
    bool wide = false;
    for (const FontPair& pair : candidates) {
        chosen = pair;
        wide = roomWith(pair.first, pair.second, wanted) >= need;
        if (wide) break;
    }
    memory_.listing = chosen.first;
    memory_.font = chosen.second;
    memory_.charWidth = advance(memory_.font);
    ImFont* cell = memory_.font;
    memory_.on = wanted && wide;
    // Narrow columns go before the code wraps: the line numbers, and the memory columns unless
    // the Memory panel is open (then they serve its lesson).
    {
        const float ch = advance(memory_.listing);
        const float border = 2 * style.ChildBorderSize;
        auto room = [&](bool on, bool numbers) {
            return static_cast<int>((inner - (on ? MemoryColumns::kChars * memory_.charWidth : 0) -
                                     (numbers ? 3 * ch + style.ItemSpacing.x : 0) - border) / ch) - 1;
        };
        const std::vector<int> wide4 = codeWidths(text, 1, slide), wide2 = codeWidths(text, 1, true);
        const bool memoryOpen = f.view.open[panelId("memory")];
        memory_.numbers = true;
        memory_.compact = slide;
        // In this order, each where it lets more lines of code fit unwrapped: the memory
        // columns (unless the Memory panel is open), four-space indentation, the line
        // numbers. What still does not fit wraps at token boundaries.
        auto wraps = [&]() { return wrapping(memory_.compact ? wide2 : wide4, room(memory_.on, memory_.numbers)); };
        if (memory_.on && !memoryOpen) {
            const int with = wraps();
            memory_.on = false;
            if (wraps() >= with) memory_.on = true;
        }
        if (!memory_.compact) {
            const int with = wraps();
            memory_.compact = true;
            if (wraps() >= with) memory_.compact = false;
        }
        {
            const int with = wraps();
            memory_.numbers = false;
            if (wraps() >= with) memory_.numbers = true;
        }
        if (wanted && !memory_.on) wide = false;
    }
    namesY_ = -1;
    if (s.accessSites.empty()) return;
    const float names = MemoryColumns::kChars * memory_.charWidth;
    if (!slide) {
        ImGui::Checkbox("memory per line", &f.view.codeMemory);
        tooltip("Columns beside each line that accesses memory, for the whole run (every block), as Nsight "
                "Compute's source view shows them: warp memory requests, sectors per global request, shared "
                "wavefronts and bank conflicts. * marks a line that nvcc compiles differently from this "
                "per-element model (hover the numbers). They show where the panel is wide enough to keep 24 "
                "characters of source beside them.");
        if (f.view.codeMemory && !wide) {
            // Say why the columns are missing, where that fits.
            const char* why = "(the panel is too narrow)";
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(why).x <= right) {
                ImGui::SameLine();
                ImGui::TextDisabled("%s", why);
            }
        }
        if (!memory_.on) return;
        // The column names on the checkbox's row where they fit beside it, else on a row of their own.
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + names <= right - ImGui::GetStyle().ScrollbarSize) {
            namesY_ = ImGui::GetItemRectMin().y + (ImGui::GetItemRectSize().y - cell->FontSize) * 0.5f;
            return;
        }
    } else if (!memory_.on) {
        return;
    }
    namesY_ = ImGui::GetCursorScreenPos().y;
    ImGui::Dummy(ImVec2(names, cell->FontSize));
}

void CodePanel::memoryColumnNames(const Frame& f)
{
    if (namesY_ < 0 || !memory_.on) return;
    ImFont* cell = memory_.font;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int c = 0; c < 4; ++c) {
        const float w = cell->CalcTextSizeA(cell->FontSize, FLT_MAX, 0, kColumnNames[c]).x;
        const ImVec2 a(columnRight(memory_, c) - w, namesY_);
        dl->AddText(cell, cell->FontSize, a, f.theme.palette.dimText, kColumnNames[c]);
        if (ImGui::IsMouseHoveringRect(a, ImVec2(a.x + w, a.y + cell->FontSize))) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
            ImGui::TextUnformatted(kColumnTips[c]);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
}

}  // namespace ts::app::code_panel_detail
