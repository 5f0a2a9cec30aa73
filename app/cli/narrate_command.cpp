#include "narrate_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <variant>

#include "commands.hpp"
#include "sim/teaching/narration.hpp"
#include "work_check.hpp"

namespace ts::cli {

CLI::App* addNarrateCommand(CLI::App& app, NarrateOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "narrate", "Every step of a scenario with its caption line, hand-written or generated from the trace");
    c->add_option("--scenario", o.scenario, "A lecture preset's name (tilescope --list-scenarios) or a scenario file")
        ->required();
    c->add_flag("--json", o.json, "Print one JSON object (spec: docs/cli.md)");
    c->add_flag("--yes", o.yes, "Simulate a scenario estimated to take more than 10 s (otherwise refused)");
    return c;
}

int runNarrate(const NarrateOptions& o)
{
    const std::optional<sim::Preset> found = presetOrSay(o.scenario);
    if (!found) return kBadInput;
    const sim::Preset& preset = *found;
    // As the app runs it: the preset's schedule, its block traced.
    sim::SimOptions opt{true, preset.schedule, preset.scheduleSeed};
    std::variant<sim::Simulation, int> r = guardedSimulate(preset.scenario, opt, o.yes, true);
    if (const int* status = std::get_if<int>(&r)) return *status;
    const sim::Simulation& s = std::get<sim::Simulation>(r);
    if (s.trace.steps.empty()) {
        std::cerr << "tilescope-cli: the simulation of " << preset.name << " recorded no steps"
                  << (s.error.empty() ? "." : ": " + sim::oneLine(s.error)) << "\n";
        return kBadInput;
    }
    std::vector<std::string> problems;
    const std::vector<sim::StepNarration> lines = sim::narrateSteps(preset, s, &problems);
    for (const std::string& p : problems) std::cerr << "tilescope-cli: " << sim::oneLine(p) << "\n";
    if (o.json) {
        nlohmann::ordered_json j;
        j["scenario"] = preset.name;
        j["title"] = preset.title;
        j["steps"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < lines.size(); ++i)
            j["steps"].push_back({{"step", i},
                                  {"label", s.trace.steps[i].label},
                                  {"narration", lines[i].text},
                                  {"source", lines[i].handWritten ? "hand-written" : "generated"}});
        j["problems"] = problems;
        std::cout << j.dump() << "\n";
    } else {
        std::cout << preset.name << " (" << preset.title << "): " << lines.size() << " steps\n";
        for (size_t i = 0; i < lines.size(); ++i)
            std::cout << "\n" << i << " | " << s.trace.steps[i].label << " | "
                      << (lines[i].handWritten ? "hand-written" : "generated") << "\n  " << lines[i].text << "\n";
    }
    return problems.empty() ? kOk : kCheckFailed;
}

}  // namespace ts::cli
