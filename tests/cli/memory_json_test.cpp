// `tilescope-cli simulate`'s warp memory figures against docs/cli.md: the `memory` object of
// --json with every key of the spec for every kernel of the registry, its figures equal to
// the library's (sim::simulate in this process) and consistent with each other, the
// per-line table of the text output, and --no-memory-model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "run_cli.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/warp_memory.hpp"

namespace ts::test {
namespace {

using nlohmann::json;

/// A scenario of each kernel that has partly idle warps (sizes not multiples of the block)
/// and, for the tiled kernels, several phases: its CLI options and the same scenario for
/// the library.
struct Case {
    std::string args;
    sim::Scenario scenario;
};

Case caseFor(const sim::KernelInfo& k)
{
    // A tile the kernel has: 16 (8 in 2D convolution) if it is compiled, else its first.
    const int want = k.family == sim::Family::Conv2D ? 8 : k.family == sim::Family::Conv1D ? 32 : 16;
    int tile = want;
    if (!k.tiles.empty() && std::find(k.tiles.begin(), k.tiles.end(), want) == k.tiles.end()) tile = k.tiles.front();
    Case c;
    std::ostringstream a;
    a << "--kernel " << k.name << " --tile " << tile;
    if (k.family == sim::Family::Matmul) {
        a << " --j 100 --k 37 --l 51";
        c.scenario = sim::matmulScenario(k.name, 100, 37, 51, tile);
    } else if (k.family == sim::Family::Conv1D) {
        a << " --width 1000 --mask-width 5";
        c.scenario = sim::convScenario(k.name, 1, 1000, tile, 5);
    } else if (k.family == sim::Family::Array) {
        // A described problem of one size (PMPP's stencil: N) at its default block edge; a
        // one-block sum (PMPP ch. 10) takes two elements per thread of that block.
        const int n = k.scan ? 13 : std::string_view(k.grid) == "1" ? 2 * k.defaultTile : 37;
        a.str("");
        a << "--kernel " << k.name << " --tile " << k.defaultTile << " --width " << n;
        c.scenario = sim::convScenario(k.name, 1, n, k.defaultTile, 1);
    } else {
        a << " --height 40 --width 50 --mask-width 5";
        c.scenario = sim::convScenario(k.name, 40, 50, tile, 5);
    }
    c.args = a.str();
    return c;
}

const std::set<std::string> kMemoryKeys = {
    "global_ld_requests", "global_ld_sectors",    "global_st_requests",       "global_st_sectors",
    "sectors_per_request", "shared_ld_requests",  "shared_ld_wavefronts",     "shared_ld_bank_conflicts",
    "shared_st_requests", "shared_st_wavefronts", "shared_st_bank_conflicts", "constant_ld_requests",
    "constant_ld_serializations", "requested_bytes", "compulsory_bytes",      "per_line",
    // Extensions.
    "compulsory_read_bytes", "compulsory_write_bytes"};
const std::set<std::string> kLineKeys = {"line", "space", "op", "requests", "sectors", "wavefronts",
                                         "bank_conflicts", "arrays", "lanes"};

uint64_t u(const json& j) { return j.get<uint64_t>(); }

TEST(CliMemory, EveryKernelHasTheMemoryObject)
{
    ASSERT_FALSE(sim::kernelList().empty());
    for (const sim::KernelInfo& k : sim::kernelList()) {
        const Case c = caseFor(k);
        SCOPED_TRACE(c.args);
        ASSERT_EQ(sim::validate(c.scenario), "");
        const json j = simulateJson(c.args);
        ASSERT_TRUE(j.contains("memory")) << j;
        const json& m = j["memory"];
        for (const std::string& key : kMemoryKeys) EXPECT_TRUE(m.contains(key)) << "missing key '" << key << "'";
        for (const std::string& key : kMemoryKeys)
            if (key != "per_line" && key != "sectors_per_request")
                EXPECT_TRUE(m[key].is_number_unsigned()) << key << ": " << m[key];

        // The same figures as the library's simulation of the same scenario.
        sim::SimOptions o;
        o.trace = false;
        const sim::Simulation r = sim::simulate(c.scenario, o);
        ASSERT_EQ(r.error, "");
        const sim::Totals& t = r.counters.totals;
        EXPECT_EQ(u(m["global_ld_requests"]), t.global_ld_requests);
        EXPECT_EQ(u(m["global_ld_sectors"]), t.global_ld_sectors);
        EXPECT_EQ(u(m["global_st_requests"]), t.global_st_requests);
        EXPECT_EQ(u(m["global_st_sectors"]), t.global_st_sectors);
        EXPECT_EQ(u(m["shared_ld_requests"]), t.shared_ld_requests);
        EXPECT_EQ(u(m["shared_ld_wavefronts"]), t.shared_ld_wavefronts);
        EXPECT_EQ(u(m["shared_st_requests"]), t.shared_st_requests);
        EXPECT_EQ(u(m["shared_st_wavefronts"]), t.shared_st_wavefronts);
        EXPECT_EQ(u(m["constant_ld_requests"]), t.constant_ld_requests);
        EXPECT_EQ(u(m["constant_ld_serializations"]), t.constant_ld_passes - t.constant_ld_requests);
        EXPECT_EQ(u(m["compulsory_read_bytes"]), sim::compulsoryReadBytes(r));
        EXPECT_EQ(u(m["compulsory_write_bytes"]), sim::compulsoryWriteBytes(r));

        // Not all zero, and consistent with each other.
        EXPECT_GT(u(m["global_ld_requests"]), 0u);
        EXPECT_GE(u(m["global_ld_sectors"]), u(m["global_ld_requests"]));
        // A kernel that writes its total with atomics (PMPP Fig. 10.13) has atomic requests instead.
        if (k.atomics) EXPECT_GT(u(j.at("warps").at("global_atom_requests")), 0u);
        else EXPECT_GT(u(m["global_st_requests"]), 0u);
        EXPECT_GE(u(m["global_st_sectors"]), u(m["global_st_requests"]));
        EXPECT_EQ(m["sectors_per_request"].get<double>(),
                  std::round(1000.0 * static_cast<double>(u(m["global_ld_sectors"])) /
                             static_cast<double>(u(m["global_ld_requests"]))) / 1000.0);
        // The contract's conflicts: wavefronts minus requests. The extension counts the
        // wavefronts beyond the fewest needed, at most that (fewer for 128-bit accesses).
        EXPECT_EQ(u(m["shared_ld_bank_conflicts"]), u(m["shared_ld_wavefronts"]) - u(m["shared_ld_requests"]));
        EXPECT_EQ(u(m["shared_st_bank_conflicts"]), u(m["shared_st_wavefronts"]) - u(m["shared_st_requests"]));
        EXPECT_LE(u(m["shared_ld_wavefronts_beyond_needed"]), u(m["shared_ld_bank_conflicts"]));
        EXPECT_LE(u(m["shared_st_wavefronts_beyond_needed"]), u(m["shared_st_bank_conflicts"]));
        EXPECT_EQ(u(m["requested_bytes"]), 32 * (u(m["global_ld_sectors"]) + u(m["global_st_sectors"])));
        EXPECT_EQ(u(m["compulsory_bytes"]), u(m["compulsory_read_bytes"]) + u(m["compulsory_write_bytes"]));
        EXPECT_GT(u(m["compulsory_read_bytes"]), 0u);
        EXPECT_GT(u(m["compulsory_write_bytes"]), 0u);
        // Every element the kernel writes is written once, 4 bytes each: all of P, except the
        // boundary a stencil leaves alone (still the NaN the output starts as), the elements of
        // an input a reduction sums in place (PMPP Fig. 10.6), and those of the scratch arrays
        // after P (PMPP sec. 11.7's flags and running sums).
        size_t written = 0;
        for (float v : r.P) written += !std::isnan(v);
        for (size_t a = 0; a < r.counters.elementStores.size() && a < r.arrays.size(); ++a)
            if (a != 2 && r.arrays[a].space == sim::Space::Global)
                for (uint32_t n : r.counters.elementStores[a]) written += n != 0;
        EXPECT_EQ(u(m["compulsory_write_bytes"]), 4 * written);
        // A kernel that declares shared arrays uses them (PMPP Figs. 9.6 and 9.9 are histogram
        // rows whose bins stay in global memory: compiled per block size, no shared array).
        if (k.tiled && sim::kernelSource(k.sourceFile).find("TS_SHARED") != std::string::npos) {
            EXPECT_GT(u(m["shared_ld_requests"]), 0u);
            EXPECT_GT(u(m["shared_st_requests"]), 0u);
        }
        // The convolutions' mask is in constant memory.
        if (k.family == sim::Family::Conv1D || k.family == sim::Family::Conv2D) EXPECT_GT(u(m["constant_ld_requests"]), 0u);

        // per_line: every entry has every key, null where the quantity does not apply; the
        // entries add up to the totals.
        ASSERT_TRUE(m["per_line"].is_array());
        EXPECT_FALSE(m["per_line"].empty());
        std::map<std::string, uint64_t> sum;
        for (const json& l : m["per_line"]) {
            for (const std::string& key : kLineKeys) EXPECT_TRUE(l.contains(key)) << "missing key '" << key << "' in " << l;
            const std::string space = l["space"], op = l["op"];
            EXPECT_TRUE(space == "global" || space == "shared" || space == "constant") << l;
            EXPECT_TRUE(op == "ld" || op == "st") << l;
            EXPECT_GT(u(l["line"]), 0u);
            EXPECT_GT(u(l["requests"]), 0u) << l;
            EXPECT_GE(u(l["lanes"]), u(l["requests"])) << l;
            EXPECT_FALSE(l["arrays"].empty()) << l;
            if (space == "global") {
                EXPECT_GE(u(l["sectors"]), u(l["requests"])) << l;
                EXPECT_TRUE(l["wavefronts"].is_null()) << l;
                EXPECT_TRUE(l["bank_conflicts"].is_null()) << l;
                sum["global_" + op + "_requests"] += u(l["requests"]);
                sum["global_" + op + "_sectors"] += u(l["sectors"]);
                sum["global_" + op + "_lanes"] += u(l["lanes"]);
            } else {
                EXPECT_TRUE(l["sectors"].is_null()) << l;
                EXPECT_GE(u(l["wavefronts"]), u(l["requests"])) << l;
                sum[space + "_" + op + "_requests"] += u(l["requests"]);
                sum[space + "_" + op + "_wavefronts"] += u(l["wavefronts"]);
                sum[space + "_" + op + "_lanes"] += u(l["lanes"]);
                if (space == "shared") {
                    EXPECT_EQ(u(l["bank_conflicts"]), u(l["wavefronts"]) - u(l["requests"])) << l;
                    // 32-bit accesses need one wavefront a request; a 128-bit one (x.lds4,
                    // x.sts4) one per 128 distinct bytes of each half-warp, up to 4.
                    if (l.value("vector_bits", 32) == 32)
                        EXPECT_EQ(u(l["wavefronts_beyond_needed"]), u(l["bank_conflicts"])) << l;
                    else
                        EXPECT_LE(u(l["wavefronts_beyond_needed"]), u(l["bank_conflicts"])) << l;
                    if (l.value("vector_bits", 32) == 128) ++sum["wide_lines"];
                    sum["shared_" + op + "_bank_conflicts"] += u(l["bank_conflicts"]);
                } else {
                    EXPECT_EQ(op, "ld");
                    EXPECT_TRUE(l["bank_conflicts"].is_null()) << l;
                }
            }
        }
        for (const char* key : {"global_ld_requests", "global_ld_sectors", "global_st_requests", "global_st_sectors",
                                "shared_ld_requests", "shared_ld_wavefronts", "shared_ld_bank_conflicts",
                                "shared_st_requests", "shared_st_wavefronts", "shared_st_bank_conflicts",
                                "constant_ld_requests"})
            EXPECT_EQ(sum[key], u(m[key])) << "per_line sum of " << key;
        EXPECT_EQ(sum["constant_ld_wavefronts"] - sum["constant_ld_requests"], u(m["constant_ld_serializations"]));
        // The lanes are the element accesses of the totals.
        EXPECT_EQ(sum["global_ld_lanes"], u(j["totals"]["global_loads"]));
        EXPECT_EQ(sum["global_st_lanes"], u(j["totals"]["global_stores"]));
        EXPECT_EQ(sum["shared_ld_lanes"], u(j["totals"]["shared_loads"]));
        EXPECT_EQ(sum["shared_st_lanes"], u(j["totals"]["shared_stores"]));
        EXPECT_EQ(sum["constant_ld_lanes"], u(j["totals"]["constant_loads"]));
        // 128-bit lines where, and only where, the kernel's source makes 128-bit accesses.
        const std::string& source = sim::kernelSource(std::string(k.sourceFile));
        const bool vectorSource = source.find("x.ldg4(") != std::string::npos ||
                                  source.find("x.lds4(") != std::string::npos ||
                                  source.find("x.sts4(") != std::string::npos ||
                                  source.find("x.stg4(") != std::string::npos;
        EXPECT_EQ(sum["wide_lines"] > 0, vectorSource) << k.name;
    }
}

// The hand-derived figures of matmul-tiled 64^3, TILE_WIDTH 16
// (tests/unit/warp_memory_simulation_test.cpp derives them): 16 blocks x 8 warps x 4 phases
// x 2 loads of 4 sectors; 16 iterations x 2 conflict-free shared loads per phase; 128 stores
// of 4 sectors.
TEST(CliMemory, MatmulTiled64Tile16)
{
    const json m = simulateJson("--kernel matmul-tiled --width 64 --tile 16")["memory"];
    EXPECT_EQ(m["global_ld_requests"], 1024);
    EXPECT_EQ(m["global_ld_sectors"], 4096);
    EXPECT_EQ(m["sectors_per_request"], 4.0);
    EXPECT_EQ(m["global_st_requests"], 128);
    EXPECT_EQ(m["global_st_sectors"], 512);
    EXPECT_EQ(m["shared_ld_requests"], 16384);
    EXPECT_EQ(m["shared_ld_wavefronts"], 16384);
    EXPECT_EQ(m["shared_ld_bank_conflicts"], 0);
    EXPECT_EQ(m["shared_st_requests"], 1024);
    EXPECT_EQ(m["shared_st_bank_conflicts"], 0);
    EXPECT_EQ(m["constant_ld_requests"], 0);
    EXPECT_EQ(m["constant_ld_serializations"], 0);
    EXPECT_EQ(m["requested_bytes"], 32 * (4096 + 512));
    EXPECT_EQ(m["compulsory_bytes"], 3 * 64 * 64 * 4);
    EXPECT_EQ(m["compulsory_read_bytes"], 2 * 64 * 64 * 4);
    EXPECT_EQ(m["compulsory_write_bytes"], 64 * 64 * 4);
    ASSERT_EQ(m["per_line"].size(), 6u);
    // The use line reads both tiles: one entry naming Mds and Nds.
    bool use = false;
    for (const json& l : m["per_line"])
        if (l["space"] == "shared" && l["op"] == "ld") {
            use = true;
            EXPECT_EQ(l["arrays"], json::parse(R"(["Mds", "Nds"])"));
            EXPECT_EQ(l["requests"], 16384);
            EXPECT_EQ(l["lanes"], 64 * 64 * 64 * 2);
        }
    EXPECT_TRUE(use);
}

/// The rows of the text output's per-line table: the text from the header on.
std::string tableOf(const std::string& out)
{
    const size_t h = out.find("  line  space     op  requests   sectors  sect/req  wavefronts  conflicts  statement\n");
    return h == std::string::npos ? "" : out.substr(h);
}

// The text output prints the summary and one row per per_line entry, with the statement.
TEST(CliMemory, TextOutputPrintsThePerLineTable)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        const Case c = caseFor(k);
        SCOPED_TRACE(c.args);
        const CliRun text = runCli("simulate " + c.args);
        ASSERT_EQ(text.status, 0) << text.err;
        EXPECT_NE(text.out.find("  memory (warps of 32 lanes; global in 32-byte sectors, shared in 32 banks)\n"),
                  std::string::npos)
            << text.out;
        EXPECT_NE(text.out.find("    global loads   "), std::string::npos);
        EXPECT_NE(text.out.find("    shared loads   "), std::string::npos);
        const std::string table = tableOf(text.out);
        ASSERT_FALSE(table.empty()) << text.out;
        const json m = simulateJson(c.args)["memory"];
        std::istringstream rows(table);
        std::string header, row;
        std::getline(rows, header);
        size_t n = 0;
        for (const json& l : m["per_line"]) {
            ASSERT_TRUE(std::getline(rows, row)) << "missing row for " << l;
            ++n;
            std::istringstream f(row);
            unsigned line = 0;
            std::string space, op;
            uint64_t requests = 0;
            f >> line >> space >> op >> requests;
            EXPECT_EQ(line, u(l["line"])) << row;
            EXPECT_EQ(space, l["space"].get<std::string>()) << row;
            EXPECT_EQ(op, l["op"].get<std::string>()) << row;
            EXPECT_EQ(requests, u(l["requests"])) << row;
            std::string sectors, perRequest, wave, conflicts;
            f >> sectors >> perRequest >> wave >> conflicts;
            if (space == "global") {
                EXPECT_EQ(sectors, std::to_string(u(l["sectors"]))) << row;
                EXPECT_EQ(wave, "-") << row;
            } else {
                EXPECT_EQ(sectors, "-") << row;
                EXPECT_EQ(wave, std::to_string(u(l["wavefronts"]))) << row;
                if (space == "shared") EXPECT_EQ(conflicts, std::to_string(u(l["wavefronts_beyond_needed"]))) << row;
                else EXPECT_EQ(conflicts, std::to_string(u(l["wavefronts"]) - u(l["requests"]))) << row;
            }
            // Then the statement of that line of the kernel's source, not empty.
            std::string statement;
            std::getline(f >> std::ws, statement);
            EXPECT_FALSE(statement.empty()) << row;
        }
        EXPECT_GT(n, 0u);
    }
    // matmul-tiled: the use line with its statement and figures.
    const CliRun t = runCli("simulate --kernel matmul-tiled --width 64 --tile 16");
    const std::string table = tableOf(t.out);
    const size_t use = table.find("Pvalue += Mds[ty][i] * Nds[i][tx];");
    ASSERT_NE(use, std::string::npos) << t.out;
    const std::string row = table.substr(table.rfind('\n', use) + 1, use - table.rfind('\n', use) - 1);
    EXPECT_NE(row.find("shared    ld     16384         -         -       16384          0"), std::string::npos) << row;
    EXPECT_NE(table.find("global    ld       512      2048      4.00           -          -  Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];"),
              std::string::npos)
        << table;
}

// --no-memory-model: no `memory` object, no table, the same element counts.
TEST(CliMemory, NoMemoryModel)
{
    const std::string args = "--kernel conv2d-tiled --height 40 --width 50 --mask-width 5 --tile 8";
    const json on = simulateJson(args);
    const json off = simulateJson(args + " --no-memory-model");
    EXPECT_TRUE(on.contains("memory"));
    EXPECT_FALSE(off.contains("memory")) << off;
    EXPECT_EQ(off["totals"], on["totals"]);
    EXPECT_EQ(off["matches_reference"], true);
    const CliRun text = runCli("simulate " + args + " --no-memory-model");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_EQ(text.out.find("memory (warps"), std::string::npos) << text.out;
    EXPECT_TRUE(tableOf(text.out).empty()) << text.out;
    EXPECT_NE(text.out.find("P vs reference  bit-identical"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace ts::test
