// The main menu (File, View, Help) and the small dialogs it opens.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "options.hpp"
#include "panels.hpp"
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

/// The .cu files in the folder of `path` (the current folder when it names none), sorted;
/// at most 200.
std::vector<std::string> kernelFilesBeside(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    std::vector<std::string> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && files.size() < 200; it.increment(ec))
        if (it->path().extension() == ".cu" && it->is_regular_file(ec))
            files.push_back((path.find('/') == std::string::npos ? it->path().filename() : it->path()).string());
    std::sort(files.begin(), files.end());
    return files;
}

/// File > Open kernel...: a path field (the last file opened, from settings.toml), the .cu
/// files beside it to pick from, and why the last one did not build.
void openKernelDialog(Frame& f)
{
    View& v = f.view;
    static std::vector<std::string> beside;   // read when the dialog opens, not every frame
    const char* title = "Open kernel";
    if (v.showOpenKernel) {
        ImGui::OpenPopup(title);
        v.showOpenKernel = false;
        beside = kernelFilesBeside(v.kernelPath);
    }
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const float em = ImGui::GetFontSize();
    ImGui::TextUnformatted("Your own kernel: a plain CUDA file with one __global__ kernel (docs/student-kernels.md).\n"
                           "TileScope compiles it, runs it in a sandbox, then steps through it,\n"
                           "and compiles and runs it again whenever you save it in your editor.");
    ImGui::SetNextItemWidth(em * 30);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##kernel-path", &v.kernelPath, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!beside.empty()) {
        ImGui::TextUnformatted("CUDA files in that folder:");
        if (ImGui::BeginListBox("##beside", ImVec2(em * 30, std::min<float>(8, static_cast<float>(beside.size())) *
                                                             ImGui::GetTextLineHeightWithSpacing() + em * 0.5f))) {
            for (const std::string& file : beside) {
                if (ImGui::Selectable(file.c_str(), file == v.kernelPath)) v.kernelPath = file;
                // The file opened last is in view when the dialog opens.
                if (file == v.kernelPath && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
            }
            ImGui::EndListBox();
        }
    }
    if (!v.kernelOpenError.empty()) {
        ImGui::PushTextWrapPos(em * 30);
        colouredText(f.theme.palette.error, v.kernelOpenError);
        ImGui::PopTextWrapPos();
    }
    ImGui::BeginDisabled(v.kernelPath.empty() || f.busy.compiling);
    if (ImGui::Button(f.busy.compiling ? "Compiling..." : "Open") || (enter && !v.kernelPath.empty() && !f.busy.compiling)) {
        f.requests.openKernel = v.kernelPath;
        v.kernelOpenError.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
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
        if (ImGui::BeginMenu("View")) {
            // The family's picture only: the Matrices panel shows no convolution and the
            // Convolution panel nothing else, so the other one is neither ticked nor offered.
            const sim::Simulation* run = f.loaded.sim.get();
            const bool conv = run && sim::isConvolution(run->scenario);
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
            if (ImGui::MenuItem("Keys")) v.showKeys = true;
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
    pathDialog(v.showOpen, "Open scenario", "A lecture preset's name or the path of a scenario file (TOML):", "Open",
               v.form.file, f.requests.open);
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
    textDialog(v.showKeys, "Keys",
               "Space             play / pause\n"
               "Right, Page Down  next step\n"
               "Left, Page Up     previous step\n"
               "Home              first step\n"
               "End               last step\n"
               "[ and ]           previous / next warp (Memory panel)\n"
               "F5                presentation mode (full screen, large text)\n"
               "Esc               leave presentation mode\n"
               "Ctrl+O            open a scenario\n"
               "Ctrl+K            open your own kernel file (.cu)\n"
               "Ctrl+S            save the state on screen as a scenario\n"
               "Ctrl+E            export steps as PNG, GIF or SVG\n"
               "Ctrl+L            copy the view link (scenario, step, block, panels)\n"
               "P                 practice mode: a question before each step\n"
               "Enter             practice: reveal the answer (digits, Backspace: type it)\n"
               "R                 practice: restart (score 0 of 0, first step)\n\n"
               "Click a tile of P to trace that block; click a thread to select it.\n"
               "In practice mode a click on a cell adds it to the answer, or takes it back.");
    textDialog(v.showAbout, "About TileScope",
               "TileScope " TILESCOPE_VERSION "\n\n"
               "Steps through the tiled CUDA kernels of Programming Massively Parallel\n"
               "Processors (ch. 4-7). The simulator runs the very kernel source the GPU runs\n"
               "and records every load, store and barrier; the views replay that record.");
}

}  // namespace ts::app
