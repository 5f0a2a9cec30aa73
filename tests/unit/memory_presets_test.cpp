// The memory lecture presets (coalescing-naive-64, coalescing-uncoalesced-64,
// nds-transposed-64-tile16, nds-padded-64-tile16, corner-turning-64-tile16,
// ragged-100x37x51-tile16, conv2d-bank-conflicts-256-tile8-mask5): every figure their narration quotes is the
// simulator's own count. Each check names a phrase of the narration that begins with a
// number ("76800 requests") and the counter it stands for; the test fails when the phrase
// is missing from the narration or when the simulator counts a different number.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/teaching/narration.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/warp_memory.hpp"

namespace ts::test {
namespace {

/// A phrase of the narration that starts with a number, and what the simulator counts for it.
struct Figure {
    std::string phrase;
    uint64_t counted;
};

/// The number a phrase starts with ("1,064,960 bytes" -> 1064960).
uint64_t leadingNumber(const std::string& phrase)
{
    std::string digits;
    for (char c : phrase) {
        if (c >= '0' && c <= '9') digits += c;
        else if (c != ',') break;
    }
    EXPECT_FALSE(digits.empty()) << phrase;
    return digits.empty() ? 0 : std::stoull(digits);
}

struct PresetRun {
    sim::Preset preset;
    sim::Simulation sim;
    std::string narration;   ///< every step's narration, one after the other
};

PresetRun run(const std::string& name)
{
    PresetRun r{sim::findPreset(name), {}, {}};
    sim::SimOptions o;
    o.trace = true;
    r.sim = sim::simulate(r.preset.scenario, o);
    EXPECT_EQ(r.sim.error, "") << name;
    EXPECT_TRUE(r.sim.matchesReference) << name;
    for (const std::string& line : sim::placeNarration(r.preset, r.sim.trace).lines) r.narration += line + "\n";
    return r;
}

/// The per-line figures of the launch for the line whose first array is `array`, in
/// `space`, loads or stores.
sim::LineMemory line(const PresetRun& r, const std::string& array, sim::Space space, bool store)
{
    for (const sim::LineMemory& m : sim::memoryByLine(r.sim.accessSites))
        if (m.space == space && m.store == store && !m.arrays.empty() && r.sim.arrays.at(m.arrays[0]).name == array)
            return m;
    ADD_FAILURE() << "no line of " << array;
    return {};
}

const sim::Totals& block(const PresetRun& r)
{
    return r.sim.counters.perBlock.at(sim::linearBlock(r.sim.grid, r.preset.scenario.block));
}

void check(const PresetRun& r, const std::vector<Figure>& figures)
{
    SCOPED_TRACE(r.preset.name);
    for (const Figure& f : figures) {
        EXPECT_NE(r.narration.find(f.phrase), std::string::npos) << "the narration no longer says \"" << f.phrase << "\"";
        EXPECT_EQ(leadingNumber(f.phrase), f.counted) << "\"" << f.phrase << "\"";
    }
}

constexpr sim::Space G = sim::Space::Global, S = sim::Space::Shared;

TEST(MemoryPresets, CoalescingNaive)
{
    const PresetRun r = run("coalescing-naive-64");
    const sim::LineMemory ld = line(r, "M", G, false), st = line(r, "P", G, true);
    check(r, {{"16384 load requests", ld.requests},
              {"32768 sectors", ld.sectors},
              {"512 for 128", st.sectors},
              {"128)", st.requests},
              {"1,064,960 bytes", sim::requestedBytes(r.sim.counters.totals)}});
}

TEST(MemoryPresets, CoalescingUncoalesced)
{
    const PresetRun r = run("coalescing-uncoalesced-64");
    const sim::LineMemory ld = line(r, "M", G, false), st = line(r, "P", G, true);
    check(r, {{"16384 requests", ld.requests},
              {"139264 sectors", ld.sectors},
              {"2048 for 128", st.sectors},
              {"4,521,984 bytes", sim::requestedBytes(r.sim.counters.totals)}});
}

TEST(MemoryPresets, NdsTransposed)
{
    const PresetRun r = run("nds-transposed-64-tile16");
    const sim::LineMemory mds = line(r, "Mds", S, true), nds = line(r, "Nds", S, true), use = line(r, "Mds", S, false);
    check(r, {{"512 requests over the launch", mds.requests},
              {"512 wavefronts, no bank conflict", mds.wavefronts},
              {"4096 wavefronts", nds.wavefronts},
              {"512 requests, 3584", nds.requests},
              {"3584 conflicts", nds.conflicts()},
              {"73728 wavefronts", use.wavefronts},
              {"16384 requests", use.requests},
              {"57344 bank conflicts", use.conflicts()}});
}

TEST(MemoryPresets, NdsPadded)
{
    const PresetRun r = run("nds-padded-64-tile16");
    const sim::LineMemory mds = line(r, "Mds", S, true), nds = line(r, "Nds", S, true), use = line(r, "Mds", S, false);
    check(r, {{"512 requests, 512", mds.requests},
              {"512 wavefronts.", mds.wavefronts},
              {"1024 wavefronts", nds.wavefronts},
              {"512 requests. One", nds.requests},
              {"512 conflicts", nds.conflicts()},
              {"16384 wavefronts", use.wavefronts},
              {"16384 requests", use.requests}});
    // "where the unpadded Nds took 73728": the transposed kernel's figure.
    const PresetRun t = run("nds-transposed-64-tile16");
    check(r, {{"73728", line(t, "Mds", S, false).wavefronts}});
}

TEST(MemoryPresets, CornerTurning)
{
    const PresetRun r = run("corner-turning-64-tile16");
    const sim::LineMemory n = line(r, "N", G, false), nds = line(r, "Nds", S, true), use = line(r, "Mds", S, false);
    // What matmul-tiled's own indices would cost on this column-major N, counted here: lane
    // (tx, ty) of warp w reads element (ph*16 + ty, bx*16 + tx), at word (bx*16 + tx)*64 +
    // ph*16 + ty; the sectors of one warp's request (block 0, phase 0; every request alike).
    std::set<int> sectors;
    for (int lane = 0; lane < 32; ++lane) sectors.insert(((lane % 16) * 64 + lane / 16) * 4 / 32);
    check(r, {{"4 sectors a request", n.sectors / n.requests},
              {"2048 sectors", n.sectors},
              {"512 requests of the launch", n.requests},
              {"16 sectors a request", sectors.size()},
              {"4096 wavefronts", nds.wavefronts},
              {"512 store requests", nds.requests},
              {"16384 wavefronts", use.wavefronts},
              {"16384 requests", use.requests}});
    EXPECT_EQ(use.conflicts(), 0u);
    EXPECT_EQ(n.sectors % n.requests, 0u);
}

TEST(MemoryPresets, RaggedEdges)
{
    const PresetRun r = run("ragged-100x37x51-tile16");
    const sim::LineMemory n = line(r, "N", G, false), use = line(r, "Mds", S, false);
    check(r, {{"13209 lanes", n.lanes},
              {"532 requests", n.requests},
              {"19200 shared load requests", use.requests},
              {"489600 lanes", use.lanes}});
}

// conv2d-tiled, TILE_SIZE 8, Mask_Width 5 at 256 x 256: the launch-wide shared-load figures
// are the ones Nsight Compute reports on an H100 (docs/measurements/gpu-memory-h100.txt).
TEST(MemoryPresets, Conv2dBankConflicts)
{
    const PresetRun r = run("conv2d-bank-conflicts-256-tile8-mask5");
    const sim::Totals& b = block(r);
    const sim::LineMemory use = line(r, "N_ds", S, false);
    check(r, {{"144 threads", uint64_t{r.sim.block.x} * r.sim.block.y},
              {"5 store requests", b.shared_st_requests},
              {"9 wavefronts.", b.shared_st_wavefronts},
              {"75 shared load requests", b.shared_ld_requests},
              {"150 wavefronts", b.shared_ld_wavefronts},
              {"76800 requests", use.requests},
              {"153600 wavefronts", use.wavefronts},
              {"76800 bank conflicts", use.conflicts()},
              {"3 store requests", b.global_st_requests},
              {"9 sectors", b.global_st_sectors}});
    // The block is internal: every thread loads, none stores a ghost 0, and the stores above
    // are the load line's alone. Every step of the trace has its narration.
    EXPECT_EQ(b.zero_fills, 0u);
    EXPECT_EQ(sim::placeNarration(r.preset, r.sim.trace).problems, std::vector<std::string>{});
    // Figures of the launch as measured on the H100.
    EXPECT_EQ(r.sim.counters.totals.shared_ld_requests, 76800u);
    EXPECT_EQ(r.sim.counters.totals.shared_ld_wavefronts, 153600u);
}

}  // namespace
}  // namespace ts::test
