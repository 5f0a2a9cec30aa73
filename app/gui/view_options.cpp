#include "view_options.hpp"

#include "panels/panel_table.hpp"
#include "state.hpp"

namespace ts::app {

sim::Preset presetOfView(const ViewLink& v, sim::Preset base)
{
    if (!applyViewToPreset(v, base)) return base;
    // The preset's narration, lesson and questions belong to its own block.
    sim::Preset p;
    p.name = "custom";
    p.title = describe(base.scenario);
    if (base.schedule != sim::Schedule::InOrder) p.title += std::string(", schedule ") + sim::scheduleName(base.schedule);
    p.scenario = base.scenario;
    p.schedule = base.schedule;
    p.scheduleSeed = base.scheduleSeed;
    p.step = base.step;
    p.thread = base.thread;
    if (v.panels) p.panels = *v.panels;
    return p;
}

void applyViewLink(const std::string& text, Options& o, const GivenOptions& given)
{
    try {
        const ViewLink v = parseViewLink(text, panelNameList());
        auto both = [](const char* option, const char* what) {
            throw UsageError(std::string("--view and ") + option + " both give " + what + "; give one of them.");
        };
        if (v.namesScenario()) {
            if (given.scenario) both("--scenario", "the scenario");
            if (given.kernelFile) both("--kernel-file", "the kernel");
        }
        if (v.schedule && given.schedule) both("--schedule", "the schedule");
        if (v.step && given.step) both("--step", "the step");
        if (v.step && given.exportSteps) both("--export-steps", "the step");
        if (v.theme && given.theme) both("--theme", "the theme");
        if (v.presentation && given.presentation) both("--presentation", "presentation mode");
        if (v.heatmap && given.heatmap) both("--heatmap", "the Matrices panel's colours");
        sim::Preset base = o.preset;
        if (std::optional<sim::Preset> linked = linkedPreset(v, panelNameList())) base = std::move(*linked);
        o.preset = presetOfView(v, std::move(base));
        if (v.step) o.step = *v.step;
        if (v.theme) o.theme = *v.theme == "light" ? ThemeKind::Light : ThemeKind::Dark;
        if (v.presentation) o.presentation = *v.presentation;
        if (v.heatmap) o.heatmap = *v.heatmap;
    } catch (const ViewLinkError& e) {
        throw UsageError(e.what());
    } catch (const sim::ScenarioFileError& e) {
        throw UsageError(e.what());
    }
}

std::string applyStartupViewLink(Platform& platform, Options& o)
{
    const std::string link = platform.startupViewLink();
    if (link.empty()) return {};
    Options linked = o;
    try {
        applyViewLink(link, linked, GivenOptions{});
    } catch (const UsageError& e) {
        return std::string(e.what()) + " (the page's address; showing the default view)";
    }
    o = std::move(linked);
    o.linked = true;
    return {};
}

}  // namespace ts::app
