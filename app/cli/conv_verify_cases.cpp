#include "conv_verify_cases.hpp"

#include <string>

namespace ts::cli {

std::vector<sim::Scenario> convVerifyCases(std::mt19937& rng, bool quick)
{
    std::vector<sim::Scenario> cases;
    auto add = [&](const char* kernel, int tile, int mask, int height, int width) {
        const sim::Scenario s = sim::convScenario(kernel, height, width, tile, mask, {}, rng());
        if (sim::validate(s).empty()) cases.push_back(s);
    };
    const std::vector<int> masks = quick ? std::vector<int>{5, 9} : std::vector<int>{1, 3, 5, 9};
    for (const char* k : {"conv1d-basic", "conv1d-tiled", "conv1d-tiled-cache"})
        for (int t : quick ? std::vector<int>{8, 256} : std::vector<int>{4, 8, 32, 256, 1024})
            for (int mw : masks) {
                add(k, t, mw, 1, 3 * t);           // a multiple of the tile
                add(k, t, mw, 1, 2 * t + 3);       // not a multiple
                if (!quick) {
                    add(k, t, mw, 1, 1);
                    add(k, t, mw, 1, std::uniform_int_distribution<int>(1, 4 * t + 7)(rng));
                }
            }
    for (const char* k : {"conv2d-basic", "conv2d-tiled"})
        for (int t : quick ? std::vector<int>{8, 16} : std::vector<int>{2, 8, 16, 32})
            for (int mw : masks) {
                add(k, t, mw, 2 * t, 3 * t);
                add(k, t, mw, 2 * t + 1, t + 3);
                if (!quick) {
                    add(k, t, mw, 1, 1);
                    std::uniform_int_distribution<int> d(1, 3 * t + 5);
                    add(k, t, mw, d(rng), d(rng));
                }
            }
    return cases;
}

}  // namespace ts::cli
