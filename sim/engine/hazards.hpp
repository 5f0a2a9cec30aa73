// Hazards: two accesses to one slot by different threads of a block with no barrier between
// them, at least one a write. A slot of shared memory (the barriers of PMPP Fig. 5.9, sec. 5.4:
// a missing first __syncthreads() gives read-after-write, a missing second one write-after-
// read), or an element of a global array the kernel writes (a plain read-modify-write such as
// `histo[b]++`, PMPP sec. 9.2; Machine::globalSlots). Two atomics on one slot are no hazard.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/engine/types.hpp"

namespace ts::sim {

/// The kind of a hazard between two accesses to one slot by different threads with no
/// barrier between them, named by their order in the PROGRAM (each access's position among
/// its own thread's shared accesses since the last barrier), not by which thread the
/// schedule happened to run first: like racecheck on a GPU, whose warps run in lockstep.
enum class HazardKind : uint8_t {
    RAW,  ///< the write comes before the read in program order (a true dependence)
    WAR,  ///< the read comes before the write in program order (a false dependence)
    WAW,  ///< two writes
};

const char* hazardName(HazardKind k);

/// One access of a hazard pair.
struct HazardAccess {
    uint16_t thread = kNoThread;   ///< linear thread index in the block
    unsigned line = 0;             ///< source line in the kernel file
    bool write = false;
    uint32_t seq = 0;              ///< Event::seq of the access (traced block only)
    uint32_t ordinal = 0;          ///< its thread's shared accesses before it since the barrier
};

/// One hazard of the traced block: both accesses, in program order.
struct Hazard {
    HazardKind kind;
    uint8_t array;
    int32_t slot;
    HazardAccess first, second;
};

/// Hazards summed over the whole grid, grouped like compute-sanitizer's racecheck
/// summary: by kind and the two source lines.
struct HazardSite {
    HazardKind kind;
    uint8_t array;
    unsigned firstLine, secondLine;
    uint64_t count = 0;                 ///< hazardous access pairs at these lines
    Uint3 exampleBlock;                 ///< where the first one happened
    uint16_t exampleFirst = 0, exampleSecond = 0;  ///< its threads
};

/// Reads of a shared slot that no thread of the block had written before: uninitialised
/// shared memory (a load the kernel forgot, such as a halo it never fetched), summed over
/// the grid by array and line.
struct UninitialisedSite {
    uint8_t array;
    unsigned line;
    uint64_t count = 0;                 ///< such reads at this line
    Uint3 exampleBlock;                 ///< where the first one happened
    uint16_t exampleThread = 0;         ///< its thread (linear index in the block)
    int32_t exampleSlot = 0;            ///< the slot it read (row-major)
};

/// What is wrong with a hand-over between blocks through a flag in global memory (PMPP sec.
/// 11.7's single-pass scan: a block stores its partial sum, then sets a flag with an atomic;
/// the next block waits on the flag, then reads the sum).
enum class OrderKind : uint8_t {
    /// No __threadfence() between the data's store and the flag's atomic, and another block
    /// waited on that flag: the GPU may make the flag visible before the data.
    NoFence,
    /// Another block read the handed-over data with a plain load after the flag: the GPU may
    /// serve it from its SM's L1 cache, a copy older than the store (read it through a
    /// `volatile` pointer or an atomic).
    PlainRead,
};

/// One kind of faulty hand-over between blocks, summed over the launch by its source lines.
/// The simulator runs such blocks one at a time, so its own result is right either way: these
/// say what the hardware does not promise (sim/engine/context.hpp, Machine::orderChecks).
struct OrderSite {
    OrderKind kind = OrderKind::NoFence;
    uint8_t dataArray = kNoArray, flagArray = kNoArray;
    unsigned storeLine = 0;    ///< the data's store
    unsigned flagLine = 0;     ///< the atomic that set the flag
    unsigned readLine = 0;     ///< NoFence: the other block's wait on the flag; PlainRead: its plain load
    uint64_t count = 0;        ///< hand-overs at these lines
    Uint3 writerBlock, readerBlock;       ///< the first one's blocks
    long long dataIndex = -1, flagIndex = -1;   ///< and elements
};

/// One line per site ("no __threadfence() between the store of scan_value[1] at line 52 and
/// ..."), or "" when `sites` is empty.
std::string orderReport(const std::vector<OrderSite>& sites, const std::vector<ArrayInfo>& arrays);

/// What the hazard detector found in one launch.
struct HazardLog {
    uint64_t raw = 0, war = 0, waw = 0;
    uint64_t uninitialised = 0;         ///< reads of never-written shared slots
    std::vector<UninitialisedSite> uninitialisedSites;   ///< in the order first met
    std::vector<HazardSite> sites;      ///< sorted by kind, then lines
    std::vector<Hazard> traced;         ///< the traced block's, in order (capped)
    static constexpr size_t kMaxTraced = 100000;

    /// A racecheck-like report: one line per site, then the totals.
    std::string report(const std::vector<ArrayInfo>& arrays, const Dim3& blockDim) const;
};

/// Per-slot bookkeeping of the detector: the last write and the reads since the last
/// barrier. Epochs number the barrier intervals of the whole launch.
struct SlotState {
    uint32_t writeEpoch = 0;
    uint32_t readEpoch = 0;
    uint16_t writer = kNoThread;
    uint16_t reader = kNoThread;        ///< first reader in readEpoch
    uint16_t otherReader = kNoThread;   ///< a second, different reader, if any
    uint16_t writeLine = 0, readLine = 0, otherReadLine = 0;
    uint32_t writeSeq = 0, readSeq = 0, otherReadSeq = 0;
    uint32_t writeOrd = 0, readOrd = 0, otherReadOrd = 0;
    /// The write of writeEpoch was an atomic (SharedRefOf::atomic): another thread's atomic
    /// on the slot is no hazard with it.
    bool atomicWrite = false;
};

/// Sets kStale on the shared reads of `events` (one block, in execution order) that got an
/// old value: another thread wrote the slot later in the same barrier interval, or the slot
/// was never written (NaN). Exact, unlike the detector's per-slot summary.
void markStaleReads(std::vector<Event>& events);

}  // namespace ts::sim
