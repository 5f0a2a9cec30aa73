// tilescope-parallel-bench: how much sooner a simulation ends on every core than on one
// (SimOptions::threads 0 against 1). Plain C++ on the simulator library, no Google Benchmark,
// so that it builds on the GPU machine from .deps/ (scripts/bench-parallel.sh).
//
// Usage: tilescope-parallel-bench [WIDTH [TILE [RUNS [THREADS]]]]
//        (defaults 1024, 32, 1 and 0 = one per core; WIDTH^3 matmul-tiled, TILE_WIDTH TILE)
//
// With every counter on, as the app runs it: the trace of block (0, 0), the hazard
// detector and the warp memory model. Times, best of RUNS, wall clock:
//   - simulate(): the whole call (random inputs, CPU reference, the grid, the trace);
//   - the grid alone: sim::runGrid over the same machine set-up simulate() uses, the part
//     that runs on worker threads;
// each with 1 thread and with THREADS, their ratio, and checks that both runs produced the
// same P, totals and memory sites; then the parts of simulate() around the grid. Prints the
// core count, the load average before and after, and the CPU time of every thread of the
// process over each timed span.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "sim/engine/hazards.hpp"
#include "sim/engine/problem.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/trace.hpp"

namespace {

using namespace ts::sim;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// CPU seconds of the whole process so far, every thread's (user and system).
double processCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// A wall-clock time and the process's CPU time over the same span.
struct Timing {
    double wall = 1e300, cpu = 0;
    /// Keeps the faster of this and (wall, cpu).
    void keepBest(double w, double c)
    {
        if (w < wall) {
            wall = w;
            cpu = c;
        }
    }
};

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return in ? a + " " + b + " " + c : "unknown";
}

/// What one run of the grid produced, to compare the two thread counts.
struct GridResult {
    std::vector<float> P;
    Counters counters;
    std::vector<AccessSite> sites;
    std::vector<ArrayInfo> arrays;
    std::vector<Event> events;
};

/// Times sim::runGrid alone on `threads` worker threads, the machine set up as simulate()
/// sets it up (M, N, P, trace of block (0, 0), hazard detector, memory model).
void timeGrid(const Scenario& s, const Problem& pb, unsigned threads, GridResult& out, Timing& best)
{
    Machine m;
    const uint8_t idM = m.arrayId(pb.M.name, pb.M.space, pb.M.rows, pb.M.cols);
    const uint8_t idN = m.arrayId(pb.N.name, pb.N.space, pb.N.rows, pb.N.cols);
    const uint8_t idP = m.arrayId(pb.P.name, pb.P.space, pb.P.rows, pb.P.cols);
    out.P.assign(static_cast<size_t>(pb.P.size()), 0.0f);
    WarpMemory memory;
    m.memory = &memory;
    m.detectHazards = true;
    const LaunchShape shape = launchShape(s);
    LaunchConfig cfg;
    cfg.grid = shape.grid;
    cfg.block = shape.block;
    cfg.tracedBlock = Uint3{0, 0, 0};
    cfg.threads = threads;
    const BodyBinder bind = [&](Machine& w) -> ThreadBody {
        return pb.bind(w, GlobalPtr<const float>(pb.inM.data(), static_cast<long long>(pb.inM.size()), &w, idM),
                       GlobalPtr<const float>(pb.inN.data(), static_cast<long long>(pb.inN.size()), &w, idN),
                       GlobalPtr<float>(out.P.data(), static_cast<long long>(out.P.size()), &w, idP), pb.inM, {}, 0);
    };
    const double c0 = processCpuSeconds();
    const auto t0 = Clock::now();
    runGrid(m, cfg, bind);
    best.keepBest(secondsSince(t0), processCpuSeconds() - c0);
    out.counters = std::move(m.counters);
    out.sites = memory.sites();
    out.arrays = m.arrays;
    out.events = std::move(m.events);
}

bool sameTotals(const Totals& a, const Totals& b) { return std::memcmp(&a, &b, sizeof(Totals)) == 0; }

bool sameSites(const std::vector<AccessSite>& a, const std::vector<AccessSite>& b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].line != b[i].line || a[i].array != b[i].array || a[i].kind != b[i].kind ||
            a[i].requests != b[i].requests || a[i].lanes != b[i].lanes || a[i].sectors != b[i].sectors ||
            a[i].wavefronts != b[i].wavefronts)
            return false;
    return true;
}

