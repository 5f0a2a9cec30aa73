// The roofline (sim/teaching/roofline.hpp) against figures worked out by hand: PMPP's A100 bounds,
// the compulsory-bytes model, the requested bytes of matmul-naive and matmul-tiled from
// their loops, the committed H100 file's points; and the claim the requested intensity rests
// on: a rung's load sectors grow with j x k x l and its store sectors with j x l, so counts
// taken on a 128^3 problem give the intensity of any size whose edges are multiples of the
// grain, checked on a larger, non-square problem simulated in full.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/teaching/roofline.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::test {
namespace {

const std::string kH100 = std::string(TILESCOPE_ASSETS_DIR) + "/results/ladder-4096-h100.json";

TEST(Roofline, TextbookCeilingsByHand)
{
    const sim::RooflineCeilings c = sim::textbookCeilings();
    EXPECT_EQ(c.source, sim::CeilingSource::Textbook);
    // PMPP sec. 5.1: 1,555 GB/s x 0.25 OP/B = 388.75, "389 GFLOPS".
    EXPECT_DOUBLE_EQ(*c.bound(0.25), 388.75);
    EXPECT_DOUBLE_EQ(*c.bound(4.0), 6220.0);
    EXPECT_DOUBLE_EQ(*c.bound(8.0), 12440.0);
    // The ridge: 19,500 / 1,555 = 12.54 FLOP/B; past it the peak is the roof.
    EXPECT_NEAR(*c.ridge(), 12.540, 0.001);
    EXPECT_DOUBLE_EQ(*c.bound(100.0), 19500.0);
    EXPECT_DOUBLE_EQ(*c.bound(*c.ridge()), 19500.0);
    const sim::RooflineCeilings none;
    EXPECT_FALSE(none.ridge().has_value());
    EXPECT_FALSE(none.bound(1.0).has_value());
}

TEST(Roofline, TextbookProfileIsPmppsExamples)
{
    const sim::Roofline r = sim::textbookRoofline();
    EXPECT_TRUE(r.textbook);
    EXPECT_EQ(r.caption, "textbook A100 profile (PMPP)");
    ASSERT_EQ(r.points.size(), 3u);
    // OP/B of the simulator's 64 x 64 runs: 2 flops per 2 loads of 4 bytes (naive), TILE_WIDTH
    // times that for the tiled kernel.
    const double opb[] = {0.25, 4.0, 8.0};
    const int tiles[] = {0, 16, 32};
    for (int i = 0; i < 3; ++i) {
        const sim::RooflinePoint& p = r.points[i];
        EXPECT_TRUE(p.textbook);
        EXPECT_EQ(p.tile, tiles[i]);
        EXPECT_DOUBLE_EQ(*p.intensityDram, opb[i]);
        EXPECT_EQ(p.dramSource, sim::DramSource::Textbook);
        EXPECT_FALSE(p.intensityRequested.has_value());
        EXPECT_DOUBLE_EQ(p.gflops, 1555.0 * opb[i]);
    }
    EXPECT_EQ(r.points[0].kernel, "matmul-naive");
    EXPECT_NE(r.points[0].note.find("389 GFLOPS"), std::string::npos) << r.points[0].note;
    EXPECT_NE(r.points[0].note.find("2% of the 19,500 GFLOPS peak"), std::string::npos) << r.points[0].note;
}

TEST(Roofline, CompulsoryIntensityByHand)
{
    // 4096^3: 2 x 4096^3 flops over 4 x 3 x 4096^2 bytes = 4096 / 6.
    EXPECT_DOUBLE_EQ(sim::compulsoryIntensity(4096, 4096, 4096), 4096.0 / 6.0);
    // 3 x 5 by 5 x 4: 120 flops, 4 x (15 + 20 + 12) = 188 bytes.
    EXPECT_DOUBLE_EQ(sim::compulsoryIntensity(3, 5, 4), 120.0 / 188.0);
}

TEST(Roofline, SizeGrains)
{
    EXPECT_EQ(sim::sizeGrain("matmul-naive", 16), 16);
    EXPECT_EQ(sim::sizeGrain("matmul-naive", 4), 8);   // sectors: 8 floats
    EXPECT_EQ(sim::sizeGrain("matmul-tiled", 16), 16);
    EXPECT_EQ(sim::sizeGrain("matmul-coarsened", 32), 128);   // a block covers 32 x 4 x 32 columns
    EXPECT_EQ(sim::sizeGrain("matmul-regtile-1d", 64), 64);
    EXPECT_EQ(sim::sizeGrain("matmul-regtile-2d", 128), 128);
    EXPECT_EQ(sim::sizeGrain("matmul-tuned", 128), 128);
    EXPECT_EQ(sim::sizeGrain("matmul-tiled", 3), 0);
    EXPECT_EQ(sim::sizeGrain("matmul-regtile-2d", 16), 0);
    EXPECT_EQ(sim::sizeGrain("conv2d-tiled", 8), 0);
    EXPECT_EQ(sim::sizeGrain("cublas", 16), 0);
}

// matmul-naive, block 16 x 16: a warp is two rows of 16 threads. Per iteration of k its
// loads of M are two floats (two rows: 2 sectors) and of N 16 floats read by both rows (64
// bytes: 2 sectors): 4 sectors, 128 bytes, for 32 multiply-adds (64 flops), 2 bytes a flop.
// Its store of P: two rows of 16 floats, 4 sectors for 32 elements, 4 bytes an element.
// Intensity 2jkl / (2 x 2jkl + 4jl) = k / (2k + 2).
// matmul-tiled, TILE_WIDTH 16: per phase a block loads a 16 x 16 tile of M and one of N,
// each warp two rows of 16 floats (4 sectors for 32 elements), 2 x 256 x 4 = 2048 bytes, for
// 256 threads x 16 multiply-adds = 8192 flops: 1/4 byte a flop; stores as naive.
// Intensity 2jkl / (2jkl / 4 + 4jl) = 4k / (k + 8).
TEST(Roofline, RequestedIntensityOfNaiveAndTiledByHand)
{
    const sim::RungCounts naive = sim::countRung("matmul-naive", 16, 128);
    ASSERT_EQ(naive.error, "");
    EXPECT_EQ(naive.edge, 128);
    EXPECT_EQ(naive.threadsPerBlock, 256u);
    EXPECT_DOUBLE_EQ(naive.loadBytesPerFlop(), 2.0);
    EXPECT_DOUBLE_EQ(naive.storeBytesPerElement(), 4.0);
    EXPECT_DOUBLE_EQ(naive.fmasPerSharedLoad(), 0.0);
    EXPECT_DOUBLE_EQ(*naive.requestedIntensity(4096, 4096, 4096), 4096.0 / 8194.0);
    const sim::RungCounts tiled = sim::countRung("matmul-tiled", 16);
    ASSERT_EQ(tiled.error, "");
    EXPECT_DOUBLE_EQ(tiled.loadBytesPerFlop(), 0.25);
    EXPECT_DOUBLE_EQ(tiled.fmasPerSharedLoad(), 0.5);   // Mds and Nds per multiply-add
    EXPECT_DOUBLE_EQ(*tiled.requestedIntensity(4096, 4096, 4096), 4.0 * 4096.0 / (4096.0 + 8.0));
    EXPECT_DOUBLE_EQ(*tiled.requestedIntensity(64, 32, 48), 4.0 * 32.0 / 40.0);
    // A size that is not a multiple of the grain is not guessed at.
    EXPECT_FALSE(tiled.requestedIntensity(100, 100, 100).has_value());
    EXPECT_FALSE(sim::countRung("cublas", 16).requestedIntensity(4096, 4096, 4096).has_value());
    EXPECT_NE(sim::countRung("matmul-tiled", 3).error, "");
}

// Every rung of the ladder: the counts at its grain E^3 (128, or 256 for the warp-tiled
// rung's 256-row blocks) predict the requested bytes of a 2E x 3E x E product (j doubled, k
// tripled) exactly, as a full simulation of that product counts them. A rung whose traffic
// depended on the size (a block reading more than its tiles, a store pattern that changed
// with the grid) would fail here.
TEST(Roofline, RungCountsScaleWithTheProblem)
{
    for (const char* name : sim::kLadderRungs) {
        SCOPED_TRACE(name);
        const sim::KernelInfo* k = sim::findKernel(name);
        const int tile = k->defaultTile;
        const int e = std::max(128, tile * k->blockRowsFactor);
        const sim::RungCounts c = sim::countRung(name, tile, e);
        ASSERT_EQ(c.error, "");
        EXPECT_EQ(c.edge, e);
        // By default every rung is counted on one problem, whose edge every rung's blocks
        // and phases divide: 256 (the warp-tiled rung's 256 rows).
        EXPECT_EQ(sim::ladderCountEdge(), 256);
        sim::SimOptions o;
        o.trace = false;
        o.detectHazards = false;
        const sim::Simulation big = sim::simulate(sim::matmulScenario(name, 2 * e, 3 * e, e, tile), o);
        ASSERT_EQ(big.error, "");
        const sim::Totals& t = big.counters.totals;
        EXPECT_EQ(t.global_ld_sectors, 6 * c.totals.global_ld_sectors);
        EXPECT_EQ(t.global_st_sectors, 2 * c.totals.global_st_sectors);
        EXPECT_EQ(t.flops, 6 * c.totals.flops);
        ASSERT_TRUE(c.requestedIntensity(2 * e, 3 * e, e).has_value());
        EXPECT_DOUBLE_EQ(*c.requestedIntensity(2 * e, 3 * e, e),
                         static_cast<double>(t.flops) / static_cast<double>(sim::requestedBytes(t)));
    }
}

// The Ladder panel's conflicts are the model's wavefronts beyond the fewest needed (Nsight
// Compute's count): matmul-conflict-free was written to have none, the double-buffered rung
// before it has some, and the tiled kernel's Mds/Nds reads have none.
TEST(Roofline, BankConflictsOfTheRungs)
{
    const sim::RungCounts free = sim::countRung("matmul-conflict-free", 128);
    const sim::RungCounts doubled = sim::countRung("matmul-double-buffered", 128);
    const sim::RungCounts tiled = sim::countRung("matmul-tiled", 16);
    ASSERT_EQ(free.error + doubled.error + tiled.error, "");
    EXPECT_EQ(free.sharedBankConflicts(), 0u);
    EXPECT_GT(doubled.sharedBankConflicts(), 0u);
    EXPECT_EQ(doubled.sharedBankConflicts(), doubled.totals.shared_ld_conflicts + doubled.totals.shared_st_conflicts);
    EXPECT_EQ(tiled.sharedBankConflicts(), 0u);
    EXPECT_GT(free.totals.shared_ld_wavefronts, free.totals.shared_ld_requests)
        << "128-bit reads take several wavefronts without a conflict";
}

TEST(Roofline, PointsOfTheCommittedH100File)
{
    const sim::ResultsFile f = sim::loadResultsFile(kH100);
    std::vector<sim::RungCounts> counts;
    for (const auto& [kernel, tile] : sim::rungsToCount(&f)) counts.push_back(sim::countRung(kernel, tile));
    // Every rung at its default tile; the file's tiles are the defaults, so nothing more.
    ASSERT_EQ(counts.size(), std::size(sim::kLadderRungs));
    const sim::Roofline r = sim::resultsRoofline(f, counts);
    EXPECT_FALSE(r.textbook);
    EXPECT_EQ(r.caption, "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-24");
    EXPECT_EQ(r.ceilings.source, sim::CeilingSource::Measured);
    EXPECT_NEAR(*r.ceilings.ridge(), 60756.99851897021 / 2944.40431060833, 1e-9);
    ASSERT_EQ(r.points.size(), 11u);
    for (size_t i = 0; i < 11; ++i) {
        const sim::RooflinePoint& p = r.points[i];
        EXPECT_DOUBLE_EQ(p.gflops, f.results[i].gflops);
        EXPECT_EQ(p.dramSource, sim::DramSource::Compulsory);
        EXPECT_DOUBLE_EQ(*p.intensityDram, 4096.0 / 6.0);
        EXPECT_EQ(p.intensityRequested.has_value(), p.kernel != "cublas") << p.kernel;
    }
    EXPECT_DOUBLE_EQ(*r.points[0].intensityRequested, 4096.0 / 8194.0);
    EXPECT_DOUBLE_EQ(*r.points[1].intensityRequested, 4.0 * 4096.0 / 4104.0);
    // Each rung asks for fewer bytes per flop than the one before it, or as many (128-bit
    // loads change instructions, not sectors).
    for (size_t i = 1; i + 1 < 11; ++i)
        EXPECT_GE(*r.points[i].intensityRequested + 1e-9, *r.points[i - 1].intensityRequested) << r.points[i].kernel;
}

TEST(Roofline, MeasuredDramBytesAndMissingCeilings)
{
    const sim::ResultsFile f = sim::parseResultsText(
        R"({"device": "GPU", "results": [
              {"kernel": "matmul-tiled", "params": {"j": 64, "k": 64, "l": 64, "tile": 16}, "gflops": 100,
               "dram_bytes": 65536},
              {"kernel": "conv1d-basic", "params": {"width": 1024, "mask_width": 5, "tile": 32}, "gflops": 2}]})",
        "m.json");
    const sim::Roofline r = sim::resultsRoofline(f, {});
    EXPECT_EQ(r.ceilings.source, sim::CeilingSource::Unknown);
    EXPECT_FALSE(r.ceilings.ridge().has_value());
    ASSERT_EQ(r.points.size(), 2u);
    // 2 x 64^3 flops over 65536 bytes = 8.
    EXPECT_EQ(r.points[0].dramSource, sim::DramSource::Measured);
    EXPECT_DOUBLE_EQ(*r.points[0].intensityDram, 8.0);
    EXPECT_FALSE(r.points[0].intensityRequested.has_value()) << "no counts given";
    EXPECT_EQ(r.points[1].dramSource, sim::DramSource::Unknown);
    EXPECT_FALSE(r.points[1].intensityDram.has_value());
}

TEST(Roofline, JsonHasTheContractsKeys)
{
    const nlohmann::json j = nlohmann::json::parse(sim::rooflineJson(sim::textbookRoofline(), "textbook-a100"));
    EXPECT_EQ(j["profile"], "textbook-a100");
    EXPECT_EQ(j["ceilings"]["peak_fp32_gflops"], 19500.0);
    EXPECT_EQ(j["ceilings"]["memory_gbytes_per_s"], 1555.0);
    EXPECT_EQ(j["ceilings"]["source"], "textbook");
    ASSERT_EQ(j["points"].size(), 3u);
    const nlohmann::json& naive = j["points"][0];
    for (const char* key : {"kernel", "params", "gflops", "intensity_dram", "intensity_requested"})
        EXPECT_TRUE(naive.contains(key)) << key;
    EXPECT_DOUBLE_EQ(naive["gflops"].get<double>(), 388.75);
    EXPECT_TRUE(naive["intensity_requested"].is_null());
    EXPECT_EQ(j["points"][1]["params"]["tile"], 16);
}

}  // namespace
}  // namespace ts::test
