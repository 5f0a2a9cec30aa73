#include "sim/catalogue/agreement_cases.hpp"

#include <algorithm>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::sim {
namespace {

/// Sets the size parameter `p` of `s`.
void setValue(Scenario& s, ParamId p, int v)
{
    switch (p) {
    case ParamId::J: s.j = v; break;
    case ParamId::K: s.k = v; break;
    case ParamId::L: s.l = v; break;
    case ParamId::Height: s.height = v; break;
    case ParamId::Width: s.width = v; break;
    case ParamId::MaskWidth: s.maskWidth = v; break;
    }
}

/// How a parameter's name reads in a case's line.
const char* paramName(ParamId p)
{
    switch (p) {
    case ParamId::J: return "j";
    case ParamId::K: return "k";
    case ParamId::L: return "l";
    case ParamId::Height: return "height";
    case ParamId::Width: return "width";
    case ParamId::MaskWidth: return "Mask_Width";
    }
    return "?";
}

}  // namespace

std::vector<Scenario> agreementCases(const KernelInfo& k, std::mt19937& rng, bool quick)
{
    std::vector<int> tiles(k.tiles.begin(), k.tiles.end());
    if (!k.tiled)
        for (int e = 2; e <= k.maxBlockEdge; e *= 2) tiles.push_back(e);
    // The sequential scan's one thread.
    if (!k.tiled && k.maxBlockEdge == 1) tiles.push_back(1);
    // The odd-only parameter (a mask's width) is a loop of its own; the others are sizes.
    std::vector<int> odd = {0};
    for (const ParamLimit& p : k.params)
        if (p.odd) {
            odd.clear();
            for (int v : quick ? std::vector<int>{5, 9} : std::vector<int>{1, 3, 5, 9})
                if (v >= p.min && v <= p.max) odd.push_back(v);
        }
    std::vector<Scenario> cases;
    for (int t : tiles)
        for (int mask : odd) {
            // Each pattern gives the i-th size parameter a value from the tile: all multiples
            // of it, none a multiple, all 1, or drawn at random.
            auto add = [&](auto sizeOf) {
                Scenario s;
                s.kernel = k.name;
                s.tile = t;
                s.block = {0, 0, 0};
                int i = 0;
                for (const ParamLimit& p : k.params) {
                    if (p.odd) setValue(s, p.id, mask);
                    else if (p.min == p.max) setValue(s, p.id, p.min);
                    else setValue(s, p.id, std::min(p.max, sizeOf(i++)));
                }
                s.seed = rng();
                if (validate(s).empty()) cases.push_back(s);
            };
            if (k.scan && k.tiled && k.scanElementsPerThread == 0) {
                // PMPP sec. 11.7's single-pass scan and sec. 11.6's hierarchical scan, of many
                // blocks: a block and one more, 1, a ragged length of a few blocks and one drawn
                // up to 10^5 (the hierarchical scan: up to its BLOCK_DIM x BLOCK_DIM, which it
                // also gets whole); at 1024 threads a block, also a million elements (977
                // blocks handing on their sums, or 977 sums scanned by the second launch).
                add([&](int) { return t + 1; });
                add([](int) { return 1; });
                if (!quick) {
                    add([&](int) { return 3 * t + 5; });
                    const int longest = k.sectionSumsInOneBlock ? std::min(100000, t * t) : 100000;
                    std::uniform_int_distribution<int> d(1, longest);
                    add([&](int) { return d(rng); });
                    if (k.sectionSumsInOneBlock && t * t <= 100000) add([&](int) { return t * t; });
                    if (t == 1024) add([](int) { return 1000000; });
                }
                continue;
            }
            if (k.scan) {
                // PMPP ch. 11's scans: one section (of the block's elements), one short of it,
                // 1, and lengths drawn within it; the sequential scan's one thread any length.
                const int section = k.scanElementsPerThread > 0 ? k.scanElementsPerThread * t : 1000;
                add([&](int) { return section; });
                add([&](int) { return std::max(1, section - (section > 3 ? 3 : 0) - 1); });
                if (!quick) {
                    add([](int) { return 1; });
                    std::uniform_int_distribution<int> d(1, k.scanElementsPerThread > 0 ? section : 100000);
                    add([&](int) { return d(rng); });
                    add([&](int) { return d(rng); });
                }
                continue;
            }
            const int multiples[] = {2, 3, 1}, offsets[] = {1, 3, -1};
            add([&](int i) { return multiples[i % 3] * t; });
            add([&](int i) { return std::max(1, multiples[(i + 1) % 3] * t + offsets[i % 3]); });
            if (!quick) {
                add([](int) { return 1; });
                std::uniform_int_distribution<int> d(1, 3 * t + 5);
                add([&](int) { return d(rng); });
                add([&](int) { return d(rng); });
            }
        }
    return cases;
}

std::string sizeList(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    if (!k) return "";
    std::ostringstream o;
    const char* sep = "";
    // A described problem's sizes under its own names ("N 27").
    if (const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel)) {
        const Variables v = spec->sizeValues(s);
        for (const std::string& name : spec->sizes) {
            o << sep << name << " " << v.at(name);
            sep = ", ";
        }
        return o.str();
    }
    for (const ParamLimit& p : k->params) {
        o << sep << paramName(p.id) << " " << s.value(p.id);
        sep = ", ";
    }
    return o.str();
}

}  // namespace ts::sim
