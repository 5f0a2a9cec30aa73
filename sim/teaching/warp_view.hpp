// The warp memory instructions of one step of the traced block, lane by lane: what the
// Memory panel draws. The same model as sim/engine/warp_memory.hpp (warps of 32 lanes by linear
// thread index; one instruction per source access, barrier interval and per-lane occurrence
// of that access), rebuilt from the trace of one block instead of counted while the grid
// runs, so that each instruction keeps its lanes: the element each lane touches, its 4-byte
// word, and for global memory the 32-byte sector and 128-byte line it falls in, for shared
// memory its bank and the wavefront that serves it. The lanes are matched into instructions
// as WarpMemory::countWarp matches them (in lockstep by position; in a diverged warp by
// access, constant element read beside it and occurrence), and the totals come from
// transactionsOf(), so they are the figures the simulator counts (a unit test holds the
// two to the same sums for every preset).
//
// Also here: the lines where nvcc's instructions differ from the per-element model
// (compiledNotes()): a vector load that reads several elements per lane, an if/else whose
// two stores to one shared slot become one store instruction. Plain data, no UI.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/catalogue/scenario.hpp"
#include "sim/engine/trace.hpp"
#include "sim/engine/warp_memory.hpp"

namespace ts::sim {

/// One lane of a warp memory instruction.
struct WarpLane {
    bool active = false;          ///< the lane's thread executed the access
    uint16_t thread = kNoThread;  ///< linear thread index in the block (warp * 32 + lane)
    int32_t index = -1;           ///< element of the array (global, constant) or slot (shared)
    /// 4-byte word address: from the array's start (global, constant; every global array
    /// starts on a 256-byte boundary) or from the block's shared-memory base (shared).
    uint32_t word = 0;
    bool zeroFill = false;        ///< a shared store of the boundary check's 0
    uint32_t sector = 0;          ///< global: 32-byte sector, word / 8
    uint32_t cacheLine = 0;       ///< global: 128-byte line, word / 32
    uint32_t bank = 0;            ///< shared: word mod 32
    /// Shared: the wavefront (pass through the banks, from 0) that serves the lane's word;
    /// constant: the pass of the constant cache that serves its address.
    uint32_t wavefront = 0;
};

/// Lanes that touch one unit of memory together: a 32-byte sector (global), one word
/// (shared: one cell of a bank column; lanes sharing it are served by one broadcast;
/// constant: one address).
struct LaneGroup {
    uint32_t unit = 0;            ///< the sector (global) or the word (shared, constant)
    uint32_t lanes = 0;           ///< bit mask of the lanes
    uint32_t bank = 0;            ///< shared: the word's bank
    uint32_t wavefront = 0;       ///< shared, constant: the pass that serves it
};

/// One warp memory instruction of the traced block.
struct WarpInstruction {
    AccessKind kind = AccessKind::GlobalLoad;
    uint8_t array = kNoArray;     ///< index into Trace::arrays
    unsigned line = 0;            ///< source line in the kernel file
    bool wide = false;            ///< a 128-bit access: each lane's word is the first of four
    int interval = 0;             ///< the barrier interval (Step::interval)
    uint32_t mask = 0;            ///< active lanes
    std::array<WarpLane, kWarpLanes> lanes{};
    WarpTransactions transactions;   ///< transactionsOf(kind, mask, words)
    /// Global: one group per sector, ascending. Shared: one group per distinct word, by
    /// bank, then wavefront. Constant: one group per distinct address, by pass.
    std::vector<LaneGroup> groups;
    std::vector<uint32_t> cacheLines;   ///< global: the distinct 128-byte lines, ascending
    /// Shared: wavefronts beyond the fewest the lanes' bytes need (bank conflicts); constant:
    /// passes beyond the first; global: 0.
    uint32_t conflicts() const;
};

/// Warps of the traced block: its threads / 32, rounded up.
unsigned warpCount(const Trace& t);

/// Where each shared array starts, in 4-byte words from the block's shared-memory base, by
/// array id (0 for arrays that are not shared): the shared arrays packed in declaration
/// order (the order of Trace::arrays), as WarpMemory::sharedBase.
std::vector<uint32_t> sharedBases(const std::vector<ArrayInfo>& arrays);

/// The memory instructions of warp `warp` that step `step` of `t` executes, in program
/// order: those with at least one of their events in the step (an instruction's lanes are
/// taken from the whole barrier interval, as the simulator groups them). Empty for a
/// barrier, a step out of range or a warp without accesses in the step.
std::vector<WarpInstruction> warpInstructions(const Trace& t, int step, unsigned warp);

/// The warps that have memory instructions in step `step`, ascending.
std::vector<unsigned> warpsWithAccesses(const Trace& t, int step);

/// The traced block's warp memory figures (Totals' *_requests, *_sectors, *_wavefronts,
/// constant_ld_passes; the other fields stay 0) by step: every instruction counted once, in
/// the step of its earliest event. Summed over the steps they equal the simulator's figures
/// for the block (Counters::perBlock).
std::vector<Totals> memoryPerStep(const Trace& t);

/// "0-7, 24-31": the lanes of `mask` as ranges.
std::string laneRanges(uint32_t mask);

/// The notes (KernelInfo::compiledNotes, sim/catalogue/compiled_notes.hpp) for source line
/// `line` of scenario `s`'s kernel at its tile, found by the
/// statement's text in the kernel's source. `array` (a name) narrows them to one array
/// ("": any).
std::vector<const CompiledNote*> compiledNotesFor(const Scenario& s, unsigned line, const std::string& array = "");

}  // namespace ts::sim
