// The trace of one block: its events grouped into the steps a lecture walks through
// (e.g. the load and use of each phase in PMPP Fig. 5.8).
#pragma once
#include <string>
#include <vector>

#include "sim/engine/progress.hpp"
#include "sim/engine/types.hpp"

namespace ts::sim {

/// What a step does, for colouring and narration.
enum class StepKind { LoadTile, Use, Barrier, Store, Other };

/// One step: a statement executed by the threads of the traced block between two
/// barriers (a tile load, one iteration of the inner product, the store of P), or the
/// barrier itself. Its events are events[begin, end) of the trace.
struct Step {
    std::string label;     ///< "phase 0: load M tile into Mds", "phase 1: use, iteration 0"
    StepKind kind = StepKind::Other;
    int phase = 0;         ///< the tiled loop's phase (0 for kernels without barriers)
    int interval = 0;      ///< barriers completed before this step
    int iteration = -1;    ///< the inner loop's iteration for Use steps
    unsigned line = 0;     ///< the source line of the step's main statement
    int begin = 0, end = 0;
};

/// The traced block: every event it performed, reordered so each step's events are
/// contiguous, and the steps in execution order.
struct Trace {
    Uint3 block;
    Dim3 blockDim;
    std::vector<ArrayInfo> arrays;
    std::vector<Event> events;
    std::vector<Step> steps;
    /// By linear thread: the element of the launch's output array (P) that the thread
    /// computes first, in that array's (row, col); `known` false where nothing says. Set by
    /// simulate() from the provenance (sim/engine/provenance.hpp, threadOutputs): the thread's own
    /// first store, or for a thread that stores none (outside P at a ragged edge) where the
    /// grid's layout of first stores puts it.
    struct Output {
        bool known = false;
        bool stored = false;          ///< the thread stored it (else it lies outside the array)
        long long row = 0, col = 0;
        /// All the thread's stores lie in this row, in this column (false on a rung whose
        /// threads compute several elements: matmul-coarsened's Col changes along its loop).
        bool oneRow = true, oneCol = true;
    };
    std::vector<Output> outputs;
    int outputArray = -1;             ///< the array `outputs` index, -1 if none
    /// Index of the first step of each phase (for the timeline's phase marks).
    std::vector<int> phaseStarts() const;
};

/// Groups raw events (in execution order) into steps and reorders them. Events of one
/// thread form statements that end at a store, zero fill, fused multiply-add or barrier;
/// statements that fill the same shared array in the same barrier interval form one
/// "load" step (split by source line where a thread fills the array more than once, as
/// the halo and internal loads of a convolution tile), the n-th multiply-add of every
/// thread in an interval forms "use, iteration n", and so on. `barriersPerPhase` turns barrier counts into phase numbers
/// (2 for the tiled matrix multiplication, 0 for kernels without phases). `fillPhases` > 0
/// says that a barrier of the phase loop was dropped and that the loop runs that many
/// phases: barrier intervals then no longer match phases, and each thread's phase is
/// counted from its own fills of the first shared array filled (the n-th fill of Mds
/// starts phase n in PMPP's kernels), iterations restarting at 0 in each phase; this also
/// numbers a kernel with every barrier dropped. Reports to `progress` (share of the raw
/// events grouped) and throws Cancelled when it is asked to stop: a block of 1024 threads
/// can record tens of millions of events. `scan` (PMPP ch. 11's scans, KernelInfo::scan):
/// a shared array written from registers holds a step's sums ("write sums into XY"), not a tile.
Trace buildTrace(const Uint3& block, const Dim3& blockDim, const std::vector<ArrayInfo>& arrays,
                 const std::vector<Event>& rawEvents, int barriersPerPhase, const Progress& progress = {},
                 int fillPhases = 0, bool scan = false);

}  // namespace ts::sim
