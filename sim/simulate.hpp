// Runs a scenario through the simulator: the single-source kernel instantiated with the
// host context, its counters, the trace of the selected block, and the reference check.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "machine.hpp"
#include "scenario.hpp"
#include "trace.hpp"

namespace ts::sim {

/// How to run a simulation.
struct SimOptions {
    bool trace = true;                  ///< record the selected block's events
    Schedule schedule = Schedule::InOrder;
    uint64_t scheduleSeed = 1;
    /// Run the shared-memory hazard detector (Simulation::hazards); off, it reports none.
    bool detectHazards = true;
};

/// Everything one simulation produced.
struct Simulation {
    Scenario scenario;
    Dim3 grid, block;
    std::vector<float> M, N;            ///< inputs (row-major)
    std::vector<float> P;               ///< the simulated kernel's output
    std::vector<float> reference;       ///< CPU reference (fmaf in k order)
    std::vector<ArrayInfo> arrays;      ///< M, N, P, then shared arrays in declaration order
    Counters counters;
    Trace trace;                        ///< the selected block (empty if not traced)
    HazardLog hazards;                  ///< shared-memory hazards, whole grid; traced block's in detail
    bool matchesReference = false;      ///< P equals the reference bit for bit
    std::string error;                  ///< non-empty if the kernel faulted (then P is partial)

    /// Array id by name, or -1.
    int arrayIndex(const std::string& name) const;
};

/// Simulates `s` (which must pass validate()). A fault in the kernel (out-of-bounds access,
/// barrier divergence) is reported in Simulation::error, never thrown.
Simulation simulate(const Scenario& s, const SimOptions& opt = {});

/// Global loads the untiled counterpart (matmul-naive with the same block edge) performs
/// on the same problem: 2k per valid P element. Whole grid, or the block `b` only.
/// Convolution: the basic kernel's loads of N (sim/problem.hpp, convUntiledGlobalLoads).
uint64_t untiledGlobalLoads(const Scenario& s);
uint64_t untiledGlobalLoads(const Scenario& s, const Uint3& b);

/// Floating-point operations per byte of global memory traffic: flops / (4 * loads).
double opsPerByte(const Totals& t);

}  // namespace ts::sim
