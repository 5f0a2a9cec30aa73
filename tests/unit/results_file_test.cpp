// Results files (sim/files/results_file.hpp): the committed H100 file read back field by field, and
// one malformed file after another, each refused with one sentence that starts with the
// file's path and says what is wrong, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/files/results_file.hpp"

namespace ts::test {
namespace {

const std::string kH100 = std::string(TILESCOPE_ASSETS_DIR) + "/results/ladder-4096-h100.json";

std::string readText(const std::string& path)
{
    std::stringstream s;
    s << std::ifstream(path).rdbuf();
    return s.str();
}

/// Expects `text` to be refused with one sentence naming "x.json" that mentions `mention`.
void expectRefused(const std::string& text, const std::string& mention)
{
    SCOPED_TRACE(text.substr(0, 200));
    try {
        sim::parseResultsText(text, "x.json");
        ADD_FAILURE() << "accepted";
    } catch (const sim::ResultsFileError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("x.json: ", 0), 0u) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.back(), '.') << m;
        EXPECT_NE(m.find(mention), std::string::npos) << m;
    }
}

/// A minimal good file with `result` as its one result.
std::string withResult(const std::string& result)
{
    return R"({"device": "GPU", "results": [)" + result + "]}";
}

const std::string kGood = R"({"kernel": "matmul-tiled", "params": {"j": 64, "k": 64, "l": 64, "tile": 16}, "gflops": 10})";

TEST(ResultsFile, CommittedH100File)
{
    const sim::ResultsFile f = sim::loadResultsFile(kH100);
    EXPECT_EQ(f.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(f.computeCapability, "9.0");
    EXPECT_EQ(f.driver, "13.0");
    EXPECT_EQ(f.date, "2026-11-24T05:20:17Z");
    EXPECT_EQ(f.measuredOn(), "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-24");
    ASSERT_TRUE(f.peakFp32Gflops && f.copyGbytesPerS);
    EXPECT_NEAR(*f.peakFp32Gflops, 60757.00, 0.01);
    EXPECT_NEAR(*f.copyGbytesPerS, 2944.40, 0.01);
    ASSERT_EQ(f.results.size(), 11u);
    const char* order[] = {"matmul-naive", "matmul-tiled", "matmul-coarsened", "matmul-regtile-1d",
                           "matmul-regtile-2d", "matmul-vectorized", "matmul-double-buffered", "matmul-conflict-free",
                           "matmul-tuned", "matmul-warptiled", "cublas"};
    const int tiles[] = {16, 16, 32, 64, 128, 128, 128, 128, 128, 128, 16};
    // Registers and static shared memory of each launched instance (bench, CUDA runtime).
    const int registers[] = {32, 30, 32, 55, 128, 96, 127, 125, 127, 213};
    const int shared[] = {0, 2048, 8192, 4096, 8192, 8192, 16384, 16640, 33280, 24832};
    for (size_t i = 0; i < 11; ++i) {
        const sim::ResultEntry& e = f.results[i];
        EXPECT_EQ(e.kernel, order[i]);
        ASSERT_TRUE(e.isMatmul()) << e.kernel;
        EXPECT_EQ(*e.j, 4096);
        EXPECT_EQ(*e.k, 4096);
        EXPECT_EQ(*e.l, 4096);
        EXPECT_EQ(*e.tile, tiles[i]);
        EXPECT_TRUE(e.percentOfCublas.has_value());
        if (i < 10) {
            ASSERT_TRUE(e.registers && e.staticSharedBytes) << e.kernel;
            EXPECT_EQ(*e.registers, registers[i]) << e.kernel;
            EXPECT_EQ(*e.staticSharedBytes, shared[i]) << e.kernel;
        } else {
            EXPECT_FALSE(e.registers.has_value()) << "cuBLAS's kernels are its own";
        }
        EXPECT_FALSE(e.dramBytes.has_value());
    }
    EXPECT_NEAR(f.results[0].gflops, 5354.70, 0.01);
    EXPECT_NEAR(*f.results[0].msMedian, 25.667, 0.001);
    EXPECT_NEAR(*f.results[9].percentOfCublas, 96.33, 0.01);
    EXPECT_NEAR(f.results[10].gflops, 51374.90, 0.01);
    // By name, from the assets' results folder, with or without .json.
    EXPECT_EQ(sim::loadResultsFile("ladder-4096-h100").device, f.device);
    EXPECT_EQ(sim::loadResultsFile("ladder-4096-h100.json").results.size(), 11u);
}

TEST(ResultsFile, OptionalKeysAndOtherKernels)
{
    const sim::ResultsFile f = sim::parseResultsText(
        R"({"device": "GPU", "unknown_key": [1, 2], "results": [
              {"kernel": "matmul-tiled", "params": {"j": 64, "k": 32, "l": 48, "tile": 16}, "gflops": 0,
               "registers": 30, "dram_bytes": 40960.0, "bit_exact_vs_sim": true},
              {"kernel": "conv2d-tiled", "params": {"height": 64, "width": 64, "mask_width": 5, "tile": 8},
               "gflops": 12.5, "ms_median": 0.5}]})",
        "y.json");
    EXPECT_EQ(f.path, "y.json");
    EXPECT_EQ(f.driver, "");
    EXPECT_FALSE(f.peakFp32Gflops.has_value());
    ASSERT_EQ(f.results.size(), 2u);
    EXPECT_TRUE(f.results[0].isMatmul());
    EXPECT_EQ(*f.results[0].k, 32);
    EXPECT_EQ(*f.results[0].registers, 30);
    EXPECT_DOUBLE_EQ(*f.results[0].dramBytes, 40960.0);
    EXPECT_FALSE(f.results[1].isMatmul()) << "a convolution's params are not j, k, l";
    EXPECT_EQ(f.results[1].kernel, "conv2d-tiled");
    EXPECT_EQ(f.measuredOn(), "measured on GPU");
    // A whole number written as 16.0 is a whole number.
    EXPECT_EQ(*sim::parseResultsText(withResult(R"({"kernel": "matmul-naive", "params": {"j": 8, "k": 8, "l": 8,
              "tile": 16.0}, "gflops": 1})"), "z.json").results[0].tile, 16);
}

