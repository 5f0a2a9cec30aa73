// How fast the simulator replays the single-source kernels with every counter on
// (target: the 512x512x512 tiled product with TILE_WIDTH 16 in at most 2 s on one core; the
// prototype of docs/design.md, principle 1, took 1.6 s).
// Each run is one sim::simulate() as the app and CLI call it: random inputs, the grid of
// fibers with per-element counters, the trace of block (0,0) when asked for, and the CPU
// reference check. The reference alone is timed too, to show its share.
#include <benchmark/benchmark.h>

#include "sim/reference.hpp"
#include "sim/simulate.hpp"

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
