// Hand-written narration tied to an event of the trace rather than to a step number: a
// scenario file's [[narrate]] table says which step its line belongs to ("the store of P",
// "the barrier of phase 1", "the second load of N_ds"), and the line lands on the step of
// the trace where that happens (docs/cli.md, "Scenario file narration").
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One [[narrate]] table of a scenario file: `text` belongs to the `nth` step (1 = the
/// first) of the trace whose kind is `kind`, that touches the array named `array` (any when
/// empty), in phase `phase` and inner-loop iteration `iteration` (any when unset).
struct NarrationAnchor {
    std::string at;                    ///< as the file writes it: "load M", "barrier", "use", "store P"
    StepKind kind = StepKind::Other;   ///< at's first word
    std::string array;                 ///< at's second word, or ""
    std::optional<int> phase;          ///< Step::phase (0 is the first phase)
    std::optional<int> iteration;      ///< Step::iteration (a 2D mask's element i*Mask_Width + j)
    int nth = 1;                       ///< which of the steps that match, 1 for the first
    std::string text;                  ///< the line shown in the caption
    int line = 0;                      ///< the table's line in the file, for messages
};

/// The words an anchor's `at` starts with: "load", "use", "barrier", "store", "other".
const char* anchorKinds();

/// Reads `at` ("load", "load M", "use", "use Mds", "barrier", "store P", "other") into
/// `a.at`, `a.kind` and `a.array`. Returns "" or one sentence saying what is wrong.
std::string parseAnchorAt(std::string_view at, NarrationAnchor& a);

/// Whether step `s` of `t` is one `a` describes, nth aside: its kind, the array (some event
/// of the step reads or writes an array of that name), its phase and iteration.
bool anchorMatches(const NarrationAnchor& a, const Trace& t, const Step& s);

/// The step of `t` that `a` lands on, or -1 with `why` set to one sentence (no step
/// matches; fewer than nth do) without the file and line.
int resolveAnchor(const NarrationAnchor& a, const Trace& t, std::string* why = nullptr);

/// `a`'s conditions in the file's words: `at = "load M", phase = 1, nth = 2`.
std::string describeAnchor(const NarrationAnchor& a);

}  // namespace ts::sim
