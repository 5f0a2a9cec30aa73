// What the Ladder and Roofline panels share (docs/roofline.md): the roofline of the loaded
// results file (or the textbook's) rebuilt when the file or the simulator's counts change,
// figures written with thousands separated, and one colour per kernel of the ladder so that
// a rung has the same colour in both panels.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/teaching/occupancy.hpp"
#include "state.hpp"

namespace ts::app {

/// The thousands separator of the panels' figures: a narrow no-break space (U+202F), as the
/// project's documents group digits, and never a place where ImGui wraps a line (it may
/// wrap after a comma).
inline constexpr const char* kGroupSeparator = "\u202f";

/// "60 406" (`decimals` decimals, thousands separated by kGroupSeparator).
std::string thousands(double v, int decimals = 0);

/// `text` with every comma that groups the digits of a number ("1,555") replaced by
/// kGroupSeparator, so that wrapping never splits the number.
std::string groupedNoBreak(const std::string& text);

/// "262k", "1.2M": a count short enough for a slide (exact below 10,000).
std::string compactCount(uint64_t v);

/// The roofline the panels show: the loaded results file's with the simulator's counts
/// (sim::resultsRoofline), or the textbook profile. Kept between frames, rebuilt when the
/// results file or the counts change.
class RooflineSource {
public:
    /// The roofline, or nullptr while the textbook profile (which needs the counting job's
    /// small simulations) is not ready yet.
    const sim::Roofline* get(const Loaded& loaded);

private:
    uint64_t generation_ = ~0ull;
    const LadderModel* model_ = nullptr;
    bool built_ = false;
    sim::Roofline roofline_;
};

/// "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-23", or "textbook A100 profile
/// (PMPP)" when no results file is loaded.
std::string resultsCaption(const Loaded& loaded);

/// The shape of a kernel's marker on the Roofline and beside its name in the Ladder.
enum class MarkShape { Circle, Square, Diamond, TriangleUp, TriangleDown, Plus, Star };

/// A kernel's marker: its shape and colour.
struct KernelMark {
    MarkShape shape = MarkShape::Circle;
    ImU32 colour = 0;
};

/// The marker of `kernel` in both panels: each rung of the ladder and cuBLAS a pair of shape
/// and colour no other has, neighbouring rungs differing in both, a shape that comes back in
/// a colour of another lightness; the colours Okabe-Ito's hues (and a white, or on the light
/// theme darker versions and a black), 3:1 or more against the palette's chart background
/// (tests/app/chart_labels_test.cpp); anything else a grey circle. The colour alone tells the
/// kernels apart for most eyes; the shape tells them apart in grey.
KernelMark kernelMark(const std::string& kernel, const Palette& pal);

/// kernelMark(kernel, pal).colour: the kernel's colour in both panels (its bar in the Ladder).
ImU32 kernelColour(const std::string& kernel, const Palette& pal);

/// Draws marker `shape` centred on `c`, about `r` pixels from centre to edge: filled in
/// `colour` with an `edge` outline, or (`filled` false) as a `colour` outline `thickness`
/// pixels wide.
void drawMark(ImDrawList* dl, ImVec2 c, float r, MarkShape shape, ImU32 colour, bool filled, ImU32 edge, float thickness);

/// `heading` in `bold`, wrapped so that a "(?)" fits after its last line, and the "(?)"
/// that shows `help` when hovered.
void headingWithHelp(ImFont* bold, const std::string& heading, const std::string& help);

/// "matmul-tiled" -> "tiled": a rung's name without "matmul-" (for labels on a chart).
std::string shortName(const std::string& kernel);

/// One row of the Ladder panel: a result of the loaded results file, or a rung of the ladder
/// at its default tile when none is loaded.
struct LadderRow {
    std::string kernel;
    int tile = 0;
    int j = 0, k = 0, l = 0;             ///< 0: not a matrix multiplication
    std::optional<double> gflops, percent, ms;
    std::optional<int> registers;           ///< per thread, from the results file
    std::optional<int> staticSharedBytes;   ///< per block, bytes, from the results file
    std::string computeCapability;          ///< the results file's device ("9.0"), "" if none
    const sim::RungCounts* counts = nullptr;   ///< the simulator's 128^3 counts (loaded.ladder)
};

/// The rows: the results file's, in its order (a share of cuBLAS the file does not give
/// worked out against cuBLAS on the same problem), or the ladder's rungs at their default
/// tiles. The rows point into loaded.ladder's counts.
std::vector<LadderRow> ladderRows(const Loaded& loaded);

/// The Ladder panel's count cells, in its columns' order: load requests, sectors,
/// wavefronts, conflicts, FMA per shared load, threads, registers, static shared memory,
/// occupancy.
inline constexpr int kLadderColumns = 9;

/// The occupancy of a row's launches on its device: the built-in profile of the results
/// file's compute capability (sm_90 for "9.0"), the row's threads per block (simulated), its
/// registers and static shared memory (the results file). Empty where one of them is missing
/// or the profile is not built in.
std::optional<sim::Occupancy> ladderOccupancy(const LadderRow& r);

/// A row's kLadderColumns cells: the counts (compactCount on a slide, else thousands), the
/// registers ("125") and the static shared memory ("16.25 KiB") of the results file; "…"
/// while the row's counts are being made, "—" where there is no figure.
std::vector<std::string> ladderCells(const LadderRow& r, bool counting, bool slide);

/// Multiply-adds per element read from shared memory, "4.00" ("—" without shared loads).
std::string ladderFmaText(const sim::RungCounts& c);

/// Bytes as KiB: "0", "2 KiB", "16.25 KiB" (at most two decimals, trailing zeros dropped).
std::string kibibytesText(int bytes);

}  // namespace ts::app
