// Runs a scenario through the simulator: the single-source kernel instantiated with the
// host context, its counters, the trace of the selected block, and the reference check.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/trace.hpp"

namespace ts::sim {

struct WorkEstimate;   // sim/engine/work_estimate.hpp

/// How to run a simulation.
struct SimOptions {
    bool trace = true;                  ///< record the selected block's events
    Schedule schedule = Schedule::InOrder;
    uint64_t scheduleSeed = 1;
    /// Run the shared-memory hazard detector (Simulation::hazards); off, it reports none.
    bool detectHazards = true;
    /// Group accesses into warp memory instructions and count their sectors, wavefronts and
    /// constant-cache passes (sim/engine/warp_memory.hpp; Totals' *_requests fields and
    /// Simulation::accessSites); off, those stay zero.
    bool memoryModel = true;
    /// Set by another thread to stop the simulation early: it is polled while the inputs
    /// and the reference are made, before each simulated thread starts (so at most the
    /// rest of one block runs on) and while the trace is grouped. simulate() then returns
    /// a Simulation with `cancelled` set. Null: the run cannot be cancelled.
    const std::atomic<bool>* cancel = nullptr;
    /// Where simulate() reports how far it is, 0..1, weighted by the estimated time of
    /// its parts (sim/engine/work_estimate.hpp). Null: no reports.
    std::atomic<float>* progress = nullptr;
    /// The part of *progress this run covers (the app runs a scenario with a dropped
    /// barrier twice and reports both runs on one bar).
    double progressFrom = 0, progressTo = 1;
    /// Worker threads that simulate blocks at once (LaunchConfig::threads): 0 one per core
    /// (sim::hardwareThreads()), 1 every block on the calling thread, N at most N. Every
    /// result is the same whatever the number (counters, P, trace, hazards, memory sites,
    /// the fault reported). Each worker beyond the first holds its own per-element
    /// counters, so fewer run when the memory free (sim::availableMemory()) does not hold
    /// that many copies besides the estimated need (sim::estimateWork()).
    unsigned threads = 0;
};

/// Everything one simulation produced.
struct Simulation {
    Scenario scenario;
    Dim3 grid, block;
    /// Inputs, row-major, also N of a kernel that takes it column-major: the element
    /// counters and the trace index N by its stored layout (arrays[1].flat()).
    std::vector<float> M, N;
    std::vector<float> P;               ///< the simulated kernel's output
    /// A registry row's scratch arrays after the launch (Problem::scratch; the arrays after P
    /// in `arrays`), as float slots. Not sent over the wire (sim/files/simulation_wire).
    std::vector<std::vector<float>> scratch;
    std::vector<float> reference;       ///< CPU reference (fmaf in k order)
    /// An array problem's reference formula's floating-point operations over the whole
    /// output (an FMA counts 2): the flops a correct kernel performs. The kernel's own float
    /// arithmetic is not counted in Totals::flops unless it is a multiply-add the translation
    /// makes the simulator's FMA (docs/student-kernels.md). 0 for the other families.
    uint64_t referenceFlops = 0;
    std::vector<ArrayInfo> arrays;      ///< M, N, P, then shared arrays in declaration order
    Counters counters;
    Trace trace;                        ///< the selected block (empty if not traced)
    HazardLog hazards;                  ///< shared-memory hazards, whole grid; traced block's in detail
    /// Hand-overs between blocks through flags that the GPU does not order (a missing
    /// __threadfence(), a plain read of handed-over data; PMPP sec. 11.7), whole grid, in
    /// the order first met. Not sent over the wire (sim/files/simulation_wire).
    std::vector<OrderSite> orderSites;
    /// Every source access of the kernel with its warp memory instructions, whole grid, in
    /// the order the kernel first executed them (empty with SimOptions::memoryModel off).
    std::vector<AccessSite> accessSites;
    bool matchesReference = false;      ///< P equals the reference bit for bit
    std::string error;                  ///< non-empty if the kernel faulted (then P is partial)
    /// SimOptions::cancel stopped the run: counters, P and trace are incomplete (`error`
    /// says so and matchesReference is false); show or use none of it.
    bool cancelled = false;

    /// Array id by name, or -1.
    int arrayIndex(const std::string& name) const;
};

/// Simulates `s` (which must pass validate()). A fault in the kernel (out-of-bounds access,
/// barrier divergence) is reported in Simulation::error, never thrown; so is a run stopped
/// through SimOptions::cancel (with Simulation::cancelled set). estimateWork() says how
/// long it will take and how much memory it needs before it starts.
Simulation simulate(const Scenario& s, const SimOptions& opt = {});

/// simulate(s, opt) with the work already estimated: `work` must be estimateWork(s, opt),
/// the estimate the caller judged the run by (the app before a run, the CLI's work check,
/// a practice question's limit), so that it is made once per scenario. The run's progress
/// weights and its number of worker threads come from it.
Simulation simulate(const Scenario& s, const SimOptions& opt, const WorkEstimate& work);

/// Global loads the untiled counterpart (matmul-naive with the same block edge) performs
/// on the same problem: 2k per valid P element. Whole grid, or the block `b` only (whose
/// rows lie along the grid's x for matmul-naive-uncoalesced, gridXOverRows).
/// Convolution: the basic kernel's loads of N (sim/engine/problem.hpp, convUntiledGlobalLoads).
uint64_t untiledGlobalLoads(const Scenario& s);
uint64_t untiledGlobalLoads(const Scenario& s, const Uint3& b);

/// Distinct bytes of global memory the launch read plus those it wrote: what a perfect
/// cache would move between the chip and DRAM (an element's bytes, 4 or 1 for a char, per
/// element read at least once, and per element written at least once).
uint64_t compulsoryBytes(const Simulation& r);
/// The read and the written part of compulsoryBytes(), apart (DRAM counts them apart).
uint64_t compulsoryReadBytes(const Simulation& r);
uint64_t compulsoryWriteBytes(const Simulation& r);

/// How a float sum whose bits depend on the order of its additions (KernelInfo::
/// orderDependent: a reduction of arbitrary floats) compares with its reference, which adds
/// the same terms in index order. Any order of adding n floats lies within
/// gamma(n - 1) x sum |x| of the exact sum, gamma(m) = m u / (1 - m u) with u = 2^-24 (the
/// standard bound of floating-point summation), so two orders lie within twice that of each
/// other: the bound a correct kernel meets whatever order its atomics took.
struct SumOrderCheck {
    double difference = 0;   ///< largest |output - reference| over the output's elements
    double bound = 0;        ///< 2 gamma(n - 1) sum |x| over the n inputs
    /// The largest difference in units in the last place of the reference element (the gap
    /// from it to the next float away from 0): how many of its last bits the order changed.
    double ulps = 0;
    bool within = false;     ///< every element within the bound (none NaN, sizes equal)
};
/// SumOrderCheck of `output` against `reference` for a sum of the elements of `inputs`.
SumOrderCheck sumOrderCheck(const std::vector<float>& inputs, const std::vector<float>& output,
                            const std::vector<float>& reference);

/// Is `r`'s output what a correct kernel leaves: no fault, and bit for bit the reference, or,
/// for a sum whose bits depend on the order of its additions (KernelInfo::orderDependent),
/// within a float sum's bound of it (sumOrderCheck)?
bool outputCorrect(const Simulation& r);

/// Bytes the global memory requests asked for: (load + store sectors) x 32.
uint64_t requestedBytes(const Totals& t);

/// Floating-point operations per byte of global memory traffic: flops / (4 * loads).
double opsPerByte(const Totals& t);

}  // namespace ts::sim
