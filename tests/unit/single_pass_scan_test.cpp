// PMPP sec. 11.7's single-pass scan (registry row scan-single-pass) and what the simulator
// models of hand-overs between blocks: scratch arrays, the dynamic block index, the
// __threadfence() a flag needs (OrderKind::NoFence), a plain read of handed-over data
// (OrderKind::PlainRead) and a wait no block can end. The scans are checked against a scan
// added here element by element, the flags and running sums against the sections' totals, and
// the reported lines against the kernel's source text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

Scenario singlePass(int n, int tile)
{
    Scenario s;
    s.kernel = "scan-single-pass";
    s.height = 1;
    s.width = n;
    s.tile = tile;
    return s;
}

Simulation run(const Scenario& s, Schedule schedule = Schedule::InOrder)
{
    SimOptions o;
    o.trace = true;
    o.threads = 1;
    o.schedule = schedule;
    o.scheduleSeed = 7;
    return simulate(s, o);
}

/// The line of kernels/scan_single_pass.cuh holding `text`, or 0.
unsigned lineOf(const std::string& text)
{
    const std::string& src = kernelSource("scan_single_pass.cuh");
    const size_t at = src.find(text);
    if (at == std::string::npos) return 0;
    unsigned line = 1;
    for (size_t i = 0; i < at; ++i) line += src[i] == '\n';
    return line;
}

/// Checks `r` against the scan of its input added here, and its scratch arrays against the
/// sections' totals: every block set its flag, handed on the sum up to its section's end,
/// and took one place from the counter.
void expectScanned(const Simulation& r, int n, int tile)
{
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.M.size(), static_cast<size_t>(n));
    const int blocks = (n + tile - 1) / tile;
    ASSERT_EQ(r.grid.x, static_cast<unsigned>(blocks));
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
        ASSERT_GE(r.M[i], 1.0f);
        ASSERT_LE(r.M[i], 8.0f);
        sum += r.M[i];
        ASSERT_EQ(r.P[i], sum) << "Y[" << i << "]";
    }
    EXPECT_TRUE(r.matchesReference);
    ASSERT_EQ(r.scratch.size(), 3u);
    const std::vector<float>& flags = r.scratch[0];
    const std::vector<float>& scanValue = r.scratch[1];
    ASSERT_EQ(flags.size(), static_cast<size_t>(blocks + 1));
    EXPECT_EQ(flags[0], 0.0f);   // nobody hands on to block 0
    for (int b = 1; b <= blocks; ++b) {
        EXPECT_EQ(flags[b], 1.0f) << "flags[" << b << "]";
        // The sum of sections 0..b-1, the input's prefix at the end of section b - 1 (zeros past N).
        const int end = std::min(b * tile, n) - 1;
        EXPECT_EQ(scanValue[b], r.P[end]) << "scan_value[" << b << "]";
    }
    EXPECT_EQ(r.scratch[2], std::vector<float>{static_cast<float>(blocks)});   // blockCounter
    EXPECT_TRUE(r.orderSites.empty());
}

TEST(SinglePassScan, ScansAnyLengthInOneLaunch)
{
    // One element, a block and one more, ragged lengths, and a long input of many blocks.
    for (const auto& [n, tile] : std::vector<std::pair<int, int>>{{1, 16}, {16, 16}, {17, 16}, {1000, 16},
                                                                   {1025, 1024}, {3001, 256}, {100000, 1024}}) {
        SCOPED_TRACE("N = " + std::to_string(n) + ", BLOCK_DIM " + std::to_string(tile));
        expectScanned(run(singlePass(n, tile)), n, tile);
    }
}

TEST(SinglePassScan, TheDynamicBlockIndexKeepsAnyBlockOrderRight)
{
    // Blocks started last to first, or shuffled: each takes its place in the chain from the
    // counter as it starts, so it only waits for blocks that ran before it.
    for (const Schedule order : {Schedule::Reverse, Schedule::Random}) {
        const Simulation r = run(singlePass(200, 16), order);
        expectScanned(r, 200, 16);
    }
}

TEST(SinglePassScan, WithoutTheFenceEachHandOverIsReported)
{
    Scenario s = singlePass(1000, 16);
    s.dropBarriers = kernels::FENCE;
    const Simulation r = run(s);
    // One block at a time: the result is still right, and the missing fence is a diagnosis.
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    ASSERT_EQ(r.orderSites.size(), 1u);
    const OrderSite& o = r.orderSites[0];
    EXPECT_EQ(o.kind, OrderKind::NoFence);
    EXPECT_EQ(o.count, 62u);   // 63 blocks, 62 hand-overs
    EXPECT_EQ(r.arrays.at(o.dataArray).name, "scan_value");
    EXPECT_EQ(r.arrays.at(o.flagArray).name, "flags");
    EXPECT_EQ(o.storeLine, lineOf("scan_value[bid + 1] = "));
    EXPECT_EQ(o.flagLine, lineOf("x.atomicAdd(&flags[bid + 1], 1u)"));
    EXPECT_EQ(o.readLine, lineOf("x.atomicAdd(&flags[bid], 0u)"));
    EXPECT_NE(o.storeLine, 0u);
    EXPECT_EQ(o.dataIndex, 1);
    EXPECT_EQ(o.flagIndex, 1);
    const std::string report = orderReport(r.orderSites, r.arrays);
    EXPECT_NE(report.find("No __threadfence()"), std::string::npos) << report;
    EXPECT_NE(report.find("62 hand-overs"), std::string::npos) << report;
}

