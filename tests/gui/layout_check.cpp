// layout_check: does every figure read from the back of a lecture hall, and does every panel
// show its whole content? For every lecture preset (and, with --scenario, a scenario file),
// at 1280x720, 1600x900 and 1920x1080, in presentation mode and at the desk, in the dark and
// the light theme (12 cases), it opens the app as `tilescope --scenario NAME` would (in one
// process, a fresh app per case), lets the layout settle at the preset's step, at the middle
// step and at the last step, and measures each of these views:
//   - clipped: the layout's clippedContent() (app/gui/layout.hpp): a panel or child window
//     whose content is larger than what is visible (ImGui's ScrollMax), a table column
//     narrower than its content or header, a panel outside the display, two panels on top of
//     each other. Lists (presets, source lines, threads, hazard pairs) may scroll vertically
//     at the desk, never in presentation mode;
//   - figure: the main figure (the figure note, app/gui/figure_notes.hpp, of the preset's
//     first lesson panel, lessonPanels()) covers at least 70% of its panel's inner area;
//   - contrast: every text the frame draws reads at least 4.5:1 against what it is drawn on
//     (frame_audit.hpp says how: glyph quads from the draw lists, backgrounds from a second
//     rendering without them);
//   - size: on a slide no text is smaller than 18 px at 1080 lines (12 px at 720);
//   - labels: no two chart labels of one panel overlap.
// The six cases the layout was first checked in (slides at 1920x1080, the desk at 1600x900 and
// 1280x720, both themes) are checked once more for clipping with the Memory panel opened as
// well (it is shown by default nowhere, so that no panel goes unchecked) and practice mode on,
// its panel showing the question of the step after the preset's, then that question's reveal.
//
//   layout_check [--preset NAME] [--case NAME] [--scenario FILE] [--results FILE]
//                [--shots DIR] [--verbose] [--report-only KIND,...]
//
// Prints one line per offender, "PRESET CASE step N: PANEL: WHAT", a summary of the figures
// measured and a last line "layout_check: N offenders in M views (S s)"; exit status 0 when
// there is no offender, 1 when there is one, 2 for bad arguments. --case accepts a prefix
// ("slides-dark"). --scenario checks that file alone (with --results: its timings, as
// `tilescope --results` loads them). --shots writes a PNG of every view into DIR. --verbose
// prints every text under 4.5:1 rather than the first three of each view. --report-only
// lists kinds (clipped, figure, contrast, size, labels) whose offenders are printed and
// counted in the summary by kind but do not fail the run (the last line counts the others).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app.hpp"
#include "figure_notes.hpp"
#include "frame_audit.hpp"
#include "gui_check.hpp"
#include "layout.hpp"
#include "screenshot.hpp"
#include "sim/files/results_file.hpp"

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
    bool withMemoryAndPractice;   ///< also checked with the Memory panel and practice mode
};

const Case kCases[] = {
    {"slides-dark-1920x1080", 1920, 1080, true, ThemeKind::Dark, true},
    {"slides-light-1920x1080", 1920, 1080, true, ThemeKind::Light, true},
    {"slides-dark-1600x900", 1600, 900, true, ThemeKind::Dark, false},
    {"slides-light-1600x900", 1600, 900, true, ThemeKind::Light, false},
    {"slides-dark-1280x720", 1280, 720, true, ThemeKind::Dark, false},
    {"slides-light-1280x720", 1280, 720, true, ThemeKind::Light, false},
    {"desk-dark-1920x1080", 1920, 1080, false, ThemeKind::Dark, false},
    {"desk-light-1920x1080", 1920, 1080, false, ThemeKind::Light, false},
    {"desk-dark-1600x900", 1600, 900, false, ThemeKind::Dark, true},
    {"desk-light-1600x900", 1600, 900, false, ThemeKind::Light, true},
    {"desk-dark-1280x720", 1280, 720, false, ThemeKind::Dark, true},
    {"desk-light-1280x720", 1280, 720, false, ThemeKind::Light, true},
};

/// Frames drawn after the scenario is ready (or the cursor moved) before the layout is
/// checked, as `tilescope --screenshot` draws them before its picture (headless.cpp), so
/// that the check sees what screenshots show: at least 3, and until the layout has placed
/// every panel as in the frame before twice in a row (or 30 more have passed).
constexpr int kSettleFrames = 3;

