#include "scenario.hpp"

#include <algorithm>
#include <sstream>

#include "kernels/context.cuh"
#include "problem.hpp"

namespace ts::sim {

const std::vector<KernelInfo>& kernelList()
{
    static const std::vector<KernelInfo> list = {
        {"matmul-naive", Family::Matmul, false, "matmul-naive", "matmul_naive.cuh", 0,
         "one thread per P element, every operand from global memory (PMPP Fig. 4.3)"},
        {"matmul-tiled", Family::Matmul, true, "matmul-naive", "matmul_tiled.cuh", 2,
         "Mds/Nds tiles, phases, two barriers, boundary checks with zero fill (PMPP Fig. 5.9, 5.13)",
         kernels::AFTER_LOAD | kernels::AFTER_COMPUTE},
        {"conv1d-basic", Family::Conv1D, false, "conv1d-basic", "conv1d_basic.cuh", 0,
         "one thread per output, ghost elements skipped, mask in constant memory (PMPP Fig. 7.4, seed 002)"},
        {"conv1d-tiled", Family::Conv1D, true, "conv1d-basic", "conv1d_tiled.cuh", 0,
         "N_ds with left and right halo loaded by edge threads, ghost elements 0 (PMPP Fig. 7.11, seed 002)",
         kernels::AFTER_LOAD},
        {"conv1d-tiled-cache", Family::Conv1D, true, "conv1d-basic", "conv1d_tiled_cache.cuh", 0,
         "only the internal tile in N_ds, halo read from global memory (PMPP Fig. 7.13, seed 002)",
         kernels::AFTER_LOAD},
        {"conv2d-basic", Family::Conv2D, false, "conv2d-basic", "conv2d_basic.cuh", 0,
         "one thread per output, ghost cells skipped, mask in constant memory (seed 002)"},
        {"conv2d-tiled", Family::Conv2D, true, "conv2d-basic", "conv2d_tiled.cuh", 0,
         "block = input tile (TILE_SIZE + Mask_Width - 1)^2, ghost cells 0, mask in constant memory (PMPP Fig. 7.15, seed 002)",
         kernels::AFTER_LOAD},
    };
    return list;
}

const KernelInfo* findKernel(const std::string& name)
{
    for (const KernelInfo& k : kernelList())
        if (name == k.name) return &k;
    return nullptr;
}

std::string validate(const Scenario& s)
{
    std::ostringstream e;
    const KernelInfo* k = findKernel(s.kernel);
    if (!k) {
        e << "Unknown kernel '" << s.kernel << "'; known kernels are";
        for (const KernelInfo& i : kernelList()) e << " " << i.name;
        e << ".";
        return e.str();
    }
    if (k->family != Family::Matmul) return validateConv(s);
    auto edge = [&](const char* what, int v) -> std::string {
        if (v < 1 || v > kMaxEdge) {
            std::ostringstream m;
            m << what << " must be between 1 and " << kMaxEdge << "; got " << v << ".";
            return m.str();
        }
        return {};
    };
    for (auto [what, v] : {std::pair{"j (rows of M and P)", s.j}, std::pair{"k (columns of M, rows of N)", s.k},
                           std::pair{"l (columns of N and P)", s.l}})
        if (std::string m = edge(what, v); !m.empty()) return m;
    if (k->tiled) {
        if (std::find(std::begin(kTileWidths), std::end(kTileWidths), s.tile) == std::end(kTileWidths)) {
            e << "TILE_WIDTH must be one of 2, 4, 8, 16, 32 (the compiled template instances); got "
              << s.tile << ".";
            return e.str();
        }
    } else if (s.tile < 1 || s.tile > 32) {
        e << "The block edge (--tile) must be between 1 and 32, so that a block has at most "
             "1024 threads; got " << s.tile << ".";
        return e.str();
    }
    if (s.dropBarriers & ~k->barriers) {
        e << s.kernel << (k->barriers ? " has no such barrier to drop" : " has no barriers to drop")
          << "; only the tiled kernels' after-load"
          << " and after-compute barriers can be dropped.";
        return e.str();
    }
    LaunchShape sh = launchShape(s);
    if (s.block.x >= sh.grid.x || s.block.y >= sh.grid.y || s.block.z >= sh.grid.z) {
        e << "Block (" << s.block.x << ", " << s.block.y << ") is outside the grid of "
          << sh.grid.x << " x " << sh.grid.y << " blocks.";
        return e.str();
    }
    return {};
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
    const KernelInfo* k = findKernel(s.kernel);
    return k ? k->family : Family::Matmul;
}

LaunchShape launchShape(const Scenario& s)
{
    if (familyOf(s) != Family::Matmul) return convLaunchShape(s);
    LaunchShape sh;
    const unsigned t = static_cast<unsigned>(std::max(1, s.tile));
    sh.block = Dim3{t, t, 1};
    sh.grid = Dim3{(static_cast<unsigned>(s.l) + t - 1) / t, (static_cast<unsigned>(s.j) + t - 1) / t, 1};
    return sh;
}

std::vector<float> randomInput(size_t count, uint64_t seed, uint64_t stream)
{
    std::vector<float> v(count);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull;
    for (size_t i = 0; i < count; ++i) {
        // splitmix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        float u = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
        v[i] = 2.0f * u - 1.0f;
        if (v[i] == 0.0f) v[i] = 0.5f;  // never an exact zero: zeros hide wrong indexing
    }
    return v;
}

}  // namespace ts::sim
