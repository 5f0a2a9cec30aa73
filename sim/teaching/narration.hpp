// The caption's narration for every step of a trace: the preset's hand-written lines where
// they land (a [[narrate]] table's event, or the simple form's step number), and a line
// generated from the trace's events everywhere else: what the step does, to which
// elements, and why. No UI here; the caption bar and `tilescope-cli narrate` show it.
#pragma once
#include <string>
#include <vector>

#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// One step's narration and where it comes from.
struct StepNarration {
    std::string text;
    bool handWritten = false;   ///< from the scenario file; else generated from the trace
};

/// The preset's hand-written lines placed on the steps of `t`: `lines[i]` is step i's line
/// or "" (lines.size() == t.steps.size()). The simple form (`narration = [...]`) gives step
/// i its i-th line; each [[narrate]] table gives its line to the step its anchor resolves
/// to. `problems` gets one sentence, "FILE, line N: ...", per line that lands on no step
/// (its anchor matches none, or the simple form has more lines than the trace has steps)
/// and per anchor that lands on a step another already narrates (the first one keeps it).
struct PlacedNarration {
    std::vector<std::string> lines;
    std::vector<std::string> problems;
};
PlacedNarration placeNarration(const Preset& p, const Trace& t);

/// The generated line of step `step` of `s.trace` (0 <= step < steps.size()), in the
/// presets' voice: "Phase 1 of 2: the 4 threads of block (0, 0) load M[0..1][2..3] into
/// Mds; each value is then read 2 times from Mds." Every number is counted from the
/// step's events (threads, elements and their bounding ranges, zero fills, reads that
/// follow); a range is written A[r0..r1][c0..c1] only when every element in it was
/// touched, else "K elements of A within ...".
std::string generatedNarration(const Simulation& s, int step);

/// Every step of `s.trace`: the hand-written line where one lands (placeNarration), else
/// the generated one; never empty. `problems`, if given, receives placeNarration's.
std::vector<StepNarration> narrateSteps(const Preset& p, const Simulation& s,
                                        std::vector<std::string>* problems = nullptr);

}  // namespace ts::sim
