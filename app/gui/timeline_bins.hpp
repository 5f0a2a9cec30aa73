// How the Timeline draws a long trace: a trace of 1281 steps in a scrubber 600 pixels wide
// would be a barcode of sub-pixel slivers, so the steps are gathered into bins a few pixels
// wide, each drawn as the shares of its step kinds (load, use, barrier, store), and only as
// many phase labels are written as fit side by side. Pure functions, no ImGui.
#pragma once
#include <array>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::app {

/// Consecutive steps [first, end) of the trace drawn as one column of the scrubber, with how
/// many of them are of each sim::StepKind (indexed by the enum's value).
struct TimelineBin {
    int first = 0, end = 0;
    std::array<int, 5> kinds{};
};

/// The steps of `kinds` (one per step, in order) in at most `maxBins` bins of consecutive
/// steps: one step a bin when they fit, else each bin takes n / maxBins steps or one more
/// (bin i holds steps [i n / maxBins, (i + 1) n / maxBins)), so every step is in exactly one
/// bin and no bin is empty. `maxBins` below 1 counts as 1; no steps, no bins.
std::vector<TimelineBin> timelineBins(const std::vector<sim::StepKind>& kinds, int maxBins);

/// The bin that holds step `step` (clamped to the bins' steps); -1 without bins.
int binOfStep(const std::vector<TimelineBin>& bins, int step);

/// Which of the phase marks at x positions `markX` (pixels, increasing) get a label `width`
/// pixels wide written to the right of the mark: the first always, then each whose label
/// starts at least `gap` pixels after the end of the last one written and ends by `right`.
/// Returns the indices into `markX`.
std::vector<int> labelledMarks(const std::vector<float>& markX, const std::vector<float>& width, float gap, float right);

}  // namespace ts::app
