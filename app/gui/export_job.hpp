// Exports from the app's File menu: the state on screen is saved as a scenario file and
// this very binary runs `tilescope --export-steps ...` on it in a child process (offscreen,
// as from the command line), so an export at 4x or of a hundred steps never stalls the
// window and gives exactly what the command line gives.
#pragma once
#include <atomic>
#include <string>

namespace ts::app {

/// What to export (the command line's --export-steps options).
struct ExportRequest {
    std::string scenarioFile;   ///< the state on screen, saved as a scenario
    int from = 0, to = 0;       ///< steps A..B
    std::string dir;            ///< --out (created if missing)
    std::string format = "png"; ///< png, gif or svg
    std::string panel;          ///< a PanelInfo::name, or "" for the window
    float scale = 1;            ///< --scale
    int width = 1600, height = 900;   ///< --window: the app's window size
    bool presentation = false;  ///< export as presentation mode shows it
    float uiScale = 1;          ///< --ui-scale
    bool light = false;         ///< --theme light
    bool force = false;         ///< --force: overwrite the files of an earlier export
    std::string program;        ///< the tilescope binary to run; empty: this very program
};

/// What the export gave: a sentence for the caption bar, and whether it is an error.
struct ExportOutcome {
    std::string message;
    bool failed = false;
};

/// Runs the export of `r` and waits for it, storing the fraction of steps written in
/// `progress`. Never throws: every failure (no folder, a file of an earlier export in the
/// way without `force`, the child's one-sentence error, a crash) comes back as the message.
/// When `cancel` (may be null) becomes true the export is stopped (the child is sent
/// SIGTERM); the files written so far stay, and the message says how many.
ExportOutcome runExport(const ExportRequest& r, std::atomic<float>& progress,
                        const std::atomic<bool>* cancel = nullptr);

}  // namespace ts::app
