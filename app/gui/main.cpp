// tilescope: the desktop app. Arguments as in shared/spec/cli.md ("tilescope (the app)"):
//   tilescope [--scenario NAME|FILE] [--step N|last] [--window WxH]
//             [--screenshot FILE.png [--scale S]] [--frames N] [--list-scenarios]
//             [--presentation] [--ui-scale S] [--theme dark|light]
//             [--export-steps A..B --out DIR [--format png|gif|svg] [--panel NAME]
//              [--scale S] [--delay-ms MS]]
// Exit status: 0 success, 1 no window could be opened, 2 bad arguments or scenario file.
#include <CLI/CLI.hpp>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>
#include <utility>

#include "app.hpp"

namespace {

constexpr int kBadInput = 2;

int bad(const std::string& sentence)
{
    std::cerr << "tilescope: " << sentence << "\n";
    return kBadInput;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"TileScope: step through tiled CUDA kernels (PMPP ch. 4-7)", "tilescope"};
    std::string scenario, step, window, screenshot, theme, exportSteps, outDir, format = "png", panel, keys;
    double scale = 1.0, uiScale = 0;
    bool presentation = false, printCaption = false;
    int frames = 0, delayMs = 1500;
    bool list = false;
    cli.add_option("--scenario", scenario, "A lecture preset by name (see --list-scenarios) or a scenario file");
    cli.add_option("--step", step, "Starting step: a number from 0, or 'last'");
    cli.add_option("--window", window, "Window size in pixels, WxH (default 1600x900)");
    cli.add_option("--screenshot", screenshot, "Render the scenario at --step, save this PNG and exit");
    cli.add_option("--scale", scale, "Screenshot pixel scale, 1 to 4: the UI is rendered at that size");
    cli.add_option("--frames", frames, "Run N frames once the scenario is loaded, print CPU times, exit");
    cli.add_flag("--list-scenarios", list, "Print the lecture presets and exit");
    cli.add_flag("--print-caption", printCaption,
                 "With --screenshot: also print the caption shown (title, step, narration) on stdout");
    cli.add_option("--keys", keys,
                   "With --screenshot: press these keys first, one a frame, comma-separated: pagedown, pageup, "
                   "right, left, home, end, f5, escape");
    cli.add_flag("--presentation", presentation, "Start in presentation mode (full screen, UI scale 2x; F5 toggles)");
    cli.add_option("--ui-scale", uiScale, "UI scale, 1 to 3 (1.5 to 3 in presentation mode): fonts drawn at that size");
    cli.add_option("--theme", theme, "dark, or light (high contrast, for projectors)");
    cli.add_option("--export-steps", exportSteps,
                   "Render the steps A..B and write them into --out (step-NNNN.png or .svg, or "
                   "steps-A-B.gif), then exit");
    cli.add_option("--out", outDir, "Folder for --export-steps (must exist)");
    cli.add_option("--format", format, "--export-steps format: png (default), gif (one animated file) or svg (vector)");
    std::string panelHelp = "--export-steps of one panel instead of the window:";
    for (const char* n : ts::sim::kPanelNames) panelHelp += std::string(" ") + n;
    cli.add_option("--panel", panel, panelHelp);
    cli.add_option("--delay-ms", delayMs, "--format gif: milliseconds each step is shown (default 1500)");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        return bad(std::string(e.what()) + " (tilescope --help lists the options)");
    }

    if (list) {
        try {
            for (const ts::sim::Preset& p : ts::sim::listPresets())
                std::cout << std::left << std::setw(28) << p.name << p.title << "\n";
            return 0;
        } catch (const std::exception& e) {
            return bad(e.what());
        }
    }

    ts::app::Options o;
    try {
        o.preset = scenario.empty() ? ts::sim::defaultPreset() : ts::sim::findPreset(scenario);
    } catch (const std::exception& e) {
        return bad(e.what());
    }
    if (std::string e = ts::sim::validate(o.preset.scenario); !e.empty())
        return bad((o.preset.file.empty() ? o.preset.name : o.preset.file) + ": " + e);
    if (!step.empty()) {
        if (step == "last") o.step = -1;
        else if (std::regex_match(step, std::regex("[0-9]{1,9}"))) o.step = std::stoi(step);
        else return bad("--step must be a step number (0, 1, ...) or 'last'; got '" + step + "'.");
    }
    if (!window.empty()) {
        std::smatch m;
        if (!std::regex_match(window, m, std::regex("([0-9]{1,5})x([0-9]{1,5})")))
            return bad("--window must be WIDTHxHEIGHT in pixels, e.g. 1920x1080; got '" + window + "'.");
        o.width = std::stoi(m[1]);
        o.height = std::stoi(m[2]);
        if (o.width < 640 || o.height < 400 || o.width > 7680 || o.height > 4320)
            return bad("--window must be between 640x400 and 7680x4320 pixels; got " + window + ".");
    }
    if (scale < 1.0 || scale > 4.0)
        return bad("--scale must be between 1 and 4; got " + std::to_string(scale) + ".");
    if (scale != 1.0 && screenshot.empty() && exportSteps.empty())
        return bad("--scale applies to --screenshot and --export-steps only; give one of them too.");
    if (cli.count("--ui-scale") && (uiScale < (presentation ? 1.5 : 1.0) || uiScale > 3.0))
        return bad(std::string("--ui-scale must be between ") + (presentation ? "1.5" : "1") +
                   " and 3" + (presentation ? " in presentation mode" : "") + "; got " + std::to_string(uiScale) + ".");
    if (cli.count("--ui-scale")) o.uiScale = static_cast<float>(uiScale);
    if (theme == "dark") o.theme = ts::app::ThemeKind::Dark;
    else if (theme == "light") o.theme = ts::app::ThemeKind::Light;
    else if (!theme.empty()) return bad("--theme must be 'dark' or 'light'; got '" + theme + "'.");
    o.presentation = presentation;
    if (!exportSteps.empty()) {
        std::smatch m;
        if (!std::regex_match(exportSteps, m, std::regex("([0-9]{1,9})\\.\\.([0-9]{1,9})")))
            return bad("--export-steps must be A..B with step numbers A <= B, e.g. 0..5; got '" + exportSteps + "'.");
        o.exportFrom = std::stoi(m[1]);
        o.exportTo = std::stoi(m[2]);
        if (o.exportFrom > o.exportTo)
            return bad("--export-steps must be A..B with A <= B; got '" + exportSteps + "'.");
        if (outDir.empty() || !std::filesystem::is_directory(outDir))
            return bad("--export-steps needs --out DIR, an existing folder; got '" + outDir + "'.");
        if (format == "png") o.exportFormat = ts::app::ExportFormat::Png;
        else if (format == "gif") o.exportFormat = ts::app::ExportFormat::Gif;
        else if (format == "svg") o.exportFormat = ts::app::ExportFormat::Svg;
        else return bad("--format must be png, gif or svg; got '" + format + "'.");
        if (!panel.empty()) {
            const auto* names = std::begin(ts::sim::kPanelNames);
            const auto* it = std::find(names, std::end(ts::sim::kPanelNames), panel);
            if (it == std::end(ts::sim::kPanelNames)) {
                std::string list;
                for (const char* n : ts::sim::kPanelNames) list += std::string(list.empty() ? "" : ", ") + n;
                return bad("--panel must be one of " + list + "; got '" + panel + "'.");
            }
            o.exportPanel = static_cast<int>(it - names);
        }
        if (cli.count("--delay-ms") && (delayMs < 20 || delayMs > 60000))
            return bad("--delay-ms must be between 20 and 60000; got " + std::to_string(delayMs) + ".");
        if (cli.count("--delay-ms") && o.exportFormat != ts::app::ExportFormat::Gif)
            return bad("--delay-ms applies to --format gif only.");
        o.gifDelayMs = delayMs;
        if (!screenshot.empty() || frames > 0 || !step.empty())
            return bad("--export-steps goes alone: not with --screenshot, --frames or --step.");
        o.step = o.exportFrom;
        o.exportDir = outDir;
    } else if (!outDir.empty() || cli.count("--format") || !panel.empty() || cli.count("--delay-ms")) {
        return bad("--out, --format, --panel and --delay-ms apply to --export-steps only; give --export-steps A..B too.");
    }
    if (cli.count("--frames") && (frames < 1 || frames > 1000000))
        return bad("--frames must be between 1 and 1000000; got " + std::to_string(frames) + ".");
    if (!screenshot.empty() && frames > 0)
        return bad("Give either --screenshot or --frames, not both.");
    if (printCaption && screenshot.empty()) return bad("--print-caption applies to --screenshot only; give --screenshot FILE.png too.");
    o.printCaption = printCaption;
    if (!keys.empty()) {
        if (screenshot.empty()) return bad("--keys applies to --screenshot only; give --screenshot FILE.png too.");
        static const std::pair<const char*, int> names[] = {
            {"pagedown", GLFW_KEY_PAGE_DOWN}, {"pageup", GLFW_KEY_PAGE_UP}, {"right", GLFW_KEY_RIGHT},
            {"left", GLFW_KEY_LEFT},          {"home", GLFW_KEY_HOME},      {"end", GLFW_KEY_END},
            {"f5", GLFW_KEY_F5},              {"escape", GLFW_KEY_ESCAPE}};
        std::stringstream list(keys);
        for (std::string k; std::getline(list, k, ',');) {
            const auto* it = std::find_if(std::begin(names), std::end(names), [&](const auto& n) { return k == n.first; });
            if (it == std::end(names))
                return bad("--keys takes pagedown, pageup, right, left, home, end, f5 and escape, comma-separated; got '" +
                           k + "'.");
            o.keys.push_back(it->second);
        }
    }
    o.screenshot = screenshot;
    o.scale = static_cast<float>(scale);
    o.frames = frames;
    ts::app::App app(std::move(o));
    return app.run();
}
