#include "welcome.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "panels/widgets.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/lessons.hpp"
#include "state.hpp"

namespace ts::app {
namespace {

/// The rectangles of the welcome drawn last, for welcomeReport().
struct Drawn {
    bool shown = false;
    ImVec2 pos, size;
    struct Row {
        std::string chapter, name;
        ImVec2 min, max;
        bool visible = false;
    };
    std::vector<Row> rows;
};

Drawn& drawn()
{
    static Drawn d;
    return d;
}

/// A grid of `rows` x `cols` square cells of edge `c` from `at`, each filled by `fill(r, k)`
/// (0 for the plain cell colour) with the grid's lines between.
template <typename Fill>
void grid(ImDrawList* dl, ImVec2 at, float c, int rows, int cols, const Palette& pal, Fill fill)
{
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < cols; ++k) {
            const ImVec2 p(at.x + k * c, at.y + r * c);
            const ImU32 col = fill(r, k);
            dl->AddRectFilled(ImVec2(p.x + 0.5f, p.y + 0.5f), ImVec2(p.x + c - 0.5f, p.y + c - 0.5f), col ? col : pal.cell);
        }
}

void frame(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float t = 1.5f) { dl->AddRect(a, b, colour, 0, 0, t); }

/// M, N and P of a product as three small grids side by side: M left, N above P.
void product(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal, bool tiled, bool boundary, bool noBarrier)
{
    const float h = b.y - a.y;
    const int n = 4;
    const float c = std::min(h / (2 * n + 0.5f), (b.x - a.x) / (2 * n + 1.5f));
    const float x = a.x + std::max(0.0f, ((b.x - a.x) - (2 * n + 1.5f) * c) * 0.5f);   // centred across
    const ImVec2 m(x, a.y + n * c + c * 0.5f), nn(x + n * c + c, a.y), p(x + n * c + c, a.y + n * c + c * 0.5f);
    if (!tiled) {
        grid(dl, m, c, n, n, pal, [&](int r, int) { return r == 1 ? pal.loadedThisPhase : 0u; });
        grid(dl, nn, c, n, n, pal, [&](int, int k) { return k == 2 ? pal.loadedThisPhase : 0u; });
        grid(dl, p, c, n, n, pal, [&](int r, int k) { return r == 1 && k == 2 ? pal.finished : 0u; });
        return;
    }
    const int last = boundary ? 3 : n;   // a 3x3 matrix under tiles of 2 runs past the edge
    auto inside = [&](int r, int k) { return r < last && k < last; };
    grid(dl, m, c, n, n, pal, [&](int r, int k) {
        if (!inside(r, k)) return boundary && r < 2 ? pal.zeroFill : pal.chartBg;
        return r < 2 && k < 2 ? pal.inShared : 0u;
    });
    grid(dl, nn, c, n, n, pal, [&](int r, int k) {
        if (!inside(r, k)) return boundary && k < 2 ? pal.zeroFill : pal.chartBg;
        return r < 2 && k < 2 ? pal.inShared : 0u;
    });
    grid(dl, p, c, n, n, pal, [&](int r, int k) {
        if (!inside(r, k)) return pal.chartBg;
        return r < 2 && k < 2 ? pal.finished : 0u;
    });
    // The traced block's tiles: TILE_WIDTH 2.
    frame(dl, m, ImVec2(m.x + 2 * c, m.y + 2 * c), pal.loadedThisPhase);
    frame(dl, nn, ImVec2(nn.x + 2 * c, nn.y + 2 * c), pal.loadedThisPhase);
    frame(dl, p, ImVec2(p.x + 2 * c, p.y + 2 * c), pal.selected);
    if (noBarrier) {
        // A barrier as a bar across the gap, struck out.
        const float x = p.x + n * c + c * 0.8f, y0 = a.y + c, y1 = b.y - c;
        dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), pal.dimText, 3.0f);
        dl->AddLine(ImVec2(x - c, y0 + c), ImVec2(x + c, y1 - c), pal.error, 2.5f);
        dl->AddLine(ImVec2(x + c, y0 + c), ImVec2(x - c, y1 - c), pal.error, 2.5f);
    }
}

