// Integer elements and atomics on global and shared memory in the simulator (issue 40's
// atomics on int, unsigned int and shared memory, the ground PMPP ch. 9's histograms stand
// on): PMPP Fig. 9.6 (every thread an atomicAdd on a global bin) and Fig. 9.10 (bins
// privatized in shared memory) written here as single-source kernels over the letters of
// "programming massively parallel processors", whose warp atomic requests and passes Nsight
// Compute measured on an H200 (2048 global requests and 17 184 passes for Fig. 9.6; 2048
// shared atomic instructions and 256 global requests for Fig. 9.10, 65 536 characters,
// 256 threads a block). The figures are also worked out here from the text, lane by lane,
// and each atomic's meaning from a sequential loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kernels/context.cuh"
#include "sim/engine/machine.hpp"
#include "sim/engine/warp_memory.hpp"
#include "histogram_text.hpp"

namespace ts::test {
namespace {

constexpr int NUM_BINS = 7;   // 26 letters, four a bin (PMPP sec. 9.2)

/// PMPP Fig. 9.6: each thread adds its character's bin with one atomicAdd on global memory.
/// The text arrives as int codes (a `char` array is issue 41's).
template <class X>
void histoKernel(X& x, typename X::template GlobalPtr<const int> data, unsigned int length,
                 typename X::template GlobalPtr<unsigned> histo)
{
    unsigned int i = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    if (x.branch(i < length)) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            x.atomicAdd(&histo[alphabet_position / 4], 1u);
        }
    }
}

/// PMPP Fig. 9.10: the bins privatized in shared memory, then merged into global memory.
template <class X>
void histoPrivateKernel(X& x, typename X::template GlobalPtr<const int> data, unsigned int length,
                        typename X::template GlobalPtr<unsigned> histo)
{
    TS_SHARED_1D(unsigned, histo_s, NUM_BINS);
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        histo_s[bin] = 0u;
    }
    x.syncthreads();
    unsigned int i = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    if (x.branch(i < length)) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            x.atomicAdd(&histo_s[alphabet_position / 4], 1u);
        }
    }
    x.syncthreads();
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        unsigned int binValue = histo_s[bin];
        if (x.branch(binValue > 0)) {
            x.atomicAdd(&histo[bin], binValue);
        }
    }
}

struct HistoRun {
    std::vector<float> histo;   // the bins' float slots
    sim::Totals totals;
    sim::HazardLog hazards;
    std::vector<sim::Event> events;
    std::string fault;
};

/// Runs `kernel` over `text` with `threads` a block, with the warp memory model.
template <class K>
HistoRun histogram(const std::string& text, unsigned threads, K kernel, bool trace = false)
{
    sim::Machine m;
    sim::WarpMemory memory;
    m.memory = &memory;
    std::vector<float> data(text.begin(), text.end());   // the codes, each exact in float
    HistoRun r;
    r.histo.assign(NUM_BINS, 0.0f);
    sim::GlobalPtr<const int> d(data.data(), static_cast<long long>(data.size()), &m,
                                m.arrayId("data", sim::Space::Global, 1, static_cast<int>(data.size())));
    sim::GlobalPtr<unsigned> h(r.histo.data(), NUM_BINS, &m, m.arrayId("histo", sim::Space::Global, 1, NUM_BINS));
    sim::LaunchConfig cfg;
    cfg.grid = {static_cast<unsigned>((text.size() + threads - 1) / threads), 1, 1};
    cfg.block = {threads, 1, 1};
    if (trace) cfg.tracedBlock = sim::Uint3{0, 0, 0};
    try {
        sim::runGrid(m, cfg, [&](sim::ThreadContext& x) { kernel(x, d, static_cast<unsigned>(text.size()), h); });
    } catch (const sim::KernelFault& f) {
        r.fault = f.what();
    }
    r.totals = m.counters.totals;
    r.hazards = m.hazards;
    r.events = m.events;
    return r;
}

TEST(TypedAtomics, Fig96GlobalRequestsAndPassesEqualNsightCompute)
{
    const std::string text = phrase(65536);
    const HistoRun r = histogram(text, 256, [](sim::ThreadContext& x, auto d, unsigned n, auto h) { histoKernel(x, d, n, h); });
    ASSERT_EQ(r.fault, "");
    EXPECT_EQ(r.histo, binsOf(text));
    // Nsight Compute on an H200 (l1tex__t_requests_pipe_lsu_mem_global_op_red.sum and
    // ..._set_accesses_...): 2048 requests, 17 184 set accesses.
    EXPECT_EQ(r.totals.global_atom_requests, 2048u);
    EXPECT_EQ(r.totals.global_atom_passes, 17184u);
    const auto [requests, passes] = requestsAndPasses(text);
    EXPECT_EQ(r.totals.global_atom_requests, requests);
    EXPECT_EQ(r.totals.global_atom_passes, passes);
    uint64_t letters = 0;
    for (char c : text) letters += c >= 'a' && c <= 'z';
    EXPECT_EQ(r.totals.global_atomics, letters);
    EXPECT_EQ(r.totals.shared_atomics, 0u);
}