/// One result as bench writes it (the contract's keys), with the resource keys of `e`
/// added by sim::writeResourceKeys, as the text of a results file.
std::string writtenFile(const sim::ResultEntry& e)
{
    nlohmann::ordered_json r;
    r["kernel"] = "matmul-conflict-free";
    r["params"] = {{"j", 4096}, {"k", 4096}, {"l", 4096}, {"tile", 128}};
    r["ms_median"] = 3.27;
    r["gflops"] = 42002.0;
    sim::writeResourceKeys(e, r);
    nlohmann::ordered_json f;
    f["device"] = "NVIDIA H100 80GB HBM3";
    f["results"] = nlohmann::ordered_json::array({r});
    return f.dump(1);
}

TEST(ResultsFile, RegistersAndStaticSharedMemoryWrittenAndReadBack)
{
    // What bench --out records for a rung: cudaFuncGetAttributes' numRegs and sharedSizeBytes
    // (matmul-conflict-free at tile 128 on the H100: 125 registers, 16.25 KiB).
    sim::ResultEntry e;
    e.registers = 125;
    e.staticSharedBytes = 16640;
    const std::string text = writtenFile(e);
    EXPECT_NE(text.find("\"registers\": 125"), std::string::npos) << text;
    EXPECT_NE(text.find("\"static_shared_bytes\": 16640"), std::string::npos) << text;
    const sim::ResultsFile f = sim::parseResultsText(text, "w.json");
    ASSERT_EQ(f.results.size(), 1u);
    ASSERT_TRUE(f.results[0].registers.has_value());
    ASSERT_TRUE(f.results[0].staticSharedBytes.has_value());
    EXPECT_EQ(*f.results[0].registers, 125);
    EXPECT_EQ(*f.results[0].staticSharedBytes, 16640);
    // A kernel without shared memory (matmul-naive) records 0 bytes, which is a value, not
    // a missing key.
    e.registers = 32;
    e.staticSharedBytes = 0;
    const sim::ResultsFile naive = sim::parseResultsText(writtenFile(e), "w.json");
    ASSERT_TRUE(naive.results[0].staticSharedBytes.has_value());
    EXPECT_EQ(*naive.results[0].staticSharedBytes, 0);
    EXPECT_EQ(*naive.results[0].registers, 32);
}

TEST(ResultsFile, WithoutResourceKeysNothingIsWrittenAndTheFileStillLoads)
{
    // cuBLAS's result, and every result of a file written before the keys existed.
    const std::string text = writtenFile(sim::ResultEntry{});
    EXPECT_EQ(text.find("registers"), std::string::npos) << text;
    EXPECT_EQ(text.find("static_shared_bytes"), std::string::npos) << text;
    const sim::ResultsFile f = sim::parseResultsText(text, "w.json");
    EXPECT_FALSE(f.results[0].registers.has_value());
    EXPECT_FALSE(f.results[0].staticSharedBytes.has_value());
    EXPECT_NEAR(f.results[0].gflops, 42002.0, 1e-9);
    // Bad values of the new key are refused as the others are.
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "static_shared_bytes": -1})"),
                  "results[0].static_shared_bytes must be at least 0; got -1");
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "static_shared_bytes": 8.5})"),
                  "results[0].static_shared_bytes must be a whole number; got the number 8.5");
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "static_shared_bytes": "8 KiB"})"),
                  "results[0].static_shared_bytes must be a whole number; got the string \"8 KiB\"");
}