TEST(SinglePassScan, TheTracedBlockWaitsThenHandsOn)
{
    const Simulation r = run(singlePass(64, 16));   // block 0 traced
    Scenario s = singlePass(64, 16);
    s.block = Uint3{2, 0, 0};
    const Simulation r2 = run(s);
    ASSERT_EQ(r2.error, "");
    int reads = 0, adds = 0;
    for (const Step& st : r2.trace.steps) {
        reads += st.label.find("atomic read of flags") != std::string::npos;
        adds += st.label.find("atomic add to flags") != std::string::npos;
    }
    EXPECT_EQ(reads, 1);   // block 2 waits for flags[2]
    EXPECT_EQ(adds, 1);    // and sets flags[3]
    for (const Step& st : r.trace.steps) EXPECT_EQ(st.label.find("atomic read of flags"), std::string::npos) << "block 0 waits for nobody";
}

/// A chain of blocks written the way sec. 11.7 warns against: each block's place is its
/// blockIdx, and its thread 0 waits for the flag of block blockIdx - 1, then reads the
/// handed-over value through a plain pointer (`volatile` omitted) or a volatile one.
struct Chain {
    std::vector<float> flags, value;
    std::string fault;
    std::vector<OrderSite> sites;
    std::vector<ArrayInfo> arrays;
};

Chain chain(unsigned blocks, Schedule order, bool plainRead)
{
    Chain c;
    c.flags.assign(blocks + 1, 0.0f);
    c.value.assign(blocks + 1, 0.0f);
    Machine m;
    m.orderChecks = true;
    GlobalPtr<unsigned> flags(c.flags.data(), blocks + 1, &m, m.arrayId("flags", Space::Global, 1, static_cast<int>(blocks + 1)));
    GlobalPtr<float> value(c.value.data(), blocks + 1, &m, m.arrayId("value", Space::Global, 1, static_cast<int>(blocks + 1)));
    LaunchConfig cfg;
    cfg.grid = {blocks, 1, 1};
    cfg.block = {32, 1, 1};
    cfg.schedule = order;
    cfg.blocksInScheduleOrder = true;
    try {
        runGrid(m, cfg, [&](ThreadContext& x) {
            if (x.threadIdx.x != 0) return;
            const unsigned b = x.blockIdx.x;
            float previous = 0.0f;
            if (b > 0) {
                while (x.atomicAdd(&flags[b], 0u) == 0) {
                }
                if (plainRead) previous = value[b];
                else previous = x.elementsAs<volatile float>(value)[b];
            }
            value[b + 1] = previous + 1.0f;
            x.threadfence();
            x.atomicAdd(&flags[b + 1], 1u);
        });
    } catch (const KernelFault& f) {
        c.fault = f.what();
    }
    c.sites = m.orderSites;
    c.arrays = m.arrays;
    return c;
}

TEST(SinglePassScan, AWaitForABlockThatHasNotStartedIsAFault)
{
    // In block order the chain by blockIdx works; in reverse, block 3 runs first and waits for
    // block 2's flag, which nothing can set while it waits.
    const Chain inOrder = chain(4, Schedule::InOrder, false);
    EXPECT_EQ(inOrder.fault, "");
    EXPECT_EQ(inOrder.value, (std::vector<float>{0, 1, 2, 3, 4}));
    const Chain reverse = chain(4, Schedule::Reverse, false);
    EXPECT_NE(reverse.fault.find("block (3, 0)"), std::string::npos) << reverse.fault;
    EXPECT_NE(reverse.fault.find("flags[3] to change"), std::string::npos) << reverse.fault;
    EXPECT_NE(reverse.fault.find("PMPP sec. 11.7"), std::string::npos) << reverse.fault;
}

TEST(SinglePassScan, APlainReadOfHandedOverDataIsReported)
{
    const Chain plain = chain(4, Schedule::InOrder, true);
    ASSERT_EQ(plain.fault, "");
    ASSERT_EQ(plain.sites.size(), 1u);
    EXPECT_EQ(plain.sites[0].kind, OrderKind::PlainRead);
    EXPECT_EQ(plain.sites[0].count, 3u);   // blocks 1, 2 and 3 read what the one before handed on
    EXPECT_EQ(plain.arrays.at(plain.sites[0].dataArray).name, "value");
    EXPECT_NE(orderReport(plain.sites, plain.arrays).find("volatile"), std::string::npos);
    EXPECT_TRUE(chain(4, Schedule::InOrder, false).sites.empty());   // through a volatile pointer: none
}

}  // namespace
}  // namespace ts::sim
