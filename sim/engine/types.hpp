// Plain data types of the simulator: dimensions, events, counters. No UI, no CUDA.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts::sim {

/// CUDA's uint3: a thread or block index.
struct Uint3 {
    unsigned x = 0, y = 0, z = 0;
};

/// CUDA's dim3: a grid or block extent (every component at least 1).
struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    unsigned long long count() const { return 1ull * x * y * z; }
};

/// What one recorded event did.
enum class Op : uint8_t {
    GlobalLoad,   ///< element read from global memory
    GlobalStore,  ///< element written to global memory
    SharedLoad,   ///< slot read from shared memory
    SharedStore,  ///< slot written in shared memory with a value loaded from memory
    ZeroFill,     ///< slot set to 0 instead of loaded (out of range / ghost)
    ConstantLoad, ///< element read from constant memory
    Barrier,      ///< a block-wide barrier completed (every thread had arrived)
    Fma,          ///< one fused multiply-add into a register accumulator
    /// A thread evaluated a branch condition marked with x.branch() (an `if`, a loop's
    /// condition): value 1 if it took the branch, 0 if not; no element. The warp's lanes
    /// that evaluated it together are the events of the same line and occurrence.
    Branch,
    /// An atomic read-modify-write of a global element (x.atomicAdd and its kin, PMPP sec.
    /// 9.3 and 10.7): `value` is the element after it, `origin` holds the bit pattern of
    /// the element before it (the value the call returns; originArray stays kNoArray). Its
    /// position among the events is its order in the schedule.
    Atomic,
    /// A lane received a value through a warp shuffle (x.shfl_sync and its kin, CUDA's
    /// __shfl_*_sync): `value` is what it received (an integer shuffled as its value),
    /// `index` the lane it came from (its own lane when the shuffle left it its own value);
    /// no array. The lanes of one shuffle are consecutive events of the same line.
    Shuffle,
};

/// Which memory an array lives in.
enum class Space : uint8_t { Global, Shared, Constant };

/// A row and a column of a matrix.
struct RowCol {
    int row = 0, col = 0;
};

/// One array the kernel touched, as the views and counters name it. An event's index, the
/// element counters and the replay's elements are by flat index: the element's offset in
/// memory, which for a column-major array is not row*cols + col; flat() and rowCol() turn
/// one into the other.
struct ArrayInfo {
    std::string name;   ///< the kernel's own name: "M", "Mds", ...
    Space space = Space::Global;
    int rows = 1;       ///< 1 for 1D arrays
    int cols = 1;
    /// Stored column by column: element (r, c) at offset c*rows + r (the N of a kernel
    /// whose KernelInfo::nColumnMajor is set, PMPP sec. 6.1). Row-major otherwise.
    bool columnMajor = false;
    /// Bytes of one element in memory: 4 (float, int, unsigned), or 1 for a char array (PMPP
    /// ch. 9's text), whose 32 consecutive elements are one 32-byte sector.
    uint8_t elementBytes = 4;
    int size() const { return rows * cols; }
    /// The 4-byte word of memory that element `i` lies in, the warp memory model's unit.
    uint32_t wordOf(long long i) const { return static_cast<uint32_t>(elementBytes == 1 ? i >> 2 : i); }
    /// The flat index (offset in memory) of element (row, col).
    long long flat(int row, int col) const
    {
        return columnMajor ? 1ll * col * rows + row : 1ll * row * cols + col;
    }
    /// The element at flat index `i` (0 <= i < size()).
    RowCol rowCol(long long i) const
    {
        return columnMajor ? RowCol{static_cast<int>(i % rows), static_cast<int>(i / rows)}
                           : RowCol{static_cast<int>(i / cols), static_cast<int>(i % cols)};
    }
    /// `rowMajor` (size() values, element (r, c) at r*cols + c) in this array's layout.
    template <class T>
    std::vector<T> laidOut(const std::vector<T>& rowMajor) const
    {
        if (!columnMajor) return rowMajor;
        std::vector<T> out(rowMajor.size());
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) out[flat(r, c)] = rowMajor[static_cast<size_t>(r) * cols + c];
        return out;
    }
    /// The inverse of laidOut: values in this array's layout, row-major.
    template <class T>
    std::vector<T> rowMajor(const std::vector<T>& stored) const
    {
        if (!columnMajor) return stored;
        std::vector<T> out(stored.size());
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) out[static_cast<size_t>(r) * cols + c] = stored[flat(r, c)];
        return out;
    }
};

inline constexpr uint16_t kNoThread = 0xFFFF;
inline constexpr uint8_t kNoArray = 0xFF;

/// Event::flags bits.
enum EventFlag : uint8_t {
    kStale = 1,    ///< a shared read that got an old or never-written value: another thread
                   ///< wrote the slot later in the same barrier interval, or it was never written
    kHazard = 2,   ///< the access is one side of a shared-memory hazard
    /// The first element of a 128-bit access (x.ldg4, x.lds4, x.sts4): one instruction of
    /// the warp for four elements; the three that follow it carry kVectorTail.
    kVectorHead = 4,
    kVectorTail = 8,
};

