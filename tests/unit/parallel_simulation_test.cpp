// Parallel simulation (LaunchConfig::threads, SimOptions::threads): blocks run on several
// worker threads, each with a Machine of its own, and the partial results are merged in
// block order. Whatever the number of threads, every result must be the serial run's,
// field by field: totals, every block's totals, per-element counts, P bit for bit, the
// traced block's events and steps, the hazard log (sites in order of first appearance,
// traced hazards), the memory model's access sites (order and figures), and the error
// text of a faulting kernel.
//
// Three parts:
//   1. every kernel of the registry through sim::simulate at small square and ragged
//      sizes, with a dropped barrier (hazards), the reverse and random schedules;
//   2. test-only kernels through sim::runGrid: faults in several blocks (the lowest one is
//      reported, even when a higher one faults first in time), and shared arrays that
//      blocks declare in different orders (workers number them differently; the merge
//      must give the serial numbering);
//   3. the random schedule: the same for a seed whatever runs it, a different one for
//      another seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "kernels/context.cuh"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/machine.hpp"
#include "sim/engine/reference.hpp"
#include "sim/engine/simulate.hpp"
#include "tests/sanitized_build.hpp"

namespace ts::test {
namespace {

// ---------------------------------------------------------------------------------------
// Field-by-field comparison.

/// The fields of sim::Totals with their names, for messages that say which one differs.
#define TS_TOTALS_FIELDS(X)                                                                           \
    X(global_loads) X(global_stores) X(shared_loads) X(shared_stores) X(constant_loads) X(zero_fills) \
    X(barriers) X(flops) X(global_ld_requests) X(global_ld_sectors) X(global_st_requests)             \
    X(global_st_sectors) X(shared_ld_requests) X(shared_ld_wavefronts) X(shared_st_requests)          \
    X(shared_st_wavefronts) X(constant_ld_requests) X(constant_ld_passes)

void expectSameTotals(const sim::Totals& a, const sim::Totals& b, const std::string& where)
{
#define TS_COMPARE_FIELD(f) EXPECT_EQ(a.f, b.f) << where << ": " #f;
    TS_TOTALS_FIELDS(TS_COMPARE_FIELD)
#undef TS_COMPARE_FIELD
}

void expectSameArrays(const std::vector<sim::ArrayInfo>& a, const std::vector<sim::ArrayInfo>& b)
{
    ASSERT_EQ(a.size(), b.size()) << "arrays";
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].name, b[i].name) << "array " << i;
        EXPECT_EQ(a[i].space, b[i].space) << "array " << i;
        EXPECT_EQ(a[i].rows, b[i].rows) << "array " << i;
        EXPECT_EQ(a[i].cols, b[i].cols) << "array " << i;
    }
}

void expectSameEvents(const std::vector<sim::Event>& a, const std::vector<sim::Event>& b)
{
    ASSERT_EQ(a.size(), b.size()) << "events";
    for (size_t i = 0; i < a.size(); ++i) {
        const sim::Event &x = a[i], &y = b[i];
        const bool same = x.index == y.index && std::memcmp(&x.value, &y.value, sizeof(float)) == 0 &&
                          x.seq == y.seq && x.thread == y.thread && x.line == y.line && x.op == y.op &&
                          x.array == y.array && x.flags == y.flags;
        ASSERT_TRUE(same) << "event " << i << " of " << a.size() << ": seq " << x.seq << "/" << y.seq << ", thread "
                          << x.thread << "/" << y.thread << ", line " << x.line << "/" << y.line << ", array "
                          << int(x.array) << "/" << int(y.array) << ", index " << x.index << "/" << y.index
                          << ", flags " << int(x.flags) << "/" << int(y.flags);
    }
}

void expectSameHazardAccess(const sim::HazardAccess& a, const sim::HazardAccess& b, const std::string& where)
{
    EXPECT_EQ(a.thread, b.thread) << where;
    EXPECT_EQ(a.line, b.line) << where;
    EXPECT_EQ(a.write, b.write) << where;
    EXPECT_EQ(a.seq, b.seq) << where;
    EXPECT_EQ(a.ordinal, b.ordinal) << where;
}

