#include "sim/teaching/roofline.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/warp_memory.hpp"

namespace ts::sim {
namespace {

/// "1,555": a whole number with thousands separated, for the notes.
std::string grouped(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.0f", v);
    std::string s = b, out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0 && s[i - 1] != '-') out += ',';
        out += s[i];
    }
    return out;
}

std::string decimal(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

}  // namespace

const char* ceilingSourceName(CeilingSource s)
{
    switch (s) {
    case CeilingSource::Textbook: return "textbook";
    case CeilingSource::Measured: return "measured";
    case CeilingSource::Unknown: return "unknown";
    }
    return "unknown";
}

const char* dramSourceName(DramSource s)
{
    switch (s) {
    case DramSource::Measured: return "measured";
    case DramSource::Compulsory: return "compulsory";
    case DramSource::Textbook: return "textbook";
    case DramSource::Unknown: return "unknown";
    }
    return "unknown";
}

std::optional<double> RooflineCeilings::ridge() const
{
    if (!peakFp32Gflops || !memoryGbytesPerS) return std::nullopt;
    return *peakFp32Gflops / *memoryGbytesPerS;
}

std::optional<double> RooflineCeilings::bound(double intensity) const
{
    if (!peakFp32Gflops || !memoryGbytesPerS) return std::nullopt;
    return std::min(*peakFp32Gflops, *memoryGbytesPerS * intensity);
}

RooflineCeilings textbookCeilings()
{
    RooflineCeilings c;
    c.peakFp32Gflops = kTextbookA100PeakGflops;
    c.memoryGbytesPerS = kTextbookA100MemoryGbytesPerS;
    c.source = CeilingSource::Textbook;
    c.detail = "the A100 of PMPP sec. 5.1: 19,500 GFLOPS of FP32 and 1,555 GB/s of global memory bandwidth";
    return c;
}

double compulsoryIntensity(int j, int k, int l)
{
    const double J = j, K = k, L = l;
    return 2.0 * J * K * L / (4.0 * (J * K + K * L + J * L));
}

double RungCounts::fmasPerSharedLoad() const
{
    return totals.shared_loads ? static_cast<double>(totals.flops) / 2.0 / static_cast<double>(totals.shared_loads) : 0.0;
}

uint64_t RungCounts::sharedBankConflicts() const
{
    return totals.shared_ld_conflicts + totals.shared_st_conflicts;
}

double RungCounts::loadBytesPerFlop() const
{
    return totals.flops ? double(kSectorBytes) * double(totals.global_ld_sectors) / double(totals.flops) : 0.0;
}

double RungCounts::storeBytesPerElement() const
{
    return edge ? double(kSectorBytes) * double(totals.global_st_sectors) / (double(edge) * double(edge)) : 0.0;
}

std::optional<double> RungCounts::requestedIntensity(int j, int k, int l) const
{
    if (!error.empty() || totals.flops == 0 || j < 1 || k < 1 || l < 1) return std::nullopt;
    const int grain = sizeGrain(kernel, tile);
    if (grain == 0 || j % grain || k % grain || l % grain) return std::nullopt;
    const double flops = 2.0 * j * k * l;
    const double bytes = loadBytesPerFlop() * flops + storeBytesPerElement() * double(j) * double(l);
    return bytes > 0 ? std::optional<double>(flops / bytes) : std::nullopt;
}

int sizeGrain(const std::string& kernel, int tile)
{
    const KernelInfo* k = findKernel(kernel);
    if (!k || !problemOf(*k).flops || tile < 1) return 0;
    if (k->tiled ? std::find(k->tiles.begin(), k->tiles.end(), tile) == k->tiles.end() : tile > k->maxBlockEdge)
        return 0;
    const int rows = tile * k->blockRowsFactor, cols = tile * k->blockColsFactor, phase = k->tileK ? k->tileK : tile;
    return std::lcm(std::lcm(rows, cols), std::lcm(phase, 8));
}

int ladderCountEdge()
{
    int edge = kRungCountEdge;
    for (const char* rung : kLadderRungs)
        if (const KernelInfo* k = findKernel(rung); k && sizeGrain(rung, k->defaultTile) > 0)
            edge = std::lcm(edge, sizeGrain(rung, k->defaultTile));
    return edge;
}

