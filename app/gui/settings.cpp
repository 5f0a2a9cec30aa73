#include "settings.hpp"

#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "panels/panel_table.hpp"

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

Settings loadSettings(const std::string& path, std::string& error)
{
    Settings s;
    if (path.empty() || !std::filesystem::exists(path)) return s;
    toml::table t;
    try {
        t = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        error = path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()) +
                " (settings ignored).";
        return s;
    }
    if (auto theme = t["theme"].value<std::string>()) {
        if (*theme == "light") s.theme = ThemeKind::Light;
        else if (*theme != "dark") error = path + ": theme must be 'dark' or 'light'; got '" + *theme + "'.";
    }
    auto scale = [&](const char* key, float lo, float& out) {
        if (auto v = t[key].value<double>()) {
            if (*v >= lo && *v <= limits::kMaxUiScale) out = static_cast<float>(*v);
            else error = path + ": " + key + " must be between " + std::to_string(lo) + " and " +
                         std::to_string(limits::kMaxUiScale) + "; got " + std::to_string(*v) + ".";
        }
    };
    scale("ui_scale", limits::kMinUiScale, s.uiScale);
    scale("presentation_scale", limits::kMinPresentationScale, s.presentationScale);
    if (auto c = t["caption"].value<bool>()) s.caption = *c;
    if (const toml::table* panels = t["panels"].as_table())
        for (int i = 0; i < panelCount(); ++i)
            if (auto v = (*panels)[panelTable()[i].title].value<bool>()) s.open[i] = *v;
    return s;
}

std::string saveSettings(const Settings& s, const std::string& path)
{
    toml::table panels;
    for (int i = 0; i < panelCount(); ++i) panels.insert(panelTable()[i].title, static_cast<bool>(s.open[i]));
    toml::table t{{"theme", s.theme == ThemeKind::Light ? "light" : "dark"},
                  {"ui_scale", static_cast<double>(s.uiScale)},
                  {"presentation_scale", static_cast<double>(s.presentationScale)},
                  {"caption", s.caption},
                  {"panels", panels}};
    std::ofstream out(path);
    out << t << "\n";
    if (!out) return "Cannot write the settings to '" + path + "' (is the folder writable?).";
    return {};
}

}  // namespace ts::app