TEST(TypedAtomics, Fig910SharedInstructionsAndGlobalRequestsEqualNsightCompute)
{
    const std::string text = phrase(65536);
    const HistoRun r =
        histogram(text, 256, [](sim::ThreadContext& x, auto d, unsigned n, auto h) { histoPrivateKernel(x, d, n, h); });
    ASSERT_EQ(r.fault, "");
    EXPECT_EQ(r.histo, binsOf(text));
    // Nsight Compute on an H200: smsp__inst_executed_op_shared_atom.sum 2048, global REDs 256.
    EXPECT_EQ(r.totals.shared_atom_requests, 2048u);
    EXPECT_EQ(r.totals.global_atom_requests, 256u);
    // Worked out: one shared instruction per warp (each has a letter), its passes those of
    // Fig. 9.6's global request; one global request per block (threads 0..6 of warp 0, each
    // bin non-empty in 256 characters of the phrase), one lane per bin.
    const auto [requests, passes] = requestsAndPasses(text);
    EXPECT_EQ(r.totals.shared_atom_requests, requests);
    EXPECT_EQ(r.totals.shared_atom_passes, passes);
    EXPECT_EQ(r.totals.global_atom_passes, 256u);
    EXPECT_EQ(r.totals.global_atomics, 256u * NUM_BINS);
    // Atomics of different threads on one bin are no race; the barriers order the rest.
    EXPECT_EQ(r.hazards.raw + r.hazards.war + r.hazards.waw, 0u);
}

TEST(TypedAtomics, SharedAtomicsAreTracedWithTheValueBeforeAndAfter)
{
    const std::string text = "abcdabcd";
    const HistoRun r = histogram(text, 8, [](sim::ThreadContext& x, auto d, unsigned n, auto h) { histoPrivateKernel(x, d, n, h); },
                            true);
    ASSERT_EQ(r.fault, "");
    // Lanes 0..7 run in lane order: bin 0 counts 0 -> 1 -> ... -> 8.
    float expectBefore = 0.0f;
    int shared = 0;
    for (const sim::Event& e : r.events) {
        if (e.op != sim::Op::Atomic || e.array != 2) continue;   // histo_s, the third array
        float before;
        std::memcpy(&before, &e.origin, sizeof before);
        EXPECT_EQ(before, expectBefore);
        EXPECT_EQ(e.value, expectBefore + 1.0f);
        expectBefore += 1.0f;
        ++shared;
    }
    EXPECT_EQ(shared, 8);
    EXPECT_EQ(r.histo[0], 8.0f);
}

/// Runs `body` over one block of `threads`; the fault's sentence, or "".
std::string run(sim::Machine& m, unsigned threads, const std::function<void(sim::ThreadContext&)>& body)
{
    sim::LaunchConfig cfg;
    cfg.grid = {1, 1, 1};
    cfg.block = {threads, 1, 1};
    try {
        sim::runGrid(m, cfg, body);
    } catch (const sim::KernelFault& f) {
        return f.what();
    }
    return "";
}

/// A thread's distinct value: a permutation of 0..63 scaled, so neither the first nor the
/// last lane holds the extremes.
int valueOf(unsigned t) { return static_cast<int>((t * 37 + 11) % 64) * 3 - 90; }

// Each operation against the same operations applied one after the other in lane order.
TEST(TypedAtomics, EachOperationIsItsSequentialLoop)
{
    sim::Machine m;
    std::vector<float> g(6, 0.0f);
    g[2] = 1000.0f;   // atomicMin's start
    g[4] = 500.0f;    // atomicSub's start: 64 lanes take 3 each
    sim::GlobalPtr<int> G(g.data(), 6, &m, m.arrayId("g", sim::Space::Global, 1, 6));
    sim::GlobalPtr<unsigned> U = G.as<unsigned>();
    std::vector<int> oldAdd(64), oldCas(64);
    ASSERT_EQ(run(m, 64, [&](sim::ThreadContext& x) {
                  const unsigned t = x.threadIdx.x;
                  oldAdd[t] = x.atomicAdd(&G[0], valueOf(t));
                  x.atomicMax(&G[1], valueOf(t));
                  x.atomicMin(&G[2], valueOf(t));
                  x.atomicExch(&G[3], valueOf(t));
                  x.atomicSub(&U[4], 3u);
                  // Only the lane that finds 0 swaps in its value: the first one.
                  oldCas[t] = x.atomicCAS(&G[5], 0, static_cast<int>(t) + 100);
              }),
              "");
    int sum = 0, mx = -1000, mn = 1000;
    for (unsigned t = 0; t < 64; ++t) {
        EXPECT_EQ(oldAdd[t], sum) << "atomicAdd returns the value before, lane " << t;
        sum += valueOf(t);
        mx = std::max(mx, valueOf(t));
        mn = std::min(mn, valueOf(t));
        EXPECT_EQ(oldCas[t], t == 0 ? 0 : 100) << "lane " << t;
    }
    EXPECT_EQ(g[0], static_cast<float>(sum));
    EXPECT_EQ(g[1], static_cast<float>(mx));
    EXPECT_EQ(g[2], static_cast<float>(mn));
    EXPECT_EQ(g[3], static_cast<float>(valueOf(63))) << "the last lane's exchange stays";
    EXPECT_EQ(g[4], 500.0f - 64 * 3);
    EXPECT_EQ(g[5], 100.0f);
    EXPECT_EQ(m.counters.totals.global_atomics, 6u * 64);
}

