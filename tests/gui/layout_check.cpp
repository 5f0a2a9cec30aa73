// layout_check: does every panel show its whole content? For every lecture preset, in
// presentation mode at 1920x1080 (dark and light theme) and at the desk at 1600x900 and
// 1280x720 (dark and light), it opens the app as `tilescope --scenario NAME` would (in one
// process, a fresh app per case), lets the layout settle at the preset's step and at its
// last step, and asks the layout's clippedContent() (app/gui/layout.hpp) what is cut off:
// a panel or child window whose content is larger than what is visible (ImGui's
// ScrollMax), a table column narrower than its content or header, a panel outside the
// display, two panels on top of each other. Lists (presets, source lines, threads,
// hazard pairs) may scroll vertically at the desk, never in presentation mode. Every case is
// checked twice: with the preset's panels, and with the Memory panel opened as well (it is
// shown by default nowhere, so that no panel goes unchecked) and practice mode on, its panel
// showing the question of the step after the preset's, then that question's reveal.
//
//   layout_check [--preset NAME] [--case NAME] [--shots DIR]
//
// Prints one line per offender, "PRESET CASE step N: PANEL: WHAT", and a summary; exit
// status 0 when nothing is cut off, 1 when something is, 2 for bad arguments. --shots
// writes a PNG of every case and step into DIR (for looking at the layout).
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app.hpp"
#include "gui_check.hpp"
#include "layout.hpp"
#include "screenshot.hpp"

using namespace ts::app;
using ts::test::gui::openWithRetries;
using ts::test::gui::settle;

namespace {

/// One window size, mode and theme the layout must work in.
struct Case {
    const char* name;
    int width, height;
    bool presentation;
    ThemeKind theme;
};

const Case kCases[] = {
    {"slides-dark-1920x1080", 1920, 1080, true, ThemeKind::Dark},
    {"slides-light-1920x1080", 1920, 1080, true, ThemeKind::Light},
    {"desk-dark-1600x900", 1600, 900, false, ThemeKind::Dark},
    {"desk-light-1600x900", 1600, 900, false, ThemeKind::Light},
    {"desk-dark-1280x720", 1280, 720, false, ThemeKind::Dark},
    {"desk-light-1280x720", 1280, 720, false, ThemeKind::Light},
};

/// Frames drawn after the scenario is ready (or the cursor moved) before the layout is
/// checked, as `tilescope --screenshot` draws them before its picture (headless.cpp), so
/// that the check sees what screenshots show: at least 3, and until the layout has placed
/// every panel as in the frame before twice in a row (or 30 more have passed).
constexpr int kSettleFrames = 3;

}  // namespace