void expectSameHazards(const sim::HazardLog& a, const sim::HazardLog& b)
{
    EXPECT_EQ(a.raw, b.raw) << "hazards raw";
    EXPECT_EQ(a.war, b.war) << "hazards war";
    EXPECT_EQ(a.waw, b.waw) << "hazards waw";
    ASSERT_EQ(a.sites.size(), b.sites.size()) << "hazard sites";
    for (size_t i = 0; i < a.sites.size(); ++i) {
        const sim::HazardSite &x = a.sites[i], &y = b.sites[i];
        const std::string w = "hazard site " + std::to_string(i);
        EXPECT_EQ(x.kind, y.kind) << w;
        EXPECT_EQ(x.array, y.array) << w;
        EXPECT_EQ(x.firstLine, y.firstLine) << w;
        EXPECT_EQ(x.secondLine, y.secondLine) << w;
        EXPECT_EQ(x.count, y.count) << w;
        EXPECT_EQ(std::tie(x.exampleBlock.x, x.exampleBlock.y, x.exampleBlock.z),
                  std::tie(y.exampleBlock.x, y.exampleBlock.y, y.exampleBlock.z))
            << w << " example block";
        EXPECT_EQ(x.exampleFirst, y.exampleFirst) << w;
        EXPECT_EQ(x.exampleSecond, y.exampleSecond) << w;
    }
    ASSERT_EQ(a.traced.size(), b.traced.size()) << "traced hazards";
    for (size_t i = 0; i < a.traced.size(); ++i) {
        const sim::Hazard &x = a.traced[i], &y = b.traced[i];
        const std::string w = "traced hazard " + std::to_string(i);
        EXPECT_EQ(x.kind, y.kind) << w;
        EXPECT_EQ(x.array, y.array) << w;
        EXPECT_EQ(x.slot, y.slot) << w;
        expectSameHazardAccess(x.first, y.first, w + " first");
        expectSameHazardAccess(x.second, y.second, w + " second");
    }
}

void expectSameSites(const std::vector<sim::AccessSite>& a, const std::vector<sim::AccessSite>& b)
{
    ASSERT_EQ(a.size(), b.size()) << "access sites";
    for (size_t i = 0; i < a.size(); ++i) {
        const sim::AccessSite &x = a[i], &y = b[i];
        const std::string w = "access site " + std::to_string(i);
        EXPECT_EQ(x.line, y.line) << w << " line (order of first execution)";
        EXPECT_EQ(x.array, y.array) << w << " array";
        EXPECT_EQ(x.kind, y.kind) << w << " kind";
        EXPECT_EQ(x.requests, y.requests) << w;
        EXPECT_EQ(x.lanes, y.lanes) << w;
        EXPECT_EQ(x.sectors, y.sectors) << w;
        EXPECT_EQ(x.cacheLines, y.cacheLines) << w;
        EXPECT_EQ(x.wavefronts, y.wavefronts) << w;
    }
}

void expectSameCounts(const std::vector<std::vector<uint32_t>>& a, const std::vector<std::vector<uint32_t>>& b,
                      const char* what)
{
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(a[i] == b[i]) << what << " of array " << i << " differ";
}

void expectSameCounters(const sim::Counters& a, const sim::Counters& b)
{
    expectSameTotals(a.totals, b.totals, "totals");
    ASSERT_EQ(a.perBlock.size(), b.perBlock.size()) << "perBlock";
    for (size_t i = 0; i < a.perBlock.size(); ++i)
        expectSameTotals(a.perBlock[i], b.perBlock[i], "block " + std::to_string(i));
    expectSameCounts(a.elementLoads, b.elementLoads, "per-element loads");
    expectSameCounts(a.elementStores, b.elementStores, "per-element stores");
}

/// Every result of two simulations of the same scenario.
void expectSameSimulation(const sim::Simulation& a, const sim::Simulation& b)
{
    EXPECT_EQ(a.error, b.error);
    EXPECT_EQ(a.cancelled, b.cancelled);
    EXPECT_EQ(a.matchesReference, b.matchesReference);
    expectSameArrays(a.arrays, b.arrays);
    ASSERT_EQ(a.P.size(), b.P.size());
    EXPECT_EQ(std::memcmp(a.P.data(), b.P.data(), a.P.size() * sizeof(float)), 0) << "P differs";
    expectSameCounters(a.counters, b.counters);
    expectSameHazards(a.hazards, b.hazards);
    expectSameSites(a.accessSites, b.accessSites);
    expectSameEvents(a.trace.events, b.trace.events);
    ASSERT_EQ(a.trace.steps.size(), b.trace.steps.size()) << "trace steps";
    for (size_t i = 0; i < a.trace.steps.size(); ++i) {
        const sim::Step &x = a.trace.steps[i], &y = b.trace.steps[i];
        EXPECT_EQ(std::tie(x.label, x.kind, x.phase, x.interval, x.iteration, x.line, x.begin, x.end),
                  std::tie(y.label, y.kind, y.phase, y.interval, y.iteration, y.line, y.begin, y.end))
            << "step " << i;
    }
}

