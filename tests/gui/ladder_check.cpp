// ladder_check: the Ladder and Roofline panels in the app's own frames (a hidden window), on
// tests/gui/scenarios/ladder-roofline.toml, which shows those two panels only. For each of
// the desk at 1600x900 (dark) and 1280x720 (light) and a slide at 1920x1080 (dark, light):
//
//  - without a results file: none loaded, the textbook profile's three points, every rung of
//    the ladder counted by the simulator, both panels shown and not folded, nothing cut off
//    (the layout's clippedContent(), as the gui.layout_* checks do for the presets);
//  - File > Open results... with a malformed file: one sentence naming the file in the notice
//    line, marked as an error, and still no results;
//  - with the committed H100 file (App::openResults, what the menu calls): its eleven timings
//    shown, counted again for them, nothing cut off; hovering the rows of the Ladder and the
//    markers of the Roofline opens tooltips;
//  - a malformed file after it: the notice, and the H100 file still shown.
//
//   ladder_check SCENARIO.toml RESULTS.json BAD.json
//
// Prints one line per failed check and exits 1 if there is one, else prints
// "ladder_check: N checks passed".
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "app.hpp"
#include "figure_notes.hpp"
#include "gui_check.hpp"
#include "layout.hpp"

using namespace ts::app;
using namespace ts::test::gui;

