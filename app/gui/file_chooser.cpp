#include "file_chooser.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "panels/widgets.hpp"
#include "sim/files/scenario_file.hpp"
#include "theme.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/exercise.hpp"
#endif

namespace ts::app {
namespace fs = std::filesystem;

std::vector<FolderEntry> listFolder(const std::string& dir, const std::vector<std::string>& extensions,
                                    std::string& error, size_t limit)
{
    std::vector<FolderEntry> out;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        error = "Cannot read the folder '" + dir + "' (" + ec.message() + ").";
        return out;
    }
    for (; it != end && out.size() < limit; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code e2;
        if (it->is_directory(e2)) {
            out.push_back(FolderEntry{name, true});
        } else if (it->is_regular_file(e2)) {
            const bool wanted = extensions.empty() || std::any_of(extensions.begin(), extensions.end(), [&](const std::string& x) {
                                    return name.size() > x.size() && name.compare(name.size() - x.size(), x.size(), x) == 0;
                                });
            if (wanted) out.push_back(FolderEntry{name, false});
        }
    }
    std::sort(out.begin(), out.end(), [](const FolderEntry& a, const FolderEntry& b) {
        return std::make_tuple(!a.folder, a.name) < std::make_tuple(!b.folder, b.name);
    });
    return out;
}

std::vector<ExerciseChoice> listExerciseChoices(std::string& error)
{
    std::vector<ExerciseChoice> out;
#ifdef TILESCOPE_HAVE_STUDENT
    try {
        for (const student::Exercise& e : student::listExercises())
            out.push_back(ExerciseChoice{e.name, e.title, e.section, e.starter});
    } catch (const std::exception& e) {
        error = e.what();
    }
    // In the book's order: "2.4" before "3.4" before "5.4" before "5.5" ("7.4 (3rd ed.)" sorts by its number).
    auto key = [](const ExerciseChoice& c) {
        const int ch = std::atoi(c.section.c_str());
        const size_t dot = c.section.find('.');
        const int sec = dot == std::string::npos ? 0 : std::atoi(c.section.c_str() + dot + 1);
        return std::make_tuple(ch > 0 ? ch : 1000, sec, c.section, c.name);   // "(exercise 1a)" before "1b"
    };
    std::stable_sort(out.begin(), out.end(), [&](const ExerciseChoice& a, const ExerciseChoice& b) { return key(a) < key(b); });
#else
    error = "This build has no exercises: it was built without libclang, which a kernel file needs.";
#endif
    return out;
}

std::string copyStarter(const ExerciseChoice& e, const std::string& dir)
{
    const fs::path to = fs::path(dir) / (e.name + ".cu");
    std::error_code ec;
    if (fs::exists(to, ec))
        throw std::runtime_error("There is already a file '" + to.string() + "': open it, or choose another folder.");
    fs::copy_file(e.starter, to, ec);
    if (ec) throw std::runtime_error("Cannot copy the starter to '" + to.string() + "' (" + ec.message() + ").");
    return to.string();
}

void browseTo(FolderBrowser& b, const std::string& dir)
{
    std::error_code ec;
    fs::path p = dir.empty() ? fs::current_path(ec) : fs::absolute(dir, ec);
    if (ec) p = dir;
    b.dir = p.lexically_normal().string();
    if (b.dir.size() > 1 && b.dir.back() == '/') b.dir.pop_back();
    b.typedDir = b.dir;
    b.stale = true;
}

bool drawFolderBrowser(FolderBrowser& b, std::string& path, float height)
{
    if (b.dir.empty()) browseTo(b, "");
    if (b.stale) {
        b.error.clear();
        b.entries = listFolder(b.dir, b.extensions, b.error);
        b.stale = false;
    }
    const float em = ImGui::GetFontSize();
    if (ImGui::Button("Up")) browseTo(b, fs::path(b.dir).parent_path().string());
    tooltip("The folder above");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::InputText("##folder", &b.typedDir, ImGuiInputTextFlags_EnterReturnsTrue)) browseTo(b, b.typedDir);
    tooltip("The folder shown; type another and press Enter");
    bool open = false;
    if (ImGui::BeginListBox("##entries", ImVec2(-FLT_MIN, height - ImGui::GetFrameHeightWithSpacing()))) {
        if (!b.error.empty()) colouredText(currentPalette().error, b.error);
        else if (b.entries.empty()) ImGui::TextDisabled("No folders or matching files here.");
        for (const FolderEntry& e : b.entries) {
            const std::string full = (fs::path(b.dir) / e.name).string();
            if (e.folder) {
                if (ImGui::Selectable((e.name + "/").c_str())) {
                    browseTo(b, full);
                    break;   // the listing changed
                }
            } else {
                if (ImGui::Selectable(e.name.c_str(), path == full, ImGuiSelectableFlags_AllowDoubleClick)) {
                    path = full;
                    if (ImGui::IsMouseDoubleClicked(0)) open = true;
                }
            }
        }
        ImGui::EndListBox();
    }
    (void)em;
    return open;
}

}  // namespace ts::app
