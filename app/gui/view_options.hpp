// A view link (view_link.hpp) turned into what the app opens: the preset with the link's
// block, thread, panels and step, and the command line's options (`tilescope --view`, the
// web page's address), where a link and an option must not both say the same thing.
#pragma once
#include <string>

#include "options.hpp"
#include "view_link.hpp"
#include "web_platform.hpp"

namespace ts::app {

/// `base` (the preset the link names, or the one shown or given by --scenario when the link
/// names none) with the link's block, thread, panels and step (applyViewToPreset). Another
/// traced block than the preset's makes it a custom preset titled by describe(), without the
/// preset's narration, lesson and questions, as choosing that block in the app does
/// (presetFor). Throws ViewLinkError.
sim::Preset presetOfView(const ViewLink& v, sim::Preset base);

/// The command-line options given besides --view that a link may also set.
struct GivenOptions {
    bool scenario = false;      ///< --scenario
    bool kernelFile = false;    ///< --kernel-file
    bool schedule = false;      ///< --schedule
    bool step = false;          ///< --step
    bool exportSteps = false;   ///< --export-steps (it sets the step)
    bool theme = false;         ///< --theme
    bool presentation = false;  ///< --presentation
    bool heatmap = false;       ///< --heatmap
};

/// Applies view link `text` to `o` as the options it stands for (--scenario, --step,
/// --theme, --presentation, --heatmap, and the block, thread and panels, which have no
/// option): `o.preset` must hold the preset of --scenario (or the default) already. Throws
/// UsageError, one sentence, for a link that cannot be read or opened, and for a link that
/// sets what an option in `given` sets too ("--view and --step both give the step; give one
/// of them."). The step past the end is found once simulated, as for --step.
void applyViewLink(const std::string& text, Options& o, const GivenOptions& given);

/// The view link the platform was opened with beyond the command line (the web page's
/// address, Platform::startupViewLink; nothing on the desktop), applied to `o` as --view is
/// (`o.preset` must hold the default preset already). A bad link leaves `o` as it was and
/// returns its sentence, for the caption bar (Options::startNotice); else "".
std::string applyStartupViewLink(Platform& platform, Options& o);

}  // namespace ts::app
