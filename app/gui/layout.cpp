#include "layout.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts::app {

namespace {

Rect at(float x, float w, ImVec2 display, float top, Span rows)
{
    const float H = display.y - top;
    return Rect{ImVec2(x, top + rows.top * H), ImVec2(w, (rows.bottom - rows.top) * H)};
}

/// The windows marked by markScrollingList() and the frame they were marked in.
std::vector<std::pair<ImGuiID, int>> gLists;

std::string px(float v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.0f px", std::ceil(v));
    return b;
}

/// The panel `w` belongs to (its root window's title), or "" for a window that is no panel.
const char* panelOf(const ImGuiWindow* w)
{
    const ImGuiWindow* root = w->RootWindow;
    if (!root) return "";
    if (std::string(root->Name) == "##caption") return "caption bar";
    for (const PanelInfo& p : panelTable())
        if (std::string(root->Name) == p.title) return p.title;
    return "";
}

/// The part of a child window's name after its parent's ("Code/source_1A2B" -> "source").
std::string childName(const ImGuiWindow* w)
{
    std::string n = w->Name;
    if (const size_t slash = n.rfind('/'); slash != std::string::npos) n = n.substr(slash + 1);
    if (const size_t id = n.rfind('_'); id != std::string::npos) n = n.substr(0, id);
    // A list box or a scrolling table names its child window by an ID alone.
    if (n.empty() || n.find_first_not_of("0123456789ABCDEF") == std::string::npos) return "list";
    return n;
}

}  // namespace

void markScrollingList()
{
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    if (!gLists.empty() && gLists.front().second != GImGui->FrameCount) gLists.clear();
    gLists.emplace_back(w->ID, GImGui->FrameCount);
}

std::vector<Clipped> clippedContent(ImVec2 display, bool presentation)
{
    ImGuiContext& g = *GImGui;
    std::vector<Clipped> out;
    auto isList = [&](const ImGuiWindow* w) {
        return std::any_of(gLists.begin(), gLists.end(),
                           [&](const auto& l) { return l.first == w->ID && l.second == g.FrameCount; });
    };
    const float tol = 1.0f;
    // The bars at the top: the menu bar (at the desk) and the caption bar.
    float top = 0;
    for (const ImGuiWindow* w : g.Windows)
        if (w->Active && (std::string(w->Name) == "##MainMenuBar" || std::string(w->Name) == "##caption"))
            top = std::max(top, w->Pos.y + w->Size.y);
    std::vector<const ImGuiWindow*> panels;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden) continue;
        const std::string panel = panelOf(w);
        if (panel.empty()) continue;
        const bool child = (w->Flags & ImGuiWindowFlags_ChildWindow) != 0;
        const std::string where = child ? "'" + childName(w) + "' " : std::string();
        const bool list = child && isList(w);
        if (w->ScrollMax.x > tol)
            out.push_back({panel, where + "content is " + px(w->ScrollMax.x) + " wider than it"});
        if (w->ScrollMax.y > tol && !(list && !presentation))
            out.push_back({panel, where + (list ? "list " : "") + "content is " + px(w->ScrollMax.y) + " taller than it"});
        if (child || panel == "caption bar") continue;
        panels.push_back(w);
        if (w->Pos.x < -tol || w->Pos.y < top - tol || w->Pos.x + w->Size.x > display.x + tol ||
            w->Pos.y + w->Size.y > display.y + tol)
            out.push_back({panel, "the panel reaches outside the display below the bars"});
    }
    for (size_t i = 0; i < panels.size(); ++i)
        for (size_t j = i + 1; j < panels.size(); ++j) {
            const ImRect a = panels[i]->Rect(), b = panels[j]->Rect();
            const float w = std::min(a.Max.x, b.Max.x) - std::max(a.Min.x, b.Min.x);
            const float h = std::min(a.Max.y, b.Max.y) - std::max(a.Min.y, b.Min.y);
            if (w > tol && h > tol) out.push_back({panelOf(panels[i]), std::string("lies over ") + panelOf(panels[j])});
        }
    for (int t = 0; t < g.Tables.GetMapSize(); ++t) {
        const ImGuiTable* table = g.Tables.TryGetMapData(t);
        if (!table || table->LastFrameActive != g.FrameCount || !table->OuterWindow) continue;
        const std::string panel = panelOf(table->OuterWindow);
        if (panel.empty()) continue;
        for (int c = 0; c < table->ColumnsCount; ++c) {
            const ImGuiTableColumn& col = table->Columns[c];
            if (!col.IsEnabled) continue;
            const float need = std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal}) -
                               col.WorkMinX;
            const float have = col.WorkMaxX - col.WorkMinX;
            if (need > have + tol) {
                const char* name = ImGui::TableGetColumnName(table, c);
                out.push_back({panel, "table column '" + std::string(name && *name ? name : std::to_string(c)) +
                                          "' needs " + px(need - have) + " more"});
            }
        }
    }
    return out;
}

PanelFlags panelsNamed(const std::vector<std::string>& names)
{
    PanelFlags open(panelTable().size(), false);
    for (int i = 0; i < panelCount(); ++i)
        open[i] = std::find(names.begin(), names.end(), panelTable()[i].name) != names.end();
    return open;
}

std::vector<std::string> panelNames(const PanelFlags& open)
{
    std::vector<std::string> names;
    for (int i = 0; i < panelCount(); ++i)
        if (open[i]) names.push_back(panelTable()[i].name);
    return names;
}

PanelFlags presentationPanels(const sim::Preset& p)
{
    if (!p.panels.empty()) return panelsNamed(p.panels);
    PanelFlags open(panelTable().size(), false);
    for (int i = 0; i < panelCount(); ++i) {
        switch (panelTable()[i].onSlide) {
        case OnSlide::No: break;
        case OnSlide::Yes: open[i] = true; break;
        case OnSlide::IfBarrierDropped: open[i] = p.scenario.dropBarriers != 0; break;
        case OnSlide::IfOccupancyQuestion: open[i] = p.occupancy.has_value(); break;
        }
    }
    return open;
}

Rect defaultRect(PanelId p, ImVec2 display, float top, const PanelFlags* slideOpen)
{
    const PanelInfo& info = panelTable()[p];
    const float W = display.x;
    if (slideOpen) {
        bool third = false;
        for (int i = 0; i < panelCount(); ++i) third = third || ((*slideOpen)[i] && panelTable()[i].slide.thirdRow);
        const SlidePlace& s = info.slide;
        const float left = 0.55f * W;
        const Span rows = third && s.squeezed ? *s.squeezed : s.rows;
        return s.column == SlideColumn::Left ? at(0, left, display, top, rows) : at(left, W - left, display, top, rows);
    }
    const float left = 0.215f * W, centre = 0.43f * W, right = W - left - centre;
    switch (info.desk.column) {
    case DeskColumn::Left: return at(0, left, display, top, info.desk.rows);
    case DeskColumn::Centre: return at(left, centre, display, top, info.desk.rows);
    case DeskColumn::Right: return at(left + centre, right, display, top, info.desk.rows);
    }
    return Rect{ImVec2(0, top), ImVec2(400, 300)};
}

}  // namespace ts::app
