// settings.toml as text: its values read and checked apart from the panel table, the window
// and the ImGui context. loadSettings (settings.hpp) applies them to the panel table; the
// settings fuzzer (fuzz/settings_fuzz.cpp) feeds this parser arbitrary bytes.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "theme.hpp"

namespace ts::app {

/// The values a settings file gives, each one checked. A key that is absent, of another
/// type, or out of range stays empty, so that the caller keeps its default for it.
struct SettingsValues {
    std::optional<ThemeKind> theme;          ///< theme = "dark" or "light"
    std::optional<float> uiScale;            ///< ui_scale, limits::kMinUiScale..kMaxUiScale
    std::optional<float> presentationScale;  ///< presentation_scale, kMinPresentationScale..kMaxUiScale
    std::optional<bool> caption;             ///< caption = true/false
    std::optional<int> simThreads;           ///< simulation_threads, 0 (one per core) to kMaxSimThreads
    std::optional<std::string> resultsFile;  ///< results_file, a non-empty path on one line
    std::optional<std::string> kernelFile;   ///< kernel_file, a non-empty path on one line
    std::optional<bool> welcomeSeen;         ///< welcome_seen = true/false
    std::vector<std::pair<std::string, bool>> panels;   ///< [panels] title = shown, in file order
};

/// Parses the text of a settings file; `path` names it in messages. A TOML syntax error
/// gives no values and one sentence in `error` ("PATH:LINE: ... (settings ignored)."); a
/// value of the right type out of its range is left out and named in `error` (the last
/// such problem, one sentence). `error` is left alone when all is well. Never throws.
SettingsValues parseSettingsText(std::string_view text, const std::string& path, std::string& error);

}  // namespace ts::app
