// tilescope-cli roofline (docs/cli.md, docs/roofline.md): the textbook's A100 bounds worked
// out here from PMPP sec. 5.1's own figures, the committed H100 file's points against that
// file and against hand-worked intensities, the table for people, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "gpu/gpu.hpp"
#include "run_cli.hpp"

namespace ts::test {
namespace {

const std::string kH100 = std::string(TILESCOPE_ASSETS_DIR) + "/results/ladder-4096-h100.json";

nlohmann::json rooflineJson(const std::string& args) { return runJson("roofline " + args + " --json"); }

void expectRefused(const std::string& args, int status, const std::string& mention)
{
    expectRefusedRun(args, status, {mention});
}

// PMPP sec. 5.1: the naive kernel does one multiply and one add (2 FLOPs) for every two
// 4-byte loads, 2 / 8 = 0.25 OP/B; the A100 moves 1,555 GB/s, so at most 0.25 x 1,555 =
// 388.75, about 389 GFLOPS, of its 19,500. TILE_WIDTH T divides the loads by T.
TEST(CliRoofline, TextbookA100Bounds)
{
    const double bandwidth = 1555, peak = 19500;
    const double naiveOpb = 2.0 / (2 * 4.0);
    for (const std::string& args : {std::string(), std::string("--profile textbook-a100")}) {
        SCOPED_TRACE(args);
        const nlohmann::json j = rooflineJson(args);
        EXPECT_EQ(j["profile"], "textbook-a100");
        EXPECT_EQ(j["ceilings"]["peak_fp32_gflops"].get<double>(), peak);
        EXPECT_EQ(j["ceilings"]["memory_gbytes_per_s"].get<double>(), bandwidth);
        EXPECT_EQ(j["ceilings"]["source"], "textbook");
        EXPECT_NEAR(j["ceilings"]["ridge_flop_per_byte"].get<double>(), peak / bandwidth, 1e-12);
        const nlohmann::json& p = j["points"];
        ASSERT_EQ(p.size(), 3u);
        EXPECT_EQ(p[0]["kernel"], "matmul-naive");
        EXPECT_DOUBLE_EQ(p[0]["intensity_dram"].get<double>(), naiveOpb);
        EXPECT_DOUBLE_EQ(p[0]["gflops"].get<double>(), naiveOpb * bandwidth);
        EXPECT_EQ(std::lround(p[0]["gflops"].get<double>()), 389);
        EXPECT_TRUE(p[0]["intensity_requested"].is_null());
        for (int i : {1, 2}) {
            const int tile = i == 1 ? 16 : 32;
            EXPECT_EQ(p[i]["kernel"], "matmul-tiled");
            EXPECT_EQ(p[i]["params"]["tile"], tile);
            EXPECT_DOUBLE_EQ(p[i]["intensity_dram"].get<double>(), naiveOpb * tile);
            EXPECT_DOUBLE_EQ(p[i]["gflops"].get<double>(), naiveOpb * tile * bandwidth);
            EXPECT_TRUE(p[i]["textbook"].get<bool>());
        }
    }
    const CliRun text = runCli("roofline");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("textbook A100 profile (PMPP)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("0.25 OP/B x 1,555 GB/s = 389 GFLOPS"), std::string::npos) << text.out;
}

TEST(CliRoofline, CommittedH100File)
{
    nlohmann::json file;
    std::ifstream(kH100) >> file;
    const nlohmann::json j = rooflineJson("--results " + kH100);
    EXPECT_EQ(j["profile"], "results");
    EXPECT_EQ(j["device"], "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(j["caption"], "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-24");
    EXPECT_EQ(j["ceilings"]["source"], "measured");
    EXPECT_EQ(j["ceilings"]["peak_fp32_gflops"].get<double>(), file["peak_fp32_gflops"].get<double>());
    EXPECT_EQ(j["ceilings"]["memory_gbytes_per_s"].get<double>(), file["copy_gbytes_per_s"].get<double>());
    const nlohmann::json& p = j["points"];
    ASSERT_EQ(p.size(), file["results"].size());
    for (size_t i = 0; i < p.size(); ++i) {
        const nlohmann::json& r = file["results"][i];
        SCOPED_TRACE(r["kernel"].get<std::string>());
        EXPECT_EQ(p[i]["kernel"], r["kernel"]);
        EXPECT_EQ(p[i]["params"], r["params"]);
        EXPECT_EQ(p[i]["gflops"].get<double>(), r["gflops"].get<double>());
        // Compulsory bytes of 4096^3: M, N and P once, 4 x 3 x 4096^2; flops 2 x 4096^3.
        EXPECT_EQ(p[i]["dram_source"], "compulsory");
        EXPECT_DOUBLE_EQ(p[i]["intensity_dram"].get<double>(), 2.0 * 4096 / 12.0);
        EXPECT_EQ(p[i]["intensity_requested"].is_null(), r["kernel"] == "cublas");
    }
    // matmul-naive, blocks of 16 x 16: 2 bytes requested per flop, 4 per element of P stored:
    // k / (2k + 2). matmul-tiled, TILE_WIDTH 16: a quarter byte per flop: 4k / (k + 8).
    EXPECT_DOUBLE_EQ(p[0]["intensity_requested"].get<double>(), 4096.0 / 8194.0);
    EXPECT_DOUBLE_EQ(p[1]["intensity_requested"].get<double>(), 4.0 * 4096.0 / 4104.0);
    EXPECT_NEAR(p[0]["bound_gflops"]["requested"].get<double>(),
                file["copy_gbytes_per_s"].get<double>() * 4096.0 / 8194.0, 1e-6);

    // The same points against the textbook's ceilings.
    const nlohmann::json t = rooflineJson("--results " + kH100 + " --profile textbook-a100");
    EXPECT_EQ(t["ceilings"]["source"], "textbook");
    EXPECT_EQ(t["points"].size(), p.size());
    EXPECT_EQ(t["points"][3]["gflops"], p[3]["gflops"]);

    const CliRun text = runCli("roofline --results ladder-4096-h100");
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("Roofline: measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-24"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("matmul-conflict-free"), std::string::npos);
    EXPECT_NE(text.out.find("41,784"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("matmul-warptiled"), std::string::npos);
    EXPECT_NE(text.out.find("49,489"), std::string::npos) << text.out;
}

TEST(CliRoofline, Refusals)
{
    expectRefused("roofline --profile a100", 2, "--profile must be textbook-a100 or current; got 'a100'");
    expectRefused("roofline --results /nonexistent/results.json", 2, "/nonexistent/results.json: cannot be opened");
    char path[] = "/tmp/tilescope-roofline-XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    std::ofstream(path) << R"({"device": "GPU", "results": [{"kernel": "matmul-tiled", "params": {}, "gflops": 1}]})";
    expectRefused(std::string("roofline --results ") + path, 2, std::string(path) + ": has no \"results[0].params.j\"");
    std::remove(path);
    const gpu::DeviceInfo d = gpu::queryDevice();
    if (d.available) GTEST_SKIP() << "this machine has a usable CUDA device (" << d.name << ")";
    // Without a GPU: the device query's own sentence, status 3 (as occupancy --device current).
    expectRefused("roofline --profile current", 3, d.why);
    expectRefused("roofline --profile current --results " + kH100, 3, d.why);
}

}  // namespace
}  // namespace ts::test
