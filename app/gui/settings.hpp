// Settings that persist between runs: the theme, the UI scale, the panels shown, the
// caption bar, the last results and kernel files opened, and whether the welcome was seen. Stored as TOML (settings.toml) in the XDG config folder, next to imgui.ini
// which keeps the window layout.
#pragma once
#include <string>

#include "options.hpp"
#include "state.hpp"
#include "theme.hpp"

namespace ts::app {

/// What the user chose, as saved.
struct Settings {
    ThemeKind theme = ThemeKind::Dark;
    float uiScale = 1.0f;                 ///< limits::kMinUiScale..kMaxUiScale
    float presentationScale = 2.0f;       ///< UI scale in presentation mode, limits::kMinPresentationScale..kMaxUiScale
    PanelFlags open = defaultPanels();    ///< keyed by PanelInfo::title in the file
    bool caption = true;
    int simThreads = 0;                   ///< 0: one per core; else 1..limits::kMaxSimThreads
    /// The results file opened last (File > Open results..., --results), an absolute path;
    /// "" for none. The app opens it again at start when no --results is given.
    std::string resultsFile;
    /// The kernel file opened last (File > Open kernel..., --kernel-file), as typed; "" for
    /// none. The Open kernel dialog starts from it.
    std::string kernelFile;
    /// The welcome window (Help > Getting started) has been shown once: it is not opened at
    /// start again. settings.toml's welcome_seen.
    bool welcomeSeen = false;
};

/// $XDG_CONFIG_HOME/tilescope (or ~/.config/tilescope), created if missing; "" when there
/// is no such folder and it cannot be made.
std::string configDir();

/// Reads `path`; a missing file gives the defaults. A malformed file or value gives the
/// defaults for what was wrong and one sentence naming the file and the problem in `error`.
Settings loadSettings(const std::string& path, std::string& error);

/// The settings that `text` (settings.toml's text) gives; what is malformed keeps its default
/// and gives one sentence naming `path` and the problem in `error`. Reads no file (the web
/// keeps the text in the browser's storage, web_platform.hpp).
Settings settingsFromText(const std::string& text, const std::string& path, std::string& error);

/// settings.toml's text for `s`, which settingsFromText reads back.
std::string settingsText(const Settings& s);

/// Writes `s` to `path`. Returns "" or one sentence saying why it could not.
std::string saveSettings(const Settings& s, const std::string& path);

}  // namespace ts::app
