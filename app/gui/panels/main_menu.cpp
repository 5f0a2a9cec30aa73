// The main menu (File, View, Help) and the small dialogs it opens.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "layout.hpp"
#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

void openDialog(Frame& f)
{
    View& v = f.view;
    if (v.showOpen) {
        ImGui::OpenPopup("Open scenario");
        v.showOpen = false;
    }
    if (!ImGui::BeginPopupModal("Open scenario", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("A lecture preset's name or the path of a scenario file (TOML):");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##file", &v.form.file, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::Button("Open") || enter) {
        f.requests.open = v.form.file;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void screenshotDialog(Frame& f)
{
    View& v = f.view;
    if (v.showScreenshot) {
        ImGui::OpenPopup("Screenshot");
        v.showScreenshot = false;
    }
    if (!ImGui::BeginPopupModal("Screenshot", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("Save the window, as it is now, as a PNG file:");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    const bool enter = ImGui::InputText("##png", &v.screenshotPath, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::Button("Save") || enter) {
        f.requests.screenshot = v.screenshotPath;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void saveDialog(Frame& f)
{
    View& v = f.view;
    if (v.showSave) {
        ImGui::OpenPopup("Save scenario");
        v.showSave = false;
    }
    if (!ImGui::BeginPopupModal("Save scenario", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("Save the problem, the traced block, the step, the selected thread and the\n"
                           "panels shown as a scenario file (TOML) that File > Open reads back:");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##toml", &v.scenarioPath, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::Button("Save") || enter) {
        f.requests.saveScenario = v.scenarioPath;
        ImGui::CloseCurrentPopup();
    }
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
            if (ImGui::MenuItem("Save scenario...", "Ctrl+S")) v.showSave = true;
            if (ImGui::MenuItem("Screenshot...")) v.showScreenshot = true;
            ImGui::Separator();
            if (ImGui::MenuItem("Quit")) f.requests.quit = true;
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("View")) {
            for (int i = 0; i < kPanelCount; ++i)
                ImGui::MenuItem(panelTitle(static_cast<Panel>(i)), nullptr, &v.open[i]);
            ImGui::MenuItem("Caption bar", nullptr, &v.caption);
            ImGui::Separator();
            ImGui::MenuItem("Presentation mode", "F5", &v.presentation);
            bool light = v.themeKind == ThemeKind::Light;
            if (ImGui::MenuItem("Light theme (projectors)", nullptr, &light))
                v.themeKind = light ? ThemeKind::Light : ThemeKind::Dark;
            // The app re-rasterises the fonts once the slider is let go.
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
            ImGui::SliderFloat("UI scale", v.presentation ? &v.presentationScale : &v.uiScale,
                               v.presentation ? 1.5f : 1.0f, 3.0f, "%.2fx", ImGuiSliderFlags_AlwaysClamp);
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
    openDialog(f);
    screenshotDialog(f);
    saveDialog(f);
    textDialog(v.showKeys, "Keys",
               "Space             play / pause\n"
               "Right, Page Down  next step\n"
               "Left, Page Up     previous step\n"
               "Home              first step\n"
               "End               last step\n"
               "F5                presentation mode (full screen, large text)\n"
               "Ctrl+O            open a scenario\n"
               "Ctrl+S            save the state on screen as a scenario\n\n"
               "Click a tile of P to trace that block; click a thread to select it.");
    textDialog(v.showAbout, "About TileScope",
               "TileScope " TILESCOPE_VERSION "\n\n"
               "Steps through the tiled CUDA kernels of Programming Massively Parallel\n"
               "Processors (ch. 4-7). The simulator runs the very kernel source the GPU runs\n"
               "and records every load, store and barrier; the views replay that record.");
}

}  // namespace ts::app
