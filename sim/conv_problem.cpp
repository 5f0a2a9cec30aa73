// The convolution family's part of a simulation (seed 002, "Convolution" to "Bandwidth
// Reduction in 2D"): inputs, shapes, launch shape and limits, the kernels bound to the
// simulator with the mask in constant memory, the basic kernel's load count, and the CPU
// references.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <utility>

#include "kernels/conv1d_basic.cuh"
#include "kernels/conv1d_tiled.cuh"
#include "kernels/conv1d_tiled_cache.cuh"
#include "kernels/conv2d_basic.cuh"
#include "kernels/conv2d_tiled.cuh"
#include "problem.hpp"

namespace ts::sim {
namespace {

using kernels::MAX_MASK_WIDTH;

bool is2d(const Scenario& s) { return familyOf(s) == Family::Conv2D; }

/// The body `make(std::integral_constant<int, T>{})` for the compiled TILE_SIZE T equal
/// to `tile` (one of `Tiles`); empty if there is none.
template <const auto& Tiles, class F, size_t... I>
Body pickTile(int tile, F make, std::index_sequence<I...>)
{
    Body body;
    ((tile == Tiles[I] && (body = make(std::integral_constant<int, Tiles[I]>{}), true)) || ...);
    return body;
}
template <const auto& Tiles, class F>
Body forTile(int tile, F make)
{
    return pickTile<Tiles>(tile, make, std::make_index_sequence<std::size(Tiles)>{});
}

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

template <size_t K>
std::string list(const int (&values)[K])
{
    std::ostringstream o;
    for (size_t i = 0; i < K; ++i) o << (i == 0 ? "" : i + 1 == K ? " or " : ", ") << values[i];
    return o.str();
}

}  // namespace

std::string validateConv(const Scenario& s)
{
    std::ostringstream e;
    const KernelInfo* k = findKernel(s.kernel);
    const bool twoD = is2d(s);
    const int maxWidth = twoD ? kMaxEdge : kMaxConvWidth1D;
    if (twoD && (s.height < 1 || s.height > kMaxEdge)) {
        e << "The height of N must be between 1 and " << kMaxEdge << "; got " << s.height << ".";
        return e.str();
    }
    if (!twoD && s.height != 1) {
        e << s.kernel << " convolves one row (N has width elements), so its height must be 1; got "
          << s.height << ".";
        return e.str();
    }
    if (s.width < 1 || s.width > maxWidth) {
        e << "The width of N must be between 1 and " << maxWidth << "; got " << s.width << ".";
        return e.str();
    }
    if (s.maskWidth < 1 || s.maskWidth > MAX_MASK_WIDTH || s.maskWidth % 2 == 0) {
        e << "Mask_Width must be odd and between 1 and " << MAX_MASK_WIDTH
          << " (MAX_MASK_WIDTH), so that the halo is Mask_Width/2 on each side; got " << s.maskWidth << ".";
        return e.str();
    }
    if (!k->tiled) {
        const int most = twoD ? 32 : kMaxThreadsPerBlock;
        if (s.tile < 1 || s.tile > most) {
            e << "The block " << (twoD ? "edge" : "size") << " (--tile) of " << s.kernel
              << " must be between 1 and " << most << ", so that a block has at most "
              << kMaxThreadsPerBlock << " threads; got " << s.tile << ".";
            return e.str();
        }
    } else if (twoD) {
        const long long side = 1ll * s.tile + s.maskWidth - 1;
        if (s.tile >= 1 && side * side > kMaxThreadsPerBlock) {
            e << s.kernel << " with TILE_SIZE " << s.tile << " and Mask_Width " << s.maskWidth
              << " needs a block of (" << s.tile << " + " << s.maskWidth << " - 1)^2 = " << side * side
              << " threads, more than the " << kMaxThreadsPerBlock << " threads a block may have.";
            return e.str();
        }
        if (std::find(std::begin(kConv2DTileSizes), std::end(kConv2DTileSizes), s.tile) ==
            std::end(kConv2DTileSizes)) {
            e << "TILE_SIZE of " << s.kernel << " must be " << list(kConv2DTileSizes)
              << " (the compiled template instances); got " << s.tile << ".";
            return e.str();
        }
    } else {
        if (std::find(std::begin(kConv1DTileSizes), std::end(kConv1DTileSizes), s.tile) ==
            std::end(kConv1DTileSizes)) {
            e << "TILE_SIZE of " << s.kernel << " must be " << list(kConv1DTileSizes)
              << " (the compiled template instances); got " << s.tile << ".";
            return e.str();
        }
        if (s.kernel == "conv1d-tiled" && s.tile < s.maskWidth / 2) {
            e << "conv1d-tiled loads each halo with Mask_Width/2 threads, so TILE_SIZE must be at least "
              << s.maskWidth / 2 << " for Mask_Width " << s.maskWidth << "; got " << s.tile << ".";
            return e.str();
        }
    }
    if (s.dropBarriers & ~k->barriers) {
        e << s.kernel << (k->barriers ? " has no such barrier to drop; only its after-load barrier can be dropped."
                                      : " has no barriers to drop.");
        return e.str();
    }
    const LaunchShape sh = convLaunchShape(s);
    if (s.block.x >= sh.grid.x || s.block.y >= sh.grid.y || s.block.z >= sh.grid.z) {
        e << "Block (" << s.block.x << ", " << s.block.y << ") is outside the grid of " << sh.grid.x
          << " x " << sh.grid.y << " blocks.";
        return e.str();
    }
    return {};
}

LaunchShape convLaunchShape(const Scenario& s)
{
    LaunchShape sh;
    const unsigned t = static_cast<unsigned>(std::max(1, s.tile));
    const unsigned gx = (static_cast<unsigned>(std::max(1, s.width)) + t - 1) / t;
    if (!is2d(s)) {
        sh.block = Dim3{t, 1, 1};
        sh.grid = Dim3{gx, 1, 1};
        return sh;
    }
    const unsigned gy = (static_cast<unsigned>(std::max(1, s.height)) + t - 1) / t;
    const unsigned edge = s.kernel == "conv2d-tiled" ? t + static_cast<unsigned>(std::max(1, s.maskWidth)) - 1 : t;
    sh.block = Dim3{edge, edge, 1};
    sh.grid = Dim3{gx, gy, 1};
    return sh;
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
                                      int width, int maskWidth)
{
    std::vector<float> P(static_cast<size_t>(width));
    const int n = maskWidth / 2;
    for (int i = 0; i < width; ++i) {
        float acc = 0.0f;
        for (int j = 0; j < maskWidth; ++j)
            if (i - n + j >= 0 && i - n + j < width) acc = std::fmaf(N[i - n + j], M[j], acc);
        P[i] = acc;
    }
    return P;
}

std::vector<float> conv2dReferenceFma(const std::vector<float>& N, const std::vector<float>& M,
                                      int height, int width, int maskWidth)
{
    std::vector<float> P(static_cast<size_t>(height) * width);
    const int n = maskWidth / 2;
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c) {
            float acc = 0.0f;
            for (int i = 0; i < maskWidth; ++i)
                for (int j = 0; j < maskWidth; ++j) {
                    const int row = r - n + i, col = c - n + j;
                    if (row >= 0 && row < height && col >= 0 && col < width)
                        acc = std::fmaf(M[static_cast<size_t>(i) * maskWidth + j],
                                        N[static_cast<size_t>(row) * width + col], acc);
                }
            P[static_cast<size_t>(r) * width + c] = acc;
        }
    return P;
}