std::string describe(const sim::Scenario& s, const sim::SimOptions& o)
{
    std::ostringstream d;
    d << s.kernel << " j,k,l " << s.j << "," << s.k << "," << s.l << " h,w " << s.height << "," << s.width
      << " mask " << s.maskWidth << " tile " << s.tile << " traced block " << s.block.x << "," << s.block.y
      << " drop " << s.dropBarriers << " schedule " << static_cast<int>(o.schedule) << " seed " << o.scheduleSeed;
    return d.str();
}

/// The thread counts compared with one thread. An AddressSanitizer build (with its fake
/// stacks, scripts/sanitize.sh) runs these fiber-heavy simulations tens of times slower:
/// there 3 threads only.
std::vector<unsigned> threadCounts()
{
    if (kAddressSanitized) return {3u};
    return {2u, 3u, 4u};
}

/// Simulates `s` with one thread and with 2, 3 and 4, and compares everything.
void expectSameWithThreads(const sim::Scenario& s, sim::SimOptions o)
{
    SCOPED_TRACE(describe(s, o));
    o.threads = 1;
    const sim::Simulation serial = sim::simulate(s, o);
    ASSERT_FALSE(serial.cancelled);
    for (unsigned threads : threadCounts()) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        o.threads = threads;
        expectSameSimulation(serial, sim::simulate(s, o));
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// ---------------------------------------------------------------------------------------
// 1. Every kernel of the registry.

/// Small sizes for kernel `k` (square and ragged; the ones validate() refuses are skipped),
/// each traced at a block in the middle of its grid and at its last block.
std::vector<sim::Scenario> scenariosFor(const sim::KernelInfo& k)
{
    std::vector<int> tiles;
    if (k.tiles.empty()) tiles = {8, 16};
    else
        for (int t : k.tiles)
            if (t == 4 || t == 16) tiles.push_back(t);
    // The ladder's register-tiled rungs have no tile of 4 or 16: their smallest, on sizes
    // that give each a grid of more than 4 blocks.
    const bool big = tiles.empty();
    if (big) tiles.push_back(k.tiles.front());
    std::vector<sim::Scenario> out;
    auto add = [&](sim::Scenario s) {
        if (!sim::validate(s).empty()) return;
        const sim::Dim3 g = sim::launchShape(s).grid;
        for (sim::Uint3 b : {sim::Uint3{g.x / 2, g.y / 2, g.z / 2}, sim::Uint3{g.x - 1, g.y - 1, g.z - 1}}) {
            s.block = b;
            out.push_back(s);
        }
    };
    for (int tile : tiles) {
        if (k.family == sim::Family::Array && k.histogram) {
            // A text histogram: CFACTOR characters a thread for the coarsened ones, so sizes
            // of more than 4 blocks of those.
            add(sim::convScenario(k.name, 1, 24 * tile + 3, tile, 1));
            add(sim::convScenario(k.name, 1, 20 * tile, tile, 1));
        } else if (k.family == sim::Family::Array && k.reductionTree) {
            // A many-block sum (PMPP Figs. 10.13, 10.15): a block takes 2 or 4 x BLOCK_DIM.
            add(sim::convScenario(k.name, 1, 40 * tile + 3, tile, 1));
            add(sim::convScenario(k.name, 1, 24 * tile, tile, 1));
        } else if (k.family == sim::Family::Array && k.scan) {
            // PMPP sec. 11.7's single-pass scan: a block a section, 5 and 6 of them.
            add(sim::convScenario(k.name, 1, 4 * tile + 3, tile, 1));
            add(sim::convScenario(k.name, 1, 6 * tile, tile, 1));
        } else if (k.family == sim::Family::Array) {
            // A described problem of one size (PMPP's stencil: N), ragged and whole.
            add(sim::convScenario(k.name, 1, 4 * tile + 3, tile, 1));
            add(sim::convScenario(k.name, 1, 3 * tile, tile, 1));
        } else if (k.family == sim::Family::Matmul && big) {
            // A warp-tiled block covers blockRowsFactor tiles of P's rows.
            const int r = k.blockRowsFactor;
            add(sim::matmulScenario(k.name, 2 * tile * r + 7, 29, 2 * tile + 3, tile));
            add(sim::matmulScenario(k.name, 3 * tile * r, 40, 2 * tile, tile));
        } else if (k.family == sim::Family::Matmul) {
            // A coarsened block covers blockColsFactor tiles of P's columns.
            const int f = k.blockColsFactor;
            add(sim::matmulScenario(k.name, 64, 64, 64 * f, tile));
            add(sim::matmulScenario(k.name, 100, 37, 51 * f, tile));
        } else if (k.family == sim::Family::Conv1D) {
            add(sim::convScenario(k.name, 1, 1000, tile, 5));
            add(sim::convScenario(k.name, 1, 77, tile, 9));
        } else {
            add(sim::convScenario(k.name, 40, 50, tile, 5));
            add(sim::convScenario(k.name, 17, 33, tile, 3));
        }
    }
    return out;
}

TEST(ParallelSimulation, EveryKernelMatchesTheSerialRun)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        // A one-block sum (PMPP Figs. 10.6 to 10.11) has nothing to run in parallel.
        if (std::string_view(k.grid) == "1") continue;
        const std::vector<sim::Scenario> scenarios = scenariosFor(k);
        EXPECT_GE(scenarios.size(), 4u) << k.name << ": no size of this test fits the kernel";
        for (size_t i = 0; i < scenarios.size(); ++i) {
            // Under AddressSanitizer every third size only (the traced blocks alternate).
            if (kAddressSanitized && i % 3 != 0) continue;
            const sim::Scenario& s = scenarios[i];
            const sim::Dim3 g = sim::launchShape(s).grid;
            ASSERT_GT(g.count(), 4u) << k.name << ": a grid this small would not run in parallel";
            expectSameWithThreads(s, sim::SimOptions{});
            if (HasFatalFailure()) return;
        }
    }
}