RungCounts countRung(const std::string& kernel, int tile, int edge, const std::atomic<bool>* cancel)
{
    RungCounts c;
    c.kernel = kernel;
    c.tile = tile;
    const KernelInfo* k = findKernel(kernel);
    if (!k || !problemOf(*k).flops) {
        c.error = "The simulator has no matrix multiplication called '" + kernel + "' to count.";
        return c;
    }
    const int grain = sizeGrain(kernel, tile);
    if (edge == 0 && grain > 0) edge = std::lcm(ladderCountEdge(), grain);
    c.edge = edge;
    const Scenario s = matmulScenario(kernel, edge > 0 ? edge : kRungCountEdge, edge > 0 ? edge : kRungCountEdge,
                                      edge > 0 ? edge : kRungCountEdge, tile);
    if (std::string e = validate(s); !e.empty()) {
        c.error = e;
        return c;
    }
    SimOptions o;
    o.trace = false;
    o.detectHazards = false;
    o.cancel = cancel;
    const Simulation r = simulate(s, o);
    if (r.cancelled) {
        c.error = "The count of " + kernel + " was cancelled.";
        return c;
    }
    if (!r.error.empty()) {
        c.error = r.error;
        return c;
    }
    c.threadsPerBlock = static_cast<unsigned>(r.block.count());
    c.totals = r.counters.totals;
    return c;
}

std::vector<std::pair<std::string, int>> rungsToCount(const ResultsFile* results)
{
    std::vector<std::pair<std::string, int>> rungs;
    auto add = [&](const std::string& kernel, int tile) {
        if (std::find(rungs.begin(), rungs.end(), std::pair(kernel, tile)) == rungs.end()) rungs.emplace_back(kernel, tile);
    };
    for (const char* name : kLadderRungs) add(name, findKernel(name)->defaultTile);
    if (results)
        for (const ResultEntry& e : results->results)
            if (e.isMatmul() && sizeGrain(e.kernel, *e.tile) > 0) add(e.kernel, *e.tile);
    return rungs;
}

const RungCounts* findCounts(const std::vector<RungCounts>& counts, const std::string& kernel, int tile)
{
    for (const RungCounts& c : counts)
        if (c.kernel == kernel && c.tile == tile) return &c;
    return nullptr;
}

Roofline textbookRoofline()
{
    Roofline r;
    r.textbook = true;
    r.ceilings = textbookCeilings();
    r.caption = "textbook A100 profile (PMPP)";
    struct Example {
        const char* kernel;
        int tile;
        const char* where;
    };
    const Example examples[] = {{"matmul-naive", 16, "PMPP sec. 5.1"},
                                {"matmul-tiled", 16, "PMPP sec. 5.4"},
                                {"matmul-tiled", 32, "PMPP sec. 5.4"}};
    for (const Example& x : examples) {
        SimOptions o;
        o.trace = false;
        o.detectHazards = false;
        o.memoryModel = false;
        const Simulation s = simulate(matmulScenario(x.kernel, 64, 64, 64, x.tile), o);
        const double opb = opsPerByte(s.counters.totals);
        RooflinePoint p;
        p.kernel = x.kernel;
        p.tile = std::string(x.kernel) == "matmul-tiled" ? x.tile : 0;
        p.intensityDram = opb;
        p.dramSource = DramSource::Textbook;
        p.gflops = *r.ceilings.bound(opb);
        p.textbook = true;
        p.note = std::string(x.where) + ": " + decimal(opb) + " OP/B x " + grouped(*r.ceilings.memoryGbytesPerS) +
                 " GB/s = " + grouped(p.gflops) + " GFLOPS, " + decimal(std::round(1000 * p.gflops / *r.ceilings.peakFp32Gflops) / 10) +
                 "% of the " + grouped(*r.ceilings.peakFp32Gflops) + " GFLOPS peak";
        r.points.push_back(p);
    }
    return r;
}

