// The view link: one line of text that names what the app shows, for sharing a view
// (docs/view-links.md). The web page carries it after the '#' of its address; the desktop
// app takes it as `tilescope --view '...'` and prints it with --print-view. For example
//   preset=tiled-4x4&step=6&block=1,0&thread=1,1&panels=matrices,shared-memory&theme=light
// UI-free: it knows the simulator's presets and scenarios, not the window.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/files/scenario_file.hpp"

namespace ts::app {

/// A view link that cannot be read or names something that does not exist. what() is one
/// sentence.
struct ViewLinkError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// What a view link says; every field is optional (absent: the app's default, as for a
/// command-line option not given). The scenario is either a lecture preset by name
/// (`preset`) or spelled out as the command line and scenario files name it (`kernel` with
/// `width`, or `j`, `k` and `l`, and so on), never both.
struct ViewLink {
    std::string preset;                     ///< preset=NAME: a lecture preset (tilescope --list-scenarios)
    std::string kernel;                     ///< kernel=NAME: a registry kernel (tilescope-cli list-kernels)
    std::optional<int> width, j, k, l;      ///< width=W, or j=, k=, l= (matmul); width= of N (convolution)
    std::optional<int> height, maskWidth;   ///< height=, mask-width= (convolution)
    std::optional<int> tile;                ///< tile=: TILE_WIDTH or the block edge
    std::optional<uint64_t> seed;           ///< seed=: the input seed
    std::optional<int> launch;              ///< launch=: the traced launch of a row of several (from 1)
    std::optional<unsigned> dropBarriers;   ///< drop-barrier=after-load[,after-compute]: kernels::Barrier bits
    std::optional<sim::Schedule> schedule;  ///< schedule=in-order|reverse|random
    std::optional<uint64_t> scheduleSeed;   ///< schedule-seed= (schedule=random only)
    std::optional<int> step;                ///< step=N or step=last (-1)
    std::optional<sim::Uint3> block;        ///< block=BX,BY: the traced block
    std::optional<sim::Uint3> thread;       ///< thread=TX,TY: the selected thread in it
    std::optional<std::vector<std::string>> panels;   ///< panels=A,B: the panels shown at the desk (the app's names)
    std::optional<bool> presentation;       ///< presentation=on|off
    std::optional<std::string> theme;       ///< theme=dark|light
    std::optional<std::string> heatmap;     ///< heatmap=loads|values (the Matrices panel's colours)

    /// Whether the link names the problem (a preset, or a kernel and its sizes).
    bool namesScenario() const;
};

/// The keys a view link knows, in the order formatViewLink writes them.
const std::vector<std::string>& viewLinkKeys();

/// Reads a view link: KEY=VALUE parts joined by '&' (a leading '#', or a whole address up to
/// its '#', is skipped; %XX escapes are decoded). `panels`: the panel names the app knows
/// (empty: any name is kept unchecked); the panels are put in that list's order. Throws
/// ViewLinkError, one sentence, for an unknown key, a key given twice, a bad number, a
/// malformed value, a preset= with a path or with a kernel=, sizes without a kernel, and
/// width with j, k, l. Does not read the disk: whether the preset exists and the scenario
/// runs is checked by linkedPreset(), and a step past the end once it is simulated.
ViewLink parseViewLink(std::string_view text, const sim::PanelNames& panels = {});

/// The canonical text of `v`: its keys in viewLinkKeys() order, numbers in decimal without
/// leading zeros, presentation=off left out. parseViewLink(formatViewLink(v)) gives `v` back
/// (but presentation off); formatViewLink(parseViewLink(s)) is canonical for any good `s`.
std::string formatViewLink(const ViewLink& v);

/// The preset the link names, its scenario checked (sim::validate): the lecture preset
/// `preset`, or a preset named "custom" for a spelled-out kernel and sizes (title
/// `customTitle` of the scenario is left to the caller); std::nullopt when the link names no
/// scenario. Block, thread, panels and step are not applied (applyViewToPreset). Throws
/// ViewLinkError for an unknown preset or a scenario that cannot run; a malformed preset
/// file throws sim::ScenarioFileError.
std::optional<sim::Preset> linkedPreset(const ViewLink& v, const sim::PanelNames& panels = {});

/// Applies the link's block, thread, panels and step to preset `p` (the lecture preset or
/// scenario to open): the block must be in the grid and the thread in the block (else
/// ViewLinkError); the panels become the preset's panels, and its lesson keeps only those of
/// them. Returns whether the traced block changed from the preset's (then the preset's
/// narration belongs to another block: the caller makes it a custom preset).
bool applyViewToPreset(const ViewLink& v, sim::Preset& p);

/// The lecture preset of `presets` the scenario `s` run with `schedule` (and
/// `scheduleSeed`) is a view of: the same problem (kernel, sizes, tile, seed, dropped
/// barriers; the block may differ) and the same schedule. Among several, the one named
/// `preferred` (the preset loaded), else the first with the same traced block, else the
/// first. Null when none is.
const sim::Preset* lecturePresetOf(const sim::Scenario& s, sim::Schedule schedule, uint64_t scheduleSeed,
                                   const std::string& preferred, const std::vector<sim::Preset>& presets);

/// What the app shows, for viewLinkOf.
struct ShownView {
    sim::Scenario scenario;                 ///< as simulated (traced block included)
    sim::Schedule schedule = sim::Schedule::InOrder;
    uint64_t scheduleSeed = 1;
    int step = 0;                           ///< the cursor; below 0: no step to name
    sim::Uint3 thread{0, 0, 0};             ///< the selected thread (tx, ty)
    /// The desk's panels when they differ from what opening the link without panels= shows;
    /// std::nullopt otherwise (the caller judges that).
    std::optional<std::vector<std::string>> panels;
    bool presentation = false;
    bool light = false;                     ///< the light theme (the dark one is left out)
    std::string heatmap;                    ///< "loads", "values" or "" (state colours)
};

/// The link of view `v`: preset=NAME when `lecture` (lecturePresetOf) is not null, with
/// block= and thread= only where they differ from the preset's (its thread, or 0,0); else
/// kernel= and the sizes as a scenario file writes them (seed= other than 1, block= and
/// thread= other than 0,0, drop-barrier=, schedule= other than in-order).
ViewLink viewLinkOf(const ShownView& v, const sim::Preset* lecture);

}  // namespace ts::app