/// The least share of its panel's inner area that the main figure covers.
constexpr float kLeastFigureShare = 0.70f;
/// WCAG 2.1 AA for text (sec. 1.4.3).
constexpr double kLeastContrast = 4.5;
/// The smallest text on a slide, in pixels at 1080 lines (a projector at the back of a hall).
constexpr float kLeastSlideTextAt1080 = 18.0f;

/// What the measurements found over all views, for the summary.
struct Figures {
    int views = 0;
    std::map<std::string, int> offenders;   ///< by kind: clipped, figure, contrast, size, labels
    float leastShare = 1e9f;
    std::string leastShareView;
    std::vector<float> shares;
    long texts = 0;
    double leastContrast = 1e9;
    std::string leastContrastView;
    float leastSlideText = 1e9f;            ///< px, scaled to 1080 lines
    int labels = 0;
};

std::string hex(ImU32 c)
{
    char b[8];
    std::snprintf(b, sizeof b, "#%02x%02x%02x", (c >> IM_COL32_R_SHIFT) & 0xFF, (c >> IM_COL32_G_SHIFT) & 0xFF,
                  (c >> IM_COL32_B_SHIFT) & 0xFF);
    return b;
}

/// The measurements of the view just drawn (ImGui::Render() done); prints its offenders as
/// "WHERE: PANEL: WHAT" and counts them into `fig`.
int audit(App& app, const ts::sim::Preset& p, const Case& c, const std::string& where, bool verbose, Figures& fig)
{
    const ImVec2 display(static_cast<float>(c.width), static_cast<float>(c.height));
    int offenders = 0;
    auto offend = [&](const char* kind, const std::string& panel, const std::string& what) {
        std::printf("%s: %s: %s\n", where.c_str(), panel.c_str(), what.c_str());
        ++fig.offenders[kind];
        ++offenders;
    };
    ++fig.views;
    for (const Clipped& x : clippedContent(display, c.presentation)) offend("clipped", x.panel, x.what);

    // The main figure against its panel.
    const std::vector<PanelId> lesson = lessonPanels(p);
    if (!lesson.empty()) {
        const char* title = panelTable()[lesson.front()].title;
        const ImGuiWindow* w = ImGui::FindWindowByName(title);
        const auto note = std::find_if(figureNotes().begin(), figureNotes().end(),
                                       [&](const FigureNote& n) { return n.window == title; });
        if (!w || !w->WasActive || w->Collapsed) {
            offend("figure", title, "the preset's lesson panel is not shown");
        } else if (note == figureNotes().end()) {
            offend("figure", title, "no figure noted (noteFigure)");
        } else {
            const ImRect inner = w->InnerRect;
            const float ix = std::min(note->max.x, inner.Max.x) - std::max(note->min.x, inner.Min.x);
            const float iy = std::min(note->max.y, inner.Max.y) - std::max(note->min.y, inner.Min.y);
            const float area = std::max(1.0f, inner.GetWidth() * inner.GetHeight());
            const float share = std::max(0.0f, ix) * std::max(0.0f, iy) / area;
            fig.shares.push_back(share);
            if (share < fig.leastShare) {
                fig.leastShare = share;
                fig.leastShareView = where;
            }
            if (share < kLeastFigureShare) {
                char b[160];
                std::snprintf(b, sizeof b, "the figure covers %.0f%% of the panel (%.0f x %.0f of %.0f x %.0f px)",
                              100 * share, note->max.x - note->min.x, note->max.y - note->min.y, inner.GetWidth(),
                              inner.GetHeight());
                offend("figure", title, b);
            }
        }
    }

    // Every text's contrast, and its size on a slide.
    const std::vector<ts::test::gui::DrawnText> texts =
        ts::test::gui::measureTexts(ImGui::GetDrawData(), display, app.theme().palette.clear);
    fig.texts += static_cast<long>(texts.size());
    const float leastPx = kLeastSlideTextAt1080 * display.y / 1080.0f;
    int lowContrast = 0, small = 0;
    for (const ts::test::gui::DrawnText& t : texts) {
        if (t.contrast < fig.leastContrast) {
            fig.leastContrast = t.contrast;
            fig.leastContrastView = where + " '" + t.text + "'";
        }
        if (t.contrast < kLeastContrast && (verbose || ++lowContrast <= 3)) {
            char b[200];
            std::snprintf(b, sizeof b, "text '%s' at (%.0f, %.0f) reads %.2f:1 (%s on %s)", t.text.c_str(), t.min.x,
                          t.min.y, t.contrast, hex(t.colour).c_str(), hex(t.background).c_str());
            offend("contrast", t.window, b);
        } else if (t.contrast < kLeastContrast) {
            ++fig.offenders["contrast"];
            ++offenders;
        }
        if (c.presentation) {
            fig.leastSlideText = std::min(fig.leastSlideText, t.fontSize * 1080.0f / display.y);
            if (t.fontSize + 0.01f < leastPx && (verbose || ++small <= 3)) {
                char b[200];
                std::snprintf(b, sizeof b, "text '%s' is %.1f px on a slide (the least is %.1f px here)", t.text.c_str(),
                              t.fontSize, leastPx);
                offend("size", t.window, b);
            } else if (t.fontSize + 0.01f < leastPx) {
                ++fig.offenders["size"];
                ++offenders;
            }
        }
    }
    if (lowContrast > 3 && !verbose) std::printf("%s: ... %d texts under %.1f:1 in all\n", where.c_str(), lowContrast, kLeastContrast);

    // Chart labels.
    fig.labels += static_cast<int>(labelNotes().size());
    for (const std::string& o : ts::test::gui::overlappingLabels(labelNotes())) offend("labels", "chart", o);
    return offenders;
}

