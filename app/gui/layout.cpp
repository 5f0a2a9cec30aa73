#include "layout.hpp"

#include <algorithm>

namespace ts::app {

namespace {

Rect at(float x, float w, ImVec2 display, float top, Span rows)
{
    const float H = display.y - top;
    return Rect{ImVec2(x, top + rows.top * H), ImVec2(w, (rows.bottom - rows.top) * H)};
}

}  // namespace

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
