#include "layout.hpp"

#include <algorithm>

namespace ts::app {

namespace {

/// Presentation mode: two columns, the picture (matrices or convolution) on the left at
/// full height and the code over shared memory (and hazards) on the right; the panels a
/// slide rarely needs open over them from the View menu.
Rect slideRect(Panel p, ImVec2 display, float top, const std::array<bool, kPanelCount>& open)
{
    const float W = display.x, H = display.y - top;
    const bool third = open[static_cast<int>(Panel::Threads)] || open[static_cast<int>(Panel::Hazards)];
    const float codeEnd = third ? 0.44f : 0.52f, sharedEnd = third ? 0.76f : 1.0f;
    const float left = 0.55f * W, right = W - left;
    auto at = [&](float x, float w, float y0, float y1) {
        return Rect{ImVec2(x, top + y0 * H), ImVec2(w, (y1 - y0) * H)};
    };
    switch (p) {
    case Panel::Matrices:
    case Panel::Convolution:
    case Panel::Occupancy:
    case Panel::ReductionTable: return at(0, left, 0.00f, 1.00f);
    case Panel::Timeline: return at(0, left, 0.78f, 1.00f);
    case Panel::Code: return at(left, right, 0.00f, codeEnd);
    case Panel::SharedMemory: return at(left, right, codeEnd, sharedEnd);
    case Panel::Hazards:
    case Panel::Threads: return at(left, right, 0.76f, 1.00f);
    case Panel::Scenario: return at(left, right, 0.00f, 0.50f);
    case Panel::Stats: return at(left, right, 0.50f, 1.00f);
    case Panel::Gpu: return at(left, right, 0.78f, 1.00f);
    case Panel::Count: break;
    }
    return Rect{ImVec2(0, top), ImVec2(400, 300)};
}

}  // namespace

std::array<bool, kPanelCount> panelsNamed(const std::vector<std::string>& names)
{
    std::array<bool, kPanelCount> open{};
    for (int i = 0; i < kPanelCount; ++i)
        open[i] = std::find(names.begin(), names.end(), sim::kPanelNames[i]) != names.end();
    return open;
}

std::vector<std::string> panelNames(const std::array<bool, kPanelCount>& open)
{
    std::vector<std::string> names;
    for (int i = 0; i < kPanelCount; ++i)
        if (open[i]) names.push_back(sim::kPanelNames[i]);
    return names;
}

std::array<bool, kPanelCount> presentationPanels(const sim::Preset& p)
{
    if (!p.panels.empty()) return panelsNamed(p.panels);
    std::array<bool, kPanelCount> open{};
    auto show = [&](Panel q) { open[static_cast<int>(q)] = true; };
    show(Panel::Matrices);
    show(Panel::Convolution);
    show(Panel::Code);
    show(Panel::SharedMemory);
    if (p.scenario.dropBarriers) show(Panel::Hazards);
    if (p.occupancy) show(Panel::Occupancy);
    return open;
}

Rect defaultRect(Panel p, ImVec2 display, float top, const std::array<bool, kPanelCount>* slideOpen)
{
    if (slideOpen) return slideRect(p, display, top, *slideOpen);
    // Columns: controls and hazards | matrices and timeline (the occupancy panel, a topic
    // of its own, opens over them) | code, shared memory and threads.
    const float W = display.x, H = display.y - top;
    const float left = 0.215f * W, centre = 0.43f * W, right = W - left - centre;
    const float xL = 0, xC = left, xR = left + centre;
    auto at = [&](float x, float w, float y0, float y1) {
        return Rect{ImVec2(x, top + y0 * H), ImVec2(w, (y1 - y0) * H)};
    };
    switch (p) {
    case Panel::Scenario: return at(xL, left, 0.00f, 0.36f);
    case Panel::Stats: return at(xL, left, 0.36f, 0.66f);
    case Panel::Hazards: return at(xL, left, 0.66f, 0.88f);
    case Panel::Gpu: return at(xL, left, 0.88f, 1.00f);
    case Panel::Occupancy: return at(xC, centre, 0.00f, 1.00f);
    case Panel::Convolution: return at(xC, centre, 0.00f, 0.80f);   // Matrices' place
    case Panel::ReductionTable: return at(xC, centre, 0.00f, 0.60f);
    case Panel::Matrices: return at(xC, centre, 0.00f, 0.80f);
    case Panel::Timeline: return at(xC, centre, 0.80f, 1.00f);
    case Panel::Code: return at(xR, right, 0.00f, 0.53f);
    case Panel::SharedMemory: return at(xR, right, 0.53f, 0.78f);
    case Panel::Threads: return at(xR, right, 0.78f, 1.00f);
    case Panel::Count: break;
    }
    return Rect{ImVec2(0, top), ImVec2(400, 300)};
}

const char* panelTitle(Panel p)
{
    switch (p) {
    case Panel::Scenario: return "Scenario";
    case Panel::Stats: return "Stats";
    case Panel::Gpu: return "GPU";
    case Panel::Matrices: return "Matrices";
    case Panel::Timeline: return "Timeline";
    case Panel::Code: return "Code";
    case Panel::SharedMemory: return "Shared memory";
    case Panel::Threads: return "Threads";
    case Panel::Hazards: return "Hazards";
    case Panel::Occupancy: return "Occupancy";
    case Panel::Convolution: return "Convolution";
    case Panel::ReductionTable: return "Reduction tables";
    case Panel::Count: break;
    }
    return "?";
}

}  // namespace ts::app