// The serial run's results are not trivial: the comparison above compares something.
TEST(ParallelSimulation, TheComparedResultsAreNotEmpty)
{
    sim::Scenario s = sim::matmulScenario("matmul-tiled", 100, 37, 51, 16);
    s.block = {1, 3, 0};
    sim::SimOptions o;
    o.threads = 2;
    const sim::Simulation r = sim::simulate(s, o);
    EXPECT_TRUE(r.matchesReference);
    EXPECT_GT(r.counters.perBlock.size(), 8u);
    EXPECT_GT(r.trace.events.size(), 1000u);
    EXPECT_GE(r.accessSites.size(), 5u);
    EXPECT_GT(r.counters.totals.shared_ld_wavefronts, 0u);
}

// A dropped barrier: hazards in many blocks, traced hazards in the traced block, and, run
// backwards or in a random warp order, stale reads and a wrong P.
TEST(ParallelSimulation, DroppedBarriersGiveTheSerialHazards)
{
    std::vector<sim::Scenario> cases;
    for (unsigned drop : {unsigned{kernels::AFTER_LOAD}, unsigned{kernels::AFTER_COMPUTE}}) {
        for (const char* kernel : {"matmul-tiled", "matmul-tiled-nds-transposed"}) {
            sim::Scenario s = sim::matmulScenario(kernel, 100, 37, 51, 16);
            s.dropBarriers = drop;
            s.block = {2, 3, 0};
            cases.push_back(s);
        }
    }
    for (const sim::KernelInfo& k : sim::kernelList()) {
        if (k.family == sim::Family::Matmul || k.barriers == 0) continue;
        sim::Scenario s = k.family == sim::Family::Conv1D ? sim::convScenario(k.name, 1, 1000, 16, 5)
                                                          : sim::convScenario(k.name, 40, 50, 8, 5);
        s.dropBarriers = k.barriers;
        s.block = {1, 1, 0};
        if (k.family == sim::Family::Conv1D) s.block = {3, 0, 0};
        if (k.family == sim::Family::Array) {
            // A described problem of one size (PMPP ch. 10's sums): one block, or a grid of them.
            const bool oneBlock = std::string_view(k.grid) == "1";
            // Blocks of 64 threads: the warp-shuffle finish has a barrier only above 32.
            // A scan's one block scans at most its section (64 threads, 64 elements or more);
            // the single-pass scan's blocks a section each.
            s = sim::convScenario(k.name, 1, k.scan && oneBlock ? 64 : oneBlock ? 128 : 1000, 64, 1);
            s.dropBarriers = k.barriers;
            s.block = {oneBlock ? 0u : 3u, 0, 0};
        }
        ASSERT_EQ(sim::validate(s), "") << k.name;
        cases.push_back(s);
    }
    bool sawWrongP = false;
    for (size_t i = 0; i < cases.size(); ++i)
        for (sim::Schedule sched : {sim::Schedule::InOrder, sim::Schedule::Reverse, sim::Schedule::Random}) {
            // Under AddressSanitizer one schedule per case, in turn.
            if (kAddressSanitized && static_cast<size_t>(sched) != i % 3) continue;
            const sim::Scenario& s = cases[i];
            sim::SimOptions o;
            o.schedule = sched;
            o.scheduleSeed = 11;
            sim::SimOptions one = o;
            one.threads = 1;
            const sim::Simulation serial = sim::simulate(s, one);
            EXPECT_GT(serial.hazards.raw + serial.hazards.war, 0u) << describe(s, o);
            EXPECT_FALSE(serial.hazards.sites.empty()) << describe(s, o);
            sawWrongP |= !serial.matchesReference;
            expectSameWithThreads(s, o);
            if (HasFatalFailure()) return;
        }
    EXPECT_TRUE(sawWrongP) << "no case of this test has a wrong P";
}

