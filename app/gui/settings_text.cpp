#include "settings_text.hpp"

#include <toml++/toml.h>

#include "options.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/files/toml_text.hpp"

namespace ts::app {

SettingsValues parseSettingsText(std::string_view text, const std::string& path, std::string& error)
{
    SettingsValues s;
    // toml++ 3.3 must not see some characters (sim/files/toml_text.hpp).
    const sim::TomlSafeText safe = sim::tomlSafeText(text);
    if (safe.refused.line) {
        std::string reason = sim::refusalReason(safe);
        reason.pop_back();   // its full stop
        error = path + ":" + std::to_string(safe.refused.line) + ": " + reason + " (settings ignored).";
        return s;
    }
    toml::table t;
    try {
        t = toml::parse(safe.text, std::string_view(path));
    } catch (const toml::parse_error& e) {
        error = sim::oneLine(path + ":" + std::to_string(e.source().begin.line) + ": " +
                             std::string(e.description()) + " (settings ignored).");
        return s;
    }
    if (auto theme = t["theme"].value<std::string>()) {
        if (*theme == "light") s.theme = ThemeKind::Light;
        else if (*theme == "dark") s.theme = ThemeKind::Dark;
        else error = sim::oneLine(path + ": theme must be 'dark' or 'light'; got '" + *theme + "'.");
    }
    auto scale = [&](const char* key, float lo, std::optional<float>& out) {
        if (auto v = t[key].value<double>()) {
            if (*v >= lo && *v <= limits::kMaxUiScale) out = static_cast<float>(*v);
            else error = sim::oneLine(path + ": " + key + " must be between " + std::to_string(lo) + " and " +
                                      std::to_string(limits::kMaxUiScale) + "; got " + std::to_string(*v) + ".");
        }
    };
    scale("ui_scale", limits::kMinUiScale, s.uiScale);
    scale("presentation_scale", limits::kMinPresentationScale, s.presentationScale);
    if (auto c = t["caption"].value<bool>()) s.caption = *c;
    if (const toml::node* w = t.get("welcome_seen")) {
        if (auto b = w->value<bool>()) s.welcomeSeen = *b;
        else error = sim::oneLine(path + ": welcome_seen must be true or false (the welcome window shows at start while "
                                  "it is false).");
    }
    if (auto n = t["simulation_threads"].value<int64_t>()) {
        if (*n >= 0 && *n <= limits::kMaxSimThreads) s.simThreads = static_cast<int>(*n);
        else error = sim::oneLine(path + ": simulation_threads must be between 0 (one per core) and " +
                                  std::to_string(limits::kMaxSimThreads) + "; got " + std::to_string(*n) + ".");
    }
    if (auto r = t["results_file"].value<std::string>()) {
        if (!r->empty() && r->find_first_of("\n\r") == std::string::npos) s.resultsFile = *r;
        else error = sim::oneLine(path + ": results_file must be the path of a results file on one line; got '" + *r + "'.");
    }
    if (auto r = t["kernel_file"].value<std::string>()) {
        if (!r->empty() && r->find_first_of("\n\r") == std::string::npos) s.kernelFile = *r;
        else error = sim::oneLine(path + ": kernel_file must be the path of a CUDA file on one line; got '" + *r + "'.");
    }
    if (const toml::table* panels = t["panels"].as_table())
        for (auto&& [title, node] : *panels)
            if (auto v = node.value<bool>()) s.panels.emplace_back(std::string(title.str()), *v);
    return s;
}

}  // namespace ts::app
