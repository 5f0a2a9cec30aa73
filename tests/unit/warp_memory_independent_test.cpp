// The warp memory model (sim/engine/warp_memory.hpp), part 3 of the checks listed in
// warp_memory_test.cpp: the traced block's events regrouped into warp instructions with plain
// maps and sets, compared with the model's per-block and per-line figures for every kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/warp_memory.hpp"
#include "trace_query.hpp"
#include "warp_memory_test_support.hpp"

namespace ts::test {
namespace {

using sim::AccessKind;
using namespace warp_memory_detail;

// ---------------------------------------------------------------------------------------
// 3. A second, independent count from the trace.

/// Requests, sectors and passes of one direction of one memory space.
struct Figures {
    uint64_t requests = 0, lanes = 0, sectors = 0, passes = 0;
    bool operator==(const Figures&) const = default;
};

/// The figures of a traced block (or a set of them) by kind of access, and by (line, space,
/// store) for the per-line table.
struct Regrouped {
    std::map<AccessKind, Figures> byKind;
    std::map<std::tuple<unsigned, sim::Space, bool>, Figures> byLine;
};

AccessKind kindOf(sim::Op op)
{
    switch (op) {
    case sim::Op::GlobalLoad: return AccessKind::GlobalLoad;
    case sim::Op::GlobalStore: return AccessKind::GlobalStore;
    case sim::Op::SharedLoad: return AccessKind::SharedLoad;
    case sim::Op::ConstantLoad: return AccessKind::ConstantLoad;
    default: return AccessKind::SharedStore;   // SharedStore and ZeroFill
    }
}

/// One access of a thread, in its program order.
struct Access {
    unsigned line, array;
    AccessKind kind;
    uint64_t word;
    bool wide;         // a 128-bit access: word is the first of the lane's four
    unsigned tag;      // the thread's x.unrolled() tag
};

/// Regroups the traced block's events into warp memory instructions with plain maps.
/// Within a barrier interval, each thread's accesses are taken in its program order (by
/// Event::seq). An instruction is (warp = thread / 32, line, array, kind, anchor, n): the
/// n-th access of the thread with that (line, array, kind, anchor). The anchor ties a
/// statement's operands to the iteration of the mask loop that they belong to: scanning
/// left to right, a constant load and a load or store of another space next to each other
/// on one line form a pair whose anchor is the constant element (M[j], Mc[i][j]); every
/// other access has no anchor. An access made under an x.unrolled() tag is matched by the
/// tag too, and a 128-bit access (x.ldg4, x.lds4, x.sts4: its first event flagged
/// kVectorHead, the other three kVectorTail) is one access of four words. Shared words are
/// offset by the sizes of the shared arrays declared before (in the order of
/// Simulation::arrays). Adds into `out`.
void regroup(const sim::Simulation& r, Regrouped& out)
{
    std::vector<sim::Event> ev = r.trace.events;
    std::sort(ev.begin(), ev.end(), [](const sim::Event& a, const sim::Event& b) { return a.seq < b.seq; });
    std::vector<uint64_t> base(r.arrays.size(), 0);
    uint64_t sharedWords = 0;
    for (size_t a = 0; a < r.arrays.size(); ++a)
        if (r.arrays[a].space == sim::Space::Shared) {
            base[a] = sharedWords;
            sharedWords += static_cast<uint64_t>(r.arrays[a].size());
        }
    constexpr uint64_t kNone = ~uint64_t{0};
    std::map<unsigned, std::vector<Access>> byThread;   // this interval's accesses
    auto flush = [&] {
        using Key = std::tuple<unsigned, unsigned, unsigned, AccessKind, bool, unsigned, uint64_t, unsigned>;
        std::map<Key, std::vector<std::pair<unsigned, uint64_t>>> instructions;   // (lane, word)
        for (const auto& [thread, acc] : byThread) {
            std::vector<uint64_t> anchor(acc.size(), kNone);
            for (size_t i = 0; i + 1 < acc.size(); ++i) {
                const bool c0 = acc[i].kind == AccessKind::ConstantLoad, c1 = acc[i + 1].kind == AccessKind::ConstantLoad;
                if (acc[i].line == acc[i + 1].line && c0 != c1) {
                    anchor[i] = anchor[i + 1] = c0 ? acc[i].word : acc[i + 1].word;
                    ++i;
                }
            }
            std::map<std::tuple<unsigned, unsigned, AccessKind, bool, unsigned, uint64_t>, unsigned> occurrence;
            for (size_t i = 0; i < acc.size(); ++i) {
                const Access& a = acc[i];
                const unsigned n = occurrence[{a.line, a.array, a.kind, a.wide, a.tag, anchor[i]}]++;
                instructions[{thread / 32u, a.line, a.array, a.kind, a.wide, a.tag, anchor[i], n}].push_back(
                    {thread % 32u, a.word});
            }
        }
        for (const auto& [key, lanes] : instructions) {
            const unsigned line = std::get<1>(key);
            const AccessKind kind = std::get<3>(key);
            const bool wide = std::get<4>(key);
            const unsigned width = wide ? 4 : 1;   // words a lane touches
            Figures f;
            f.requests = 1;
            f.lanes = lanes.size() * width;
            if (kind == AccessKind::GlobalLoad || kind == AccessKind::GlobalStore) {
                std::set<uint64_t> sectors;
                for (const auto& [lane, w] : lanes)
                    for (uint64_t x = w; x < w + width; ++x) sectors.insert(x * 4 / 32);
                f.sectors = sectors.size();
            } else if (kind == AccessKind::ConstantLoad) {
                std::set<uint64_t> words;
                for (const auto& [lane, w] : lanes) words.insert(w);
                f.passes = words.size();
            } else {
                // Each half-warp on its own for 128-bit accesses; the whole warp for 32-bit.
                // A 128-bit half also needs one pass per 128 bytes its two quarter-warps
                // take, each quarter's distinct 16-byte pieces counted on their own.
                for (unsigned half = 0; half < (wide ? 2u : 1u); ++half) {
                    std::map<uint64_t, std::set<uint64_t>> bank;
                    std::set<std::pair<unsigned, uint64_t>> quarterPieces;
                    for (const auto& [lane, w] : lanes)
                        if (!wide || lane / 16 == half) {
                            for (uint64_t x = w; x < w + width; ++x) bank[x % 32].insert(x);
                            quarterPieces.insert({lane / 8, w});
                        }
                    uint64_t most = 0;
                    for (const auto& [b, ws] : bank) most = std::max<uint64_t>(most, ws.size());
                    if (wide) most = std::max<uint64_t>(most, (quarterPieces.size() * 16 + 127) / 128);
                    f.passes += most;
                }
            }
            for (Figures* dst : {&out.byKind[kind], &out.byLine[{line, sim::spaceOf(kind), sim::isStore(kind)}]}) {
                dst->requests += f.requests;
                dst->lanes += f.lanes;
                dst->sectors += f.sectors;
                dst->passes += f.passes;
            }
        }
        byThread.clear();
    };
    for (const sim::Event& e : ev) {
        if (e.op == sim::Op::Barrier) {
            flush();
            continue;
        }
        // Memory accesses only: branches and atomics are counted by the warp model apart
        // (tests/unit/reduction_test.cpp counts them another way).
        if (e.op == sim::Op::Fma || e.op == sim::Op::Branch || e.op == sim::Op::Atomic || e.op == sim::Op::Shuffle) continue;
        const AccessKind kind = kindOf(e.op);
        // A global element's 4-byte word: a char (a histogram's text) is one byte of it.
        const uint64_t index = static_cast<uint64_t>(e.index);
        const uint64_t word = sim::spaceOf(kind) == sim::Space::Shared ? index + base.at(e.array)
                              : r.arrays.at(e.array).elementBytes == 1 ? index / 4
                                                                       : index;
        if (e.flags & sim::kVectorTail) continue;   // the first element stands for the four
        byThread[e.thread].push_back({e.line, e.array, kind, word, (e.flags & sim::kVectorHead) != 0, e.unrolled});
    }
    flush();
}

/// The model's figures of one block, in the same shape.
std::map<AccessKind, Figures> modelFigures(const sim::Totals& b)
{
    std::map<AccessKind, Figures> m;
    m[AccessKind::GlobalLoad] = {b.global_ld_requests, b.global_loads, b.global_ld_sectors, 0};
    m[AccessKind::GlobalStore] = {b.global_st_requests, b.global_stores, b.global_st_sectors, 0};
    m[AccessKind::SharedLoad] = {b.shared_ld_requests, b.shared_loads, 0, b.shared_ld_wavefronts};
    m[AccessKind::SharedStore] = {b.shared_st_requests, b.shared_stores, 0, b.shared_st_wavefronts};
    m[AccessKind::ConstantLoad] = {b.constant_ld_requests, b.constant_loads, 0, b.constant_ld_passes};
    return m;
}

const char* kindName(AccessKind k)
{
    switch (k) {
    case AccessKind::GlobalLoad: return "global load";
    case AccessKind::GlobalStore: return "global store";
    case AccessKind::SharedLoad: return "shared load";
    case AccessKind::SharedStore: return "shared store";
    case AccessKind::ConstantLoad: return "constant load";
    default: break;
    }
    return "?";
}

std::string describe(const sim::Scenario& s)
{
    std::ostringstream o;
    o << s.kernel << " j,k,l " << s.j << "," << s.k << "," << s.l << " h,w " << s.height << "," << s.width << " mask "
      << s.maskWidth << " tile " << s.tile;
    return o.str();
}

/// Sizes to try for every kernel of a family; the ones validate() refuses are skipped.
std::vector<sim::Scenario> scenariosFor(const sim::KernelInfo& k)
{
    std::vector<int> tiles(k.tiles.begin(), k.tiles.end());
    if (tiles.empty())
        for (int t : {1, 8, 16, 32, 100, 256})
            if (t <= k.maxBlockEdge && (t > 1 || k.maxBlockEdge == 1)) tiles.push_back(t);
    std::vector<sim::Scenario> out;
    auto add = [&](const sim::Scenario& s) {
        if (sim::validate(s).empty()) out.push_back(s);
    };
    for (int tile : tiles) {
        if (k.family == sim::Family::Matmul) {
            for (auto [j, kk, l] : {std::tuple{64, 64, 64}, std::tuple{100, 37, 51}, std::tuple{33, 70, 45}})
                add(sim::matmulScenario(k.name, j, kk, l, tile));
        } else if (k.family == sim::Family::Conv1D) {
            if (tile > 256) continue;
            for (int width : {1000, 77})
                for (int mask : {1, 5, 9}) add(sim::convScenario(k.name, 1, width, tile, mask));
        } else if (k.family == sim::Family::Conv2D) {
            for (auto [h, w] : {std::pair{40, 50}, std::pair{17, 33}})
                for (int mask : {3, 5, 9}) add(sim::convScenario(k.name, h, w, tile, mask));
        } else {
            // A described problem of one size (PMPP's stencil: N), ragged and whole.
            for (int n : {3 * tile + 1, 2 * tile}) add(sim::convScenario(k.name, 1, n, tile, 1));
            // A scan of one section (PMPP ch. 11): whole and one short; the sequential scan 1000.
            if (k.scan) {
                const int section = k.scanElementsPerThread > 0 ? k.scanElementsPerThread * tile : 1000;
                for (int n : {section, std::max(1, section - 1)}) add(sim::convScenario(k.name, 1, n, tile, 1));
            }
        }
    }
    return out;
}

/// The traced blocks: the first, the last (a ragged edge) and one in the middle.
std::vector<sim::Uint3> blocksOf(const sim::Dim3& g)
{
    std::vector<sim::Uint3> b = {{0, 0, 0}, {g.x - 1, g.y - 1, g.z - 1}, {g.x / 2, g.y / 2, g.z / 2}};
    std::sort(b.begin(), b.end(), [](const sim::Uint3& a, const sim::Uint3& c) { return std::tie(a.x, a.y, a.z) < std::tie(c.x, c.y, c.z); });
    b.erase(std::unique(b.begin(), b.end(), [](const sim::Uint3& a, const sim::Uint3& c) { return a.x == c.x && a.y == c.y && a.z == c.z; }),
            b.end());
    return b;
}

// For every kernel of the registry, several sizes and tiles, and three traced blocks each:
// the independent regrouping gives the model's requests, lanes, sectors and wavefronts.
TEST(WarpMemoryIndependent, TracedBlocksOfEveryKernelAgree)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        const std::vector<sim::Scenario> scenarios = scenariosFor(k);
        EXPECT_GE(scenarios.size(), 2u) << k.name << ": no scenario of this test fits the kernel";
        uint64_t requests = 0, constantRequests = 0, sharedRequests = 0;
        bool sharedArrays = false;   // the kernel declares __shared__ arrays (a tiled kernel does)
        for (sim::Scenario s : scenarios) {
            const sim::LaunchShape shape = sim::launchShape(s);
            for (const sim::Uint3& b : blocksOf(shape.grid)) {
                s.block = b;
                SCOPED_TRACE(describe(s) + " block " + std::to_string(b.x) + "," + std::to_string(b.y));
                const sim::Simulation r = run(s, true);
                if (!r.error.empty()) continue;
                for (const sim::ArrayInfo& a : r.arrays) sharedArrays = sharedArrays || a.space == sim::Space::Shared;
                Regrouped mine;
                regroup(r, mine);
                const std::map<AccessKind, Figures> model = modelFigures(blockTotals(r, b));
                for (const auto& [kind, f] : model) {
                    const Figures m = mine.byKind[kind];
                    EXPECT_EQ(m.requests, f.requests) << kindName(kind) << " requests";
                    EXPECT_EQ(m.lanes, f.lanes) << kindName(kind) << " lanes";
                    EXPECT_EQ(m.sectors, f.sectors) << kindName(kind) << " sectors";
                    EXPECT_EQ(m.passes, f.passes) << kindName(kind) << " wavefronts / passes";
                    requests += f.requests;
                }
                constantRequests += model.at(AccessKind::ConstantLoad).requests;
                sharedRequests += model.at(AccessKind::SharedLoad).requests;
            }
        }
        EXPECT_GT(requests, 0u) << k.name;
        // The convolutions read their mask from constant memory.
        if (k.family != sim::Family::Matmul && k.family != sim::Family::Array) EXPECT_GT(constantRequests, 0u) << k.name;
        // A kernel that declares shared arrays (PMPP Figs. 9.6 and 9.9 are histogram rows
        // compiled per block size whose bins stay in global memory) has them in its run.
        if (sim::kernelSource(k.sourceFile).find("TS_SHARED") != std::string::npos) EXPECT_TRUE(sharedArrays) << k.name;
        if (sharedArrays) EXPECT_GT(sharedRequests, 0u) << k.name;
    }
}