// With the memory model and the hazard detector off, and without a trace.
TEST(ParallelSimulation, OptionalPartsOffMatchTheSerialRun)
{
    sim::SimOptions o;
    o.trace = false;
    o.memoryModel = false;
    o.detectHazards = false;
    expectSameWithThreads(sim::matmulScenario("matmul-tiled", 100, 37, 51, 8), o);
    expectSameWithThreads(sim::convScenario("conv2d-tiled", 40, 50, 8, 5), o);
}

// Threads 0 (one per core, the default) and more threads than blocks.
TEST(ParallelSimulation, DefaultAndMoreThreadsThanBlocks)
{
    EXPECT_GE(sim::hardwareThreads(), 1u);
    EXPECT_EQ(sim::SimOptions{}.threads, 0u);
    const sim::Scenario s = sim::matmulScenario("matmul-tiled", 40, 30, 20, 16);   // 2 x 3 blocks
    sim::SimOptions one;
    one.threads = 1;
    const sim::Simulation serial = sim::simulate(s, one);
    expectSameSimulation(serial, sim::simulate(s, sim::SimOptions{}));
    sim::SimOptions many;
    many.threads = 16;
    expectSameSimulation(serial, sim::simulate(s, many));
}

// ---------------------------------------------------------------------------------------
// 2. Test-only kernels through runGrid.

/// A launch of a test kernel over arrays A (read) and B (written), each `n` elements,
/// bound to whichever machine runs it.
struct TestLaunch {
    std::vector<float> a, b;
    sim::Machine m;
    uint8_t idA = 0, idB = 0;

    explicit TestLaunch(size_t n) : a(n), b(n, 0.0f)
    {
        for (size_t i = 0; i < n; ++i) a[i] = 0.25f + static_cast<float>(i % 7);
        idA = m.arrayId("A", sim::Space::Global, 1, static_cast<int>(n));
        idB = m.arrayId("B", sim::Space::Global, 1, static_cast<int>(n));
    }
    using Kernel = void (*)(sim::ThreadContext&, sim::GlobalPtr<const float>, sim::GlobalPtr<float>);
    /// Runs `kernel`; returns the fault's text, or "".
    std::string run(sim::LaunchConfig cfg, Kernel kernel)
    {
        sim::WarpMemory memory;
        m.memory = &memory;
        const sim::BodyBinder bind = [this, kernel](sim::Machine& w) -> sim::ThreadBody {
            sim::GlobalPtr<const float> A(a.data(), static_cast<long long>(a.size()), &w, idA);
            sim::GlobalPtr<float> B(b.data(), static_cast<long long>(b.size()), &w, idB);
            return [=](sim::ThreadContext& x) { kernel(x, A, B); };
        };
        std::string fault;
        try {
            sim::runGrid(m, cfg, bind);
        } catch (const sim::KernelFault& f) {
            fault = f.what();
        }
        sites = memory.sites();
        m.memory = nullptr;
        return fault;
    }
    std::vector<sim::AccessSite> sites;
};

/// Lets a test kernel's block wait, on its worker thread, until another block has got
/// somewhere: so that with several threads the blocks meet in the order a test needs,
/// however the machine schedules its threads. In a serial run the other block comes later,
/// so the wait gives up after a while (and says so: the order was not forced).
struct Rendezvous {
    std::atomic<bool> enabled{false};
    std::atomic<bool> reached{false};
    std::atomic<bool> forced{false};   ///< a wait ended because the other block got there

    void reset(bool enable)
    {
        enabled = enable;
        reached = false;
        forced = false;
    }
    void arrive() { reached = true; }
    void waitForOther()
    {
        if (!enabled) return;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!reached && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (reached) forced = true;
    }
};
Rendezvous gRendezvous;