/// One recorded event of the traced block (28 bytes).
struct Event {
    int32_t index = -1;        ///< flat element index into `array`, -1 if none
    float value = 0;           ///< value moved; for Fma the accumulator after the update
    uint32_t seq = 0;          ///< position in execution order (events are regrouped by step)
    uint16_t thread = kNoThread; ///< linear thread index in the block (ty*blockDim.x + tx)
    uint16_t line = 0;         ///< source line in the kernel file
    Op op = Op::Barrier;
    uint8_t array = kNoArray;  ///< index into the launch's ArrayInfo list
    uint8_t flags = 0;         ///< EventFlag bits
    /// The thread's x.unrolled() tag when it made the access (0: none): the iteration of an
    /// unrolled loop, which names the instruction where lanes skip guarded accesses.
    uint8_t unrolled = 0;
    /// Provenance of a SharedStore: the global array (originArray) and flat element (origin)
    /// whose loaded value the store puts in its slot, through any registers in between
    /// (Machine::noteOrigin). kNoArray / -1 for a value the thread computed and for a zero fill.
    uint8_t originArray = kNoArray;
    int32_t origin = -1;
};
static_assert(sizeof(Event) == 28, "the trace's memory estimate (sim/engine/work_estimate.cpp) counts events by size");

/// Counts of memory operations (element granularity) and work.
struct Totals {
    uint64_t global_loads = 0;
    uint64_t global_stores = 0;
    uint64_t shared_loads = 0;
    uint64_t shared_stores = 0;   ///< includes zero fills
    uint64_t constant_loads = 0;
    uint64_t zero_fills = 0;
    uint64_t barriers = 0;        ///< block-wide barrier completions
    uint64_t flops = 0;           ///< 2 per executed multiply-add
    // Warp memory instructions and their transactions (sim/engine/warp_memory.hpp); all zero when
    // the memory model is off.
    uint64_t global_ld_requests = 0, global_ld_sectors = 0;
    uint64_t global_st_requests = 0, global_st_sectors = 0;
    uint64_t shared_ld_requests = 0, shared_ld_wavefronts = 0;
    uint64_t shared_st_requests = 0, shared_st_wavefronts = 0;
    /// Wavefronts beyond the fewest the accesses need: one per request for 32-bit accesses;
    /// for a 128-bit one, one per 128 distinct bytes of each half-warp (warp_memory.hpp).
    uint64_t shared_ld_conflicts = 0, shared_st_conflicts = 0;
    uint64_t constant_ld_requests = 0;
    uint64_t constant_ld_passes = 0;   ///< distinct addresses per request, summed
    // Warps at branches (x.branch(): an `if` or a loop condition, PMPP sec. 4.5 and 10.4), one
    // per warp-level execution of a branch: uniform when every active lane went the same way,
    // divergent when the lanes split. branch_lanes: the active lanes summed over them (SIMD
    // efficiency = branch_lanes / (32 x executions)). All zero for a kernel without x.branch().
    uint64_t branch_uniform = 0, branch_divergent = 0, branch_lanes = 0;
    /// Atomic operations on global memory (x.atomicAdd and its kin): element operations, warp
    /// requests, and passes (per request, the largest number of lanes on one address within
    /// each 128-byte line it touches, summed over the lines: the updates the hardware
    /// serialises, Nsight Compute's set accesses).
    uint64_t global_atomics = 0, global_atom_requests = 0, global_atom_passes = 0;
    /// Atomic operations on shared memory (PMPP Fig. 9.10's privatized bins): element
    /// operations, warp instructions (the hardware's shared atomic instructions), and passes
    /// (per instruction, the most lanes on one slot).
    uint64_t shared_atomics = 0, shared_atom_requests = 0, shared_atom_passes = 0;
    /// Float additions with an element of memory as an operand (`a + b` where a or b is a
    /// global or shared element, and `+=` on a float element): the adds of PMPP ch. 11's scans
    /// and ch. 10's trees, thread by thread, what Nsight Compute's thread-level FADD count
    /// (smsp__sass_thread_inst_executed_op_fadd_pred_on) gives for a kernel that adds no other
    /// way. Adds of two registers are not seen (sim/engine/context.hpp).
    uint64_t fadds = 0;

    Totals& operator+=(const Totals& o);
};

/// Every counter a simulation keeps.
struct Counters {
    Totals totals;
    std::vector<Totals> perBlock;                  ///< by linear block index by*gx + bx
    std::vector<std::vector<uint32_t>> elementLoads;   ///< by array id, then element/slot;
                                                       ///< shared slots summed over blocks
    std::vector<std::vector<uint32_t>> elementStores;  ///< as elementLoads, for writes
    /// Who wrote each element of a global array the kernel writes (P), by array id (empty for
    /// the arrays it only reads): 1 + the grid-wide linear index of the thread whose store
    /// came last in block order (block (by*gridDim.x + bx) * threads per block + ty*blockDim.x
    /// + tx), 0 for an element never written. Empty when the grid has 2^32 - 1 threads or more.
    std::vector<std::vector<uint32_t>> elementWriters;
};

}  // namespace ts::sim
