// The cases verify and the GPU tests run, chosen from the registry alone
// (sim/catalogue/agreement_cases.hpp, issue 39).
#include <gtest/gtest.h>

#include <set>

#include "sim/catalogue/agreement_cases.hpp"

namespace ts::sim {
namespace {

TEST(AgreementCases, EveryRegisteredKernelGetsCasesThatValidate)
{
    std::mt19937 rng(1);
    for (const KernelInfo& k : kernelList()) {
        const std::vector<Scenario> quick = agreementCases(k, rng, true);
        const std::vector<Scenario> full = agreementCases(k, rng, false);
        EXPECT_GE(quick.size(), 2u) << k.name;
        // A one-block sum (PMPP Figs. 10.6 to 10.11) takes exactly two elements per thread of a
        // power-of-two block: no ragged size exists, and the full list adds none.
        const bool oneBlockSum = k.reductionTree && std::string_view(k.grid) == "1";
        // The sequential scan's one thread: every length is a multiple of its block of 1.
        const bool oneThread = k.scan && !k.tiled;
        if (!oneBlockSum) EXPECT_GT(full.size(), quick.size()) << k.name;
        std::set<int> tiles;
        bool ragged = false;
        for (const Scenario& s : full) {
            EXPECT_EQ(s.kernel, k.name);
            EXPECT_EQ(validate(s), "") << k.name << " " << sizeList(s);
            tiles.insert(s.tile);
            for (const ParamLimit& p : k.params)
                if (!p.odd && p.min != p.max && s.value(p.id) % s.tile != 0) ragged = true;
        }
        // Every compiled tile of a tiled kernel is run, and some size is not a multiple of it.
        if (k.tiled) EXPECT_EQ(tiles.size(), k.tiles.size()) << k.name;
        EXPECT_TRUE(ragged || oneBlockSum || oneThread) << k.name;
    }
}

TEST(AgreementCases, ParametersKeepTheirLimits)
{
    std::mt19937 rng(7);
    const KernelInfo* conv1d = findKernel("conv1d-tiled");
    ASSERT_NE(conv1d, nullptr);
    std::set<int> masks;
    for (const Scenario& s : agreementCases(*conv1d, rng, false)) {
        EXPECT_EQ(s.height, 1);
        EXPECT_EQ(s.maskWidth % 2, 1);
        masks.insert(s.maskWidth);
    }
    EXPECT_EQ(masks, (std::set<int>{1, 3, 5, 9}));
    // matmul-naive's block edges run from 2 to its largest, 32.
    std::set<int> edges;
    for (const Scenario& s : agreementCases(*findKernel("matmul-naive"), rng, true)) edges.insert(s.tile);
    EXPECT_EQ(edges, (std::set<int>{2, 4, 8, 16, 32}));
}

TEST(AgreementCases, SameSeedSameCases)
{
    const KernelInfo& k = *findKernel("conv2d-tiled");
    std::mt19937 a(3), b(3);
    const std::vector<Scenario> x = agreementCases(k, a, false), y = agreementCases(k, b, false);
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(sizeList(x[i]), sizeList(y[i]));
        EXPECT_EQ(x[i].seed, y[i].seed);
    }
    EXPECT_EQ(sizeList(x[0]), "height " + std::to_string(x[0].height) + ", width " + std::to_string(x[0].width) +
                                  ", Mask_Width " + std::to_string(x[0].maskWidth));
}

}  // namespace
}  // namespace ts::sim