namespace {

struct Case {
    const char* name;
    int width, height;
    bool presentation;
    ThemeKind theme;
};

const Case kCases[] = {
    {"desk-dark-1600x900", 1600, 900, false, ThemeKind::Dark},
    {"desk-light-1280x720", 1280, 720, false, ThemeKind::Light},
    {"slides-dark-1920x1080", 1920, 1080, true, ThemeKind::Dark},
    {"slides-light-1920x1080", 1920, 1080, true, ThemeKind::Light},
};

/// Whether a tooltip was drawn in the frame just rendered.
bool tooltipShown()
{
    const ImGuiWindow* t = ImGui::FindWindowByName("##Tooltip_00");
    return t && t->LastFrameActive == GImGui->FrameCount;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: ladder_check SCENARIO.toml RESULTS.json BAD.json\n");
        return 2;
    }
    const std::string good = argv[2], bad = argv[3];
    for (const Case& c : kCases) {
        Options o;
        o.preset = ts::sim::findPreset(argv[1], panelNameList());
        o.width = o.height = 64;
        o.presentation = c.presentation;
        o.theme = c.theme;
        o.screenshot = "(ladder_check)";   // offscreen: hidden window, no settings
        const ImVec2 display(static_cast<float>(c.width), static_cast<float>(c.height));
        App app(o);
        openWithRetries(app);
        ImVec2 mouse(-FLT_MAX, -FLT_MAX);
        app.inputHook = [&](ImGuiIO& io) { io.MousePos = mouse; };
        auto frame = [&] { drawFrame(app, display); };
        auto settle = [&] { ts::test::gui::settle(app, display); };
        const std::string at = std::string(c.name) + ": ";
        auto shownUnfolded = [&](const char* name) {
            const ImGuiWindow* w = ImGui::FindWindowByName(panelTable()[panelId(name)].title);
            return w && w->LastFrameActive == GImGui->FrameCount && !w->Collapsed;
        };
        auto nothingCut = [&](const std::string& when) {
            for (const Clipped& x : clippedContent(display, c.presentation))
                expect(false, at + when + ": " + x.panel + ": " + x.what);
        };

        // ---- the textbook profile -----------------------------------------------------------
        settle();
        const Loaded& l = app.loaded();
        expect(!l.results, at + "no results file at start");
        expect(l.ladder && l.ladder->textbook.points.size() == 3, at + "the textbook profile's three points");
        if (l.ladder) {
            int counted = 0;
            for (const ts::sim::RungCounts& r : l.ladder->counts) counted += r.error.empty() && r.totals.flops > 0;
            expect(counted == static_cast<int>(std::size(ts::sim::kLadderRungs)),
                   at + "every rung counted; got " + std::to_string(counted));
        }
        expect(shownUnfolded("ladder") && shownUnfolded("roofline"), at + "both panels shown, not folded (textbook)");
        nothingCut("textbook");

        // ---- a malformed file: a notice, nothing loaded ----------------------------------------
        app.openResults(bad);
        settle();
        expect(app.view().noticeIsError && app.view().notice.rfind(bad + ": ", 0) == 0 &&
                   app.view().notice.back() == '.' && app.view().notice.find('\n') == std::string::npos,
               at + "a malformed file gives one sentence naming it; got '" + app.view().notice + "'");
        expect(!l.results, at + "a malformed file loads nothing");

        // ---- the H100 file ----------------------------------------------------------------
        app.openResults(good);
        settle();
        expect(l.results && l.results->results.size() == 11, at + "the H100 file's eleven timings are loaded");
        expect(!app.view().noticeIsError, at + "opening it is no error: '" + app.view().notice + "'");
        expect(l.ladder && l.ladder->resultsGeneration == l.resultsGeneration, at + "the kernels were counted for it");
        expect(shownUnfolded("ladder") && shownUnfolded("roofline"), at + "both panels shown, not folded (H100)");
        if (!(shownUnfolded("ladder") && shownUnfolded("roofline"))) std::printf("%s", layoutReport().c_str());
        nothingCut("H100");
        // The figures fill their panels (issue 25): the Ladder's rows and the Roofline's chart
        // with its legend, as the panels note them (figure_notes.hpp), cover at least 70% of
        // the panel's inner area; no two of the Roofline's labels overlap.
        for (const char* title : {"Ladder", "Roofline"}) {
            const ImGuiWindow* w = ImGui::FindWindowByName(title);
            const FigureNote* n = nullptr;
            for (const FigureNote& x : figureNotes())
                if (x.window == title) n = &x;
            expect(w && n, at + title + ": its figure is noted");
            if (!w || !n) continue;
            const ImRect in = w->InnerRect;
            const float fw = std::min(n->max.x, in.Max.x) - std::max(n->min.x, in.Min.x);
            const float fh = std::min(n->max.y, in.Max.y) - std::max(n->min.y, in.Min.y);
            const float share = std::max(0.0f, fw) * std::max(0.0f, fh) / (in.GetWidth() * in.GetHeight());
            std::printf("%s%s: figure %.0f x %.0f in %.0f x %.0f, %.0f%%\n", at.c_str(), title, fw, fh, in.GetWidth(),
                        in.GetHeight(), 100 * share);
            expect(share >= 0.7f, at + title + ": the figure covers " + std::to_string(100 * share) + "% of the panel");
        }
        int labels = 0;
        const std::vector<LabelNote>& notes = labelNotes();
        for (size_t i = 0; i < notes.size(); ++i) {
            if (notes[i].window != "Roofline") continue;
            ++labels;
            for (size_t j = i + 1; j < notes.size(); ++j)
                if (notes[j].window == "Roofline" && notes[i].min.x < notes[j].max.x && notes[j].min.x < notes[i].max.x &&
                    notes[i].min.y < notes[j].max.y && notes[j].min.y < notes[i].max.y)
                    expect(false, at + "Roofline labels '" + notes[i].text + "' and '" + notes[j].text + "' overlap");
        }
        expect(labels >= 11, at + "the Roofline notes a label for each of its 11 points at least; " + std::to_string(labels));
        // Tooltips: down the middle of the Ladder's bars, and down the Roofline's column of DRAM
        // markers (all at 683 FLOP/B, near the right end of the x axis, set side by side where
        // they would cover each other).
        const ImGuiWindow* ladder = ImGui::FindWindowByName("Ladder");
        const ImGuiWindow* roofline = ImGui::FindWindowByName("Roofline");
        int rowTips = 0, markerTips = 0;
        if (ladder)
            for (float y = ladder->Pos.y + 40; y < ladder->Pos.y + ladder->Size.y; y += 6) {
                mouse = ImVec2(ladder->Pos.x + ladder->Size.x * 0.3f, y);
                frame();
                rowTips += tooltipShown();
            }
        if (roofline)
            for (float y = roofline->Pos.y + 40; y < roofline->Pos.y + roofline->Size.y; y += 4)
                for (float fx : {0.86f, 0.88f, 0.90f, 0.92f, 0.94f, 0.96f, 0.98f}) {
                    mouse = ImVec2(roofline->Pos.x + roofline->Size.x * fx, y);
                    frame();
                    markerTips += tooltipShown();
                }
        mouse = ImVec2(-FLT_MAX, -FLT_MAX);
        expect(rowTips >= 10, at + "hovering the Ladder's rows shows their tooltips; " + std::to_string(rowTips) + " frames did");
        expect(markerTips >= 3, at + "hovering the Roofline's DRAM markers shows tooltips; " + std::to_string(markerTips) +
                                    " frames did");

        // ---- a malformed file after it: the H100 file stays ------------------------------------
        const ts::sim::ResultsFile* before = l.results.get();
        app.openResults(bad);
        settle();
        expect(app.view().noticeIsError && app.view().notice.rfind(bad + ": ", 0) == 0,
               at + "the second malformed file is refused too");
        expect(l.results.get() == before, at + "the results shown before stay");
        nothingCut("H100 after a refusal");
    }
    return finish("ladder_check");
}