Problem convProblem(const Scenario& s)
{
    Problem p;
    const int rows = is2d(s) ? s.height : 1;
    const int maskRows = is2d(s) ? s.maskWidth : 1;
    p.M = ArrayInfo{"M", Space::Constant, maskRows, s.maskWidth};
    p.N = ArrayInfo{"N", Space::Global, rows, s.width};
    p.P = ArrayInfo{"P", Space::Global, rows, s.width};
    p.inM = randomInput(static_cast<size_t>(maskRows) * s.maskWidth, s.seed, 1);
    p.inN = randomInput(static_cast<size_t>(rows) * s.width, s.seed, 2);
    p.reference = is2d(s) ? conv2dReferenceFma(p.inN, p.inM, s.height, s.width, s.maskWidth)
                          : conv1dReferenceFma(p.inN, p.inM, s.width, s.maskWidth);
    p.bind = [s, maskRows](Machine& m, GlobalPtr<const float>, GlobalPtr<const float> N,
                           GlobalPtr<float> P, const std::vector<float>& inM) -> Body {
        // The mask goes to constant memory (cudaMemcpyToSymbol on the GPU).
        m.constant = ConstantMemory{inM.data(), maskRows, s.maskWidth,
                                    m.arrayId("M", Space::Constant, maskRows, s.maskWidth)};
        const int mw = s.maskWidth, w = s.width, h = s.height;
        if (s.kernel == "conv1d-basic")
            return [=](ThreadContext& x) { kernels::conv1dBasic(x, N, P, mw, w); };
        if (s.kernel == "conv1d-tiled")
            return forTile<kConv1DTileSizes>(s.tile, [=](auto T) -> Body {
                return [=](ThreadContext& x) { kernels::conv1dTiled<decltype(T)::value>(x, N, P, mw, w); };
            });
        if (s.kernel == "conv1d-tiled-cache")
            return forTile<kConv1DTileSizes>(s.tile, [=](auto T) -> Body {
                return [=](ThreadContext& x) { kernels::conv1dTiledCache<decltype(T)::value>(x, N, P, mw, w); };
            });
        if (s.kernel == "conv2d-basic")
            return [=](ThreadContext& x) { kernels::conv2dBasic(x, N, P, mw, h, w); };
        return forTile<kConv2DTileSizes>(s.tile, [=](auto T) -> Body {
            return [=](ThreadContext& x) { kernels::conv2dTiled<decltype(T)::value>(x, N, P, mw, h, w); };
        });
    };
    return p;
}

}  // namespace ts::sim
