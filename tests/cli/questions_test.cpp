// `tilescope-cli questions` (docs/cli.md): the contract's JSON shape and keys, the answer key
// of every kind, determinism by seed, the scenario file's [[question]] tables (malformed ones
// reported with their line, the rest still printed) and the exit statuses of bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "run_cli.hpp"

namespace ts::test {
namespace {

using nlohmann::json;

json questionsJson(const std::string& args) { return runJson("questions " + args + " --json"); }

/// Expects `args` to fail with status 2, one sentence on stderr, nothing on stdout.
void expectRefused(const std::string& args, const std::string& mention) { expectRefusedRun(args, 2, {mention}); }

/// A scenario file in the temporary folder, removed at the end of the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text)
        : path((std::filesystem::temp_directory_path() / ("tilescope-questions-" + std::to_string(::getpid()) + ".toml")).string())
    {
        std::ofstream(path) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

TEST(CliQuestions, ContractShape)
{
    const json j = questionsJson("--scenario tiled-4x4 --seed 1");
    EXPECT_EQ(j["scenario"], "tiled-4x4");
    EXPECT_EQ(j["seed"], 1);
    ASSERT_TRUE(j["questions"].is_array());
    EXPECT_EQ(j["questions"].size(), 10u);   // --count defaults to 10
    // The preset's first fixed question is the contract's example.
    const json& q = j["questions"][0];
    EXPECT_EQ(q["kind"], "mds-loads");
    EXPECT_EQ(q["block"], json::array({1, 0}));
    EXPECT_EQ(q["thread"], json::array({0, 1}));   // [tx, ty]: (ty=1, tx=0)
    EXPECT_EQ(q["phase"], 1);
    EXPECT_EQ(q["prompt"],
              "Which element of M does thread (ty=1, tx=0) of block (bx=1, by=0) load into Mds in phase 1?");
    EXPECT_EQ(q["answer"], json({{"elements", json::array({json::array({1, 2})})}}));
    EXPECT_EQ(q["line"], 34);
    EXPECT_EQ(q["source"], "Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];");
    EXPECT_EQ(q["fixed"], true);
    for (const json& x : j["questions"]) {
        for (const char* key : {"kind", "prompt", "answer", "explanation", "fixed"}) EXPECT_TRUE(x.contains(key)) << key;
        if (x["kind"] == "index-value") {
            EXPECT_TRUE(x.contains("step"));
            EXPECT_TRUE(x.contains("expression"));
            EXPECT_TRUE(x["answer"]["value"].is_number_integer());
        }
    }
}

TEST(CliQuestions, EveryKindHasItsAnswerKey)
{
    const std::map<std::string, std::string> key = {
        {"mds-loads", "elements"},  {"nds-loads", "elements"},       {"block-tile", "elements"},
        {"nds-slot", "slot"},       {"index-value", "value"},        {"element-readers", "threads"},
        {"halo-cells", "cells"},    {"ghost-cells", "cells"},        {"dropped-barrier-hazard", "hazard"},
        {"block-global-loads", "count"}, {"occupancy-blocks", "blocks"}, {"occupancy-limiter", "limiter"}};
    const std::pair<const char*, const char*> runs[] = {
        {"tiled-4x4", "mds-loads,nds-loads,block-tile,nds-slot,index-value,dropped-barrier-hazard,block-global-loads,"
                      "occupancy-blocks,occupancy-limiter"},
        {"conv1d-tiled-tile8-mask5", "element-readers,halo-cells,ghost-cells,nds-loads,nds-slot"},
        {"conv2d-tiled-tile8-mask5", "element-readers,halo-cells,ghost-cells,nds-slot"}};
    std::map<std::string, int> seen;
    for (auto [scenario, kinds] : runs) {
        const json j = questionsJson(std::string("--scenario ") + scenario + " --count 40 --seed 3 --kind " + kinds);
        for (const json& q : j["questions"]) {
            const std::string kind = q["kind"];
            ASSERT_TRUE(key.count(kind)) << kind;
            ASSERT_EQ(q["answer"].size(), 1u) << q.dump();
            EXPECT_TRUE(q["answer"].contains(key.at(kind))) << q.dump();
            ++seen[kind];
            // 1D positions are plain indices, 2D ones [row, col]; threads are always [tx, ty].
            const json& a = q["answer"].begin().value();
            if (kind == "element-readers")
                for (const json& t : a) EXPECT_EQ(t.size(), 2u);
            if (kind == "halo-cells" && std::string(scenario).find("conv1d") == 0)
                for (const json& c : a) EXPECT_TRUE(c.is_number_integer()) << q.dump();
            if (kind == "halo-cells" && std::string(scenario).find("conv2d") == 0)
                for (const json& c : a) EXPECT_EQ(c.size(), 2u) << q.dump();
            if (kind == "dropped-barrier-hazard") EXPECT_TRUE(a == "raw" || a == "war" || a == "none");
        }
    }
    for (const auto& [kind, k] : key) EXPECT_GT(seen[kind], 0) << kind;
}

TEST(CliQuestions, SameSeedSameOutput)
{
    const CliRun a = runCli("questions --scenario ragged-100x37x51-tile16 --count 12 --seed 99 --json");
    const CliRun b = runCli("questions --scenario ragged-100x37x51-tile16 --count 12 --seed 99 --json");
    const CliRun c = runCli("questions --scenario ragged-100x37x51-tile16 --count 12 --seed 100 --json");
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_NE(a.out, c.out);
    // The preset's five fixed questions come first whatever the seed.
    const json ja = json::parse(a.out), jc = json::parse(c.out);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(ja["questions"][i], jc["questions"][i]);
}

TEST(CliQuestions, CountAndKindFilter)
{
    const json j = questionsJson("--scenario conv1d-tiled-tile8-mask5 --count 3 --kind ghost-cells,halo-cells");
    ASSERT_EQ(j["questions"].size(), 3u);
    EXPECT_EQ(j["questions"][0]["kind"], "halo-cells");   // the preset's own, first
    EXPECT_EQ(j["questions"][0]["answer"]["cells"], json::array({6, 7, 16, 17}));
    for (const json& q : j["questions"]) EXPECT_TRUE(q["kind"] == "ghost-cells" || q["kind"] == "halo-cells");
    // A count below the preset's own questions keeps the first of them.
    EXPECT_EQ(questionsJson("--scenario tiled-4x4 --count 2")["questions"].size(), 2u);
}

TEST(CliQuestions, TextForPeople)
{
    const CliRun r = runCli("questions --scenario boundary-3x3 --count 4");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("boundary-3x3"), std::string::npos);
    EXPECT_NE(r.out.find("1. [mds-loads, from the file] Which element of M"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("   Answer: none"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("   Why: Line 36"), std::string::npos) << r.out;
}

TEST(CliQuestions, MalformedFileQuestionIsReportedAndTheRestRuns)
{
    const TempFile f(R"(kernel = "conv1d-tiled"
width = 12
mask_width = 5
tile = 4

[[question]]
kind = "element-readers"
block = [1, 0]
element = 5

[[question]]
kind = "element-readers"
block = [1, 0]
element = 12
)");
    const CliRun r = runCli("questions --scenario " + f.path + " --count 1 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "tilescope-cli: " + f.path + ", line 14: element 12 is outside N, which has 12 elements (0 to 11).\n");
    const json j = json::parse(r.out);
    ASSERT_EQ(j["questions"].size(), 1u);
    EXPECT_EQ(j["questions"][0]["fixed"], true);
    // PMPP's example: element 5 is used by threads 4, 5, 6, 7 (tx 0 to 3 of block 1).
    EXPECT_EQ(j["questions"][0]["answer"]["threads"], json::parse("[[0,0],[1,0],[2,0],[3,0]]"));
    EXPECT_EQ(j["questions"][0]["element"], 5);
}

TEST(CliQuestions, BadInputExits2)
{
    expectRefused("questions --scenario tiled-4x4 --kind sideways --json", "'sideways' is not a question kind");
    expectRefused("questions --scenario tiled-4x4 --kind mds-loads,halo-cells --json", "does not apply to matmul-tiled");
    expectRefused("questions --scenario naive-4x4 --kind nds-slot", "does not apply to matmul-naive");
    expectRefused("questions --scenario tiled-4x4 --count 0 --json", "got '0'");
    expectRefused("questions --scenario tiled-4x4 --count 1001", "got '1001'");
    expectRefused("questions --scenario tiled-4x4 --seed -3", "got '-3'");
    expectRefused("questions --scenario no-such-preset --json", "No preset named 'no-such-preset'");
    expectRefused("questions --json", "--scenario");
    const TempFile bad("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 3\n");
    expectRefused("questions --scenario " + bad.path, ", line 3:");
}

TEST(CliQuestions, ListedInHelp)
{
    const CliRun r = runCli("--help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("questions"), std::string::npos) << r.out;
    const CliRun q = runCli("questions --help");
    EXPECT_EQ(q.status, 0);
    for (const char* option : {"--scenario", "--count", "--seed", "--kind", "--json"})
        EXPECT_NE(q.out.find(option), std::string::npos) << option;
}

}  // namespace
}  // namespace ts::test