/// Blocks 3 and 7 of the grid read past the end of A. With the rendezvous on, block 3
/// waits before its fault until block 7 is about to fault, so block 7 faults first in time.
void faultsInTwoBlocks(sim::ThreadContext& x, sim::GlobalPtr<const float> A, sim::GlobalPtr<float> B)
{
    const unsigned block = x.blockIdx.x;
    const int i = static_cast<int>(block * x.blockDim.x + x.threadIdx.x);
    float acc = 0;
    if (block == 3)
        for (int r = 0; r < 200; ++r) acc += A[(i + r) % 64];
    B[i] = acc + A[i];
    x.syncthreads();
    if (block == 3 && x.threadIdx.x == 5) gRendezvous.waitForOther();
    if (block == 7 && x.threadIdx.x == 5) gRendezvous.arrive();
    if ((block == 3 || block == 7) && x.threadIdx.x == 5) B[i] = A[100000 + i];
}

/// Block 5 diverges at a barrier; block 9 reads out of bounds.
void barrierFaultInBlockFive(sim::ThreadContext& x, sim::GlobalPtr<const float> A, sim::GlobalPtr<float> B)
{
    const unsigned block = x.blockIdx.x;
    const int i = static_cast<int>(block * x.blockDim.x + x.threadIdx.x);
    B[i] = A[i];
    if (block == 9 && x.threadIdx.x == 0) B[i] = A[-1];
    if (block != 5 || x.threadIdx.x < 4) x.syncthreads();
    B[i] = A[i] * 2.0f;
}

sim::LaunchConfig lineOfBlocks(unsigned blocks, unsigned threads, unsigned workers)
{
    sim::LaunchConfig cfg;
    cfg.grid = {blocks, 1, 1};
    cfg.block = {threads, 1, 1};
    cfg.threads = workers;
    return cfg;
}

TEST(ParallelSimulation, TheLowestFaultingBlockIsReported)
{
    bool forced = false;
    for (unsigned workers : {2u, 3u, 4u}) {
        for (auto [kernel, what] : {std::pair{&faultsInTwoBlocks, "A[100029]"}, std::pair{&barrierFaultInBlockFive, "block (5, 0)"}}) {
            SCOPED_TRACE(std::to_string(workers) + " threads, " + what);
            TestLaunch serial(16 * 8), parallel(16 * 8);
            sim::LaunchConfig cfg = lineOfBlocks(16, 8, 1);
            cfg.tracedBlock = sim::Uint3{2, 0, 0};
            gRendezvous.reset(false);
            const std::string serialFault = serial.run(cfg, kernel);
            ASSERT_NE(serialFault.find(what), std::string::npos) << serialFault;
            cfg.threads = workers;
            gRendezvous.reset(true);
            EXPECT_EQ(parallel.run(cfg, kernel), serialFault);
            forced |= gRendezvous.forced;
            // What the serial run leaves: the blocks up to the fault, no totals, the traced
            // block's events, the memory sites of the blocks up to the fault.
            const sim::Counters &a = serial.m.counters, &b = parallel.m.counters;
            expectSameTotals(a.totals, b.totals, "totals");
            ASSERT_EQ(a.perBlock.size(), b.perBlock.size());
            for (size_t i = 0; i < a.perBlock.size(); ++i) expectSameTotals(a.perBlock[i], b.perBlock[i], "block " + std::to_string(i));
            expectSameEvents(serial.m.events, parallel.m.events);
            expectSameHazards(serial.m.hazards, parallel.m.hazards);
            expectSameSites(serial.sites, parallel.sites);
            EXPECT_GT(serial.m.events.size(), 0u);
        }
    }
    gRendezvous.reset(false);
    // At least one run had block 7 fault while block 3 was still running.
    EXPECT_TRUE(forced) << "no run had two worker threads at once";
}

// The faulting block itself is the traced block: its events up to the fault.
TEST(ParallelSimulation, TracedFaultingBlockKeepsItsEvents)
{
    TestLaunch serial(16 * 8), parallel(16 * 8);
    sim::LaunchConfig cfg = lineOfBlocks(16, 8, 1);
    cfg.tracedBlock = sim::Uint3{3, 0, 0};
    const std::string fault = serial.run(cfg, &faultsInTwoBlocks);
    EXPECT_NE(fault.find("of block (3, 0)"), std::string::npos) << fault;
    cfg.threads = 3;
    EXPECT_EQ(parallel.run(cfg, &faultsInTwoBlocks), fault);
    EXPECT_GT(serial.m.events.size(), 100u);
    expectSameEvents(serial.m.events, parallel.m.events);
}