Roofline resultsRoofline(const ResultsFile& f, const std::vector<RungCounts>& counts)
{
    Roofline r;
    r.device = f.device;
    r.driver = f.driver;
    r.date = f.date;
    r.path = f.path;
    r.caption = f.measuredOn();
    r.ceilings.peakFp32Gflops = f.peakFp32Gflops;
    r.ceilings.memoryGbytesPerS = f.copyGbytesPerS;
    if (f.peakFp32Gflops || f.copyGbytesPerS) {
        r.ceilings.source = CeilingSource::Measured;
        r.ceilings.detail = "independent fused multiply-adds (FP32) and a device-to-device copy (memory) timed by bench --out, " + f.measuredOn();
    } else {
        r.ceilings.source = CeilingSource::Unknown;
        r.ceilings.detail = "the results file has no ceilings (tilescope-cli bench --out writes them)";
    }
    for (const ResultEntry& e : f.results) {
        RooflinePoint p;
        p.kernel = e.kernel;
        p.gflops = e.gflops;
        p.percentOfCublas = e.percentOfCublas;
        p.registers = e.registers;
        p.staticSharedBytes = e.staticSharedBytes;
        std::optional<double> flops;
        if (e.isMatmul()) {
            p.j = *e.j;
            p.k = *e.k;
            p.l = *e.l;
            p.tile = *e.tile;
            flops = 2.0 * p.j * p.k * p.l;
        } else if (e.msMedian) {
            flops = e.gflops * 1e9 * *e.msMedian * 1e-3;
        }
        if (e.dramBytes && flops) {
            p.intensityDram = *flops / *e.dramBytes;
            p.dramSource = DramSource::Measured;
        } else if (e.isMatmul()) {
            p.intensityDram = compulsoryIntensity(p.j, p.k, p.l);
            p.dramSource = DramSource::Compulsory;
        }
        if (e.isMatmul())
            if (const RungCounts* c = findCounts(counts, e.kernel, *e.tile)) p.intensityRequested = c->requestedIntensity(p.j, p.k, p.l);
        r.points.push_back(p);
    }
    return r;
}

std::string rooflineJson(const Roofline& r, const std::string& profile)
{
    using nlohmann::ordered_json;
    auto orNull = [](const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); };
    ordered_json j;
    j["profile"] = profile;
    j["caption"] = r.caption;
    if (!r.textbook) {
        j["device"] = r.device;
        j["driver"] = r.driver.empty() ? ordered_json(nullptr) : ordered_json(r.driver);
        j["date"] = r.date.empty() ? ordered_json(nullptr) : ordered_json(r.date);
        j["results_file"] = r.path.empty() ? ordered_json(nullptr) : ordered_json(r.path);
    }
    j["ceilings"] = ordered_json{{"peak_fp32_gflops", orNull(r.ceilings.peakFp32Gflops)},
                                 {"memory_gbytes_per_s", orNull(r.ceilings.memoryGbytesPerS)},
                                 {"source", ceilingSourceName(r.ceilings.source)},
                                 {"detail", r.ceilings.detail},
                                 {"ridge_flop_per_byte", orNull(r.ceilings.ridge())}};
    ordered_json points = ordered_json::array();
    for (const RooflinePoint& p : r.points) {
        ordered_json q;
        q["kernel"] = p.kernel;
        ordered_json params = ordered_json::object();
        if (p.j) params["j"] = p.j;
        if (p.k) params["k"] = p.k;
        if (p.l) params["l"] = p.l;
        if (p.tile) params["tile"] = p.tile;
        q["params"] = params;
        q["gflops"] = p.gflops;
        q["intensity_dram"] = orNull(p.intensityDram);
        q["intensity_requested"] = orNull(p.intensityRequested);
        q["dram_source"] = dramSourceName(p.dramSource);
        q["requested_source"] = p.intensityRequested ? ordered_json("simulated") : ordered_json(nullptr);
        q["bound_gflops"] = ordered_json{
            {"dram", p.intensityDram ? orNull(r.ceilings.bound(*p.intensityDram)) : ordered_json(nullptr)},
            {"requested", p.intensityRequested ? orNull(r.ceilings.bound(*p.intensityRequested)) : ordered_json(nullptr)}};
        q["textbook"] = p.textbook;
        if (p.percentOfCublas) q["percent_of_cublas"] = *p.percentOfCublas;
        if (p.registers) q["registers"] = *p.registers;
        if (p.staticSharedBytes) q["static_shared_bytes"] = *p.staticSharedBytes;
        if (!p.note.empty()) q["note"] = p.note;
        points.push_back(q);
    }
    j["points"] = points;
    return j.dump();
}

Roofline withCeilings(Roofline r, const RooflineCeilings& c)
{
    r.ceilings = c;
    return r;
}

}  // namespace ts::sim
