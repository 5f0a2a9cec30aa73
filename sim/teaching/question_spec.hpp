// What a practice question asks about, before its answer is computed: its kind and its
// target (block, thread, phase, step, element, barrier, ...). A scenario file's [[question]]
// tables and the generator (sim/teaching/questions.hpp) both produce these. Plain data, cheap to
// include (sim/files/scenario_file.hpp holds a preset's fixed questions). No UI.
#pragma once
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/types.hpp"

namespace ts::sim {

/// The kinds of practice question (docs/cli.md, "tilescope-cli questions"). Each applies only
/// to some kernels (questionKindApplies()).
enum class QuestionKind : uint8_t {
    MdsLoads,              ///< "mds-loads": elements of M a thread loads into Mds in a phase
    NdsLoads,              ///< "nds-loads": elements of N a thread loads into Nds / N_ds in a phase
    BlockTile,             ///< "block-tile": elements of M or N a block loads in a phase
    NdsSlot,               ///< "nds-slot": the slot of Nds / N_ds a thread writes
    IndexValue,            ///< "index-value": an index expression's value for a thread at a step
    ElementReaders,        ///< "element-readers": the threads of a block that use an input element
    HaloCells,             ///< "halo-cells": a convolution block's halo cells (inside N)
    GhostCells,            ///< "ghost-cells": a convolution block's ghost cells (outside N)
    DroppedBarrierHazard,  ///< "dropped-barrier-hazard": the hazard a dropped barrier causes
    BlockGlobalLoads,      ///< "block-global-loads": a block's global loads
    OccupancyBlocks,       ///< "occupancy-blocks": blocks per SM
    OccupancyLimiter,      ///< "occupancy-limiter": the resource that limits the blocks per SM
    DivergentWarps,        ///< "divergent-warps": warps that split at a reduction tree's branch, one level
    TreeSlot,              ///< "tree-slot": the element a thread writes in one level of a reduction tree
    ScanAdds,              ///< "scan-adds": the adds a scan's block has made once one level is done
};

/// Every kind, in the order above (the order the CLI lists them in).
const std::vector<QuestionKind>& questionKinds();
/// The kind's name as the CLI and scenario files spell it ("mds-loads", ...).
const char* questionKindName(QuestionKind k);
/// The kind called `name`, or none.
std::optional<QuestionKind> findQuestionKind(std::string_view name);
/// "mds-loads, nds-loads, ..., occupancy-limiter": every kind's name, for messages.
std::string questionKindList();

/// The scenario-file keys a kind's target takes besides kind and step, which every kind
/// takes: {"block", "thread", "phase"} for mds-loads, {"barrier"} for
/// dropped-barrier-hazard, {"profile", "block_threads", "regs_per_thread", "smem_per_block"}
/// for the occupancy kinds, ...
std::vector<std::string> questionTargetKeys(QuestionKind k);

/// A position in a matrix or a tile: row and column (row 0 for 1D arrays). For a thread,
/// row is ty and col is tx. Ordered row-major.
struct Cell {
    int row = 0, col = 0;
    auto operator<=>(const Cell&) const = default;
};

/// One question's kind and target. What a kind needs (questionTargetKeys() lists
/// the keys): mds-loads / nds-loads: block, thread, phase; block-tile:
/// block, phase, array; nds-slot: block, thread, phase (and, in 1D tiled convolution, the
/// element the thread stores); index-value: block, thread, step, expression;
/// element-readers: block, element; halo-cells, ghost-cells, block-global-loads: block;
/// dropped-barrier-hazard: barrier; occupancy-*: nothing (the scenario's [occupancy] table
/// or the kernel's own block, each overridable); divergent-warps: block, step (the level of
/// the tree running there); tree-slot: block, thread, step; scan-adds: block, step (the level
/// of the scan's network running there).
struct QuestionSpec {
    QuestionKind kind = QuestionKind::BlockGlobalLoads;
    std::optional<Uint3> block;       ///< (bx, by)
    std::optional<Uint3> thread;      ///< (tx, ty) within the block
    std::optional<int> phase;         ///< the tiled loop's phase, from 0
    /// The step of the block's trace: index-value evaluates there; other kinds are asked
    /// there in the app (the step that shows the answer). Counted from 0.
    std::optional<int> step;
    std::optional<Cell> element;      ///< an element of the input N (convolution), row 0 in 1D
    unsigned barrier = 0;             ///< ts::kernels::Barrier bit (AFTER_LOAD, AFTER_COMPUTE)
    std::string array;                ///< block-tile: "M" or "N"
    std::string expression;           ///< index-value: as written in the kernel, "ph*TILE_WIDTH + tx"
    // Occupancy: each left out comes from the scenario's [occupancy] table, else from the
    // textbook profile and the kernel's own block (threads, static shared memory).
    std::string profile;              ///< "textbook", "sm_75" ... "sm_90"
    std::optional<int> blockThreads, regsPerThread, smemPerBlock;
    /// The line of the [[question]] table in its scenario file; 0 for a generated question.
    int line = 0;

    bool operator==(const QuestionSpec&) const;
};

}  // namespace ts::sim