TEST(ResultsFile, MalformedFilesAreRefusedWithOneSentence)
{
    expectRefused("", "is empty");
    expectRefused(" \n\t ", "is empty");
    expectRefused("{\"device\": ", "is not valid JSON");
    expectRefused("{device: \"GPU\"}", "is not valid JSON");
    expectRefused(readText(kH100).substr(0, 900), "is not valid JSON");
    expectRefused("[1, 2]", "must hold one JSON object");
    expectRefused("\"results\"", "must hold one JSON object");
    expectRefused(R"({"device": "GPU"})", "has no \"results\"");
    expectRefused(R"({"results": [)" + kGood + "]}", "has no \"device\"");
    expectRefused(R"({"device": 7, "results": [)" + kGood + "]}", "device must be a string; got the number 7");
    expectRefused(R"({"device": "", "results": [)" + kGood + "]}", "device is empty");
    expectRefused(R"({"device": "GPU", "results": {}})", "results must be an array");
    expectRefused(R"({"device": "GPU", "results": []})", "results is empty");
    expectRefused(withResult("3"), "results[0] must be an object");
    expectRefused(withResult(kGood + ", null"), "results[1] must be an object (kernel, params, gflops, ...); got null");
    expectRefused(withResult(R"({"params": {}, "gflops": 1})"), "has no \"results[0].kernel\"");
    expectRefused(withResult(R"({"kernel": 5, "params": {}, "gflops": 1})"), "results[0].kernel must be a string");
    expectRefused(withResult(R"({"kernel": "", "params": {}, "gflops": 1})"), "results[0].kernel is empty");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "gflops": 1})"), "has no \"results[0].params\"");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": [16], "gflops": 1})"),
                  "results[0].params must be an object; got an array");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "tile": 2}, "gflops": 1})"),
                  "has no \"results[0].params.l\"");
    expectRefused(withResult(R"({"kernel": "cublas", "params": {}, "gflops": 1})"), "has no \"results[0].params.j\"");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "l": 8, "tile": 0}, "gflops": 1})"),
                  "results[0].params.tile must be at least 1; got 0");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "l": 8, "tile": 2.5}, "gflops": 1})"),
                  "results[0].params.tile must be a whole number; got the number 2.5");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": "8", "k": 8, "l": 8, "tile": 2}, "gflops": 1})"),
                  "results[0].params.j must be a whole number; got the string \"8\"");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "l": 8, "tile": 2}})"),
                  "has no \"results[0].gflops\"");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "l": 8, "tile": 2}, "gflops": -1})"),
                  "results[0].gflops must be a number of at least 0; got -1");
    expectRefused(withResult(R"({"kernel": "matmul-tiled", "params": {"j": 8, "k": 8, "l": 8, "tile": 2}, "gflops": "fast"})"),
                  "results[0].gflops must be a number; got the string \"fast\"");
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "ms_median": 0})"),
                  "results[0].ms_median must be a number above 0; got 0");
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "registers": 0})"),
                  "results[0].registers must be at least 1");
    expectRefused(withResult(kGood.substr(0, kGood.size() - 1) + R"(, "dram_bytes": true})"),
                  "results[0].dram_bytes must be a number; got the boolean true");
    expectRefused(R"({"device": "GPU", "peak_fp32_gflops": 0, "results": [)" + kGood + "]}",
                  "peak_fp32_gflops must be a number above 0; got 0");
    expectRefused(R"({"device": "GPU", "copy_gbytes_per_s": "fast", "results": [)" + kGood + "]}",
                  "copy_gbytes_per_s must be a number");
    expectRefused(R"({"device": "GPU", "driver": 13.0, "results": [)" + kGood + "]}", "driver must be a string");
    expectRefused(std::string(100000, '[') + std::string(100000, ']'), "nests arrays and objects more than 32 deep");
    expectRefused("{\"device\": \"" + std::string(5 << 20, 'x') + "\"}", "is larger than 4 MiB");
    // What a file brings into the message stays on one line.
    expectRefused(R"({"device": "GPU", "results": [{"kernel": "a\nb", "params": [], "gflops": 1}]})", "params must be an object");
}

TEST(ResultsFile, FilesThatCannotBeReadAreRefused)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "tilescope-results-test";
    fs::create_directories(dir);
    auto refused = [](const std::string& path, const std::string& mention) {
        try {
            sim::loadResultsFile(path);
            ADD_FAILURE() << path << " accepted";
        } catch (const sim::ResultsFileError& e) {
            const std::string m = e.what();
            EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
            EXPECT_NE(m.find(mention), std::string::npos) << m;
            EXPECT_EQ(m.back(), '.') << m;
        }
    };
    refused((dir / "missing.json").string(), "cannot be opened");
    refused(dir.string(), "is a folder");
    std::ofstream((dir / "empty.json").string()).close();
    refused((dir / "empty.json").string(), "is empty");
    fs::remove_all(dir);
}

}  // namespace
}  // namespace ts::test
