#include "sim/catalogue/scenario.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/problem.hpp"

namespace ts::sim {

std::string checkParams(const KernelInfo& k, const Scenario& s)
{
    for (const ParamLimit& p : k.params) {
        const int v = s.value(p.id);
        if (v >= p.min && v <= p.max && (!p.odd || v % 2 != 0)) continue;
        std::ostringstream e;
        e << p.what << " must be ";
        if (p.min == p.max) e << p.min;
        else e << (p.odd ? "odd and " : "") << "between " << p.min << " and " << p.max;
        e << p.why << "; got " << v << ".";
        return e.str();
    }
    return {};
}

std::string checkBlock(const Scenario& s)
{
    const LaunchShape sh = launchShape(s);
    if (s.block.x < sh.grid.x && s.block.y < sh.grid.y && s.block.z < sh.grid.z) return {};
    std::ostringstream e;
    e << "Block (" << s.block.x << ", " << s.block.y << ") is outside the grid of " << sh.grid.x << " x "
      << sh.grid.y << " blocks.";
    return e.str();
}

std::string validate(Scenario& s)
{
    s.info = findKernel(s.kernel);
    return validate(std::as_const(s));
}

std::string validate(const Scenario& s)
{
    std::ostringstream e;
    const KernelInfo* k = s.kernelInfo();
    if (!k) {
        e << "Unknown kernel '" << s.kernel << "'; known kernels are";
        for (const KernelInfo& i : kernelList()) e << " " << i.name;
        e << ".";
        return e.str();
    }
    if (std::string m = checkParams(*k, s); !m.empty()) return m;
    {
        LaunchShape own;
        std::string error;
        if (loadedLaunchShape(s, own, error)) {
            if (!error.empty()) return error;
            const uint64_t threads = uint64_t{own.block.x} * own.block.y * own.block.z;
            if (threads > static_cast<uint64_t>(kMaxThreadsPerBlock)) {
                e << "The launch of " << k->name << " has blocks of " << own.block.x << " x " << own.block.y << " x "
                  << own.block.z << " = " << threads << " threads, more than the " << kMaxThreadsPerBlock
                  << " a block may have.";
                return e.str();
            }
        }
    }
    if (k->family == Family::Array) return validateArray(*k, s);
    if (k->family != Family::Matmul) return validateConv(*k, s);
    if (k->tiled) {
        if (std::find(k->tiles.begin(), k->tiles.end(), s.tile) == k->tiles.end()) {
            if (k->tiles.size() == 1)
                e << "TILE_WIDTH of " << k->name << " is " << k->tiles.front() << " (its file defines it); got "
                  << s.tile << ".";
            else
                e << "TILE_WIDTH must be one of " << tileList(*k, false)
                  << " (the compiled template instances); got " << s.tile << ".";
            return e.str();
        }
    } else if (s.tile < 1 || s.tile > k->maxBlockEdge) {
        e << "The block edge (--tile) must be between 1 and " << k->maxBlockEdge << ", so that a block has at most "
          << k->maxBlockEdge * k->maxBlockEdge << " threads; got " << s.tile << ".";
        return e.str();
    }
    if (k->squareOnly && (s.j != s.k || s.k != s.l)) {
        e << k->name << " takes one size, Width, so M, N and P must be square: j, k and l must be equal; got " << s.j
          << ", " << s.k << " and " << s.l << ".";
        return e.str();
    }
    if (s.dropBarriers & ~k->barriers) {
        e << s.kernel << (k->barriers ? " has no such barrier to drop" : " has no barriers to drop")
          << "; only the tiled kernels' after-load"
          << " and after-compute barriers can be dropped.";
        return e.str();
    }
    return checkBlock(s);
}

Scenario matmulScenario(const std::string& kernel, int j, int k, int l, int tile, Uint3 block, uint64_t seed)
{
    Scenario s;
    s.kernel = kernel;
    s.j = j;
    s.k = k;
    s.l = l;
    s.tile = tile;
    s.block = block;
    s.seed = seed;
    return s;
}

Scenario convScenario(const std::string& kernel, int height, int width, int tile, int maskWidth, Uint3 block,
                      uint64_t seed)
{
    Scenario s;
    s.kernel = kernel;
    s.height = height;
    s.width = width;
    s.tile = tile;
    s.maskWidth = maskWidth;
    s.block = block;
    s.seed = seed;
    return s;
}

Family familyOf(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k ? k->family : Family::Matmul;
}

bool isConvolution(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k && (k->family == Family::Conv1D || k->family == Family::Conv2D);
}

bool gridXOverRows(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k && k->gridXOverRows;
}

LaunchShape launchShape(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    LaunchShape sh;
    // A student's kernel may bring its own launch (validate() reports one that fails).
    if (std::string error; loadedLaunchShape(s, sh, error) && error.empty()) return sh;
    sh = LaunchShape{};
    // An array problem always brings its launch; one that fails is validate()'s sentence.
    if (k && k->family == Family::Array) {
        sh.grid = sh.block = Dim3{1, 1, 1};
        return sh;
    }
    if (k && k->family != Family::Matmul) return convLaunchShape(*k, s);
    const unsigned t = static_cast<unsigned>(std::max(1, s.tile));
    // A block computes (t * blockRowsFactor) x (t * blockColsFactor) elements of P, each
    // thread threadRows x threadCols of them (one, except on the optimisation ladder's rungs).
    const unsigned rowsPerBlock = t * static_cast<unsigned>(k ? k->blockRowsFactor : 1), colsPerBlock = t * static_cast<unsigned>(k ? k->blockColsFactor : 1);
    const unsigned tr = static_cast<unsigned>(k ? k->threadRows : 1), tc = static_cast<unsigned>(k ? k->threadCols : 1);
    sh.block = Dim3{std::max(1u, colsPerBlock / tc), std::max(1u, rowsPerBlock / tr), 1};
    sh.pRows = rowsPerBlock;
    sh.pCols = colsPerBlock;
    const unsigned rowBlocks = (static_cast<unsigned>(s.j) + rowsPerBlock - 1) / rowsPerBlock;
    const unsigned colBlocks = (static_cast<unsigned>(s.l) + colsPerBlock - 1) / colsPerBlock;
    // Grid x runs over the columns of P (PMPP Fig. 3.11), or over its rows where the launch
    // says so (matmul-naive-uncoalesced, whose Row comes from the x axis).
    sh.grid = k && k->gridXOverRows ? Dim3{rowBlocks, colBlocks, 1} : Dim3{colBlocks, rowBlocks, 1};
    return sh;
}

std::vector<float> randomInput(size_t count, uint64_t seed, uint64_t stream, const Progress& progress)
{
    // Reserved, not zeroed: the pages are first touched in the loop, which looks at the
    // cancel flag (zeroing 256 MiB first would take a good part of a second).
    std::vector<float> v;
    v.reserve(count);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull;
    for (size_t i = 0; i < count; ++i) {
        if ((i & 0xFFFFF) == 0 && progress.stopRequested()) throw Cancelled();
        // splitmix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        float u = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
        const float x = 2.0f * u - 1.0f;
        v.push_back(x == 0.0f ? 0.5f : x);   // never an exact zero: zeros hide wrong indexing
    }
    return v;
}

}  // namespace ts::sim