/// Practice mode's wrong answer to the question waiting: no cells, one more than the number,
/// another name. Returns false (and prints) when the app refuses it.
bool answerWrongly(App& app)
{
    ts::app::Practice& practice = app.view().practice;
    const ts::sim::Answer& a = practice.question->answer;
    const std::vector<std::string> names = practiceChoices(*practice.question);
    if (a.shape == ts::sim::AnswerShape::Number) practiceType(practice, std::to_string(a.number + 1));
    if (a.shape == ts::sim::AnswerShape::Name) practiceType(practice, names.front() == a.name ? names.back() : names.front());
    if (a.shape == ts::sim::AnswerShape::Slot)
        for (int r = 0; r < 64 && practice.chosen.empty(); ++r)
            for (int col = 0; col < 64 && practice.chosen.empty(); ++col)
                if (ts::sim::Cell{r, col} != a.cells.front())
                    practiceClickCell(practice, app.loaded(),
                                      {answerArray(*practice.question, app.loaded().sim->scenario), ts::sim::Cell{r, col}});
    return practiceReveal(practice, app.loaded(), app.view());
}

}  // namespace

int main(int argc, char** argv)
{
    std::string onlyPreset, onlyCase, shots, scenarioFile, resultsFile, reportOnly;
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--preset" || a == "--case" || a == "--shots" || a == "--scenario" || a == "--results" ||
             a == "--report-only") &&
            i + 1 < argc) {
            (a == "--preset" ? onlyPreset : a == "--case" ? onlyCase : a == "--shots" ? shots
                                                      : a == "--scenario"           ? scenarioFile
                                                      : a == "--results"            ? resultsFile
                                                                                    : reportOnly) = argv[++i];
        } else if (a == "--verbose") {
            verbose = true;
        } else {
            std::cerr << "layout_check: unknown argument '" << a
                      << "' (layout_check [--preset NAME] [--case NAME] [--scenario FILE] [--results FILE] [--shots DIR] "
                         "[--verbose] [--report-only KIND,...]).\n";
            return 2;
        }
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<ts::sim::Preset> presets;
    std::shared_ptr<const ts::sim::ResultsFile> results;
    try {
        presets = scenarioFile.empty() ? ts::sim::listPresets(panelNameList())
                                       : std::vector{ts::sim::loadScenarioFile(scenarioFile, panelNameList())};
        if (!resultsFile.empty())
            results = std::make_shared<const ts::sim::ResultsFile>(ts::sim::loadResultsFile(resultsFile));
    } catch (const std::exception& e) {
        std::cerr << "layout_check: " << e.what() << "\n";
        return 2;
    }
    int offenders = 0;
    Figures fig;
    for (const ts::sim::Preset& p : presets) {
        if (!onlyPreset.empty() && p.name != onlyPreset) continue;
        for (const Case& c : kCases) {
            if (!onlyCase.empty() && std::string(c.name).rfind(onlyCase, 0) != 0) continue;
            Options o;
            o.preset = p;
            o.results = results;
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
                auto shoot = [&](const std::string& name, int step) {
                    if (shots.empty()) return;
                    const std::string path = shots + "/" + p.name + "-" + name + "-step" + std::to_string(step) + ".png";
                    if (std::string e = saveScreenshot(ImGui::GetDrawData(), c.width, c.height, app.theme().palette.clear, path);
                        !e.empty())
                        std::cerr << "layout_check: " << e << "\n";
                };
                // The preset's panels at its own step, the middle step and the last, measured.
                std::vector<int> steps{first, last / 2, last};
                std::sort(steps.begin(), steps.end());
                steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
                for (const int step : steps) {
                    if (step != app.view().cursor) {
                        app.view().cursor = step;
                        settle(app, display, kSettleFrames);
                    }
                    const std::string where = p.name + " " + c.name + " step " + std::to_string(step);
                    offenders += audit(app, p, c, where, verbose, fig);
                    shoot(c.name, step);
                }
                if (!c.withMemoryAndPractice) continue;
                // The same with the Memory panel opened as the View menu opens it (it is shown
                // by default nowhere) and practice mode on: its panel at the first step with the
                // question of the step after it waiting, and at the last step with that
                // question's wrong answer revealed (the longest the panel gets; the reveal shows
                // the question's step, then the cursor moves on). Clipping only.
                ts::app::Practice& practice = app.view().practice;
                app.view().open[panelId("memory")] = true;
                app.view().cursor = first;
                practiceToggle(practice);
                app.view().open[panelId("practice")] = true;
                practiceNext(practice, app.loaded(), app.view());
                settle(app, display, kSettleFrames);
                const std::string name = std::string(c.name) + "+memory+practice";
                for (const int step : {first, last}) {
                    const std::string where = p.name + " " + name + " step " + std::to_string(step);
                    if (practiceWaiting(practice) && step == last) {
                        if (!answerWrongly(app)) {
                            std::printf("%s: Practice: the answer was refused: %s\n", where.c_str(), practice.notice.c_str());
                            ++offenders;
                        }
                        settle(app, display, kSettleFrames);
                    }
                    if (step != app.view().cursor) {
                        app.view().cursor = step;
                        settle(app, display, kSettleFrames);
                    }
                    ++fig.views;
                    for (const Clipped& x : clippedContent(display, c.presentation)) {
                        std::printf("%s: %s: %s\n", where.c_str(), x.panel.c_str(), x.what.c_str());
                        ++fig.offenders["clipped"];
                        ++offenders;
                    }
                    shoot(name, step);
                    if (step == last) break;
                }
            } catch (const std::exception& e) {
                std::cerr << "layout_check: " << p.name << " " << c.name << ": " << e.what() << "\n";
                return 2;
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (fig.views == 0) {
        std::cerr << "layout_check: no preset and case matched.\n";
        return 2;
    }
    // The figures measured, for the record.
    std::sort(fig.shares.begin(), fig.shares.end());
    if (!fig.shares.empty())
        std::printf("layout_check: main figure %.1f%% of its panel at the least (%s), %.1f%% median, over %zu views\n",
                    100 * fig.leastShare, fig.leastShareView.c_str(), 100 * fig.shares[fig.shares.size() / 2],
                    fig.shares.size());
    std::printf("layout_check: %ld texts measured, the least contrast %.2f:1 (%s)\n", fig.texts, fig.leastContrast,
                fig.leastContrastView.c_str());
    if (fig.leastSlideText < 1e8f)
        std::printf("layout_check: the smallest text on a slide %.1f px at 1080 lines\n", fig.leastSlideText);
    std::printf("layout_check: %d chart labels, offenders by kind:", fig.labels);
    for (const char* k : {"clipped", "figure", "contrast", "size", "labels"}) std::printf(" %s %d", k, fig.offenders[k]);
    // Kinds reported but not failing the run (--report-only): what is still to be done.
    int reported = 0;
    for (const auto& [kind, n] : fig.offenders)
        if (("," + reportOnly + ",").find("," + kind + ",") != std::string::npos) reported += n;
    if (reported) std::printf("\nlayout_check: %d of them of the kinds reported only (%s)", reported, reportOnly.c_str());
    std::printf("\nlayout_check: %d offenders in %d views (%.1f s)\n", offenders - reported, fig.views, seconds);
    return offenders - reported ? 1 : 0;
}
