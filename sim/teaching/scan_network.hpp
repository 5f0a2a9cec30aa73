// A scan's network read from the trace of one block (PMPP Figs. 11.2, 11.4 and 11.6): at each
// barrier interval, which thread added which elements into which slot, the threads active,
// and the work (adds) and steps (the levels' adds one after the other) against the sequential
// scan's n - 1 adds. Built from the recorded events alone, so it holds for a student's scan as
// for the registry's. No UI.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One store into the scan's array: thread `thread` wrote slot `target` from `sources` (the
/// slots of the same array it loaded for the statement, in load order) and `others` elements
/// of global arrays (the input X). An add has two operands or more; a copy one (the double
/// buffer's threads below the stride, a load from X). Loads of other shared arrays (an index
/// such as the single-pass scan's bid_s) are no operands.
struct ScanOp {
    uint16_t thread = 0;
    int target = 0;
    std::vector<int> sources;
    int others = 0;
    uint32_t seq = 0;        ///< the store's position in execution order
    bool add() const { return sources.size() + static_cast<size_t>(others) >= 2; }
};

/// One level of the network: the stores of one barrier interval.
struct ScanLevel {
    int interval = 0;
    int firstStep = -1;              ///< the trace step of its first store
    std::vector<ScanOp> ops;         ///< in execution order
    int adds = 0;                    ///< ops that add
    int activeThreads = 0;           ///< threads that add in it
    /// The most adds one thread makes in it, one after the other: 1 for a level of
    /// Kogge-Stone or Brent-Kung, n - 1 for the sequential scan's one level.
    int steps = 0;
    /// The distance from each add's target to its farthest source when every add of the
    /// level has the same (Kogge-Stone's and Brent-Kung's stride); 0 when they differ.
    int stride = 0;
};

/// The network of the traced block.
struct ScanNetwork {
    int array = -1;                  ///< the array the scan runs in (trace.arrays index)
    int size = 0;                    ///< its elements (both halves of a double buffer)
    int section = 0;                 ///< the elements scanned: size, or size / 2 for two halves
    bool doubleBuffer = false;       ///< a 2-row array whose rows swap roles each level
    std::vector<ScanLevel> levels;   ///< intervals with stores into the array, in order
    /// Adds in all, and the steps they take with a thread for every element (the levels'
    /// steps summed: log2 n for Kogge-Stone, 2 log2 n - 1 for Brent-Kung, n - 1 in sequence).
    uint64_t adds = 0;
    int steps = 0;
    /// The adds done up to and including trace step `step`.
    uint64_t addsBefore(int step) const;
    /// The level running at trace step `step` (the last level whose first step is at or
    /// before it), or -1.
    int levelAt(int step) const;
};

/// The network of `t`: the array whose stores most often add (two operands or more, at least
/// one from the array itself); each thread's loads since its previous store are the operands
/// of that store, whatever barriers lie between (Kogge-Stone's `temp`). One level per barrier
/// interval that stores into the array. Empty (array -1) when no store of the block adds.
ScanNetwork scanNetwork(const Trace& t);

/// PMPP's work for a scan of n elements: n - 1 adds in sequence, n log2 n - (n - 1) for
/// Kogge-Stone, 2n - 2 - log2 n for Brent-Kung (n a power of two).
uint64_t sequentialScanAdds(uint64_t n);
uint64_t koggeStoneAdds(uint64_t n);
uint64_t brentKungAdds(uint64_t n);

}  // namespace ts::sim
