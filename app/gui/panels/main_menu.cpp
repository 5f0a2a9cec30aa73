// The main menu (File, View, Help) and the small dialogs it opens.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "file_chooser.hpp"
#include "glossary.hpp"
#include "help_keys.hpp"
#include "options.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/lessons.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// A modal dialog asking for one path: opened when `show` is set, it shows `prompt` and
/// the path field (focused, Enter confirms) and on `button` stores the path in `request`.
void pathDialog(bool& show, const char* title, const char* prompt, const char* button, std::string& path,
                std::optional<std::string>& request)
{
    if (show) {
        ImGui::OpenPopup(title);
        show = false;
    }
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(prompt);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", &path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::Button(button) || enter) {
        request = path;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void exportDialog(Frame& f)
{
    View& v = f.view;
    ExportForm& e = v.exportForm;
    const int last = f.loaded.sim ? static_cast<int>(f.loaded.sim->trace.steps.size()) - 1 : 0;
    if (v.showExport) {
        ImGui::OpenPopup("Export steps");
        v.showExport = false;
        e.from = e.to = std::max(0, v.cursor);
    }
    if (!ImGui::BeginPopupModal("Export steps", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("Pictures of a range of steps for slides, as tilescope --export-steps makes them:");
    const float w = ImGui::GetFontSize() * 14;
    ImGui::SetNextItemWidth(w);
    ImGui::Combo("format", &e.format, "PNG, one per step\0GIF, one animated file\0SVG, vector, one per step\0");
    std::string what = e.panel < 0 ? "the whole window" : panelTable()[e.panel].title;
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("what", what.c_str())) {
        if (ImGui::Selectable("the whole window", e.panel < 0)) e.panel = -1;
        for (int i = 0; i < panelCount(); ++i)
            if (v.open[i] && ImGui::Selectable(panelTable()[i].title, e.panel == i)) e.panel = i;
        ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(w);
    ImGui::Combo("pixel scale", &e.scale, "1x\0" "2x\0" "4x\0");
    tooltip("Drawn at that many times the window's pixels (fonts rasterised at that size), not enlarged.");
    ImGui::SetNextItemWidth(w * 0.45f);
    ImGui::InputInt("##from", &e.from);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w * 0.45f);
    ImGui::InputInt("steps (from, to)", &e.to);
    ImGui::SetNextItemWidth(w);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("folder", &e.dir, ImGuiInputTextFlags_EnterReturnsTrue);
    const bool bad = e.from < 0 || e.to < e.from || e.to > last;
    if (bad)
        colouredText(f.theme.palette.error, "The steps must run from A to B with 0 <= A <= B <= " + std::to_string(last) + ".");
    ImGui::BeginDisabled(bad || f.busy.exporting || !f.loaded.sim);
    if (ImGui::Button("Export") || (enter && !bad && !f.busy.exporting && f.loaded.sim)) {
        f.requests.exportSteps = e;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

/// The lower part of both Open dialogs: the path field (Enter opens), the error of the last
/// try, Open and Cancel. Returns true when the path is to be opened.
bool pathRow(std::string& path, const std::string& error, bool busy, const char* busyLabel)
{
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool enter = ImGui::InputTextWithHint("##path", "the file to open", &path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        colouredText(currentPalette().error, error);
        ImGui::PopTextWrapPos();
    }
    bool open = false;
    ImGui::BeginDisabled(path.empty() || busy);
    if (ImGui::Button(busy ? busyLabel : "Open", ImVec2(em * 6, 0)) || (enter && !path.empty() && !busy)) open = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
    return open;
}

/// A modal's size: `w` x `h` font heights, within the window.
void modalSize(float w, float h)
{
    const float em = ImGui::GetFontSize();
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(std::min(em * w, d.x * 0.94f), std::min(em * h, d.y * 0.9f)), ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(d.x * 0.5f, d.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
}

/// File > Open kernel... (Ctrl+K): the exercises with their starter files (open one, or copy
/// it into the folder shown and open the copy), a folder browser for the student's own .cu
/// files (file_chooser.hpp), the path field (the last file opened, from settings.toml) and
/// why the last one did not build.
void openKernelDialog(Frame& f)
{
    View& v = f.view;
    static FolderBrowser browser;
    static std::vector<ExerciseChoice> exercises;
    static std::string exercisesError, copyError;
    static int tab = 0;   // 0 exercises, 1 your files
    const char* title = "Open kernel";
    if (v.showOpenKernel) {
        ImGui::OpenPopup(title);
        v.showOpenKernel = false;
        browser.extensions = {".cu", ".cuh"};
        namespace fs = std::filesystem;
        browseTo(browser, v.kernelPath.empty() ? std::string() : fs::path(v.kernelPath).parent_path().string());
        exercisesError.clear();
        copyError.clear();
        exercises = listExerciseChoices(exercisesError);
        tab = v.kernelPath.empty() ? 0 : 1;
    }
    modalSize(46, 34);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const float em = ImGui::GetFontSize();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("Your own kernel: a plain CUDA file with one __global__ kernel (docs/student-kernels.md). "
                           "TileScope compiles it, runs it in a sandbox, steps through it, and runs it again whenever "
                           "you save it in your editor.");
    ImGui::PopTextWrapPos();
    const float below = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetStyle().ItemSpacing.y +
                        (v.kernelOpenError.empty() ? 0 : ImGui::GetTextLineHeightWithSpacing() * 2);
    if (ImGui::BeginTabBar("##kernel-tabs")) {
        if (ImGui::BeginTabItem("Exercises", nullptr, ImGui::IsWindowAppearing() && tab == 0 ? ImGuiTabItemFlags_SetSelected : 0)) {
            const float h = std::max(em * 6, ImGui::GetContentRegionAvail().y - below - ImGui::GetFrameHeightWithSpacing());
            if (ImGui::BeginListBox("##exercises", ImVec2(-FLT_MIN, h))) {
                if (!exercisesError.empty()) colouredText(f.theme.palette.error, exercisesError);
                for (const ExerciseChoice& e : exercises) {
                    const std::string label = (e.section.empty() ? std::string() : e.section + "  ") + e.title;
                    if (ImGui::Selectable((label + "##" + e.name).c_str(), v.kernelPath == e.starter,
                                          ImGuiSelectableFlags_AllowDoubleClick)) {
                        v.kernelPath = e.starter;
                        if (ImGui::IsMouseDoubleClicked(0)) {
                            f.requests.openKernel = v.kernelPath;
                            v.kernelOpenError.clear();
                            ImGui::CloseCurrentPopup();
                        }
                    }
                    tooltip("Exercise " + e.name + " (PMPP sec. " + e.section + "): its starter file " + e.starter +
                            " compiles but is incomplete; its TODO comments say what to write. Grade it with "
                            "tilescope-cli grade --exercise " + e.name + " --kernel-file FILE.");
                }
                ImGui::EndListBox();
            }
            // The starter chosen, copied into the folder of the Your files tab: the student's own copy.
            const ExerciseChoice* chosen = nullptr;
            for (const ExerciseChoice& e : exercises)
                if (e.starter == v.kernelPath) chosen = &e;
            ImGui::BeginDisabled(!chosen);
            if (ImGui::Button("Copy the starter to my folder and open it") && chosen) {
                try {
                    v.kernelPath = copyStarter(*chosen, browser.dir);
                    f.requests.openKernel = v.kernelPath;
                    browser.stale = true;
                    copyError.clear();
                    ImGui::CloseCurrentPopup();
                } catch (const std::exception& e) {
                    copyError = e.what();
                }
            }
            ImGui::EndDisabled();
            tooltip("Copies the starter into " + browser.dir + " (the folder of the Your files tab) as NAME.cu and opens "
                    "the copy, which you then edit; the shipped starter stays as it is.");
            if (!copyError.empty()) {
                ImGui::SameLine();
                colouredText(f.theme.palette.error, copyError);
            }
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Your files", nullptr, ImGui::IsWindowAppearing() && tab == 1 ? ImGuiTabItemFlags_SetSelected : 0)) {
            const float h = std::max(em * 6, ImGui::GetContentRegionAvail().y - below);
            if (drawFolderBrowser(browser, v.kernelPath, h)) {
                f.requests.openKernel = v.kernelPath;
                v.kernelOpenError.clear();
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    if (pathRow(v.kernelPath, v.kernelOpenError, f.busy.compiling, "Compiling...")) {
        f.requests.openKernel = v.kernelPath;
        v.kernelOpenError.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

/// File > Open scenario... (Ctrl+O): the lessons in chapter order, a folder browser for
/// scenario files (.toml), and the path field (a preset's name or a file).
void openScenarioDialog(Frame& f)
{
    View& v = f.view;
    static FolderBrowser browser;
    const char* title = "Open scenario";
    if (v.showOpen) {
        ImGui::OpenPopup(title);
        v.showOpen = false;
        browser.extensions = {".toml"};
        namespace fs = std::filesystem;
        const bool isFile = v.form.file.find('/') != std::string::npos;
        browseTo(browser, isFile ? fs::path(v.form.file).parent_path().string() : std::string());
    }
    modalSize(46, 34);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const float em = ImGui::GetFontSize();
    const float below = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetStyle().ItemSpacing.y;
    if (ImGui::BeginTabBar("##scenario-tabs")) {
        if (ImGui::BeginTabItem("Lessons")) {
            const float h = std::max(em * 6, ImGui::GetContentRegionAvail().y - below);
            if (ImGui::BeginListBox("##lessons", ImVec2(-FLT_MIN, h))) {
                for (const sim::LessonGroup& g : sim::lessonGroups(f.loaded.presets)) {
                    ImGui::TextDisabled("%s", sim::chapterHeading(g.chapter).c_str());
                    for (const sim::Preset* p : g.lessons) {
                        const std::string label = (p->chapter.empty() ? std::string() : p->chapter + "  ") + p->title;
                        if (ImGui::Selectable((label + "##" + p->name).c_str(), v.form.file == p->name,
                                              ImGuiSelectableFlags_AllowDoubleClick)) {
                            v.form.file = p->name;
                            if (ImGui::IsMouseDoubleClicked(0)) {
                                f.requests.open = p->name;
                                ImGui::CloseCurrentPopup();
                            }
                        }
                        if (!p->summary.empty()) tooltip(p->summary);
                    }
                }
                ImGui::EndListBox();
            }
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Scenario files")) {
            const float h = std::max(em * 6, ImGui::GetContentRegionAvail().y - below);
            if (drawFolderBrowser(browser, v.form.file, h)) {
                f.requests.open = v.form.file;
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    if (pathRow(v.form.file, std::string(), false, "")) {
        f.requests.open = v.form.file;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

/// Help > Keys: the keys (help_keys.hpp) as a table, key and action, then the mouse.
void keysDialog(bool& show)
{
    const char* title = "Keys";
    if (show) {
        ImGui::OpenPopup(title);
        show = false;
    }
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("Key");
        ImGui::TableSetupColumn("Action");
        ImGui::TableHeadersRow();
        for (const KeyHelp& k : keyHelp()) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(k.keys);
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(k.action);
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::TextUnformatted(mouseHelp());
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

/// The Lessons menu: the presets in chapter order, one sub-heading per chapter.
void lessonsMenu(Frame& f)
{
    if (!ImGui::BeginMenu("Lessons")) return;
    if (f.loaded.presets.empty())
        ImGui::TextDisabled("%s", f.loaded.presetsError.empty() ? "No lecture presets found." : f.loaded.presetsError.c_str());
    bool first = true;
    for (const sim::LessonGroup& g : sim::lessonGroups(f.loaded.presets)) {
        if (!first) ImGui::Separator();
        first = false;
        ImGui::TextDisabled("%s", sim::chapterHeading(g.chapter).c_str());
        for (const sim::Preset* p : g.lessons) {
            if (ImGui::MenuItem(p->title.c_str(), p->chapter.c_str(), p->name == f.loaded.preset.name))
                f.requests.open = p->name;
            if (!p->summary.empty()) tooltip(p->summary);
        }
    }
    ImGui::EndMenu();
}

void textDialog(bool& show, const char* title, const char* text)
{
    if (show) {
        ImGui::OpenPopup(title);
        show = false;
    }
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(text);
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace

void drawMainMenu(Frame& f)
{
    View& v = f.view;
    if (ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu("File")) {
            if (ImGui::MenuItem("Open scenario...", "Ctrl+O")) v.showOpen = true;
            if (ImGui::MenuItem("Open kernel...", "Ctrl+K", false, kStartsProcesses)) v.showOpenKernel = true;
            if (kStartsProcesses)
                tooltip("Your own CUDA kernel file: compiled, run in a sandbox, stepped through, and run "
                        "again whenever you save it in your editor.");
            else
                disabledTooltip("Not in the browser: your own kernel is compiled by a C++ compiler and run in a "
                                "child process, which a web page cannot start. Use the desktop app for it.");
            if (ImGui::MenuItem("Save scenario...", "Ctrl+S")) v.showSave = true;
            if (ImGui::MenuItem("Open results...")) v.showOpenResults = true;
            if (ImGui::MenuItem("Screenshot...")) v.showScreenshot = true;
            if (ImGui::MenuItem("Copy view link", "Ctrl+L", false, f.loaded.sim != nullptr)) f.requests.copyViewLink = true;
            tooltip("Copies a link to what is shown now: the scenario, the step, the block and thread, the panels "
                    "and the theme. Put it after the '#' of the web page's address, or open it with tilescope --view "
                    "'LINK'; everyone who opens it sees this view (docs/view-links.md).");
            if (ImGui::MenuItem("Export steps...", "Ctrl+E", false, !f.busy.exporting && kStartsProcesses))
                v.showExport = true;
            if (!kStartsProcesses)
                disabledTooltip("Not in the browser: the steps are rendered by a second copy of the app, which a "
                                "web page cannot start. File > Screenshot... saves the step shown.");
            ImGui::Separator();
            if (ImGui::MenuItem("Quit")) f.requests.quit = true;
            ImGui::EndMenu();
        }
        lessonsMenu(f);
        if (ImGui::BeginMenu("View")) {
            // The family's picture only: the Matrices panel shows no convolution and the
            // Convolution panel nothing else, so the other one is neither ticked nor offered.
            const sim::Simulation* run = f.loaded.sim.get();
            const bool conv = run && sim::problemOf(run->scenario).picture == sim::Picture::Convolution;
            for (int i = 0; i < panelCount(); ++i) {
                const bool other = run && ((i == panelId("matrices") && conv) || (i == panelId("convolution") && !conv));
                bool shown = v.open[i] && !other;
                if (ImGui::MenuItem(panelTable()[i].title, nullptr, &shown, !other)) v.open[i] = shown;
                if (other)
                    disabledTooltip(conv ? "The loaded kernel is a convolution: the Convolution panel draws it."
                                         : "The loaded kernel is no convolution: the Matrices panel draws it.");
            }
            ImGui::MenuItem("Caption bar", nullptr, &v.caption);
            ImGui::Separator();
            ImGui::MenuItem("Presentation mode", "F5", &v.presentation);
            if (ImGui::MenuItem("Practice mode", "P", v.practice.on)) {
                practiceToggle(v.practice);
                if (v.practice.on && !v.presentation) v.open[panelId("practice")] = true;
            }
            bool light = v.themeKind == ThemeKind::Light;
            if (ImGui::MenuItem("Light theme (projectors)", nullptr, &light))
                v.themeKind = light ? ThemeKind::Light : ThemeKind::Dark;
            // The app re-rasterises the fonts once the slider is let go.
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
            ImGui::SliderFloat("UI scale", v.presentation ? &v.presentationScale : &v.uiScale,
                               v.presentation ? limits::kMinPresentationScale : limits::kMinUiScale, limits::kMaxUiScale,
                               "%.2fx", ImGuiSliderFlags_AlwaysClamp);
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
            // Up to the cores there are (a settings file may ask for more, up to kMaxSimThreads).
            const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
            ImGui::SliderInt("Simulation threads", &v.simThreads, 0, std::max(cores, v.simThreads),
                             v.simThreads == 0 ? "one per core" : "%d", ImGuiSliderFlags_AlwaysClamp);
            tooltip("Worker threads that simulate blocks at once (0: one per core). The figures are the same "
                    "for any number; the next simulation uses it.");
            ImGui::Separator();
            if (ImGui::MenuItem("Reset layout")) v.resetLayout = true;
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Help")) {
            if (ImGui::MenuItem("Getting started", "F1")) v.showWelcome = true;
            tooltip("The lessons in the order of PMPP's chapters, each with a sentence and a picture");
            if (ImGui::MenuItem("Keys")) v.showKeys = true;
            if (ImGui::MenuItem("Glossary")) v.showGlossary = true;
            tooltip("The field's words (TILE_WIDTH, Mds, halo cell, OP/B, ...), each in a sentence or two");
            if (ImGui::MenuItem("About TileScope")) v.showAbout = true;
            ImGui::EndMenu();
        }
        ImGui::EndMainMenuBar();
    }
    // In a browser the files come from the user's disk through the browser's file chooser.
    if (v.browserFiles && v.showOpen) {
        v.showOpen = false;
        f.requests.pickFile = PickKind::Scenario;
    }
    if (v.browserFiles && v.showOpenResults) {
        v.showOpenResults = false;
        f.requests.pickFile = PickKind::Results;
    }
    pathDialog(v.showScreenshot, "Screenshot", "Save the window, as it is now, as a PNG file:", "Save",
               v.screenshotPath, f.requests.screenshot);
    pathDialog(v.showSave, "Save scenario",
               "Save the problem, the traced block, the step, the selected thread and the\n"
               "panels shown as a scenario file (TOML) that File > Open reads back:",
               "Save", v.scenarioPath, f.requests.saveScenario);
    pathDialog(v.showOpenResults, "Open results",
               "A results file of GPU timings (tilescope-cli bench --json --out FILE writes one),\n"
               "or the name of one in assets/results; the Ladder and Roofline panels show it:",
               "Open", v.resultsPath, f.requests.openResults);
    exportDialog(f);
    openKernelDialog(f);
    openScenarioDialog(f);
    keysDialog(v.showKeys);
    textDialog(v.showAbout, "About TileScope",
               "TileScope " TILESCOPE_VERSION "\n\n"
               "Steps through the tiled CUDA kernels of Programming Massively Parallel\n"
               "Processors (ch. 4-7). The simulator runs the very kernel source the GPU runs\n"
               "and records every load, store and barrier; the views replay that record.");
}

}  // namespace ts::app
