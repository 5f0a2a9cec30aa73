#include "settings.hpp"

#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "panels/panel_table.hpp"
#include "settings_text.hpp"
#include "web_platform.hpp"

namespace ts::app {

std::string configDir()
{
    namespace fs = std::filesystem;
    fs::path dir;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) dir = x;
    else if (const char* h = std::getenv("HOME"); h && *h) dir = fs::path(h) / ".config";
    else return {};
    dir /= "tilescope";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? std::string() : dir.string();
}

Settings settingsFromText(const std::string& text, const std::string& path, std::string& error)
{
    Settings s;
    const SettingsValues v = parseSettingsText(text, path, error);
    if (v.theme) s.theme = *v.theme;
    if (v.uiScale) s.uiScale = *v.uiScale;
    if (v.presentationScale) s.presentationScale = *v.presentationScale;
    if (v.caption) s.caption = *v.caption;
    if (v.simThreads) s.simThreads = *v.simThreads;
    if (v.resultsFile) s.resultsFile = *v.resultsFile;
    if (v.kernelFile) s.kernelFile = *v.kernelFile;
    if (v.welcomeSeen) s.welcomeSeen = *v.welcomeSeen;
    for (const auto& [title, shown] : v.panels)
        for (int i = 0; i < panelCount(); ++i)
            if (panelTable()[i].title == title) s.open[i] = shown;
    return s;
}

Settings loadSettings(const std::string& path, std::string& error)
{
    std::string unreadable;
    const std::optional<std::string> text = readTextFile(path, unreadable);
    if (!unreadable.empty()) error = path + ": cannot be read (settings ignored).";
    return text ? settingsFromText(*text, path, error) : Settings{};
}

std::string settingsText(const Settings& s)
{
    toml::table panels;
    for (int i = 0; i < panelCount(); ++i) panels.insert(panelTable()[i].title, static_cast<bool>(s.open[i]));
    toml::table t{{"theme", s.theme == ThemeKind::Light ? "light" : "dark"},
                  {"ui_scale", static_cast<double>(s.uiScale)},
                  {"presentation_scale", static_cast<double>(s.presentationScale)},
                  {"caption", s.caption},
                  {"simulation_threads", static_cast<int64_t>(s.simThreads)},
                  {"welcome_seen", s.welcomeSeen},
                  {"panels", panels}};
    if (!s.resultsFile.empty()) t.insert("results_file", s.resultsFile);
    if (!s.kernelFile.empty()) t.insert("kernel_file", s.kernelFile);
    std::ostringstream out;
    out << t << "\n";
    return out.str();
}

std::string saveSettings(const Settings& s, const std::string& path)
{
    if (!writeTextFile(path, settingsText(s)).empty())
        return "Cannot write the settings to '" + path + "' (is the folder writable?).";
    return {};
}

}  // namespace ts::app
