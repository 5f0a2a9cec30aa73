// A reduction tree read from the trace of one block (PMPP Figs. 10.7 and 10.8): at each
// barrier interval, which thread added which element into which, and how the lanes of each
// warp went at the tree's branch. Built from the recorded events alone (the stores, the
// loads of the statement that made them, the x.branch events), so it holds for any kernel
// that sums in place over barrier intervals, not only the registry's. No UI.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One store of a level: thread `thread` wrote element `target` of the tree's array with a
/// value computed from the loads of its statement: `source` of the same array (the partner
/// it added, -1 if none), or elements of other arrays (a leaf fill from the input,
/// `fromOther`).
struct TreeAdd {
    uint16_t thread = 0;
    int target = 0;
    int source = -1;
    bool fromOther = false;
};

/// A warp at the tree's branch in one level: the lanes that evaluated it and those that took
/// it (bit per lane); divergent when some but not all active lanes took it.
struct TreeWarp {
    unsigned warp = 0;
    uint32_t active = 0;
    uint32_t taken = 0;
    bool divergent() const { return taken != 0 && taken != active; }
};

/// One level of the tree: the barrier interval it ran in and the first trace step of it.
struct TreeLevel {
    int interval = 0;
    int firstStep = -1;
    std::vector<TreeAdd> adds;          ///< in thread order
    unsigned branchLine = 0;            ///< the tree's branch (0: none marked)
    std::vector<TreeWarp> warps;        ///< the warps that evaluated it, in warp order
    /// The distance between the elements a level adds (the stride), when every add of the
    /// level has the same one; 0 otherwise (a leaf fill, or a level of mixed distances).
    int stride = 0;
    /// A warp shuffle, not stores: each add is a lane (`thread`, `target` its thread index)
    /// adding the register of the lane `source` (as a thread index) hands it. Its elements
    /// are the lanes' registers, drawn over the elements of the same index, where the lanes
    /// took their partial sums from.
    bool shuffle = false;
    /// A shuffle down: the lanes that received another lane's value, of which `adds` keeps
    /// those below the stride, whose sums go on toward lane 0 (the tree); 0 otherwise.
    int lanes = 0;
    int divergentWarps() const;
};

/// The tree of the traced block.
struct ReductionTree {
    int array = -1;                     ///< the array the tree sums in (trace.arrays index)
    int size = 0;                       ///< its elements
    std::vector<TreeLevel> levels;      ///< intervals with stores into it, in order
    /// The level running at trace step `step` (the last level whose first step is at or
    /// before it), or -1.
    int levelAt(int step) const;
};

/// The tree of `t`: the array (global or shared) that the most stores of the block go to
/// after the first interval that writes it, and one level per interval with stores into it;
/// then one level per step of warp shuffles (Op::Shuffle), a warp's finish in registers
/// (kernels/reduction_shuffle.cuh). Levels are in step order. Empty (array -1) when no
/// interval stores into one array twice over (not a tree).
ReductionTree reductionTree(const Trace& t);

}  // namespace ts::sim