/// A warp's lanes (top) and the memory they reach (bottom): `target(i)` is lane i's slot of
/// `slots` along the bottom row.
template <typename Target>
void lanes(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal, int slots, ImU32 memColour, Target target)
{
    const int n = 8;
    const float w = b.x - a.x, h = b.y - a.y;
    const float lane = w / n, slot = w / static_cast<float>(slots);
    for (int i = 0; i < n; ++i)
        dl->AddRectFilled(ImVec2(a.x + i * lane + 1, a.y), ImVec2(a.x + (i + 1) * lane - 1, a.y + h * 0.22f), pal.inShared);
    for (int s = 0; s < slots; ++s)
        dl->AddRectFilled(ImVec2(a.x + s * slot + 1, b.y - h * 0.22f), ImVec2(a.x + (s + 1) * slot - 1, b.y), pal.cell);
    for (int i = 0; i < n; ++i) {
        const int s = target(i);
        const ImVec2 from(a.x + (i + 0.5f) * lane, a.y + h * 0.22f), to(a.x + (s + 0.5f) * slot, b.y - h * 0.22f);
        dl->AddRectFilled(ImVec2(a.x + s * slot + 1, b.y - h * 0.22f), ImVec2(a.x + (s + 1) * slot - 1, b.y), memColour);
        dl->AddLine(from, to, pal.cellText, 1.5f);
    }
}

/// An SM's register file as a bar shared out between blocks: five fit, the sixth does not.
void occupancy(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal)
{
    const float w = b.x - a.x, h = b.y - a.y;
    const ImVec2 top(a.x, a.y + h * 0.2f), bottom(b.x, a.y + h * 0.8f);
    dl->AddRectFilled(top, bottom, pal.chartBg, 2);
    const float block = w / 5.6f;
    for (int i = 0; i < 5; ++i)
        dl->AddRectFilled(ImVec2(top.x + i * block + 1.5f, top.y + 2), ImVec2(top.x + (i + 1) * block - 1.5f, bottom.y - 2),
                          i % 2 ? pal.inShared : pal.finished, 2);
    frame(dl, top, bottom, pal.dimText);
    // The block that does not fit, hanging past the end.
    const ImVec2 x0(top.x + 5 * block + 1.5f, top.y + h * 0.12f);
    dashedRect(dl, x0, ImVec2(x0.x + block - 3, bottom.y + h * 0.12f), pal.error, 1.5f, pal.stepOutline);
}

/// A 1D convolution's input: the output tile in blue, a halo cell each side in light blue,
/// and (`ghost`) the left halo before the start of N as ghost cells.
void conv1d(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal, bool ghost)
{
    const int n = 10;
    const float c = std::min((b.x - a.x) / n, (b.y - a.y) * 0.45f);
    const float y = a.y + ((b.y - a.y) - c) * 0.5f;
    for (int i = 0; i < n; ++i) {
        ImU32 col = pal.cell;
        if (ghost) col = i < 2 ? pal.zeroFill : i < 6 ? pal.inShared : i < 8 ? pal.halo : pal.cell;
        else col = i < 2 ? pal.cell : i < 4 ? pal.halo : i < 8 ? pal.inShared : pal.halo;
        if (!ghost && i >= 10) col = pal.cell;
        dl->AddRectFilled(ImVec2(a.x + i * c + 0.5f, y), ImVec2(a.x + (i + 1) * c - 0.5f, y + c), col);
    }
    if (ghost) {
        // Where N begins.
        dl->AddLine(ImVec2(a.x + 2 * c, y - c * 0.4f), ImVec2(a.x + 2 * c, y + c * 1.4f), pal.cellText, 2.0f);
        frame(dl, ImVec2(a.x + 2 * c, y), ImVec2(a.x + 6 * c, y + c), pal.selected);
    } else {
        frame(dl, ImVec2(a.x + 4 * c, y), ImVec2(a.x + 8 * c, y + c), pal.selected);
    }
}

/// A 2D convolution's input tile: the output tile and its halo ring.
void conv2d(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal)
{
    const int n = 8;
    const float c = std::min((b.x - a.x), (b.y - a.y)) / n;
    const ImVec2 at(a.x + ((b.x - a.x) - n * c) * 0.5f, a.y);
    grid(dl, at, c, n, n, pal, [&](int r, int k) {
        const bool ring = r >= 1 && r <= 6 && k >= 1 && k <= 6;
        const bool inner = r >= 2 && r <= 5 && k >= 2 && k <= 5;
        return inner ? pal.inShared : ring ? pal.halo : 0u;
    });
    frame(dl, ImVec2(at.x + 2 * c, at.y + 2 * c), ImVec2(at.x + 6 * c, at.y + 6 * c), pal.selected);
}

}  // namespace