int argOr(int argc, char** argv, int i, int fallback)
{
    if (argc <= i) return fallback;
    char* end = nullptr;
    const long v = std::strtol(argv[i], &end, 10);
    if (*end != '\0' || v < 0 || v > 1 << 20) {
        std::fprintf(stderr, "tilescope-parallel-bench: argument %d must be a whole number; got '%s'.\n", i, argv[i]);
        std::exit(2);
    }
    return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv)
{
    const int width = argOr(argc, argv, 1, 1024);
    const int tile = argOr(argc, argv, 2, 32);
    const int runs = std::max(1, argOr(argc, argv, 3, 1));
    const unsigned threads = static_cast<unsigned>(argOr(argc, argv, 4, 0));
    const unsigned many = threads == 0 ? hardwareThreads() : threads;
    const Scenario s = matmulScenario("matmul-tiled", width, width, width, tile);
    if (const std::string e = validate(s); !e.empty()) {
        std::fprintf(stderr, "tilescope-parallel-bench: %s\n", e.c_str());
        return 2;
    }
    std::printf("cores: %u (oneTBB's default concurrency)\nload average before: %s\n", hardwareThreads(),
                loadAverage().c_str());
    std::printf("scenario: matmul-tiled %d^3, TILE_WIDTH %d, trace of block (0, 0), hazard detector, memory model; "
                "best of %d, wall clock\n",
                width, tile, runs);
    std::fflush(stdout);

    // simulate(), the whole call.
    SimOptions o;
    o.trace = true;
    o.detectHazards = true;
    o.memoryModel = true;
    Timing simOne, simMany;
    Simulation a, b;
    for (int r = 0; r < runs; ++r) {
        o.threads = 1;
        double c0 = processCpuSeconds();
        auto t0 = Clock::now();
        a = simulate(s, o);
        simOne.keepBest(secondsSince(t0), processCpuSeconds() - c0);
        o.threads = many;
        c0 = processCpuSeconds();
        t0 = Clock::now();
        b = simulate(s, o);
        simMany.keepBest(secondsSince(t0), processCpuSeconds() - c0);
    }
    const bool simSame = a.error.empty() && b.error.empty() && a.matchesReference && b.matchesReference &&
                         sameTotals(a.counters.totals, b.counters.totals) && sameSites(a.accessSites, b.accessSites) &&
                         a.trace.events.size() == b.trace.events.size() &&
                         std::memcmp(a.P.data(), b.P.data(), a.P.size() * sizeof(float)) == 0;
    const auto line = [&](const char* what, const Timing& one, const Timing& all, bool same) {
        std::printf("%-15s 1 thread %8.3f s (cpu %7.2f s)   %3u threads %8.3f s (cpu %7.2f s)   ratio %5.2fx   %s\n", what,
                    one.wall, one.cpu, many, all.wall, all.cpu, one.wall / all.wall, same ? "same results" : "RESULTS DIFFER");
        std::fflush(stdout);
    };
    line("simulate():", simOne, simMany, simSame);

    // The grid alone.
    auto t0 = Clock::now();
    const Problem pb = matmulProblem(s);
    const double setup = secondsSince(t0);
    Timing gridOne, gridMany;
    GridResult ga, gb;
    for (int r = 0; r < runs; ++r) {
        timeGrid(s, pb, 1, ga, gridOne);
        timeGrid(s, pb, many, gb, gridMany);
    }
    const bool gridSame = ga.P == gb.P && sameTotals(ga.counters.totals, gb.counters.totals) && sameSites(ga.sites, gb.sites) &&
                          ga.events.size() == gb.events.size() && ga.counters.elementLoads == gb.counters.elementLoads;
    line("grid (runGrid):", gridOne, gridMany, gridSame);
    // The parts of simulate() around the grid: the inputs and the CPU reference (whose rows
    // run on every core here), then, on one thread whatever the threads, the stale reads and
    // the grouping of the traced block's events into steps.
    t0 = Clock::now();
    markStaleReads(ga.events);
    const Trace trace = buildTrace(Uint3{0, 0, 0}, launchShape(s).block, ga.arrays, ga.events, 2);
    const double grouping = secondsSince(t0);
    std::printf("other parts:    inputs and CPU reference (every core) %.3f s; on one thread: stale reads and trace of %zu events %.3f s\n", setup,
                trace.events.size(), grouping);
    std::printf("load average after: %s\n", loadAverage().c_str());
    return simSame && gridSame ? 0 : 1;
}
