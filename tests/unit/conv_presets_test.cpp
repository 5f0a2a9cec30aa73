// The convolution lecture presets (assets/scenarios/conv*.toml): they load, show the
// lecture's figures for their block (docs/references.md), narrate every step, and
// convolution keys survive a save and load.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "conv_test_support.hpp"
#include "sim/teaching/narration.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::test {
namespace {

struct Expected {
    const char* name;
    uint64_t blockLoads, untiled;
};

TEST(ConvPresets, SeedFiguresAndOneNarrationLinePerStep)
{
    for (const Expected& x : {Expected{"conv1d-tiled-tile8-mask5", 12, 40}, Expected{"conv1d-tiled-ghost-block0", 10, 37},
                              Expected{"conv1d-tiled-cache-tile8-mask5", 14, 40},
                              Expected{"conv2d-tiled-tile8-mask5", 144, 1600}}) {
        SCOPED_TRACE(x.name);
        const sim::Preset p = sim::findPreset(x.name);
        const sim::Simulation r = runConv(p.scenario);
        EXPECT_EQ(blockTotals(r, p.scenario.block).global_loads, x.blockLoads);
        EXPECT_EQ(sim::untiledGlobalLoads(p.scenario, p.scenario.block), x.untiled);
        EXPECT_EQ(sim::placeNarration(p, r.trace).problems, std::vector<std::string>{});
    }
}

TEST(ConvPresets, ConvolutionKeysRoundTrip)
{
    sim::Preset p;
    p.name = "conv";
    p.title = "2D convolution";
    p.scenario = conv2d("conv2d-tiled", 13, 29, 8, 7, {1, 1, 0});
    const std::string path = (std::filesystem::temp_directory_path() / "tilescope_conv_roundtrip.toml").string();
    sim::saveScenarioFile(p, path);
    const sim::Preset q = sim::loadScenarioFile(path);
    std::filesystem::remove(path);
    EXPECT_EQ(q.scenario.kernel, "conv2d-tiled");
    EXPECT_EQ(q.scenario.height, 13);
    EXPECT_EQ(q.scenario.width, 29);
    EXPECT_EQ(q.scenario.maskWidth, 7);
    EXPECT_EQ(q.scenario.tile, 8);
}

TEST(ConvPresets, BadConvolutionKeysNameTheLine)
{
    const std::string path = (std::filesystem::temp_directory_path() / "tilescope_conv_bad.toml").string();
    auto refusal = [&](const std::string& text) {
        {
            std::ofstream(path) << text;
        }
        try {
            sim::loadScenarioFile(path);
        } catch (const sim::ScenarioFileError& e) {
            std::filesystem::remove(path);
            return std::string(e.what());
        }
        std::filesystem::remove(path);
        return std::string("accepted");
    };
    EXPECT_NE(refusal("kernel = \"conv1d-tiled\"\nwidth = 64\nmask_width = 4\ntile = 8\n").find("line 3: Mask_Width must be odd"),
              std::string::npos);
    EXPECT_NE(refusal("kernel = \"matmul-tiled\"\nwidth = 4\nmask_width = 5\ntile = 2\n").find("line 3: mask_width applies to the convolution kernels only."),
              std::string::npos);
    EXPECT_NE(refusal("kernel = \"conv2d-tiled\"\nwidth = 64\nheight = 64\nmask_width = 5\ntile = 32\n").find("line 5: conv2d-tiled with TILE_SIZE 32"),
              std::string::npos);
}

}  // namespace
}  // namespace ts::test
