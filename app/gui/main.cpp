// tilescope: the desktop app.
//   tilescope [--scenario NAME|FILE] [--step N|last] [--window WxH]
//             [--screenshot FILE.png [--scale S] [--print-caption] [--print-layout] [--keys K,K,...]]
//             [--frames N [--pan]] [--list-scenarios] [--presentation] [--ui-scale S]
//             [--theme dark|light] [--heatmap loads|values]
//             [--export-steps A..B --out DIR [--format png|gif|svg] [--panel NAME]
//              [--scale S] [--delay-ms MS] [--force]]
//             [--results FILE] [--kernel-file FILE.cu [--width W] [--tile T] [--reload-from FILE]]
//             [--schedule in-order|reverse|random] [--view LINK [--print-view]] [--version]
// Exit status: 0 success, 1 no window could be opened or a picture not written, 2 bad
// arguments or scenario file; every error is one sentence on stderr.
#include <CLI/CLI.hpp>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>
#include <tuple>
#include <utility>

#include "app.hpp"
#include "export_files.hpp"
#include "headless.hpp"
#include "student_kernel.hpp"
#include "view_options.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/confine.hpp"
#endif

namespace {

using namespace ts::app;

/// "4", "1.5", "1000000": a limit as a sentence writes it.
std::string number(double v)
{
    std::ostringstream o;
    o << std::setprecision(10) << v;
    return o.str();
}

/// CLI::Range(lo, hi) that says "must be between LO and HI; got X".
CLI::Validator between(double lo, double hi)
{
    return CLI::Validator(
        [range = CLI::Range(lo, hi), lo, hi](std::string& in) {
            return range(in).empty() ? std::string() : "must be between " + number(lo) + " and " + number(hi) + "; got " + in;
        },
        "[" + number(lo) + " - " + number(hi) + "]");
}

/// CLI::IsMember(names) that says "must be one of A, B; got 'X'".
CLI::Validator oneOf(const std::vector<std::string>& names)
{
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return CLI::Validator(
        [member = CLI::IsMember(names), list](std::string& in) {
            std::string v = in;
            return member(v).empty() ? std::string() : "must be one of " + list + "; got '" + in + "'";
        },
        "{" + list + "}");
}

/// "1920x1080" as (width, height), if it is WIDTHxHEIGHT.
std::optional<std::pair<int, int>> windowSize(const std::string& s)
{
    std::smatch m;
    if (!std::regex_match(s, m, std::regex("([0-9]{1,5})x([0-9]{1,5})"))) return std::nullopt;
    return std::pair(std::stoi(m[1]), std::stoi(m[2]));
}

/// --window: WIDTHxHEIGHT within the window limits.
CLI::Validator windowValidator()
{
    using namespace limits;
    const std::string range = std::to_string(kMinWindowWidth) + "x" + std::to_string(kMinWindowHeight) + " and " +
                              std::to_string(kMaxWindowWidth) + "x" + std::to_string(kMaxWindowHeight);
    return CLI::Validator(
        [range](std::string& in) {
            const auto size = windowSize(in);
            if (!size) return "must be WIDTHxHEIGHT in pixels, e.g. 1920x1080; got '" + in + "'";
            const auto [w, h] = *size;
            if (w < kMinWindowWidth || h < kMinWindowHeight || w > kMaxWindowWidth || h > kMaxWindowHeight)
                return "must be between " + range + " pixels; got " + in;
            return std::string();
        },
        "WxH");
}

/// "3..7" as (3, 7), if it is A..B.
std::optional<std::pair<int, int>> stepRange(const std::string& s)
{
    std::smatch m;
    if (!std::regex_match(s, m, std::regex("([0-9]{1,9})\\.\\.([0-9]{1,9})"))) return std::nullopt;
    return std::pair(std::stoi(m[1]), std::stoi(m[2]));
}

/// --export-steps: A..B with step numbers A <= B.
CLI::Validator stepRangeValidator()
{
    return CLI::Validator(
        [](std::string& in) {
            const auto r = stepRange(in);
            if (!r) return "must be A..B with step numbers A <= B, e.g. 0..5; got '" + in + "'";
            if (r->first > r->second) return "must be A..B with A <= B; got '" + in + "'";
            return std::string();
        },
        "A..B");
}

/// --step: a step number or "last".
CLI::Validator stepValidator()
{
    return CLI::Validator(
        [](std::string& in) {
            return in == "last" || std::regex_match(in, std::regex("[0-9]{1,9}"))
                       ? std::string()
                       : "must be a step number (0, 1, ...) or 'last'; got '" + in + "'";
        },
        "N|last");
}

/// The keys --keys may press, by name, as GLFW key codes.
const std::vector<std::pair<std::string, int>> kKeyCodes = {
    {"pagedown", GLFW_KEY_PAGE_DOWN}, {"pageup", GLFW_KEY_PAGE_UP}, {"right", GLFW_KEY_RIGHT},
    {"left", GLFW_KEY_LEFT},          {"home", GLFW_KEY_HOME},      {"end", GLFW_KEY_END},
    {"f5", GLFW_KEY_F5},              {"escape", GLFW_KEY_ESCAPE},
    {"ctrl+k", GLFW_KEY_K},           // File > Open kernel...
    {"ctrl+l", GLFW_KEY_L},           // File > Copy view link
    {"ctrl+o", GLFW_KEY_O},           // File > Open scenario...
    {"f1", GLFW_KEY_F1},              // Help > Getting started
    {"g", GLFW_KEY_G},                // to the step of the run's mistake
    {"[", GLFW_KEY_LEFT_BRACKET},     {"]", GLFW_KEY_RIGHT_BRACKET},
    // Practice mode (docs/practice.md): on and off, restart, reveal, and typing a number.
    {"p", GLFW_KEY_P},                {"r", GLFW_KEY_R},            {"enter", GLFW_KEY_ENTER},
    {"backspace", GLFW_KEY_BACKSPACE}, {"-", GLFW_KEY_MINUS},
    {"0", GLFW_KEY_0}, {"1", GLFW_KEY_1}, {"2", GLFW_KEY_2}, {"3", GLFW_KEY_3}, {"4", GLFW_KEY_4},
    {"5", GLFW_KEY_5}, {"6", GLFW_KEY_6}, {"7", GLFW_KEY_7}, {"8", GLFW_KEY_8}, {"9", GLFW_KEY_9}};

/// --keys: a key name of kKeyCodes, click:CELL (a cell practice mode may be answered with,
/// as parseCellRef reads it) or type:TEXT.
CLI::Validator keysValidator()
{
    return CLI::Validator(
        [](std::string& in) {
            for (const auto& [name, code] : kKeyCodes)
                if (in == name) return std::string();
            if (in.rfind("click:", 0) == 0 && parseCellRef(in.substr(6))) return std::string();
            if (in.rfind("type:", 0) == 0 && in.size() > 5) return std::string();
            std::string names;
            for (const auto& [name, code] : kKeyCodes) names += (names.empty() ? "" : ", ") + name;
            return "must be a key (" + names + "), click:CELL such as click:M[1][2], or type:TEXT such as type:7; got '" +
                   in + "'";
        },
        "KEY|click:CELL|type:TEXT");
}

/// A CLI11 parse error as one sentence: "--scale must be between 1 and 4; got 5.", or
/// CLI11's own words with a pointer to --help.
std::string sentence(const CLI::ParseError& e)
{
    std::string m = e.what();
    if (const size_t p = m.find(": must "); p != std::string::npos) return m.erase(p, 1) + ".";
    return m + " (tilescope --help lists the options).";
}

/// What main() asked for besides running the app.
struct Parsed {
    Options options;
    bool list = false;     ///< --list-scenarios
};

/// Parses the command line into `cli`'s options. Throws CLI::ParseError (CLI::CallForHelp
/// for --help), UsageError for a bad combination, sim::ScenarioFileError for a bad scenario.
Parsed parse(CLI::App& cli, int argc, char** argv)
{
    using namespace limits;
    std::string scenario, step, window, screenshot, theme, exportSteps, outDir, format = "png", panel;
    std::vector<std::string> keys;
    double scale = 1.0, uiScale = 0;
    bool presentation = false, printCaption = false, force = false;
    int frames = 0, delayMs = 1500;
    Parsed r;
    cli.add_option("--scenario", scenario, "A lecture preset by name (see --list-scenarios) or a scenario file");
    std::string kernelFile, reloadFrom, schedule;
    KernelProblem size;
    CLI::Option* kernelOpt =
        cli.add_option("--kernel-file", kernelFile,
                       "Your own kernel: a plain CUDA file with one __global__ matrix multiplication or convolution kernel "
                       "(docs/student-kernels.md), run in a sandbox (docs/security.md) and stepped through at "
                       "twice its tile; the app compiles and runs it again whenever the file is saved");
    cli.add_option("--width", size.width,
                   "With --kernel-file: a matmul's square Width, a convolution's width (default twice the tile)")
        ->check(between(1, 1 << 20))
        ->needs(kernelOpt);
    for (auto [name, field, what] : {std::tuple{"--j", &size.j, "rows of M and P"},
                                     std::tuple{"--k", &size.k, "columns of M, rows of N"},
                                     std::tuple{"--l", &size.l, "columns of N and P"},
                                     std::tuple{"--height", &size.height, "a conv2d's height"},
                                     std::tuple{"--mask-width", &size.maskWidth, "a convolution's Mask_Width (default 5)"}})
        cli.add_option(name, *field, std::string("With --kernel-file: ") + what)->check(between(1, 1 << 20))->needs(kernelOpt);
    cli.add_option("--tile", size.tile,
                   "With --kernel-file: the tile (a tiled kernel's must be its TILE_WIDTH; an untiled kernel's block edge)")
        ->check(between(1, 1024))
        ->needs(kernelOpt);
    cli.add_flag_callback(
        "--allow-unconfined",
        [] {
#ifdef TILESCOPE_HAVE_STUDENT
            ts::student::allowUnconfined(true);
#endif
        },
        "Run a kernel file even where no sandbox can be made (bubblewrap missing, or no user namespaces): only for a "
        "file you trust (docs/security.md); TILESCOPE_ALLOW_UNCONFINED=1 does the same");
    cli.add_option("--reload-from", reloadFrom,
                   "Tests, with --kernel-file and --screenshot: once the first run is shown, write this file's text over "
                   "the kernel file (give a scratch copy), as an editor's save does, and take the picture after the "
                   "app has reloaded it")
        ->needs(kernelOpt);
    cli.add_option("--schedule", schedule, "Which warp runs ahead between barriers: in-order (default), reverse or random")
        ->check(oneOf({"in-order", "reverse", "random"}));
    cli.add_option("--step", step, "Starting step: a number from 0, or 'last'")->check(stepValidator());
    cli.add_option("--window", window, "Window size in pixels, WxH (default 1600x900)")->check(windowValidator());
    CLI::Option* shot = cli.add_option("--screenshot", screenshot, "Render the scenario at --step, save this PNG and exit");
    cli.add_option("--scale", scale, "Screenshot pixel scale, 1 to 4: the UI is rendered at that size")
        ->check(between(kMinPixelScale, kMaxPixelScale));
    CLI::Option* framesOpt = cli.add_option("--frames", frames,
                                            "Run N frames once the scenario is loaded, print CPU and GPU times per frame, exit")
                                 ->check(between(kMinFrames, kMaxFrames));
    bool pan = false;
    cli.add_flag("--pan", pan, "With --frames: the Matrices view starts fitted and pans a few pixels every frame")
        ->needs(framesOpt);
    std::string heatmap;
    cli.add_option("--heatmap", heatmap,
                   "Colour the matrices by their global loads (the Stats panel's heatmap) or by their values")
        ->check(oneOf({"loads", "values"}));
    cli.add_flag("--list-scenarios", r.list, "Print the lecture presets and exit");
    cli.add_flag("--print-caption", printCaption,
                 "With --screenshot: also print the caption shown (title, step, narration) on stdout")
        ->needs(shot);
    cli.add_flag("--print-layout", r.options.printLayout,
                 "With --screenshot: also print where each panel is, a line each (name, x, y, width, height in "
                 "pixels, 'folded')")
        ->needs(shot);
    cli.add_flag("--print-code", r.options.printCode,
                 "With --screenshot: also print the Code panel's listing as drawn: the source lines in view "
                 "('code-lines FIRST LAST'), the columns shown, and each row ('code-row LINE|TEXT')")
        ->needs(shot);
    cli.add_flag("--print-text", r.options.printText,
                 "With --screenshot: also print the text the window shows, each panel after a line '== TITLE ==' "
                 "(its widgets' text; not the values painted into the figures)")
        ->needs(shot);
    cli.add_flag("--welcome", r.options.welcome,
                 "Show the welcome window (Help > Getting started: the lessons in chapter order) at start, as the "
                 "first start does; with --print-layout its place and its lessons' rows are printed too");
    cli.add_flag("--screenshot-while-simulating", r.options.shotWhileSimulating,
                 "With --screenshot: save the picture once the simulation has run for a second (its progress "
                 "bar showing), then stop it and exit")
        ->needs(shot);
    cli.add_option("--keys", keys,
                   "With --screenshot: press these keys first, one a frame, comma-separated: pagedown, pageup, "
                   "right, left, home, end, f5, escape, [ and ] (the previous and next warp), ctrl+k (File > Open "
                   "kernel...), ctrl+l (File > Copy view link), ctrl+o (File > Open scenario...), f1 (Help > Getting "
                   "started); for practice mode p, "
                   "r, enter, backspace, - and the digits 0 to 9, click:CELL (click:M[1][2], click:N[5], "
                   "click:Nds[0][1], click:thread[ty][tx]) and type:TEXT (the answer's text)")
        ->delimiter(',')
        ->check(keysValidator())
        ->needs(shot);
    cli.add_flag("--presentation", presentation, "Start in presentation mode (full screen, UI scale 2x; F5 toggles)");
    cli.add_option("--ui-scale", uiScale, "UI scale, 1 to 3 (1.5 to 3 in presentation mode): fonts drawn at that size")
        ->check(between(kMinUiScale, kMaxUiScale));
    cli.add_option("--theme", theme, "dark, or light (high contrast, for projectors)")->check(oneOf({"dark", "light"}));
    CLI::Option* exportOpt = cli.add_option("--export-steps", exportSteps,
                                            "Render the steps A..B and write them into --out (step-NNNN.png or .svg, or "
                                            "steps-A-B.gif), then exit")
                                 ->check(stepRangeValidator());
    CLI::Option* out = cli.add_option("--out", outDir, "Folder for --export-steps, made with its parents if missing")
                           ->needs(exportOpt);
    cli.add_flag("--force", force, "With --export-steps: overwrite the files of an earlier export (refused without it)")
        ->needs(exportOpt);
    cli.add_option("--format", format, "--export-steps format: png (default), gif (one animated file) or svg (vector)")
                                 ->check(oneOf({"png", "gif", "svg"}))
                                 ->needs(exportOpt);
    cli.add_option("--panel", panel,
                   "--export-steps of one panel instead of the window (shown even where the scenario leaves it out): " +
                       panelNameSentence())
        ->check(oneOf(panelNameList()))
        ->needs(exportOpt);
    CLI::Option* delayOpt = cli.add_option("--delay-ms", delayMs, "--format gif: milliseconds each step is shown (default 1500)")
                                ->check(between(kMinGifDelayMs, kMaxGifDelayMs))
                                ->needs(exportOpt);
    exportOpt->needs(out);
    exportOpt->excludes(shot)->excludes(framesOpt)->excludes("--step");
    shot->excludes(framesOpt);
    std::string results;
    cli.add_option("--results", results,
                   "A results file of GPU timings (tilescope-cli bench --json --out FILE), or the name of one in "
                   "assets/results, for the Ladder and Roofline panels (which it opens)");
    cli.add_flag("--yes", r.options.yes,
                 "Simulate a scenario estimated to take more than 10 s without asking (refused without it in the "
                 "headless modes)");
    std::string view;
    cli.add_option("--view", view,
                   "Open the view a view link names (docs/view-links.md), e.g. 'preset=tiled-4x4&step=6&thread=1,0': "
                   "the scenario, step, block, thread, panels, theme, presentation mode; the same text as after the "
                   "'#' of the web page's address");
    cli.add_flag("--print-view", r.options.printView,
                 "With --screenshot: also print the view link of the view shown (after --keys) on stdout")
        ->needs(shot);
    cli.parse(argc, argv);   // throws CLI::ParseError

    if (r.list) return r;
    Options& o = r.options;
    // A malformed scenario file throws sim::ScenarioFileError, exit status 2 (exitStatus).
    o.preset = scenario.empty() ? ts::sim::defaultPreset(panelNameList()) : ts::sim::findPreset(scenario, panelNameList());
    if (!kernelFile.empty()) {
        if (!canLoadKernelFiles())
            throw UsageError("this build cannot load a kernel file: it was built without libclang (install "
                             "libclang-14-dev and rebuild).");
        if (!reloadFrom.empty() && screenshot.empty())
            throw UsageError("--reload-from is for tests: give --screenshot too.");
        const KernelBuild k = buildKernelFile(kernelFile);
        o.kernelFile = kernelFile;
        o.reloadFrom = reloadFrom;
        const bool headless = !screenshot.empty() || !exportSteps.empty() || frames > 0;
        // --reload-from starts like the interactive app, beside the errors, for its test.
        if (!k.ok() && headless && reloadFrom.empty()) {
            std::string all;
            for (const std::string& e : k.errors) all += (all.empty() ? "" : "\n") + e;
            throw UsageError(all);
        }
        // The interactive app opens on its default scenario beside the errors, and builds the
        // file again when it is saved.
        if (!k.ok()) o.kernelErrors = k.errors;
        // The student's kernel on a problem of two by two blocks (or --width), the traced
        // block first.
        else o.preset = studentPreset(o.preset, *k.info, size);
        o.kernelProblem = size;
        if ((size.j > 0 || size.k > 0 || size.l > 0) && !(size.j > 0 && size.k > 0 && size.l > 0))
            throw UsageError("Give all three of --j, --k and --l, or --width.");
    }
    if (!schedule.empty())
        o.preset.schedule = schedule == "reverse" ? ts::sim::Schedule::Reverse
                            : schedule == "random" ? ts::sim::Schedule::Random
                                                   : ts::sim::Schedule::InOrder;
    if (std::string e = ts::sim::validate(o.preset.scenario); !e.empty())
        throw UsageError((o.preset.file.empty() ? o.preset.name : o.preset.file) + ": " + e);
    if (!results.empty()) {
        try {
            o.results = std::make_shared<const ts::sim::ResultsFile>(ts::sim::loadResultsFile(results));
        } catch (const ts::sim::ResultsFileError& e) {
            throw UsageError(e.what());
        }
    }
    if (!step.empty()) o.step = step == "last" ? -1 : std::stoi(step);
    if (const auto size = windowSize(window)) std::tie(o.width, o.height) = *size;
    if (scale != 1.0 && screenshot.empty() && exportSteps.empty())
        throw UsageError("--scale applies to --screenshot and --export-steps only; give one of them too.");
    if (!theme.empty()) o.theme = theme == "light" ? ThemeKind::Light : ThemeKind::Dark;
    o.presentation = presentation;
    if (const auto steps = stepRange(exportSteps)) {
        std::tie(o.exportFrom, o.exportTo) = *steps;
        o.exportFormat = format == "gif" ? ExportFormat::Gif : format == "svg" ? ExportFormat::Svg : ExportFormat::Png;
        if (!panel.empty()) o.exportPanel = findPanel(panel);
        if (delayOpt->count() && o.exportFormat != ExportFormat::Gif)
            throw UsageError("--delay-ms applies to --format gif only.");
        o.gifDelayMs = delayMs;
        o.step = o.exportFrom;
        o.exportDir = outDir;
    }
    o.printCaption = printCaption;
    for (const std::string& k : keys) {
        ScriptedInput in;
        for (const auto& [name, code] : kKeyCodes)
            if (k == name) in.key = code;
        in.ctrl = k.rfind("ctrl+", 0) == 0;
        if (!in.key && k.rfind("click:", 0) == 0) in.click = k.substr(6);
        if (!in.key && k.rfind("type:", 0) == 0) in.type = k.substr(5);
        o.keys.push_back(in);
    }
    o.screenshot = screenshot;
    o.scale = static_cast<float>(scale);
    o.frames = frames;
    o.pan = pan;
    o.heatmap = heatmap;
    // --view: the link's scenario, block, thread, panels, step, theme, presentation mode and
    // colours, where no other option gives them.
    if (cli.count("--view")) {
        o.linked = true;
        GivenOptions given;
        given.scenario = !scenario.empty();
        given.kernelFile = !kernelFile.empty();
        given.schedule = !schedule.empty();
        given.step = !step.empty();
        given.exportSteps = !exportSteps.empty();
        given.theme = !theme.empty();
        given.presentation = presentation;
        given.heatmap = !heatmap.empty();
        applyViewLink(view, o, given);
    }
    if (cli.count("--ui-scale") && o.presentation && uiScale < kMinPresentationScale)
        throw UsageError("--ui-scale must be between " + number(kMinPresentationScale) + " and " + number(kMaxUiScale) +
                         " in presentation mode; got " + number(uiScale) + ".");
    if (cli.count("--ui-scale")) o.uiScale = static_cast<float>(uiScale);
    // Last, once every argument has been checked: the export's folder, made if missing, and
    // no file of an earlier export overwritten without --force.
    if (o.exportFrom >= 0)
        o.exportDirCreated = prepareExportFolder(o.exportDir, exportFiles(o.exportDir, o.exportFormat, o.exportFrom, o.exportTo),
                                                 force);
    return r;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"TileScope: step through tiled CUDA kernels (PMPP ch. 4-7)", "tilescope"};
    // TILESCOPE_VERSION: project(VERSION) of CMakeLists.txt, the one place it is set.
    cli.set_version_flag("--version", "tilescope " TILESCOPE_VERSION, "Print \"tilescope X.Y.Z\" and exit");
#if defined(__EMSCRIPTEN__)
    // In the page the presets and results files are packed at /assets (cmake/web.cmake).
    setenv("TILESCOPE_ASSETS", "/assets", 0);
#endif
    try {
        Parsed p = parse(cli, argc, argv);
        if (p.list) {
            // Names in a column as wide as the longest, two spaces before the titles.
            const std::vector<ts::sim::Preset> presets = ts::sim::listPresets(panelNameList());
            size_t width = 0;
            for (const ts::sim::Preset& pre : presets) width = std::max(width, pre.name.size());
            for (const ts::sim::Preset& pre : presets)
                std::cout << std::left << std::setw(static_cast<int>(width + 2)) << pre.name << pre.title << "\n";
            return 0;
        }
        // The web page's address may name a view too (a no-op on the desktop: --view).
        p.options.startNotice = applyStartupViewLink(*makePlatform(), p.options);
#if defined(__EMSCRIPTEN__)
        // In the page: an App that outlives main(), whose frames the browser calls (App::run).
        static App* web = new App(std::move(p.options));
        web->open();
        web->run();
        return 0;
#endif
        App app(std::move(p.options));
        app.open();
        if (app.options().headless()) runHeadless(app);
        else app.run();
        return 0;
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "tilescope: " << sentence(e) << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tilescope: " << e.what() << "\n";
        return exitStatus(e);
    }
}
