#include "panel_table.hpp"

#include <algorithm>
#include <stdexcept>

namespace ts::app {

// Each panel's file defines its maker.
std::unique_ptr<Panel> makeScenarioPanel();
std::unique_ptr<Panel> makeStatsPanel();
std::unique_ptr<Panel> makeGpuPanel();
std::unique_ptr<Panel> makeMatricesPanel();
std::unique_ptr<Panel> makeTimelinePanel();
std::unique_ptr<Panel> makeCodePanel();
std::unique_ptr<Panel> makeSharedMemoryPanel();
std::unique_ptr<Panel> makeThreadsPanel();
std::unique_ptr<Panel> makeHazardsPanel();
std::unique_ptr<Panel> makeOccupancyPanel();
std::unique_ptr<Panel> makeConvPanel();
std::unique_ptr<Panel> makeReductionTablePanel();

namespace {

using enum DeskColumn;
using SC = SlideColumn;

// The desk: controls and hazards on the left; the matrices and the timeline in the centre
// (Convolution takes Matrices' place; Occupancy, a topic of its own, opens over both); the
// code, shared memory and threads on the right. A slide: the picture on the left at full
// height, the code over shared memory on the right (and Threads or Hazards as a third row);
// the panels a slide rarely needs open over them from the View menu.
const PanelInfo kPanels[] = {
    // name, title, shown by default, desk place, slide place, shown on a slide, maker
    {"scenario", "Scenario", true, {Left, {0.00f, 0.36f}}, {SC::Right, {0.00f, 0.50f}}, OnSlide::No, makeScenarioPanel},
    {"stats", "Stats", true, {Left, {0.36f, 0.66f}}, {SC::Right, {0.50f, 1.00f}}, OnSlide::No, makeStatsPanel},
    {"gpu", "GPU", true, {Left, {0.88f, 1.00f}}, {SC::Right, {0.78f, 1.00f}}, OnSlide::No, makeGpuPanel},
    {"matrices", "Matrices", true, {Centre, {0.00f, 0.80f}}, {SC::Left, {0.00f, 1.00f}}, OnSlide::Yes, makeMatricesPanel},
    {"timeline", "Timeline", true, {Centre, {0.80f, 1.00f}}, {SC::Left, {0.78f, 1.00f}}, OnSlide::No, makeTimelinePanel},
    {"code", "Code", true, {Right, {0.00f, 0.53f}}, {SC::Right, {0.00f, 0.52f}, Span{0.00f, 0.44f}}, OnSlide::Yes,
     makeCodePanel},
    {"shared-memory", "Shared memory", true, {Right, {0.53f, 0.78f}}, {SC::Right, {0.52f, 1.00f}, Span{0.44f, 0.76f}},
     OnSlide::Yes, makeSharedMemoryPanel},
    {"threads", "Threads", true, {Right, {0.78f, 1.00f}}, {SC::Right, {0.76f, 1.00f}, std::nullopt, true}, OnSlide::No,
     makeThreadsPanel},
    {"hazards", "Hazards", true, {Left, {0.66f, 0.88f}}, {SC::Right, {0.76f, 1.00f}, std::nullopt, true},
     OnSlide::IfBarrierDropped, makeHazardsPanel},
    {"occupancy", "Occupancy", false, {Centre, {0.00f, 1.00f}}, {SC::Left, {0.00f, 1.00f}}, OnSlide::IfOccupancyQuestion,
     makeOccupancyPanel},
    {"convolution", "Convolution", true, {Centre, {0.00f, 0.80f}}, {SC::Left, {0.00f, 1.00f}}, OnSlide::Yes, makeConvPanel},
    {"reduction-tables", "Reduction tables", false, {Centre, {0.00f, 0.60f}}, {SC::Left, {0.00f, 1.00f}}, OnSlide::No,
     makeReductionTablePanel},
};

}  // namespace

std::span<const PanelInfo> panelTable() { return kPanels; }

PanelId findPanel(std::string_view name)
{
    const auto it = std::find_if(std::begin(kPanels), std::end(kPanels), [&](const PanelInfo& p) { return name == p.name; });
    return it == std::end(kPanels) ? -1 : static_cast<PanelId>(it - std::begin(kPanels));
}

PanelId panelId(std::string_view name)
{
    const PanelId id = findPanel(name);
    if (id < 0) throw std::logic_error("No panel named '" + std::string(name) + "' in the panel table.");
    return id;
}

std::vector<std::string> panelNameList()
{
    std::vector<std::string> names;
    for (const PanelInfo& p : kPanels) names.emplace_back(p.name);
    return names;
}

std::string panelNameSentence()
{
    std::string s;
    for (const PanelInfo& p : kPanels) s += std::string(s.empty() ? "" : ", ") + p.name;
    return s;
}

PanelFlags defaultPanels()
{
    PanelFlags open;
    for (const PanelInfo& p : kPanels) open.push_back(p.open);
    return open;
}

std::vector<std::unique_ptr<Panel>> makePanels()
{
    std::vector<std::unique_ptr<Panel>> panels;
    for (const PanelInfo& p : kPanels) {
        panels.push_back(p.make());
        panels.back()->id = static_cast<PanelId>(panels.size() - 1);
    }
    return panels;
}

}  // namespace ts::app
