// The convolution family's part of a simulation (PMPP ch. 7, from the basic kernels to the
// bandwidth-reduction tables): inputs, shapes, launch shape and limits, the kernels bound
// to the simulator with the mask in constant memory, the basic kernel's load count, and the
// CPU references.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <utility>

#include "sim/engine/fma.hpp"
#include "sim/engine/problem.hpp"

namespace ts::sim {
namespace {


bool is2d(const Scenario& s) { return familyOf(s) == Family::Conv2D; }

/// Outputs of a dimension of `size` elements whose window (Mask_Width wide, centred) lies
/// inside it, summed over outputs [first, first + count): the basic kernel's loads along
/// that dimension.
uint64_t windowLoads(long long first, long long count, int size, int maskWidth)
{
    const long long n = maskWidth / 2;
    uint64_t sum = 0;
    for (long long i = first; i < std::min<long long>(first + count, size); ++i)
        sum += static_cast<uint64_t>(std::min<long long>(size - 1, i + n) - std::max(0ll, i - n) + 1);
    return sum;
}

}  // namespace

std::string validateConv(const KernelInfo& k, const Scenario& s)
{
    std::ostringstream e;
    const bool twoD = k.family == Family::Conv2D;
    if (!k.tiled) {
        if (s.tile < 1 || s.tile > k.maxBlockEdge) {
            e << "The block " << (twoD ? "edge" : "size") << " (--tile) of " << s.kernel << " must be between 1 and "
              << k.maxBlockEdge << ", so that a block has at most " << kMaxThreadsPerBlock << " threads; got "
              << s.tile << ".";
            return e.str();
        }
    } else {
        const long long side = k.blockIsInputTile ? 1ll * s.tile + s.maskWidth - 1 : s.tile;
        const long long threads = twoD ? side * side : side;
        if (s.tile >= 1 && k.blockIsInputTile && threads > kMaxThreadsPerBlock) {
            e << s.kernel << " with TILE_SIZE " << s.tile << " and Mask_Width " << s.maskWidth
              << " needs a block of (" << s.tile << " + " << s.maskWidth << " - 1)^2 = " << threads
              << " threads, more than the " << kMaxThreadsPerBlock << " threads a block may have.";
            return e.str();
        }
        if (std::find(k.tiles.begin(), k.tiles.end(), s.tile) == k.tiles.end()) {
            e << "TILE_SIZE of " << s.kernel << " must be " << tileList(k)
              << " (the compiled template instances); got " << s.tile << ".";
            return e.str();
        }
        if (k.haloByEdgeThreads && s.tile < s.maskWidth / 2) {
            e << s.kernel << " loads each halo with Mask_Width/2 threads, so TILE_SIZE must be at least "
              << s.maskWidth / 2 << " for Mask_Width " << s.maskWidth << "; got " << s.tile << ".";
            return e.str();
        }
    }
    if (s.dropBarriers & ~k.barriers) {
        e << s.kernel << (k.barriers ? " has no such barrier to drop; only its after-load barrier can be dropped."
                                     : " has no barriers to drop.");
        return e.str();
    }
    return checkBlock(s);
}

uint64_t convUntiledGlobalLoads(const Scenario& s)
{
    const uint64_t cols = windowLoads(0, s.width, s.width, s.maskWidth);
    return is2d(s) ? cols * windowLoads(0, s.height, s.height, s.maskWidth) : cols;
}

uint64_t convUntiledGlobalLoads(const Scenario& s, const Uint3& b)
{
    const uint64_t cols = windowLoads(1ll * b.x * s.tile, s.tile, s.width, s.maskWidth);
    return is2d(s) ? cols * windowLoads(1ll * b.y * s.tile, s.tile, s.height, s.maskWidth) : cols;
}

std::vector<float> conv1dReferenceFma(const std::vector<float>& N, const std::vector<float>& M,
                                      int width, int maskWidth, const Progress& progress)
{
    std::vector<float> P(static_cast<size_t>(width));
    const int n = maskWidth / 2;
    for (int i = 0; i < width; ++i) {
        if ((i & 0xFFFF) == 0) progress.at(static_cast<double>(i) / width);
        float acc = 0.0f;
        for (int j = 0; j < maskWidth; ++j)
            if (i - n + j >= 0 && i - n + j < width) acc = fusedMultiplyAdd(N[i - n + j], M[j], acc);
        P[i] = acc;
    }
    return P;
}

std::vector<float> conv2dReferenceFma(const std::vector<float>& N, const std::vector<float>& M,
                                      int height, int width, int maskWidth, const Progress& progress)
{
    std::vector<float> P(static_cast<size_t>(height) * width);
    const int n = maskWidth / 2;
    for (int r = 0; r < height; ++r) {
        progress.at(static_cast<double>(r) / height);
        for (int c = 0; c < width; ++c) {
            float acc = 0.0f;
            for (int i = 0; i < maskWidth; ++i)
                for (int j = 0; j < maskWidth; ++j) {
                    const int row = r - n + i, col = c - n + j;
                    if (row >= 0 && row < height && col >= 0 && col < width)
                        acc = fusedMultiplyAdd(M[static_cast<size_t>(i) * maskWidth + j],
                                        N[static_cast<size_t>(row) * width + col], acc);
                }
            P[static_cast<size_t>(r) * width + c] = acc;
        }
    }
    return P;
}

Problem convProblem(const Scenario& s, const Progress& progress)
{
    Problem p;
    const int rows = is2d(s) ? s.height : 1;
    const int maskRows = is2d(s) ? s.maskWidth : 1;
    p.M = ArrayInfo{"M", Space::Constant, maskRows, s.maskWidth};
    p.N = ArrayInfo{"N", Space::Global, rows, s.width};
    p.P = ArrayInfo{"P", Space::Global, rows, s.width};
    p.inM = randomInput(static_cast<size_t>(maskRows) * s.maskWidth, s.seed, 1);
    p.inN = randomInput(static_cast<size_t>(rows) * s.width, s.seed, 2, progress);
    p.reference = is2d(s) ? conv2dReferenceFma(p.inN, p.inM, s.height, s.width, s.maskWidth, progress)
                          : conv1dReferenceFma(p.inN, p.inM, s.width, s.maskWidth, progress);
    p.bind = [s, maskRows](Machine& m, GlobalPtr<const float>, GlobalPtr<const float> N,
                           GlobalPtr<float> P, const std::vector<float>& inM,
                           const std::vector<GlobalPtr<float>>&, int) -> Body {
        // The mask goes to constant memory (cudaMemcpyToSymbol on the GPU).
        m.constant = ConstantMemory{inM.data(), maskRows, s.maskWidth,
                                    m.arrayId("M", Space::Constant, maskRows, s.maskWidth)};
        return bindKernel(s, ConvArgs<ThreadContext>{N, P, s.maskWidth, s.height, s.width});
    };
    return p;
}

}  // namespace ts::sim
