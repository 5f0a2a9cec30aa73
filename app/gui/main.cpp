// tilescope: the desktop app. Arguments as in shared/spec/cli.md ("tilescope (the app)"):
//   tilescope [--scenario NAME|FILE] [--step N|last] [--window WxH]
//             [--screenshot FILE.png [--scale S]] [--frames N] [--list-scenarios]
// Exit status: 0 success, 1 no window could be opened, 2 bad arguments or scenario file.
#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>
#include <regex>

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
    std::string scenario, step, window, screenshot;
    double scale = 1.0;
    int frames = 0;
    bool list = false;
    cli.add_option("--scenario", scenario, "A lecture preset by name (see --list-scenarios) or a scenario file");
    cli.add_option("--step", step, "Starting step: a number from 0, or 'last'");
    cli.add_option("--window", window, "Window size in pixels, WxH (default 1600x900)");
    cli.add_option("--screenshot", screenshot, "Render the scenario at --step, save this PNG and exit");
    cli.add_option("--scale", scale, "Screenshot pixel scale, 1 to 4: the UI is rendered at that size");
    cli.add_option("--frames", frames, "Run N frames once the scenario is loaded, print CPU times, exit");
    cli.add_flag("--list-scenarios", list, "Print the lecture presets and exit");
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
    if (scale != 1.0 && screenshot.empty())
        return bad("--scale applies to --screenshot only; give --screenshot FILE.png too.");
    if (cli.count("--frames") && (frames < 1 || frames > 1000000))
        return bad("--frames must be between 1 and 1000000; got " + std::to_string(frames) + ".");
    if (!screenshot.empty() && frames > 0)
        return bad("Give either --screenshot or --frames, not both.");
    o.screenshot = screenshot;
    o.scale = static_cast<float>(scale);
    o.frames = frames;
    ts::app::App app(std::move(o));
    return app.run();
}