int main(int argc, char** argv)
{
    std::string onlyPreset, onlyCase, shots;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--preset" || a == "--case" || a == "--shots") && i + 1 < argc) {
            (a == "--preset" ? onlyPreset : a == "--case" ? onlyCase : shots) = argv[++i];
        } else {
            std::cerr << "layout_check: unknown argument '" << a
                      << "' (layout_check [--preset NAME] [--case NAME] [--shots DIR]).\n";
            return 2;
        }
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<ts::sim::Preset> presets;
    try {
        presets = ts::sim::listPresets(panelNameList());
    } catch (const std::exception& e) {
        std::cerr << "layout_check: " << e.what() << "\n";
        return 2;
    }
    int offenders = 0, checked = 0;
    for (const ts::sim::Preset& p : presets) {
        if (!onlyPreset.empty() && p.name != onlyPreset) continue;
        for (const Case& c : kCases) {
            if (!onlyCase.empty() && onlyCase != c.name) continue;
            Options o;
            o.preset = p;
            // The hidden window only holds the OpenGL context: the UI is laid out at the
            // case's size (renderFrame's display) and pictures are drawn offscreen at that
            // size, so a small window keeps the software renderer's work per frame small.
            o.width = o.height = 64;
            o.presentation = c.presentation;
            o.theme = c.theme;
            o.screenshot = "(layout_check)";   // offscreen: a hidden window, no settings read or written
            const ImVec2 display(static_cast<float>(c.width), static_cast<float>(c.height));
            try {
                App app(o);
                openWithRetries(app);
                settle(app, display, kSettleFrames);
                if (!app.loaded().sim) throw std::runtime_error("the scenario was not simulated");
                const int last = static_cast<int>(app.loaded().sim->trace.steps.size()) - 1;
                const int first = app.view().cursor;
                // The preset's panels, then the same with the Memory panel opened as the View
                // menu opens it (it is shown by default nowhere) and practice mode on: its
                // panel at the first step with the question of the step after it waiting, and
                // at the last step with that question's wrong answer revealed (the longest the
                // panel gets; the reveal shows the question's step, then the cursor moves on).
                for (const bool memory : {false, true}) {
                    ts::app::Practice& practice = app.view().practice;
                    if (memory) {
                        app.view().open[panelId("memory")] = true;
                        app.view().cursor = first;
                        practiceToggle(practice);
                        app.view().open[panelId("practice")] = true;
                        practiceNext(practice, app.loaded(), app.view());
                        settle(app, display, kSettleFrames);
                    }
                    const std::string name = std::string(c.name) + (memory ? "+memory+practice" : "");
                    for (const int step : {first, last}) {
                        if (memory && practiceWaiting(practice) && step == last) {
                            // A wrong answer: no cells, one more than the number, another name.
                            const ts::sim::Answer& a = practice.question->answer;
                            const std::vector<std::string> names = practiceChoices(*practice.question);
                            if (a.shape == ts::sim::AnswerShape::Number) practiceType(practice, std::to_string(a.number + 1));
                            if (a.shape == ts::sim::AnswerShape::Name)
                                practiceType(practice, names.front() == a.name ? names.back() : names.front());
                            if (a.shape == ts::sim::AnswerShape::Slot)
                                for (int r = 0; r < 64 && practice.chosen.empty(); ++r)
                                    for (int col = 0; col < 64 && practice.chosen.empty(); ++col)
                                        if (ts::sim::Cell{r, col} != a.cells.front())
                                            practiceClickCell(practice, app.loaded(),
                                                              {answerArray(*practice.question, app.loaded().sim->scenario),
                                                               ts::sim::Cell{r, col}});
                            if (!practiceReveal(practice, app.loaded(), app.view())) {
                                std::printf("%s %s step %d: Practice: the answer was refused: %s\n", p.name.c_str(),
                                            name.c_str(), step, practice.notice.c_str());
                                ++offenders;
                            }
                            settle(app, display, kSettleFrames);
                        }
                        if (step != app.view().cursor) {
                            app.view().cursor = step;
                            settle(app, display, kSettleFrames);
                        }
                        ++checked;
                        for (const Clipped& x : clippedContent(display, c.presentation)) {
                            std::printf("%s %s step %d: %s: %s\n", p.name.c_str(), name.c_str(), step, x.panel.c_str(),
                                        x.what.c_str());
                            ++offenders;
                        }
                        if (!shots.empty()) {
                            const std::string path = shots + "/" + p.name + "-" + name + "-step" + std::to_string(step) + ".png";
                            if (std::string e = saveScreenshot(ImGui::GetDrawData(), c.width, c.height,
                                                               app.theme().palette.clear, path);
                                !e.empty())
                                std::cerr << "layout_check: " << e << "\n";
                        }
                        if (step == last) break;
                    }
                }
            } catch (const std::exception& e) {
                std::cerr << "layout_check: " << p.name << " " << c.name << ": " << e.what() << "\n";
                return 2;
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (checked == 0) {
        std::cerr << "layout_check: no preset and case matched.\n";
        return 2;
    }
    std::printf("layout_check: %d offenders in %d views (%.1f s)\n", offenders, checked, seconds);
    return offenders ? 1 : 0;
}
