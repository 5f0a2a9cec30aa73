// How fast the simulator replays the single-source kernels with every counter on
// (target: the 512x512x512 tiled product with TILE_WIDTH 16 in at most 2 s on one core; the
// prototype of docs/design.md, principle 1, took 1.6 s).
// Each run is one sim::simulate() as the app and CLI call it: random inputs, the grid of
// fibers with per-element counters, the trace of block (0,0) when asked for, and the CPU
// reference check. The reference alone is timed too, to show its share.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <string>

#include "sim/engine/reference.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/work_estimate.hpp"

namespace {

using namespace ts::sim;

/// Args: kernel (0 naive, 1 tiled), width, tile, trace (0/1), hazard detector (0/1).
void Simulate(benchmark::State& state)
{
    Scenario s;
    s.kernel = state.range(0) ? "matmul-tiled" : "matmul-naive";
    s.j = s.k = s.l = static_cast<int>(state.range(1));
    s.tile = static_cast<int>(state.range(2));
    SimOptions o;
    o.trace = state.range(3) != 0;
    o.detectHazards = state.range(4) != 0;
    o.threads = 1;   // the one-core figure (tilescope-parallel-bench compares with every core)
    if (std::string e = validate(s); !e.empty()) {
        state.SkipWithError(e.c_str());
        return;
    }
    uint64_t fmas = 0;
    for (auto _ : state) {
        const Simulation r = simulate(s, o);
        if (!r.matchesReference) {
            state.SkipWithError(("P differs from the CPU reference: " + r.error).c_str());
            return;
        }
        fmas = r.counters.totals.flops / 2;
        benchmark::DoNotOptimize(r.P.data());
    }
    state.SetLabel(s.kernel + (o.trace ? ", trace of block (0,0)" : ", no trace") +
                   (o.detectHazards ? ", hazard detector" : ""));
    state.counters["fma_per_s"] =
        benchmark::Counter(static_cast<double>(fmas), benchmark::Counter::kIsIterationInvariantRate);
}

/// Arg: width. The fmaf reference of simulate(), on its own.
void ReferenceFma(benchmark::State& state)
{
    const int w = static_cast<int>(state.range(0));
    const std::vector<float> M = randomInput(static_cast<size_t>(w) * w, 1, 1);
    const std::vector<float> N = randomInput(static_cast<size_t>(w) * w, 1, 2);
    for (auto _ : state) benchmark::DoNotOptimize(matmulReferenceFma(M, N, w, w, w).data());
}

/// CPU seconds of this thread spent in `f()`.
template <class F>
double threadSeconds(F&& f)
{
    timespec a{}, b{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    f();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    return static_cast<double>(b.tv_sec - a.tv_sec) + 1e-9 * static_cast<double>(b.tv_nsec - a.tv_nsec);
}

/// Args: trace (0/1), hazard detector (0/1). What the warp memory model costs
/// (SimOptions::memoryModel): each iteration simulates 512^3 matmul-tiled with TILE_WIDTH 16
/// once with the model off and once with it on, back to back so that a busy machine slows
/// both alike, and times each with this thread's CPU clock. Counters: the best (smallest)
/// time of each over the iterations, `off_s` and `on_s`, and their ratio `on_over_off`
/// (the claim: at most 1.3). tilescope-bench --benchmark_filter=MemoryModelCost
void MemoryModelCost(benchmark::State& state)
{
    const Scenario s = matmulScenario("matmul-tiled", 512, 512, 512, 16);
    SimOptions off;
    off.trace = state.range(0) != 0;
    off.detectHazards = state.range(1) != 0;
    off.memoryModel = false;
    off.threads = 1;   // timed with this thread's CPU clock
    SimOptions on = off;
    on.memoryModel = true;
    double bestOff = 1e300, bestOn = 1e300;
    for (auto _ : state) {
        Simulation a, b;
        const double tOff = threadSeconds([&] { a = simulate(s, off); });
        const double tOn = threadSeconds([&] { b = simulate(s, on); });
        if (!a.matchesReference || !b.matchesReference) {
            state.SkipWithError("P differs from the CPU reference");
            return;
        }
        if (b.counters.totals.global_ld_requests == 0 || a.counters.totals.global_ld_requests != 0) {
            state.SkipWithError("the memory model's figures are missing with it on, or present with it off");
            return;
        }
        bestOff = std::min(bestOff, tOff);
        bestOn = std::min(bestOn, tOn);
    }
    state.SetLabel(std::string("matmul-tiled 512^3, tile 16") + (off.trace ? ", trace of block (0,0)" : ", no trace") +
                   (off.detectHazards ? ", hazard detector" : "") + "; best of each");
    state.counters["off_s"] = bestOff;
    state.counters["on_s"] = bestOn;
    state.counters["on_over_off"] = bestOn / bestOff;
}
BENCHMARK(MemoryModelCost)
    ->ArgNames({"trace", "hazards"})
    ->Args({1, 1})   // simulate()'s defaults, what the app runs
    ->Args({0, 1})   // what tilescope-cli simulate runs
    ->Args({0, 0})   // the leanest run, where the model's share is largest
    ->Unit(benchmark::kSecond)
    ->Iterations(5);

/// The scenarios EstimateVsSimulation compares: every kernel, tiles from 2 to 1024, the
/// traced block, and k = l of 1448 to 3000 where matmul-naive's column walk leaves the caches.
struct EstimateCase {
    const char* label;
    Scenario s;
    bool trace;
};
const std::vector<EstimateCase>& estimateCases()
{
    static const std::vector<EstimateCase> cases = {
        {"matmul-naive 512, tile 16", matmulScenario("matmul-naive", 512, 512, 512, 16), false},
        {"matmul-naive 512, tile 16, trace", matmulScenario("matmul-naive", 512, 512, 512, 16), true},
        {"matmul-naive 64 x 1448 x 1448", matmulScenario("matmul-naive", 64, 1448, 1448, 16), false},
        {"matmul-naive 64 x 2048 x 2048", matmulScenario("matmul-naive", 64, 2048, 2048, 16), false},
        {"matmul-naive 64 x 3000 x 3000", matmulScenario("matmul-naive", 64, 3000, 3000, 16), false},
        {"matmul-tiled 512, tile 16", matmulScenario("matmul-tiled", 512, 512, 512, 16), false},
        {"matmul-tiled 512, tile 2", matmulScenario("matmul-tiled", 512, 512, 512, 2), false},
        {"matmul-tiled 700, tile 32, trace", matmulScenario("matmul-tiled", 700, 700, 700, 32), true},
        {"matmul-tiled 64 x 3000 x 3000", matmulScenario("matmul-tiled", 64, 3000, 3000, 16), false},
        {"conv1d-basic 4194304, mask 5, tile 256", convScenario("conv1d-basic", 1, 4194304, 256, 5), false},
        {"conv1d-tiled 4194304, mask 9, tile 32", convScenario("conv1d-tiled", 1, 4194304, 32, 9), true},
        {"conv1d-tiled-cache 2000000, mask 5, tile 4", convScenario("conv1d-tiled-cache", 1, 2000000, 4, 5), false},
        {"conv2d-basic 1024^2, mask 9, tile 16", convScenario("conv2d-basic", 1024, 1024, 16, 9), false},
        {"conv2d-tiled 1024^2, mask 9, tile 8", convScenario("conv2d-tiled", 1024, 1024, 8, 9), true},
        {"matmul-naive 32 x 2048 x 32, tile 32, trace", matmulScenario("matmul-naive", 32, 2048, 32, 32), true},
        {"matmul-tiled 32 x 2048 x 32, tile 32, trace", matmulScenario("matmul-tiled", 32, 2048, 32, 32), true},
    };
    return cases;
}

/// Arg: index into estimateCases(). sim::estimateWork's seconds against the CPU time the
/// simulation really takes (counter `estimate_over_cpu`; sim/engine/work_estimate.cpp's figures
/// come from runs like these): build/bin/tilescope-bench --benchmark_filter=EstimateVs
void EstimateVsSimulation(benchmark::State& state)
{
    const EstimateCase& c = estimateCases().at(static_cast<size_t>(state.range(0)));
    SimOptions o;
    o.trace = c.trace;
    o.threads = 1;   // the estimate is one core's CPU time, and this thread's clock is read
    const WorkEstimate e = estimateWork(c.s, o);
    double cpu = 0;
    for (auto _ : state) {
        timespec a{}, b{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        const Simulation r = simulate(c.s, o);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        cpu = static_cast<double>(b.tv_sec - a.tv_sec) + 1e-9 * static_cast<double>(b.tv_nsec - a.tv_nsec);
        if (!r.matchesReference) {
            state.SkipWithError(("P differs from the CPU reference: " + r.error).c_str());
            return;
        }
    }
    state.SetLabel(c.label);
    state.counters["estimate_s"] = e.seconds();
    state.counters["cpu_s"] = cpu;
    state.counters["estimate_over_cpu"] = e.seconds() / cpu;
}
BENCHMARK(EstimateVsSimulation)
    ->DenseRange(0, 15)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// The figure: 512^3, TILE_WIDTH 16, all counters, with and without the trace of
// one block and the hazard detector.
BENCHMARK(Simulate)
    ->ArgNames({"tiled", "width", "tile", "trace", "hazards"})
    ->Args({1, 512, 16, 1, 1})
    ->Args({1, 512, 16, 1, 0})
    ->Args({1, 512, 16, 0, 0})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(3);
// Smaller sizes, other tile widths, and the naive kernel.
BENCHMARK(Simulate)
    ->ArgNames({"tiled", "width", "tile", "trace", "hazards"})
    ->Args({1, 4, 2, 1, 1})
    ->Args({1, 64, 16, 1, 1})
    ->Args({1, 256, 16, 1, 1})
    ->Args({1, 256, 32, 1, 1})
    ->Args({1, 256, 8, 1, 1})
    ->Args({0, 256, 16, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(ReferenceFma)->ArgName("width")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
