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
std::unique_ptr<Panel> makeMemoryPanel();
std::unique_ptr<Panel> makeLadderPanel();
std::unique_ptr<Panel> makeRooflinePanel();
std::unique_ptr<Panel> makePracticePanel();
std::unique_ptr<Panel> makeTreePanel();
std::unique_ptr<Panel> makeHistogramPanel();
std::unique_ptr<Panel> makeScanPanel();

namespace {

using D = DeskColumn;
using S = SlideColumn;

// The desk: the controls, the counts, the hazards and the GPU on the left; the picture
// (Matrices, or Convolution; Occupancy above it when open) and the timeline in the centre;
// the code, shared memory and threads on the right. A slide: the picture on the left, the
// code, shared memory and, when the preset asks, hazards or occupancy beside it; the rest
// waits in the View menu. Each column stacks its panels by rank, every panel as tall as its
// content (lists and pictures share what is left), so that no panel is cut off and no hole
// is left (layout.hpp).
const PanelInfo kPanels[] = {
    // name, title, shown by default, desk place, slide place, min width and width as a
    // lesson's panel at the desk (font heights), fold order, shown on a slide, maker
    {"scenario", "Scenario", true, {D::Left, 0}, {S::Text, 5}, 17.5f, 0, 4, OnSlide::No, makeScenarioPanel},
    {"stats", "Stats", true, {D::Left, 1}, {S::Text, 4}, 18.5f, 0, 3, OnSlide::No, makeStatsPanel},
    {"gpu", "GPU", true, {D::Left, 3}, {S::Text, 6}, 14.0f, 0, 9, OnSlide::No, makeGpuPanel},
    {"matrices", "Matrices", true, {D::Centre, 1}, {S::Picture, 1}, 16.0f, 0, 0, OnSlide::Yes, makeMatricesPanel},
    {"timeline", "Timeline", true, {D::Centre, 3}, {S::Picture, 3}, 24.0f, 0, 7, OnSlide::No, makeTimelinePanel},
    {"code", "Code", true, {D::Right, 0}, {S::Text, 0}, 16.0f, 34.0f, 1, OnSlide::Yes, makeCodePanel},
    // (Not on a convolution's slide: the Convolution panel draws N_ds beside N and P.)
    {"shared-memory", "Shared memory", true, {D::Right, 1}, {S::Text, 1}, 14.0f, 0, 2, OnSlide::IfNoConvolutionPicture,
     makeSharedMemoryPanel},
    {"threads", "Threads", true, {D::Right, 2}, {S::Text, 3}, 20.0f, 0, 8, OnSlide::No, makeThreadsPanel},
    {"hazards", "Hazards", true, {D::Left, 2}, {S::Text, 2}, 17.5f, 0, 5, OnSlide::IfBarrierDropped, makeHazardsPanel},
    {"occupancy", "Occupancy", false, {D::Centre, 0}, {S::Picture, 0}, 28.0f, 0, 0, OnSlide::IfOccupancyQuestion,
     makeOccupancyPanel},
    {"convolution", "Convolution", true, {D::Centre, 1}, {S::Picture, 1}, 22.0f, 0, 0, OnSlide::Yes, makeConvPanel},
    {"reduction-tables", "Reduction tables", false, {D::Centre, 2}, {S::Picture, 2}, 30.0f, 0, 6, OnSlide::No,
     makeReductionTablePanel},
    // Shown from the View menu or a preset's `panels`: the warp memory instructions of the step.
    {"memory", "Memory", false, {D::Centre, 4}, {S::Text, 9}, 16.0f, 0, 3, OnSlide::No, makeMemoryPanel},
    // Shown from the View menu, File > Open results... or a preset's `panels`: a results
    // file's timings as bars with the simulator's counts, and on the roofline.
    {"ladder", "Ladder", false, {D::Centre, 5}, {S::Picture, 4}, 34.0f, 0, 3, OnSlide::No, makeLadderPanel},
    {"roofline", "Roofline", false, {D::Centre, 6}, {S::Text, 10}, 22.0f, 0, 3, OnSlide::No, makeRooflinePanel},
    // Shown from the View menu or a preset's `panels` / `lesson`: a sum reduction's tree, level
    // by level, with its warps (PMPP ch. 10).
    {"tree", "Reduction tree", false, {D::Centre, 2}, {S::Picture, 1}, 24.0f, 0, 0, OnSlide::No, makeTreePanel},
    // Shown from the View menu or a preset's `panels` / `lesson`: a text histogram's bins, each
    // warp atomic's lanes stacked on the bins they hit, and the sectors of its text loads (PMPP ch. 9).
    {"histogram", "Histogram", false, {D::Centre, 2}, {S::Picture, 1}, 26.0f, 0, 0, OnSlide::No, makeHistogramPanel},
    // Shown from the View menu or a preset's `panels` / `lesson`: a scan's network, level by
    // level, and its work against the sequential scan's (PMPP ch. 11).
    {"scan", "Scan network", false, {D::Centre, 2}, {S::Picture, 1}, 26.0f, 0, 0, OnSlide::No, makeScanPanel},
    // Shown while practice mode is on (key P, View > Practice mode; docs/practice.md); it never
    // folds. At the desk the question, above everything of its column; on a slide, where the
    // caption asks the question and gives the verdict, the marks' legend and the reason, last
    // of the text column (below the picture where the Code leaves it no room).
    {"practice", "Practice", false, {D::Left, -1}, {S::Text, 7}, 18.0f, 0, 0, OnSlide::No, makePracticePanel},
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