Thumbnail thumbnailOf(const sim::Preset& p)
{
    const std::string& k = p.scenario.kernel;
    const std::string lesson = p.lesson.empty() ? std::string() : p.lesson.front();
    const sim::ProblemDesc& problem = sim::problemOf(p.scenario);
    const bool conv = problem.picture == sim::Picture::Convolution;
    if (lesson == "occupancy" || p.occupancy) return Thumbnail::Occupancy;
    if (lesson == "memory") {
        if (k.find("nds-padded") != std::string::npos) return Thumbnail::Padded;
        if (k.find("nds-transposed") != std::string::npos || (conv && problem.dims == 2)) return Thumbnail::BankConflict;
        if (k.find("uncoalesced") != std::string::npos) return Thumbnail::Uncoalesced;
        return Thumbnail::Coalesced;
    }
    if (conv && problem.dims == 2) return Thumbnail::Conv2D;
    if (conv) return p.scenario.block.x == 0 ? Thumbnail::Conv1DGhost : Thumbnail::Conv1D;
    if (p.scenario.dropBarriers) return Thumbnail::MissingBarrier;
    const sim::KernelInfo* info = p.scenario.kernelInfo();
    if (info && !info->tiled) return Thumbnail::Naive;
    const sim::Scenario& s = p.scenario;
    const int t = std::max(1, s.tile);
    if (s.j % t || s.k % t || s.l % t) return Thumbnail::Boundary;
    return Thumbnail::Tiled;
}

void drawThumbnail(ImDrawList* dl, Thumbnail t, ImVec2 a, ImVec2 b, const Palette& pal)
{
    dl->AddRectFilled(a, b, pal.clear, 4.0f);
    const float pad = std::max(3.0f, (b.y - a.y) * 0.08f);
    const ImVec2 ia(a.x + pad, a.y + pad), ib(b.x - pad, b.y - pad);
    switch (t) {
    case Thumbnail::Naive: product(dl, ia, ib, pal, false, false, false); break;
    case Thumbnail::Tiled: product(dl, ia, ib, pal, true, false, false); break;
    case Thumbnail::MissingBarrier: product(dl, ia, ib, pal, true, false, true); break;
    case Thumbnail::Boundary: product(dl, ia, ib, pal, true, true, false); break;
    case Thumbnail::Coalesced: lanes(dl, ia, ib, pal, 8, pal.finished, [](int i) { return i; }); break;
    case Thumbnail::Uncoalesced: lanes(dl, ia, ib, pal, 16, pal.error, [](int i) { return (i * 5 + 3) % 16; }); break;
    case Thumbnail::BankConflict: lanes(dl, ia, ib, pal, 8, pal.error, [](int) { return 2; }); break;
    case Thumbnail::Padded: lanes(dl, ia, ib, pal, 8, pal.finished, [](int i) { return (i + 2) % 8; }); break;
    case Thumbnail::Occupancy: occupancy(dl, ia, ib, pal); break;
    case Thumbnail::Conv1D: conv1d(dl, ia, ib, pal, false); break;
    case Thumbnail::Conv1DGhost: conv1d(dl, ia, ib, pal, true); break;
    case Thumbnail::Conv2D: conv2d(dl, ia, ib, pal); break;
    }
}