// The per-line figures of the whole grid (memoryByLine of the sites) against the
// regrouping of every block, each traced in a run of its own, for small grids of every kernel.
TEST(WarpMemoryIndependent, PerLineFiguresOfEveryBlockAgree)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        std::vector<sim::Scenario> cases;
        if (k.family == sim::Family::Matmul) {
            cases = {sim::matmulScenario(k.name, 40, 37, 45, 16), sim::matmulScenario(k.name, 33, 20, 17, 8)};
            // The register-tiled rungs have no tile of 8 or 16: their smallest, on a grid of
            // 2 x 2 blocks with ragged edges.
            if (k.tiled && k.tiles.front() > 16) {
                const int t = k.tiles.front();
                cases = {sim::matmulScenario(k.name, t + 9, 37, t + 5, t)};
            }
        } else if (k.family == sim::Family::Conv1D) {
            cases = {sim::convScenario(k.name, 1, 300, 64, 7), sim::convScenario(k.name, 1, 100, 32, 5)};
        } else if (k.family == sim::Family::Array) {
            // A described problem of one size (PMPP's stencil: N), ragged against its block.
            // PMPP ch. 10's one-block sums take 2 x the block: 16 elements, 8 threads.
            cases = {sim::convScenario(k.name, 1, 11, 4, 1), sim::convScenario(k.name, 1, 9, 8, 1),
                     sim::convScenario(k.name, 1, 16, 8, 1)};
            // The warp-shuffle finish needs a whole warp: blocks of 32 and 64 threads.
            if (k.tiled && k.tiles.front() >= 32)
                cases = {sim::convScenario(k.name, 1, 150, 32, 1), sim::convScenario(k.name, 1, 300, 64, 1)};
            // PMPP Fig. 9.9's description fixes blocks of 256 threads: three, the last ragged.
            if (k.tiled && k.tiles.front() == 256) cases = {sim::convScenario(k.name, 1, 700, 256, 1)};
            // PMPP ch. 11's scans: one section of 8 threads, ragged; the sequential scan's one thread;
            // the single-pass and hierarchical scans five blocks of 8 threads, the last ragged.
            if (k.scan)
                cases = {sim::convScenario(k.name, 1, !k.tiled ? 37 : k.scanElementsPerThread > 0 ? 8 * k.scanElementsPerThread - 3 : 37,
                                           k.tiled ? 8 : 1, 1)};
        } else {
            cases = {sim::convScenario(k.name, 20, 27, 8, 5), sim::convScenario(k.name, 9, 40, 16, 3)};
        }
        size_t ran = 0;
        for (const sim::Scenario& base : cases) {
            if (!sim::validate(base).empty()) continue;
            ++ran;
            SCOPED_TRACE(describe(base));
            const sim::Simulation whole = run(base);
            Regrouped mine;
            // A row of several launches (PMPP sec. 11.6): every block of every launch, whose
            // sites the simulation sums.
            for (int launch = 1; launch <= sim::launchCount(base); ++launch) {
                const sim::Dim3 g = sim::launchShapeOf(base, launch).grid;
                for (unsigned bz = 0; bz < g.z; ++bz)
                    for (unsigned by = 0; by < g.y; ++by)
                        for (unsigned bx = 0; bx < g.x; ++bx) {
                            sim::Scenario s = base;
                            s.block = {bx, by, bz};
                            s.launch = launch;
                            regroup(run(s, true), mine);
                        }
            }
            const std::vector<sim::LineMemory> lines = sim::memoryByLine(whole.accessSites);
            EXPECT_EQ(lines.size(), mine.byLine.size());
            for (const sim::LineMemory& l : lines) {
                SCOPED_TRACE("line " + std::to_string(l.line));
                const Figures& f = mine.byLine[{l.line, l.space, l.store}];
                EXPECT_EQ(l.requests, f.requests);
                EXPECT_EQ(l.lanes, f.lanes);
                EXPECT_EQ(l.sectors, f.sectors);
                EXPECT_EQ(l.wavefronts, f.passes);
                EXPECT_GT(l.requests, 0u);
            }
        }
        EXPECT_GT(ran, 0u) << k.name;
    }
}

}  // namespace
}  // namespace ts::test
