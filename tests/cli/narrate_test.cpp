// tilescope-cli narrate (docs/cli.md): every step of a preset with its caption line, marked
// hand-written or generated; a line of the file that lands on no step fails the run (1).
#include <filesystem>
#include <fstream>

#include "run_cli.hpp"

namespace ts::test {
namespace {

TEST(CliNarrate, EveryStepOfTiled4x4)
{
    const nlohmann::json j = runJson("narrate --scenario tiled-4x4 --json");
    EXPECT_EQ(j["scenario"], "tiled-4x4");
    // 2 phases of load M, load N, barrier, 2 iterations, barrier; then the store of P.
    ASSERT_EQ(j["steps"].size(), 2u * 6u + 1u);
    int handWritten = 0;
    for (size_t i = 0; i < j["steps"].size(); ++i) {
        const nlohmann::json& s = j["steps"][i];
        EXPECT_EQ(s["step"], i);
        EXPECT_FALSE(s["label"].get<std::string>().empty());
        EXPECT_GE(s["narration"].get<std::string>().size(), 20u) << i;
        const std::string source = s["source"];
        EXPECT_TRUE(source == "hand-written" || source == "generated") << source;
        handWritten += source == "hand-written";
    }
    EXPECT_EQ(j["steps"][12]["label"], "store P");
    EXPECT_NE(j["steps"][12]["narration"].get<std::string>().find("Pvalue to P[Row][Col]"), std::string::npos);
    EXPECT_EQ(handWritten, 13);
    EXPECT_TRUE(j["problems"].empty());
}

TEST(CliNarrate, GeneratedLinesWhereTheFileHasNone)
{
    // boundary-3x3 leaves its plain iterations of phase 0 to the generator.
    const nlohmann::json j = runJson("narrate --scenario boundary-3x3 --json");
    const nlohmann::json& s = j["steps"][3];
    EXPECT_EQ(s["label"], "phase 0: use, iteration 0");
    EXPECT_EQ(s["source"], "generated");
    EXPECT_EQ(s["narration"], "Iteration 0 of phase 0: each thread adds Mds[ty][0] * Nds[0][tx] to its Pvalue; each "
                              "Mds and Nds value serves 2 threads.");
    // The text form: a header, then STEP | LABEL | SOURCE and the line under it.
    const CliRun r = runCli("narrate --scenario boundary-3x3");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\n3 | phase 0: use, iteration 0 | generated\n  Iteration 0 of phase 0:"), std::string::npos)
        << r.out;
}

TEST(CliNarrate, ALineThatLandsNowhereFailsTheRun)
{
    const std::string path = (std::filesystem::temp_directory_path() / "tilescope_narrate_cli.toml").string();
    std::ofstream(path) << "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n\n[[narrate]]\nat = \"store Q\"\n"
                           "text = \"never shown\"\n";
    const CliRun r = runCli("narrate --scenario " + path + " --json");
    std::filesystem::remove(path);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "tilescope-cli: " + path + ", line 5: the [[narrate]] line is never shown: no step of the trace "
                     "matches at = \"store Q\" (tilescope-cli narrate lists the steps).\n");
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["problems"].size(), 1u);
    EXPECT_EQ(j["steps"].size(), 13u) << "the steps are printed all the same";
}

TEST(CliNarrate, UnknownScenario)
{
    const CliRun r = runCli("narrate --scenario no-such-preset");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("No preset named 'no-such-preset'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::test
