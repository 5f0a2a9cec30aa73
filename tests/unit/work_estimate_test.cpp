// The work estimate (sim/engine/work_estimate.hpp) and cancelling a running simulation
// (SimOptions::cancel): the counts against real runs of every kernel, memory that grows as
// the arrays and the trace do, the 10 s line at the sizes of the lecture questions, the
// time against a measured run, and a cancelled run that stops within a second.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <functional>
#include <thread>

#include "sim/engine/simulate.hpp"
#include "sim/engine/work_estimate.hpp"
#include "tests/sanitized_build.hpp"

namespace ts::sim {
namespace {

/// CPU time of the calling thread, seconds (a busy machine slows the wall clock, not this).
double threadSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

SimOptions withTrace(bool trace)
{
    SimOptions o;
    o.trace = trace;
    return o;
}

/// Expects `estimate` within `tolerance` (relative) of `actual`.
void expectNear(const char* what, uint64_t estimate, uint64_t actual, double tolerance)
{
    EXPECT_NEAR(static_cast<double>(estimate), static_cast<double>(actual), tolerance * static_cast<double>(actual) + 0.5)
        << what << ": estimated " << estimate << ", simulated " << actual;
}

TEST(WorkEstimate, MatmulMultiplyAddsAreExact)
{
    // The naive kernel: one multiply-add per (row, column, k); the tiled one also multiplies
    // the zero-filled end of the last phase: k rounded up to a multiple of TILE_WIDTH.
    const WorkEstimate naive = estimateWork(matmulScenario("matmul-naive", 100, 37, 51, 16));
    EXPECT_EQ(naive.fmas, 100ull * 37 * 51);
    EXPECT_EQ(naive.referenceFmas, 100ull * 37 * 51);
    const WorkEstimate tiled = estimateWork(matmulScenario("matmul-tiled", 100, 37, 51, 16));
    EXPECT_EQ(tiled.fmas, 100ull * 48 * 51);
    EXPECT_EQ(estimateWork(matmulScenario("matmul-naive", 5000, 5000, 5000, 16)).fmas, 125000000000ull);
    EXPECT_EQ(estimateWork(matmulScenario("matmul-tiled", 8192, 8192, 8192, 32)).fmas, 8192ull * 8192 * 8192);
}

TEST(WorkEstimate, CountsMatchSimulatedCounters)
{
    struct Case {
        Scenario s;
        double tolerance;   ///< exact for matrix multiplication; halo and ghost cells aside
    };
    const Case cases[] = {
        {matmulScenario("matmul-naive", 100, 37, 51, 16, {2, 1}), 0},
        {matmulScenario("matmul-tiled", 100, 37, 51, 16, {3, 6}), 0},
        {matmulScenario("matmul-tiled", 64, 64, 64, 2), 0},
        {convScenario("conv1d-basic", 1, 10000, 64, 5, {3, 0}), 0},
        {convScenario("conv1d-tiled", 1, 10000, 64, 5, {3, 0}), 0.01},
        {convScenario("conv1d-tiled-cache", 1, 10000, 64, 9, {3, 0}), 0.01},
        {convScenario("conv2d-basic", 300, 200, 16, 5, {1, 1}), 0},
        {convScenario("conv2d-tiled", 300, 200, 8, 5, {1, 1}), 0.01},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(problemWords(c.s));
        ASSERT_EQ(validate(c.s), "");
        const WorkEstimate e = estimateWork(c.s, withTrace(true));
        const Simulation r = simulate(c.s, withTrace(true));
        ASSERT_TRUE(r.error.empty()) << r.error;
        const Totals& t = r.counters.totals;
        EXPECT_EQ(e.blocks, r.grid.count());
        EXPECT_EQ(e.threads, r.grid.count() * r.block.count());
        EXPECT_EQ(e.fmas, t.flops / 2);
        expectNear("global and constant accesses", e.globalAccesses,
                   t.global_loads + t.global_stores + t.constant_loads, c.tolerance);
        expectNear("shared accesses", e.sharedAccesses, t.shared_loads + t.shared_stores, c.tolerance);
        EXPECT_EQ(e.barrierWaits, t.barriers * r.block.count());
        // The traced block's events: an upper bound, at most a tenth above.
        EXPECT_GE(e.tracedEvents, r.trace.events.size());
        expectNear("traced events", e.tracedEvents, r.trace.events.size(), 0.1);
    }
}

TEST(WorkEstimate, DroppedBarrierIsNotWaitedFor)
{
    Scenario s = matmulScenario("matmul-tiled", 64, 64, 64, 8);
    const uint64_t both = estimateWork(s).barrierWaits;
    s.dropBarriers = kernels::AFTER_COMPUTE;
    EXPECT_EQ(estimateWork(s).barrierWaits * 2, both);
}

TEST(WorkEstimate, MemoryGrowsWithTheArraysAndTheTrace)
{
    // Matrix multiplication: 4 bytes a float of M, N, P and the reference, 8 bytes of
    // counters per element of M, N and P, 64 bytes of totals per block.
    const WorkEstimate w1000 = estimateWork(matmulScenario("matmul-tiled", 1000, 1000, 1000, 16), withTrace(false));
    EXPECT_EQ(w1000.dataBytes, 4ull * 4 * 1000 * 1000);
    EXPECT_EQ(w1000.counterBytes, 8ull * 3 * 1000 * 1000 + sizeof(Totals) * 63 * 63);
    EXPECT_EQ(w1000.traceBytes, 0u);
    const WorkEstimate w2000 = estimateWork(matmulScenario("matmul-tiled", 2000, 2000, 2000, 16), withTrace(false));
    EXPECT_NEAR(static_cast<double>(w2000.dataBytes + w2000.counterBytes),
                4.0 * static_cast<double>(w1000.dataBytes + w1000.counterBytes), 0.01 * w2000.counterBytes);
    EXPECT_GT(w2000.bytes(), w1000.bytes());
    // The trace of one block grows with k (every thread's k multiply-adds are recorded).
    const WorkEstimate t1 = estimateWork(matmulScenario("matmul-naive", 32, 1000, 32, 32), withTrace(true));
    const WorkEstimate t4 = estimateWork(matmulScenario("matmul-naive", 32, 4000, 32, 32), withTrace(true));
    EXPECT_GT(t1.traceBytes, 0u);
    EXPECT_NEAR(static_cast<double>(t4.traceBytes), 4.0 * static_cast<double>(t1.traceBytes), 0.01 * t4.traceBytes);
    // Two simulations held at once (the app's dropped-barrier run and its intact twin).
    WorkEstimate two = w1000;
    two += w1000;
    EXPECT_EQ(two.dataBytes, 2 * w1000.dataBytes);
    EXPECT_DOUBLE_EQ(two.seconds(), 2 * w1000.seconds());
}

TEST(WorkEstimate, TenSecondLine)
{
    // The size: matmul-naive at width 5000 is far above 10 s; the lecture sizes are
    // instant.
    const Scenario big = matmulScenario("matmul-naive", 5000, 5000, 5000, 16);
    const WorkEstimate e = estimateWork(big, withTrace(false));
    EXPECT_GT(e.seconds(), 10 * kAskAboveSeconds);
    EXPECT_EQ(judgeWork(e, std::nullopt), WorkVerdict::Ask);
    const WorkEstimate small = estimateWork(matmulScenario("matmul-tiled", 64, 64, 64, 16));
    EXPECT_LT(small.seconds(), 1.0);
    EXPECT_EQ(judgeWork(small, std::nullopt), WorkVerdict::Run);
    EXPECT_LT(estimateWork(matmulScenario("matmul-tiled", 4, 4, 4, 2)).seconds(), 0.01);
    // Memory is checked first: too big is refused even where the time would be asked about.
    EXPECT_EQ(judgeWork(e, e.bytes() - 1), WorkVerdict::TooBig);
    EXPECT_EQ(judgeWork(e, e.bytes()), WorkVerdict::Ask);
    EXPECT_EQ(judgeWork(small, uint64_t{1} << 20), WorkVerdict::TooBig);
}

TEST(WorkEstimate, Sentences)
{
    const Scenario big = matmulScenario("matmul-naive", 5000, 5000, 5000, 16);
    const WorkEstimate e = estimateWork(big, withTrace(false));
    const std::string d = durationSentence(big, e);
    EXPECT_EQ(d.rfind("Simulating matmul-naive at width 5000, tile 16 takes about ", 0), 0u) << d;
    EXPECT_NE(d.find(" on this machine when it is idle, up to "), std::string::npos) << d;
    EXPECT_NE(d.find(" when it is busy (1.25e11 multiply-adds)"), std::string::npos) << d;
    // The range: the estimate, and 2.5 times it on a busy machine (a 21 s estimate took 52 s).
    EXPECT_NE(d.find("takes about " + durationWords(e.seconds()) + " on this machine when it is idle, up to " +
                     durationWords(2.5 * e.seconds()) + " when"),
              std::string::npos) << d;
    const std::string m = memorySentence(big, e, 100ull << 20);
    // 1.0 GiB (1024.75 MiB): three 5000^2 matrices (286 MiB), their per-element load and store
    // counters, and a Totals of 240 bytes (30 counters) for each of the 313^2 blocks.
    EXPECT_NE(m.find("needs about 1.0 GiB of memory"), std::string::npos) << m;
    EXPECT_NE(m.find("more than the 100 MiB available on this machine"), std::string::npos) << m;
    EXPECT_EQ(durationWords(0.4), "under a second");
    EXPECT_EQ(durationWords(45), "45 s");
    EXPECT_EQ(durationWords(13 * 60 + 10), "13 min");
    EXPECT_EQ(durationWords(3 * 3600 + 10 * 60), "3 h 10 min");
    EXPECT_EQ(durationWords(2 * 3600), "2 h");
    EXPECT_EQ(durationWords(52 * 3600), "2 days 4 h");
    EXPECT_EQ(byteWords(512), "1 KiB");
    EXPECT_EQ(byteWords(300ull << 20), "300 MiB");
    EXPECT_EQ(byteWords(5ull << 29), "2.5 GiB");
    EXPECT_EQ(problemWords(matmulScenario("matmul-tiled", 100, 37, 51, 16)), "matmul-tiled at j 100, k 37, l 51, tile 16");
    EXPECT_EQ(problemWords(convScenario("conv2d-tiled", 30, 40, 8, 5)),
              "conv2d-tiled at height 30, width 40, Mask_Width 5, tile 8");
}

TEST(WorkEstimate, AvailableMemoryIsReadOnLinux)
{
#ifdef __linux__
    const std::optional<uint64_t> a = availableMemory();
    ASSERT_TRUE(a.has_value());
    EXPECT_GT(*a, uint64_t{16} << 20);   // at least the 16 MiB this test runs in
#else
    GTEST_SKIP() << "reads /proc/meminfo";
#endif
}

TEST(WorkEstimate, EstimateWithinFactorOfMeasuredRun)
{
    // Mid-size problems of each family, a fraction of a second each: the estimate must be
    // within 3x of the CPU time the simulation really takes on this machine.
    if (ts::test::kAddressSanitized)
        GTEST_SKIP() << "the estimate is calibrated for an optimised build; under ASan+UBSan these "
                        "four runs took 33-443 s each where the estimate says under a second";
    const Scenario cases[] = {
        matmulScenario("matmul-naive", 300, 300, 300, 16),
        matmulScenario("matmul-tiled", 256, 256, 256, 8),
        convScenario("conv1d-tiled", 1, 1 << 20, 32, 9),
        convScenario("conv2d-tiled", 512, 512, 8, 5),
    };
    // One thread: the estimate is the CPU time of one core, and threadSeconds() sees only
    // the calling thread's.
    SimOptions oneThread = withTrace(true);
    oneThread.threads = 1;
    for (const Scenario& s : cases) {
        const WorkEstimate e = estimateWork(s, oneThread);
        const double start = threadSeconds();
        const Simulation r = simulate(s, oneThread);
        const double took = threadSeconds() - start;
        ASSERT_TRUE(r.matchesReference) << problemWords(s);
        std::printf("%s: estimate %.3f s, run %.3f s CPU\n", problemWords(s).c_str(), e.seconds(), took);
        EXPECT_GT(e.seconds(), took / 3) << durationSentence(s, e) << "; the run took " << took << " s";
        EXPECT_LT(e.seconds(), took * 3) << durationSentence(s, e) << "; the run took " << took << " s";
    }
}

/// Simulates `s` on this thread while another sets the cancel flag once `trigger(progress)`
/// holds; returns the simulation, how long simulate() went on after the flag was set, and
/// the progress reported when it was set.
Simulation cancelWhen(const Scenario& s, const SimOptions& base, const std::function<bool(float)>& trigger,
                      double& secondsAfterFlag, float* progressAtFlag = nullptr)
{
    std::atomic<bool> cancel{false};
    std::atomic<float> progress{0};
    std::atomic<bool> finished{false};
    std::chrono::steady_clock::time_point flagged{};
    std::thread canceller([&] {
        while (!finished && !trigger(progress.load())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        flagged = std::chrono::steady_clock::now();
        if (progressAtFlag) *progressAtFlag = progress.load();
        cancel = true;
    });
    SimOptions opt = base;
    opt.cancel = &cancel;
    opt.progress = &progress;
    Simulation r = simulate(s, opt);
    const auto end = std::chrono::steady_clock::now();
    finished = true;
    canceller.join();
    secondsAfterFlag = std::chrono::duration<double>(end - flagged).count();
    return r;
}

void expectCancelled(const Simulation& r, double secondsAfterFlag)
{
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.matchesReference);
    EXPECT_NE(r.error.find("cancelled"), std::string::npos) << r.error;
    EXPECT_TRUE(r.trace.steps.empty());
    // The time is printed; the bound is loose (a loaded or sanitized machine is several times
    // slower) yet far below the half minute or more each of these runs needs in full.
    std::printf("simulate() returned %.3f s after the flag was set\n", secondsAfterFlag);
    EXPECT_LT(secondsAfterFlag, 10.0) << "simulate() went on for " << secondsAfterFlag << " s after the flag was set";
}

TEST(WorkEstimate, CancelAfter100msStopsSoon)
{
    // matmul-naive at width 2048: minutes of work; the flag is set after about 100 ms.
    const Scenario s = matmulScenario("matmul-naive", 2048, 2048, 2048, 16);
    ASSERT_GT(estimateWork(s).seconds(), 30.0);
    const auto start = std::chrono::steady_clock::now();
    double after = 0;
    const Simulation r = cancelWhen(
        s, withTrace(true),
        [&](float) { return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(100); }, after);
    expectCancelled(r, after);
}

TEST(WorkEstimate, CancelWhileTheGridRuns)
{
    // A short k keeps the reference quick; the flag is set once the grid of fibers is past
    // its first hundredth.
    const Scenario s = matmulScenario("matmul-tiled", 2048, 64, 2048, 16);
    const WorkEstimate e = estimateWork(s, withTrace(false));
    ASSERT_GT(e.runSeconds, 1.5);
    const float runStart = static_cast<float>(e.setupSeconds / e.seconds());
    double after = 0;
    float at = 0;
    const Simulation r = cancelWhen(s, withTrace(false), [&](float p) { return p > runStart + 0.01f; }, after, &at);
    expectCancelled(r, after);
    // The grid reported its progress and the flag was set while it ran (the grid ends at
    // 1 without a trace).
    EXPECT_LT(at, 0.9f) << "the flag was only set after the grid had finished";
}

TEST(WorkEstimate, CancelWhileTheTraceIsGrouped)
{
    // One block of 1024 threads recording 3.1 million events: grouping them takes seconds.
    const Scenario s = matmulScenario("matmul-naive", 32, 1024, 32, 32);
    const WorkEstimate e = estimateWork(s, withTrace(true));
    ASSERT_GT(e.traceSeconds, 1.0);
    const float traceStart = static_cast<float>((e.setupSeconds + e.runSeconds) / e.seconds());
    double after = 0;
    float at = 0;
    const Simulation r = cancelWhen(s, withTrace(true), [&](float p) { return p > traceStart + 0.01f; }, after, &at);
    expectCancelled(r, after);
    EXPECT_LT(at, 0.9f) << "the flag was only set after the trace had been grouped";
}

TEST(WorkEstimate, UncancelledRunReportsProgressToTheEnd)
{
    std::atomic<bool> cancel{false};
    std::atomic<float> progress{0};
    SimOptions opt;
    opt.cancel = &cancel;
    opt.progress = &progress;
    const Simulation r = simulate(matmulScenario("matmul-tiled", 64, 64, 64, 16), opt);
    EXPECT_FALSE(r.cancelled);
    EXPECT_TRUE(r.matchesReference);
    EXPECT_FLOAT_EQ(progress.load(), 1.0f);
}

// A caller that has judged a run by its estimate hands that estimate to simulate() (made
// once, not again inside): the run is the same as simulate()'s own, with a dropped barrier
// and for a convolution, P, counters and traced steps alike.
TEST(WorkEstimate, GivenEstimateRunsTheSameSimulation)
{
    Scenario dropped = matmulScenario("matmul-tiled", 24, 20, 28, 8, {1, 1, 0}, 5);
    dropped.dropBarriers = kernels::AFTER_COMPUTE;
    for (const Scenario& s : {dropped, convScenario("conv2d-tiled", 19, 23, 8, 5, {1, 1, 0}, 7)}) {
        std::atomic<float> progress{0};
        SimOptions opt;
        opt.progress = &progress;
        const WorkEstimate e = estimateWork(s, opt);
        const Simulation given = simulate(s, opt, e);
        EXPECT_FLOAT_EQ(progress.load(), 1.0f) << s.kernel;
        const Simulation own = simulate(s, opt);
        ASSERT_EQ(given.P.size(), own.P.size()) << s.kernel;
        ASSERT_FALSE(given.P.empty());
        EXPECT_EQ(std::memcmp(given.P.data(), own.P.data(), given.P.size() * sizeof(float)), 0) << s.kernel;
        EXPECT_EQ(given.matchesReference, own.matchesReference) << s.kernel;
        EXPECT_EQ(given.counters.totals.global_loads, own.counters.totals.global_loads) << s.kernel;
        EXPECT_EQ(given.counters.totals.shared_loads, own.counters.totals.shared_loads) << s.kernel;
        EXPECT_GT(given.counters.totals.global_loads, 0u);
        EXPECT_EQ(given.trace.steps.size(), own.trace.steps.size()) << s.kernel;
        EXPECT_GT(given.trace.steps.size(), 1u) << s.kernel;
        EXPECT_EQ(e.threads, given.grid.count() * given.block.count()) << s.kernel;
    }
}

}  // namespace
}  // namespace ts::sim