// Unsigned shared slots: each lane's atomicAdd returns the count before it, atomicMax keeps
// the largest thread index, and the shared atomics are counted apart from the global ones.
TEST(TypedAtomics, SharedIntegerSlotsHoldExactValuesAndCountAsShared)
{
    sim::Machine m;
    std::vector<unsigned> seen(64);
    ASSERT_EQ(run(m, 64, [&](sim::ThreadContext& x) {
                  TS_SHARED_1D(unsigned, counter, 2);
                  if (x.threadIdx.x == 0) {
                      counter[0] = 0u;
                      counter[1] = 7u;
                  }
                  x.syncthreads();
                  seen[x.threadIdx.x] = x.atomicAdd(&counter[0], 2u);
                  x.atomicMax(&counter[1], x.threadIdx.x);
                  x.syncthreads();
                  if (x.threadIdx.x == 0) seen[0] = counter[0] + counter[1] * 1000u;
              }),
              "");
    for (unsigned t = 1; t < 64; ++t) EXPECT_EQ(seen[t], 2 * t) << "each lane's old value";
    EXPECT_EQ(seen[0], 128u + 63u * 1000u);
    EXPECT_EQ(m.counters.totals.shared_atomics, 128u);
    EXPECT_EQ(m.counters.totals.global_atomics, 0u);
    EXPECT_EQ(m.hazards.raw + m.hazards.war + m.hazards.waw, 0u);
}

// A plain access of a slot that other threads update atomically, with no barrier between,
// is a race; atomics alone are not.
TEST(TypedAtomics, PlainAccessBesideAtomicsIsAHazard)
{
    for (const bool plainWrite : {true, false}) {
        sim::Machine m;
        ASSERT_EQ(run(m, 64, [&](sim::ThreadContext& x) {
                      TS_SHARED_1D(int, total, 1);
                      if (x.threadIdx.x == 0) total[0] = 0;
                      x.syncthreads();
                      x.atomicAdd(&total[0], 1);
                      if (x.threadIdx.x == 40) {
                          if (plainWrite) total[0] = 5;
                          else {
                              const int v = total[0];
                              (void)v;
                          }
                      }
                  }),
                  "");
        EXPECT_GT(m.hazards.raw + m.hazards.war + m.hazards.waw, 0u) << (plainWrite ? "plain write" : "plain read");
    }
}

TEST(TypedAtomics, IntegersBeyondTwoToTheTwentyFourAreAFaultNotARoundedValue)
{
    sim::Machine m;
    std::vector<float> g(1, 0.0f);
    sim::GlobalPtr<unsigned> U(g.data(), 1, &m, m.arrayId("count", sim::Space::Global, 1, 1));
    const std::string f = run(m, 1, [&](sim::ThreadContext& x) { x.atomicSub(&U[0], 1u); });
    EXPECT_NE(f.find("stored 4294967295 into count[0]"), std::string::npos) << f;
    EXPECT_NE(f.find("beyond 2^24"), std::string::npos) << f;
    EXPECT_EQ(g[0], 0.0f) << "nothing stored";
}

TEST(TypedAtomics, SpinningOnAtomicCasIsStoppedAsAnEndlessLoop)
{
    sim::Machine m;
    std::vector<float> g(1, 0.0f);
    sim::GlobalPtr<int> flag(g.data(), 1, &m, m.arrayId("flag", sim::Space::Global, 1, 1));
    const std::string f = run(m, 1, [&](sim::ThreadContext& x) {
        while (x.atomicCAS(&flag[0], 1, 1) != 1) {
        }
    });
    EXPECT_NE(f.find("a loop that never ends"), std::string::npos) << f;
}

}  // namespace
}  // namespace ts::test