/// Shared arrays declared in an order that depends on the block: block 1 declares X and
/// Y (with the rendezvous on, only once block 8 has declared Z); blocks 0 and 2 to 5 none; from block 6 on Z first, then Y. A worker
/// that did not run block 1 meets Z before X and numbers it differently from the serial
/// run (A, B, X, Y, Z). Without a barrier after its reads, Z has write-after-read hazards
/// (every thread reads slot 0, then thread 0 writes it).
void blockDependentSharedArrays(sim::ThreadContext& x, sim::GlobalPtr<const float>, sim::GlobalPtr<float> B)
{
    const unsigned block = x.blockIdx.x;
    const int i = static_cast<int>(block * x.blockDim.x + x.threadIdx.x);
    const unsigned t = x.threadIdx.x;
    if (block >= 6) {
        TS_SHARED_1D(float, Z, 64);
        TS_SHARED_1D(float, Y, 64);
        if (block == 8 && t == 0) gRendezvous.arrive();
        Z[t] = static_cast<float>(t);
        Y[t] = 1.0f;
        x.syncthreads();
        B[i] = Z[(t + 1) % x.blockDim.x] + Z[0] + Y[t];
        if (t == 0) Z[0] = 5.0f;
    } else if (block == 1) {
        if (t == 0) gRendezvous.waitForOther();   // until another worker has met Z
        TS_SHARED_1D(float, X, 64);
        TS_SHARED_1D(float, Y, 64);
        X[t] = 2.0f;
        Y[t] = 3.0f;
        x.syncthreads();
        float acc = 0;
        for (unsigned r = 0; r < 400; ++r) acc += X[(t + r) % x.blockDim.x] * Y[(t + 3) % x.blockDim.x];
        B[i] = acc;
    } else {
        B[i] = 1.0f;
    }
}

TEST(ParallelSimulation, SharedArraysGetTheSerialIdsWhateverWorkerMetThemFirst)
{
    bool forced = false;
    for (unsigned workers : {2u, 3u, 4u}) {
        SCOPED_TRACE(std::to_string(workers) + " threads");
        TestLaunch serial(40 * 48), parallel(40 * 48);
        sim::LaunchConfig cfg = lineOfBlocks(40, 48, 1);
        cfg.tracedBlock = sim::Uint3{7, 0, 0};
        gRendezvous.reset(false);
        ASSERT_EQ(serial.run(cfg, &blockDependentSharedArrays), "");
        cfg.threads = workers;
        gRendezvous.reset(true);
        ASSERT_EQ(parallel.run(cfg, &blockDependentSharedArrays), "");
        forced |= gRendezvous.forced;
        // A, B, then the shared arrays in the order the blocks first declare them.
        std::vector<std::string> names;
        for (const sim::ArrayInfo& a : serial.m.arrays) names.push_back(a.name);
        EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "X", "Y", "Z"}));
        expectSameArrays(serial.m.arrays, parallel.m.arrays);
        expectSameCounters(serial.m.counters, parallel.m.counters);
        expectSameEvents(serial.m.events, parallel.m.events);
        EXPECT_GT(serial.m.hazards.war, 0u);
        EXPECT_FALSE(serial.m.hazards.traced.empty());
        expectSameHazards(serial.m.hazards, parallel.m.hazards);
        expectSameSites(serial.sites, parallel.sites);
        EXPECT_TRUE(serial.b == parallel.b) << "B differs";
    }
    gRendezvous.reset(false);
    EXPECT_TRUE(forced) << "no run had a worker meet Z before X";
}

/// B[i] = A[i] where A[i] > 2, else the warp's butterfly sum of A: a marked branch (x.branch)
/// that diverges in some warps, and warp shuffles, over many blocks.
void branchingShuffles(sim::ThreadContext& x, sim::GlobalPtr<const float> A, sim::GlobalPtr<float> B)
{
    const long long i = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    const float a = A[i];
    float sum = a;
    for (int d = 16; d > 0; d /= 2) sum += x.shfl_xor_sync(0xffffffffu, sum, d);
    if (x.branch(a > 2.0f)) B[i] = a;
    else B[i] = sum;
}

// Branch sites name no array: merging the workers' warp figures keeps them so (a branching
// kernel over many blocks on several workers once failed there), and shuffles run the same.
TEST(ParallelSimulation, BranchesAndShufflesMatchTheSerialRun)
{
    for (unsigned workers : {2u, 3u}) {
        SCOPED_TRACE(std::to_string(workers) + " threads");
        TestLaunch serial(12 * 64), parallel(12 * 64);
        sim::LaunchConfig cfg = lineOfBlocks(12, 64, 1);
        cfg.tracedBlock = sim::Uint3{5, 0, 0};
        ASSERT_EQ(serial.run(cfg, &branchingShuffles), "");
        cfg.threads = workers;
        ASSERT_EQ(parallel.run(cfg, &branchingShuffles), "");
        expectSameCounters(serial.m.counters, parallel.m.counters);
        expectSameEvents(serial.m.events, parallel.m.events);
        expectSameSites(serial.sites, parallel.sites);
        EXPECT_TRUE(serial.b == parallel.b) << "B differs";
        const auto branch = std::find_if(serial.sites.begin(), serial.sites.end(),
                                         [](const sim::AccessSite& s) { return s.kind == sim::AccessKind::Branch; });
        ASSERT_NE(branch, serial.sites.end());
        EXPECT_GT(branch->divergent, 0u);
    }
}