void drawWelcome(Frame& f)
{
    View& v = f.view;
    Drawn& d = drawn();
    d.shown = false;
    d.rows.clear();
    if (!v.showWelcome) return;
    v.welcomeSeen = true;
    const float em = ImGui::GetFontSize();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    // Below the menu and caption bars at the desk; a slide has no menu bar, and there the
    // welcome takes the caption's room too, so that more lessons show at the large text size.
    const float top = v.presentation ? 0.0f : f.top;
    const ImVec2 size(std::min(em * 46, display.x * 0.92f), std::min(em * 40, (display.y - top) * 0.92f));
    ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, top + (display.y - top) * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    // In front of the panels when it appears (they are drawn before it).
    static int appearedFrame = -2;
    if (appearedFrame != ImGui::GetFrameCount() - 1) ImGui::SetNextWindowFocus();
    appearedFrame = ImGui::GetFrameCount();
    const bool open = ImGui::Begin("Getting started", &v.showWelcome,
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
    if (open) {
        d.shown = true;
        d.pos = ImGui::GetWindowPos();
        d.size = ImGui::GetWindowSize();
        ImGui::PushFont(f.theme.fonts.bold);
        ImGui::TextUnformatted("Welcome to TileScope");
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted("Each lesson below is a kernel of the book, simulated step by step: every load into shared "
                               "memory, every barrier, every halo cell. They follow PMPP's chapters; click one to open it, "
                               "then step with the Right and Left keys.");
        ImGui::PopTextWrapPos();
        const float buttons = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
        ImGui::BeginChild("##lessons", ImVec2(0, -buttons), true);
        const ImVec2 clipMin = ImGui::GetWindowPos(), clipMax(clipMin.x + ImGui::GetWindowSize().x,
                                                              clipMin.y + ImGui::GetWindowSize().y);
        const float thumbW = em * 6.0f, thumbH = em * 4.0f;
        const float gap = ImGui::GetStyle().ItemSpacing.x * 1.5f;
        int index = 0;
        for (const sim::LessonGroup& g : sim::lessonGroups(f.loaded.presets)) {
            ImGui::PushFont(f.theme.fonts.bold);
            colouredText(f.theme.palette.stepText, sim::chapterHeading(g.chapter));
            ImGui::PopFont();
            for (const sim::Preset* p : g.lessons) {
                ImGui::PushID(p->name.c_str());
                const ImVec2 at = ImGui::GetCursorScreenPos();
                const float textX = at.x + thumbW + gap;
                const float wrap = std::max(em * 8, ImGui::GetContentRegionAvail().x - thumbW - gap - em * 2.5f);
                const std::string summary = p->summary.empty() ? p->name : p->summary;
                ImGui::PushFont(f.theme.fonts.bold);
                const float titleH = ImGui::CalcTextSize(p->title.c_str(), nullptr, false, wrap).y;
                ImGui::PopFont();
                const float textH = titleH + ImGui::CalcTextSize(summary.c_str(), nullptr, false, wrap).y;
                const float rowH = std::max(thumbH, textH) + ImGui::GetStyle().ItemSpacing.y;
                const bool current = p->name == f.loaded.preset.name;
                if (ImGui::Selectable("##lesson", current, 0, ImVec2(0, rowH))) {
                    f.requests.open = p->name;
                    v.showWelcome = false;
                }
                tooltip(p->title + "\nPMPP sec. " + (p->chapter.empty() ? "?" : p->chapter) + ", preset " + p->name +
                        ": click to open it");
                const ImVec2 rmin = ImGui::GetItemRectMin(), rmax = ImGui::GetItemRectMax();
                ImDrawList* dl = ImGui::GetWindowDrawList();
                drawThumbnail(dl, thumbnailOf(*p), ImVec2(at.x, at.y + 1), ImVec2(at.x + thumbW, at.y + thumbH),
                              f.theme.palette);
                dl->AddText(f.theme.fonts.bold, ImGui::GetFontSize(), ImVec2(textX, at.y),
                            ImGui::GetColorU32(ImGuiCol_Text), p->title.c_str(), nullptr, wrap);
                dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(textX, at.y + titleH),
                            f.theme.palette.dimText, summary.c_str(), nullptr, wrap);
                if (!p->chapter.empty()) {
                    const ImVec2 sz = ImGui::CalcTextSize(p->chapter.c_str());
                    dl->AddText(ImVec2(rmax.x - sz.x - em * 0.3f, at.y), f.theme.palette.dimText, p->chapter.c_str());
                }
                // Scripted clicks (--keys click:lesson[i]) find the rows seen whole.
                const bool visible = rmin.y >= clipMin.y && rmax.y <= clipMax.y;
                if (visible) v.practice.drawing[CellRef{"lesson", sim::Cell{0, index}}] = CellRect{rmin, rmax};
                d.rows.push_back(Drawn::Row{p->chapter, p->name, rmin, rmax, visible});
                ImGui::PopID();
                ++index;
            }
            ImGui::Spacing();
        }
        if (f.loaded.presets.empty())
            ImGui::TextDisabled("No lecture presets found in %s.", sim::presetDirectory().c_str());
        ImGui::EndChild();
        if (ImGui::Button("Glossary")) v.showGlossary = true;
        tooltip("The field's words (TILE_WIDTH, halo cell, OP/B, ...), each in a sentence or two");
        ImGui::SameLine();
        ImGui::BeginDisabled(!kStartsProcesses);
        if (ImGui::Button("Your own kernel... (Ctrl+K)")) {
            v.showOpenKernel = true;
            v.showWelcome = false;
        }
        ImGui::EndDisabled();
        if (kStartsProcesses)
            tooltip("The exercises (PMPP ch. 2 to 7) with their starter files, or a CUDA file of your own");
        else
            disabledTooltip("Not in the browser: your own kernel is compiled and run in a child process.");
        ImGui::SameLine();
        ImGui::TextDisabled("Help > Getting started shows this again.");
    }
    ImGui::End();
}

std::string welcomeReport()
{
    const Drawn& d = drawn();
    if (!d.shown) return "";
    char line[256];
    std::snprintf(line, sizeof line, "welcome %.0f %.0f %.0f %.0f\n", d.pos.x, d.pos.y, d.size.x, d.size.y);
    std::string out = line;
    for (size_t i = 0; i < d.rows.size(); ++i) {
        const Drawn::Row& r = d.rows[i];
        std::snprintf(line, sizeof line, "lesson %zu %s %s %.0f %.0f %.0f %.0f%s\n", i,
                      r.chapter.empty() ? "-" : r.chapter.c_str(), r.name.c_str(), r.min.x, r.min.y, r.max.x - r.min.x,
                      r.max.y - r.min.y, r.visible ? "" : " hidden");
        out += line;
    }
    return out;
}

}  // namespace ts::app