// The CPU reference spreads its rows over threads: the same P bit for bit on one thread
// and on several, at square and ragged sizes.
TEST(ParallelSimulation, ReferenceIsTheSameOnAnyNumberOfThreads)
{
    for (auto [j, k, l] : {std::tuple{64, 64, 64}, std::tuple{100, 37, 51}, std::tuple{333, 129, 600}}) {
        const std::vector<float> M = sim::randomInput(static_cast<size_t>(j) * k, 3, 1);
        const std::vector<float> N = sim::randomInput(static_cast<size_t>(k) * l, 3, 2);
        std::vector<float> one, many;
        sim::withThreads(1, [&] { one = sim::matmulReferenceFma(M, N, j, k, l); });
        sim::withThreads(4, [&] { many = sim::matmulReferenceFma(M, N, j, k, l); });
        ASSERT_EQ(one.size(), static_cast<size_t>(j) * l);
        EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0) << j << "x" << k << "x" << l;
        // Element (r, c) is the fmaf chain along k, whoever computed it.
        const int r = j - 1, c = l / 2;
        float acc = 0.0f;
        for (int i = 0; i < k; ++i) acc = std::fmaf(M[static_cast<size_t>(r) * k + i], N[static_cast<size_t>(i) * l + c], acc);
        EXPECT_EQ(std::memcmp(&acc, &many[static_cast<size_t>(r) * l + c], sizeof(float)), 0);
    }
}

// ---------------------------------------------------------------------------------------
// 3. The random schedule.

// Each block's warp order comes from the seed and the block alone: the same seed gives the
// same trace however the blocks are spread over threads; another seed another order.
TEST(ParallelSimulation, RandomScheduleDependsOnTheSeedOnly)
{
    sim::Scenario s = sim::matmulScenario("matmul-tiled", 96, 32, 96, 16);   // 6 x 6 blocks of 8 warps
    s.dropBarriers = kernels::AFTER_LOAD;
    s.block = {4, 5, 0};
    sim::SimOptions o;
    o.schedule = sim::Schedule::Random;
    o.scheduleSeed = 3;
    o.threads = 1;
    const sim::Simulation a = sim::simulate(s, o);
    o.threads = 3;
    expectSameSimulation(a, sim::simulate(s, o));
    // The warps of the traced block start in another order with another seed.
    auto firstThreads = [](const sim::Simulation& r) {
        std::vector<uint16_t> order;
        for (const sim::Event& e : r.trace.events)
            if (std::find(order.begin(), order.end(), e.thread / 32) == order.end()) order.push_back(e.thread / 32);
        return order;
    };
    std::vector<sim::Event> byTime = a.trace.events;
    std::sort(byTime.begin(), byTime.end(), [](const sim::Event& x, const sim::Event& y) { return x.seq < y.seq; });
    sim::Simulation inTime = a;
    inTime.trace.events = byTime;
    bool differs = false;
    for (uint64_t seed : {4u, 5u, 6u}) {
        o.scheduleSeed = seed;
        sim::Simulation b = sim::simulate(s, o);
        std::sort(b.trace.events.begin(), b.trace.events.end(),
                  [](const sim::Event& x, const sim::Event& y) { return x.seq < y.seq; });
        differs |= firstThreads(b) != firstThreads(inTime);
    }
    EXPECT_TRUE(differs) << "the random schedule ignores its seed";
    // Two blocks of one launch get different orders (not one order for every block).
    sim::Scenario other = s;
    other.block = {1, 2, 0};
    o.scheduleSeed = 3;
    sim::Simulation c = sim::simulate(other, o);
    std::sort(c.trace.events.begin(), c.trace.events.end(), [](const sim::Event& x, const sim::Event& y) { return x.seq < y.seq; });
    EXPECT_NE(firstThreads(c), firstThreads(inTime)) << "blocks (1, 2) and (4, 5) run their warps in the same order";
}

}  // namespace
}  // namespace ts::test
