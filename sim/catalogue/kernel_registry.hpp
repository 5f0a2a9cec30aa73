// The kernel registry: every kernel of kernels/*.cuh, once. An entry is a small struct with
// the kernel's description (KernelInfo: name, family, source file, parameters and their
// limits, compiled tile sizes, untiled counterpart, barriers, lecture source), the argument
// type of its family, and `run<T>(x, args)`, which calls the kernel body with the execution
// context X. Scenario validation, the simulator's dispatch (sim/engine/*_problem.cpp), the GPU
// dispatch (gpu/registry_launch.cuh), list-kernels, the app's kernel list and the code view
// all take what they need from here. Compiled by the host compiler and by nvcc alike.
//
// Adding a kernel: its kernels/NAME.cuh, one entry struct below, its name in Kernels, tests.
// A kernel of a new pattern over float arrays is a described problem (Family::Array): its
// entry's Args are ArrayProblemArgs and its KernelInfo states the arrays, sizes and reference
// formula (docs/design.md, "Adding a kernel"); nothing else in the simulator or the GPU code.
#pragma once
#include <array>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sim/catalogue/compiled_notes.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "kernels/context.cuh"
#include "kernels/conv1d_basic.cuh"
#include "kernels/conv1d_tiled.cuh"
#include "kernels/conv1d_tiled_cache.cuh"
#include "kernels/conv2d_basic.cuh"
#include "kernels/conv2d_tiled.cuh"
#include "kernels/histogram_aggregated.cuh"
#include "kernels/histogram_basic.cuh"
#include "kernels/histogram_coarsened_contiguous.cuh"
#include "kernels/histogram_coarsened_interleaved.cuh"
#include "kernels/histogram_private_global.cuh"
#include "kernels/histogram_private_shared.cuh"
#include "kernels/matmul_naive.cuh"
#include "kernels/matmul_naive_uncoalesced.cuh"
#include "kernels/matmul_tiled.cuh"
#include "kernels/matmul_tiled_nds_padded.cuh"
#include "kernels/matmul_tiled_nds_transposed.cuh"
#include "kernels/matmul_corner_turning.cuh"
#include "kernels/matmul_coarsened.cuh"
#include "kernels/matmul_regtile_1d.cuh"
#include "kernels/matmul_regtile_2d.cuh"
#include "kernels/matmul_vectorized.cuh"
#include "kernels/matmul_double_buffered.cuh"
#include "kernels/matmul_conflict_free.cuh"
#include "kernels/matmul_warptiled.cuh"
#include "kernels/reduction_coarsened.cuh"
#include "kernels/reduction_convergent.cuh"
#include "kernels/reduction_segmented.cuh"
#include "kernels/reduction_shared.cuh"
#include "kernels/reduction_shuffle.cuh"
#include "kernels/reduction_simple.cuh"
#include "kernels/scan_brent_kung.cuh"
#include "kernels/scan_coarsened.cuh"
#include "kernels/scan_kogge_stone.cuh"
#include "kernels/scan_kogge_stone_double_buffer.cuh"
#include "kernels/scan_kogge_stone_exclusive.cuh"
#include "kernels/scan_sequential.cuh"
#include "kernels/scan_single_pass.cuh"
#include "kernels/scan_hierarchical.cuh"
#include "kernels/stencil_basic.cuh"

namespace ts::sim {

/// The compiled template instances of a tiled kernel's TILE_WIDTH / TILE_SIZE; Tiles<> for
/// a kernel whose block edge is a run-time value.
template <int... T>
struct Tiles {
    static constexpr std::array<int, sizeof...(T)> values{T...};
};

/// TILE_WIDTH values compiled as template instances of matmul-tiled (and of its Nds
/// variants matmul-tiled-nds-transposed, matmul-tiled-nds-padded and matmul-corner-turning).
using MatmulTiles = Tiles<2, 4, 8, 16, 32>;
/// TILE_SIZE values compiled as template instances of conv1d-tiled and conv1d-tiled-cache.
using Conv1DTiles = Tiles<2, 4, 8, 16, 32, 64, 128, 256, 512, 1024>;
/// TILE_SIZE values compiled as template instances of conv2d-tiled (output tile per side).
using Conv2DTiles = Tiles<2, 4, 8, 16, 32>;
inline constexpr const auto& kTileWidths = MatmulTiles::values;

/// Largest matrix edge, and largest 2D convolution edge, the simulator accepts.
inline constexpr int kMaxEdge = 8192;
/// Most elements of a 1D convolution's N (2^24, the size the GPU timings of the lessons use).
inline constexpr int kMaxConvWidth1D = 1 << 24;
/// Most threads in one block (every CUDA GPU since compute capability 2.0).
inline constexpr int kMaxThreadsPerBlock = 1024;

/// Arguments of a matrix multiplication kernel with context X: M (j x k) times N (k x l)
/// gives P (j x l), row-major in global memory; N column-major for a kernel whose
/// KernelInfo::nColumnMajor is set.
template <class X>
struct MatmulArgs {
    typename X::template GlobalPtr<const float> M, N;
    typename X::template GlobalPtr<float> P;
    int j, k, l;
};

/// Arguments of a convolution kernel with context X: N and P of height x width elements
/// (height 1 in 1D), row-major; the mask of Mask_Width (squared in 2D) is in constant memory.
template <class X>
struct ConvArgs {
    typename X::template GlobalPtr<const float> N;
    typename X::template GlobalPtr<float> P;
    int maskWidth, height, width;
};

/// Arguments of an array problem's kernel with context X (Family::Array,
/// sim/catalogue/array_spec.hpp): its first and second input in the description's order
/// (the second empty when it has one), its output, and its sizes in the order the
/// description names them. The kernel file's function takes them in that order.
template <class X>
struct ArrayProblemArgs {
    typename X::template GlobalPtr<const float> in[2];
    typename X::template GlobalPtr<float> out;
    int size[2];
    /// The row's scratch arrays (ArrayDecl::scratch) in `arrays`' order, as float: a kernel
    /// takes them as the types they declare (X::elementsAs).
    typename X::template GlobalPtr<float> tmp[3];
    /// Which of the row's launches this is (KernelInfo::laterGrids): 0 for the first.
    int launch = 0;
};

namespace registry {

inline constexpr ParamLimit kMatmulParams[] = {
    {ParamId::J, "j (rows of M and P)", 1, kMaxEdge},
    {ParamId::K, "k (columns of M, rows of N)", 1, kMaxEdge},
    {ParamId::L, "l (columns of N and P)", 1, kMaxEdge},
};
inline constexpr ParamLimit kMaskWidth = {
    ParamId::MaskWidth, "Mask_Width", 1, kernels::MAX_MASK_WIDTH, true,
    " (MAX_MASK_WIDTH), so that the halo is Mask_Width/2 on each side"};
inline constexpr ParamLimit kConv1DParams[] = {
    {ParamId::Height, "A 1D convolution convolves one row (N has width elements), so its height", 1, 1},
    {ParamId::Width, "The width of N", 1, kMaxConvWidth1D},
    kMaskWidth,
};
inline constexpr ParamLimit kConv2DParams[] = {
    {ParamId::Height, "The height of N", 1, kMaxEdge},
    {ParamId::Width, "The width of N", 1, kMaxEdge},
    kMaskWidth,
};

/// Naive matrix multiplication: one thread per P element (PMPP Fig. 3.11; preset naive-4x4).
struct MatmulNaive {
    using TileSizes = Tiles<>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-naive", .family = Family::Matmul, .tiled = false, .untiled = "matmul-naive",
        .sourceFile = "matmul_naive.cuh", .barriersPerPhase = 0,
        .summary = "one thread per P element, every operand from global memory (PMPP Fig. 3.11)",
        .lecture = "PMPP sec. 3.4, Fig. 3.11; preset naive-4x4",
        .maxBlockEdge = 32, .params = kMatmulParams,
        .grid = "(l + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (j + BLOCK_WIDTH - 1) / BLOCK_WIDTH",
        .block = "BLOCK_WIDTH, BLOCK_WIDTH", .blockOutput = "BLOCK_WIDTH, BLOCK_WIDTH"};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::matmulNaive(x, a.M, a.N, a.P, a.j, a.k, a.l); }
};

/// Tiled matrix multiplication with boundary checks (PMPP Fig. 5.9, 5.13; preset tiled-4x4).
struct MatmulTiled {
    using TileSizes = MatmulTiles;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-tiled", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_tiled.cuh", .barriersPerPhase = 2,
        .summary = "Mds/Nds tiles, phases, two barriers, boundary checks with zero fill (PMPP Fig. 5.9, 5.13)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 5.3-5.5, Fig. 5.9 and 5.13; presets tiled-4x4, boundary-3x3",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH",
        .block = "TILE_WIDTH, TILE_WIDTH", .blockOutput = "TILE_WIDTH, TILE_WIDTH", .compiledNotes = notes::kTiledNotes};
    template <int TILE_WIDTH, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulTiled<TILE_WIDTH>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// The naive kernel with Row from the x axis, so a warp's reads of M and writes of P are
/// uncoalesced (PMPP sec. 5.3, 6.1; presets coalescing-uncoalesced-64 and
/// coalescing-naive-64).
struct MatmulNaiveUncoalesced {
    using TileSizes = Tiles<>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-naive-uncoalesced", .family = Family::Matmul, .tiled = false,
        .untiled = "matmul-naive-uncoalesced", .sourceFile = "matmul_naive_uncoalesced.cuh", .barriersPerPhase = 0,
        .summary = "matmul-naive with threadIdx.x down the rows: a warp's M reads and P writes are not coalesced (PMPP sec. 6.1)",
        .lecture = "PMPP sec. 3.4 (Fig. 3.11's kernel), sec. 5.3 and 6.1 (memory coalescing); presets coalescing-uncoalesced-64, coalescing-naive-64",
        .maxBlockEdge = 32, .params = kMatmulParams,
        .grid = "(j + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (l + BLOCK_WIDTH - 1) / BLOCK_WIDTH",
        .block = "BLOCK_WIDTH, BLOCK_WIDTH", .blockOutput = "BLOCK_WIDTH, BLOCK_WIDTH", .gridXOverRows = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulNaiveUncoalesced(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-tiled with the N tile stored transposed in Nds: reads of Nds[tx][i] conflict in
/// the shared-memory banks (PMPP sec. 5.4, 6.1; preset nds-transposed-64-tile16).
struct MatmulTiledNdsTransposed {
    using TileSizes = MatmulTiles;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-tiled-nds-transposed", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_tiled_nds_transposed.cuh", .barriersPerPhase = 2,
        .summary = "matmul-tiled storing Nds transposed: a warp's Nds reads fall into one or two banks (bank conflicts)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 5.4-5.5 (Fig. 5.9, 5.13) with sec. 6.1's corner turning; preset nds-transposed-64-tile16",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH",
        .block = "TILE_WIDTH, TILE_WIDTH", .blockOutput = "TILE_WIDTH, TILE_WIDTH", .compiledNotes = notes::kTransposedNotes};
    template <int TILE_WIDTH, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulTiledNdsTransposed<TILE_WIDTH>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// The transposed kernel with Nds padded to TILE_WIDTH + 1 columns, which removes the bank
/// conflicts of its reads (preset nds-padded-64-tile16).
struct MatmulTiledNdsPadded {
    using TileSizes = MatmulTiles;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-tiled-nds-padded", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_tiled_nds_padded.cuh", .barriersPerPhase = 2,
        .summary = "the transposed Nds padded to TILE_WIDTH + 1 columns: its reads are free of bank conflicts",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 5.4-5.5 (Fig. 5.9, 5.13) with sec. 6.1's corner turning; preset nds-padded-64-tile16",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH",
        .block = "TILE_WIDTH, TILE_WIDTH", .blockOutput = "TILE_WIDTH, TILE_WIDTH", .compiledNotes = notes::kPaddedNotes};
    template <int TILE_WIDTH, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulTiledNdsPadded<TILE_WIDTH>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-tiled on a column-major N, whose tile the block loads with its corner turned so
/// that the global reads coalesce (PMPP sec. 6.1; preset corner-turning-64-tile16).
struct MatmulCornerTurning {
    using TileSizes = MatmulTiles;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-corner-turning", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_corner_turning.cuh", .barriersPerPhase = 2,
        .summary = "N stored column-major: tx walks down a column of N (coalesced) and the element goes to Nds[tx][ty] (corner turning, PMPP sec. 6.1)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 6.1 (memory coalescing: corner turning) on sec. 5.4-5.5's tiled kernel; preset corner-turning-64-tile16",
        .tiles = TileSizes::values, .params = kMatmulParams, .nColumnMajor = true,
        .grid = "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH",
        .block = "TILE_WIDTH, TILE_WIDTH", .blockOutput = "TILE_WIDTH, TILE_WIDTH"};
    template <int TILE_WIDTH, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulCornerTurning<TILE_WIDTH>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// COARSE_FACTOR of matmul-coarsened: P elements per thread (PMPP sec. 6.3). Its launch
/// (MatmulCoarsened::info.grid) writes it as 4.
inline constexpr int kCoarseFactor = 4;
static_assert(kCoarseFactor == 4, "matmul-coarsened's grid and blockOutput write COARSE_FACTOR as 4");

/// Thread coarsening: each thread computes kCoarseFactor P elements of a row and reuses
/// its Mds tile for all of them (PMPP sec. 6.3, Fig. 6.13). A rung of the ladder (kLadderRungs).
struct MatmulCoarsened {
    using TileSizes = Tiles<8, 16, 32>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-coarsened", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_coarsened.cuh", .barriersPerPhase = 2 * kCoarseFactor,
        .summary = "thread coarsening: each thread computes COARSE_FACTOR = 4 P elements of a row, one Mds tile reused for all (PMPP sec. 6.3)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 6.3, Fig. 6.13 (thread coarsening); a rung of the optimisation ladder",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + 4*TILE_WIDTH - 1) / (4*TILE_WIDTH), (j + TILE_WIDTH - 1) / TILE_WIDTH",
        .block = "TILE_WIDTH, TILE_WIDTH", .blockOutput = "TILE_WIDTH, 4*TILE_WIDTH", .threadCols = kCoarseFactor,
        .blockColsFactor = kCoarseFactor, .defaultTile = 32};
    template <int TILE_WIDTH, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulCoarsened<TILE_WIDTH, kCoarseFactor>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// A 1D register tile: each thread accumulates 8 rows of a column of P in registers from a
/// TILE x 8 tile of M and an 8 x TILE tile of N. A rung of the ladder (kLadderRungs).
struct MatmulRegtile1d {
    using TileSizes = Tiles<32, 64>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-regtile-1d", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_regtile_1d.cuh", .barriersPerPhase = 2,
        .summary = "1D register tile: each thread keeps TM = 8 P elements of a column in registers, one Nds read feeds 8 multiply-adds",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 6.3 (coarsening) carried into registers; a rung of the optimisation ladder",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .tileK = 8, .defaultTile = 64};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulRegtile1d<TILE>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// A 2D register tile: each thread computes an 8 x 8 tile of P as outer products of
/// registers loaded from Mds and Nds. A rung of the ladder (kLadderRungs).
struct MatmulRegtile2d {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-regtile-2d", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_regtile_2d.cuh", .barriersPerPhase = 2,
        .summary = "2D register tile: each thread computes TM x TN = 8 x 8 P elements, 16 shared reads feed 64 multiply-adds",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 6.3 (coarsening) in two dimensions, as register tiles; a rung of the optimisation ladder",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE/8, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .threadCols = 8, .tileK = 8,
        .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulRegtile2d<TILE>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-regtile-2d with 128-bit loads and stores (float4) from global and shared memory,
/// M's tile stored transposed so a thread's TM elements of it are neighbours. A rung of the
/// ladder (kLadderRungs).
struct MatmulVectorized {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-vectorized", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_vectorized.cuh", .barriersPerPhase = 2,
        .summary = "matmul-regtile-2d with float4 (128-bit) loads from global and shared memory, the M tile transposed in Mds",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "a rung of the optimisation ladder: vector loads (PMPP sec. 6.1 on coalescing, in 16-byte pieces)",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE/8, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .threadCols = 8, .tileK = 8,
        .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulVectorized<TILE>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-vectorized with two buffers of each shared tile: the next phase's tiles come from
/// global memory while the current ones are multiplied, one barrier per phase. A rung of
/// the ladder (kLadderRungs).
struct MatmulDoubleBuffered {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-double-buffered", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_double_buffered.cuh", .barriersPerPhase = 1,
        .summary = "matmul-vectorized with two buffers per shared tile: the next tiles load while the current ones multiply, one barrier per phase",
        .lecture = "a rung of the optimisation ladder: double buffering (latency hidden behind the multiply-adds)",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE/8, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .threadCols = 8, .tileK = 8,
        .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulDoubleBuffered<TILE>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-double-buffered with each thread's 8 x 8 tile split into four 4 x 4 quarters half
/// a block tile apart, so that a warp's 128-bit reads of Nds are free of bank conflicts. A
/// rung of the ladder (kLadderRungs).
struct MatmulConflictFree {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-conflict-free", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_conflict_free.cuh", .barriersPerPhase = 1,
        .summary = "matmul-double-buffered with each thread's 8 x 8 tile in four 4 x 4 quarters half a tile apart: 128-bit Nds reads without bank conflicts",
        .lecture = "a rung of the optimisation ladder: a thread-tile layout the 32 banks serve at once (PMPP sec. 6.1's banks, 16 bytes a lane)",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE/8, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .threadCols = 8,
        .tileK = 8, .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulConflictFree<TILE, 8>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// matmul-conflict-free with phases of 16 columns of M instead of 8: half the barriers and
/// twice the multiply-adds between them, at twice the shared memory. On an H100 it is the
/// faster of the two at 8192 and the slower at 2048 and 4096 (docs/ladder.md): the best
/// tile shape depends on the GPU and the problem. A rung of the ladder (kLadderRungs).
struct MatmulTuned {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-tuned", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_conflict_free.cuh", .barriersPerPhase = 1,
        .summary = "matmul-conflict-free with BK = 16 columns of M per phase: half the barriers, twice the shared memory",
        .lecture = "a rung of the optimisation ladder: the tile shape, tuned per GPU and size",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + TILE - 1) / TILE",
        .block = "TILE/8, TILE/8", .blockOutput = "TILE, TILE", .threadRows = 8, .threadCols = 8,
        .tileK = 16, .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulConflictFree<TILE, 16>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// Warp tiles: matmul-conflict-free's double buffer and 128-bit accesses with the block's
/// 2T x T tile of P cut into 64 x 64 warp tiles, each lane's 16 x 8 elements in 4 x 4
/// pieces inside its warp's tile: fewer shared-memory wavefronts per multiply-add and each
/// element of N read once for 2T rows of P. The shape of cuBLAS's own FP32 kernel on the
/// H100 (256 x 128 x 8, eight warps). A rung of the ladder (kLadderRungs).
struct MatmulWarptiled {
    using TileSizes = Tiles<64, 128>;
    template <class X> using Args = MatmulArgs<X>;
    static constexpr KernelInfo info{
        .name = "matmul-warptiled", .family = Family::Matmul, .tiled = true, .untiled = "matmul-naive",
        .sourceFile = "matmul_warptiled.cuh", .barriersPerPhase = 1,
        .summary = "64 x 64 warp tiles in a 2T x T block tile, each lane 16 x 8 elements in 4 x 4 pieces: fewer shared wavefronts per multiply-add",
        .lecture = "a rung of the optimisation ladder: warp tiles (the warp as a unit of the tiling, PMPP sec. 4.7's warps meeting sec. 6.3's coarsening)",
        .tiles = TileSizes::values, .params = kMatmulParams,
        .grid = "(l + TILE - 1) / TILE, (j + 2*TILE - 1) / (2*TILE)",
        .block = "TILE/8, TILE/8", .blockOutput = "2*TILE, TILE", .threadRows = 16, .threadCols = 8,
        .blockRowsFactor = 2, .tileK = 8, .defaultTile = 128};
    template <int TILE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::matmulWarptiled<TILE>(x, a.M, a.N, a.P, a.j, a.k, a.l);
    }
};

/// Basic 1D convolution, mask in constant memory (preset conv1d-tiled-tile8-mask5's untiled
/// counterpart).
struct Conv1dBasic {
    using TileSizes = Tiles<>;
    template <class X> using Args = ConvArgs<X>;
    static constexpr KernelInfo info{
        .name = "conv1d-basic", .family = Family::Conv1D, .tiled = false, .untiled = "conv1d-basic",
        .sourceFile = "conv1d_basic.cuh", .barriersPerPhase = 0,
        .summary = "one thread per output, ghost elements skipped, mask in constant memory (PMPP ch. 7, 3rd ed. Fig. 7.6)",
        .lecture = "PMPP ch. 7 (1D convolution: 3rd ed. sec. 7.2-7.3)",
        .maxBlockEdge = kMaxThreadsPerBlock, .params = kConv1DParams,
        .grid = "(width + BLOCK_WIDTH - 1) / BLOCK_WIDTH",
        .block = "BLOCK_WIDTH"};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::conv1dBasic(x, a.N, a.P, a.maskWidth, a.width); }
};

/// Tiled 1D convolution, halo loaded by the edge threads (preset conv1d-tiled-tile8-mask5).
struct Conv1dTiled {
    using TileSizes = Conv1DTiles;
    template <class X> using Args = ConvArgs<X>;
    static constexpr KernelInfo info{
        .name = "conv1d-tiled", .family = Family::Conv1D, .tiled = true, .untiled = "conv1d-basic",
        .sourceFile = "conv1d_tiled.cuh", .barriersPerPhase = 0,
        .summary = "N_ds with left and right halo loaded by edge threads, ghost elements 0 (PMPP ch. 7, 3rd ed. Fig. 7.11)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP ch. 7 (tiled 1D convolution with halo: 3rd ed. sec. 7.4); preset conv1d-tiled-tile8-mask5",
        .tiles = TileSizes::values, .params = kConv1DParams,
        .grid = "(width + TILE_SIZE - 1) / TILE_SIZE",
        .block = "TILE_SIZE", .haloByEdgeThreads = true};
    template <int TILE_SIZE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::conv1dTiled<TILE_SIZE>(x, a.N, a.P, a.maskWidth, a.width);
    }
};

/// Tiled 1D convolution that reads the halo from global memory (preset
/// conv1d-tiled-cache-tile8-mask5).
struct Conv1dTiledCache {
    using TileSizes = Conv1DTiles;
    template <class X> using Args = ConvArgs<X>;
    static constexpr KernelInfo info{
        .name = "conv1d-tiled-cache", .family = Family::Conv1D, .tiled = true, .untiled = "conv1d-basic",
        .sourceFile = "conv1d_tiled_cache.cuh", .barriersPerPhase = 0,
        .summary = "only the internal tile in N_ds, halo read from global memory (PMPP sec. 7.5, 3rd ed. Fig. 7.13)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 7.5 (caches for halo cells); preset conv1d-tiled-cache-tile8-mask5",
        .tiles = TileSizes::values, .params = kConv1DParams,
        .grid = "(width + TILE_SIZE - 1) / TILE_SIZE",
        .block = "TILE_SIZE", .haloFromGlobal = true};
    template <int TILE_SIZE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::conv1dTiledCache<TILE_SIZE>(x, a.N, a.P, a.maskWidth, a.width);
    }
};

/// Basic 2D convolution, mask in constant memory (PMPP Fig. 7.7 with Fig. 7.9's mask).
struct Conv2dBasic {
    using TileSizes = Tiles<>;
    template <class X> using Args = ConvArgs<X>;
    static constexpr KernelInfo info{
        .name = "conv2d-basic", .family = Family::Conv2D, .tiled = false, .untiled = "conv2d-basic",
        .sourceFile = "conv2d_basic.cuh", .barriersPerPhase = 0,
        .summary = "one thread per output, ghost cells skipped, mask in constant memory (PMPP Fig. 7.7, 7.9)",
        .lecture = "PMPP sec. 7.2-7.3, Fig. 7.7 and 7.9",
        .maxBlockEdge = 32, .params = kConv2DParams,
        .grid = "(width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (height + BLOCK_WIDTH - 1) / BLOCK_WIDTH",
        .block = "BLOCK_WIDTH, BLOCK_WIDTH"};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::conv2dBasic(x, a.N, a.P, a.maskWidth, a.height, a.width);
    }
};

/// Tiled 2D convolution, block = input tile (PMPP Fig. 7.12; preset conv2d-tiled-tile8-mask5).
struct Conv2dTiled {
    using TileSizes = Conv2DTiles;
    template <class X> using Args = ConvArgs<X>;
    static constexpr KernelInfo info{
        .name = "conv2d-tiled", .family = Family::Conv2D, .tiled = true, .untiled = "conv2d-basic",
        .sourceFile = "conv2d_tiled.cuh", .barriersPerPhase = 0,
        .summary = "block = input tile (TILE_SIZE + Mask_Width - 1)^2, ghost cells 0, mask in constant memory (PMPP Fig. 7.12)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 7.4, Fig. 7.12; preset conv2d-tiled-tile8-mask5",
        .tiles = TileSizes::values, .params = kConv2DParams,
        .grid = "(width + TILE_SIZE - 1) / TILE_SIZE, (height + TILE_SIZE - 1) / TILE_SIZE",
        .block = "TILE_SIZE + Mask_Width - 1, TILE_SIZE + Mask_Width - 1", .blockIsInputTile = true};
    template <int TILE_SIZE, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::conv2dTiled<TILE_SIZE>(x, a.N, a.P, a.maskWidth, a.height, a.width);
    }
};

/// The basic 3D seven-point stencil, PMPP's first kernel of ch. 8: one thread per grid point,
/// every input from global memory (PMPP sec. 8.2, Fig. 8.6; preset stencil-basic-8). A
/// described problem: its arrays, its size N and its reference are stated here, not coded.
inline constexpr ParamLimit kStencilParams[] = {
    {ParamId::Height, "The 3D stencil has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the grid is N x N x N points)", 1, 256, false, ", so that in and out fit the 2^26 elements TileScope simulates"},
};
struct StencilBasic {
    using TileSizes = Tiles<>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "stencil-basic", .family = Family::Array, .tiled = false, .untiled = "stencil-basic",
        .sourceFile = "stencil_basic.cuh", .barriersPerPhase = 0,
        .summary = "3D seven-point stencil, one thread per grid point, all seven inputs from global memory (PMPP Fig. 8.6)",
        .lecture = "PMPP sec. 8.2, Fig. 8.6; preset stencil-basic-8",
        .maxBlockEdge = 10, .params = kStencilParams,
        .grid = "(N + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (N + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (N + BLOCK_WIDTH - 1) / BLOCK_WIDTH",
        .block = "BLOCK_WIDTH, BLOCK_WIDTH, BLOCK_WIDTH",
        .arrays = "in in[N][N][N], out out[N][N][N]", .sizes = "N = 16",
        .formula = "out[i][j][k] = (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) "
                   "? 0.4f*in[i][j][k] + 0.1f*in[i][j][k - 1] + 0.1f*in[i][j][k + 1] + 0.1f*in[i][j - 1][k] "
                   "+ 0.1f*in[i][j + 1][k] + 0.1f*in[i - 1][j][k] + 0.1f*in[i + 1][j][k] : NAN",
        .defaultTile = 8};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::stencilBasic(x, a.in[0], a.out, a.size[0]); }
};

/// An input a kernel writes in place although the problem hands it over read-only (PMPP
/// Fig. 10.6's `float* input`): the same array through a writable pointer, in each context
/// (a plain pointer on the GPU, a counted one in the counting instance, the simulator's
/// recording one).
template <class P>
TS_DEVICE auto writableInput(const P& p)
{
    if constexpr (std::is_pointer_v<P>) return const_cast<float*>(p);
    else return p.writable();
}

/// PMPP ch. 10's sums: an input of small integers (every order of the float additions gives
/// the same bits, so the GPU's order of atomics cannot change them) and its total.
inline constexpr const char* kSumArrays = "in input[N] = 1..8, out output[1]";
inline constexpr const char* kSumArraysAtomic = "in input[N] = 1..8, out output[1] = 0";
inline constexpr const char* kSumFormula = "output[i] = sum(input)";
/// The same sum of arbitrary floats in [-1, 1): its bits depend on the order of the additions.
inline constexpr const char* kSumArraysFloats = "in input[N], out output[1] = 0";
/// Tiles (BLOCK_DIM) compiled for the reductions that keep a shared array of BLOCK_DIM.
using ReductionTiles = Tiles<8, 16, 32, 64, 128, 256, 512, 1024>;
inline constexpr ParamLimit kOneBlockSumParams[] = {
    {ParamId::Height, "A sum has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the input's elements, 2 per thread of the one block)", 2, 2048},
};
inline constexpr ParamLimit kManyBlockSumParams[] = {
    {ParamId::Height, "A sum has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the input's elements)", 1, 1 << 21, false,
     ", so that a total of inputs up to 8 stays exact in float (2^24)"},
};

/// PMPP Fig. 10.6: the simple reduction tree in global memory, one block (preset
/// reduction-simple-1024).
struct ReductionSimple {
    using TileSizes = Tiles<>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-simple", .family = Family::Array, .tiled = false, .untiled = "reduction-simple",
        .sourceFile = "reduction_simple.cuh", .barriersPerPhase = 0,
        .summary = "Sum of 2 x blockDim elements in one block, stride doubling, the active threads spreading apart: divergent warps (PMPP Fig. 10.6)",
        .lecture = "PMPP sec. 10.3, Fig. 10.6; presets reduction-simple-16, -256, -1024",
        .maxBlockEdge = 1024, .params = kOneBlockSumParams, .grid = "1", .block = "N / 2",
        .arrays = kSumArrays, .sizes = "N = 2048", .formula = kSumFormula, .defaultTile = 1024, .reductionTree = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::simpleSumReduction(x, writableInput(a.in[0]), a.out); }
};

/// PMPP Fig. 10.9: the convergent reduction tree, one block (preset reduction-convergent-1024).
struct ReductionConvergent {
    using TileSizes = Tiles<>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-convergent", .family = Family::Array, .tiled = false, .untiled = "reduction-simple",
        .sourceFile = "reduction_convergent.cuh", .barriersPerPhase = 0,
        .summary = "Sum in one block with the stride halving from blockDim, active threads packed at the front: whole warps idle, little divergence (PMPP Fig. 10.9)",
        .lecture = "PMPP sec. 10.4, Fig. 10.9; presets reduction-convergent-16, -256, -1024",
        .maxBlockEdge = 1024, .params = kOneBlockSumParams, .grid = "1", .block = "N / 2",
        .arrays = kSumArrays, .sizes = "N = 2048", .formula = kSumFormula, .defaultTile = 1024, .reductionTree = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::convergentSumReduction(x, writableInput(a.in[0]), a.out); }
};

/// PMPP Fig. 10.11: the convergent tree in shared memory, one block (preset
/// reduction-shared-1024).
struct ReductionShared {
    using TileSizes = ReductionTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-shared", .family = Family::Array, .tiled = true, .untiled = "reduction-convergent",
        .sourceFile = "reduction_shared.cuh", .barriersPerPhase = 0,
        .summary = "Sum in one block: two global reads per thread into input_s, the convergent tree in shared memory (PMPP Fig. 10.11)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 10.5, Fig. 10.11; preset reduction-shared-256",
        .tiles = TileSizes::values, .params = kOneBlockSumParams, .grid = "1", .block = "BLOCK_DIM",
        .arrays = kSumArrays, .sizes = "N = 2048", .formula = kSumFormula, .defaultTile = 1024,
        .compiledNotes = notes::kSharedTreeNotes, .reductionTree = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a) { kernels::sharedMemorySumReduction<BLOCK_DIM>(x, a.in[0], a.out); }
};

/// PMPP Fig. 10.13: segmented reduction, one segment per block, atomicAdd of each block's
/// sum (preset reduction-segmented-256).
struct ReductionSegmented {
    using TileSizes = ReductionTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-segmented", .family = Family::Array, .tiled = true, .untiled = "reduction-segmented",
        .sourceFile = "reduction_segmented.cuh", .barriersPerPhase = 0,
        .summary = "Sum of any length over many blocks: each block reduces 2 x BLOCK_DIM elements in shared memory, then one atomicAdd (PMPP Fig. 10.13)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 10.7, Fig. 10.13; preset reduction-segmented-256",
        .tiles = TileSizes::values, .params = kManyBlockSumParams,
        .grid = "(N + 2 * BLOCK_DIM - 1) / (2 * BLOCK_DIM)", .block = "BLOCK_DIM",
        .arrays = kSumArraysAtomic, .sizes = "N = 100000", .formula = kSumFormula, .defaultTile = 256,
        .compiledNotes = notes::kSegmentedTreeNotes, .reductionTree = true, .atomics = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::segmentedSumReduction<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP Fig. 10.13's kernel on arbitrary floats: the blocks' atomicAdds meet in an order the
/// hardware (or the simulator's schedule) chooses, and the total's last bits follow it
/// (PMPP sec. 10.7; preset reduction-segmented-floats-256).
struct ReductionSegmentedFloats {
    using TileSizes = ReductionTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-segmented-floats", .family = Family::Array, .tiled = true, .untiled = "reduction-segmented",
        .sourceFile = "reduction_segmented.cuh", .barriersPerPhase = 0,
        .summary = "Fig. 10.13's segmented sum of arbitrary floats: the order of the blocks' atomicAdds decides the total's last bits",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 10.7, Fig. 10.13 (order of float atomics); preset reduction-segmented-floats-256",
        .tiles = TileSizes::values, .params = kManyBlockSumParams,
        .grid = "(N + 2 * BLOCK_DIM - 1) / (2 * BLOCK_DIM)", .block = "BLOCK_DIM",
        .arrays = kSumArraysFloats, .sizes = "N = 100000", .formula = kSumFormula, .defaultTile = 256,
        .compiledNotes = notes::kSegmentedTreeNotes, .reductionTree = true, .atomics = true, .orderDependent = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::segmentedSumReduction<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP Fig. 10.15: segmented reduction with thread coarsening (2 x COARSE_FACTOR input
/// elements per thread before the tree; preset reduction-coarsened-256).
struct ReductionCoarsened {
    using TileSizes = ReductionTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-coarsened", .family = Family::Array, .tiled = true, .untiled = "reduction-segmented",
        .sourceFile = "reduction_coarsened.cuh", .barriersPerPhase = 0,
        .summary = "Segmented sum with thread coarsening: each thread adds COARSE_FACTOR x 2 elements serially before the tree, then one atomicAdd per block (PMPP Fig. 10.15)",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 10.8, Fig. 10.15; preset reduction-coarsened-256",
        .tiles = TileSizes::values, .params = kManyBlockSumParams,
        .grid = "(N + 4 * BLOCK_DIM - 1) / (4 * BLOCK_DIM)", .block = "BLOCK_DIM",
        .arrays = kSumArraysAtomic, .sizes = "N = 100000", .formula = kSumFormula, .defaultTile = 256,
        .compiledNotes = notes::kSegmentedTreeNotes, .reductionTree = true, .atomics = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::coarsenedSumReduction<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// Fig. 10.13's segmented sum whose tree stops at 32 partial sums, finished by warp 0 with
/// __shfl_down_sync (not a PMPP figure; preset reduction-shuffle-256).
struct ReductionShuffle {
    using TileSizes = Tiles<32, 64, 128, 256, 512, 1024>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "reduction-shuffle", .family = Family::Array, .tiled = true, .untiled = "reduction-segmented",
        .sourceFile = "reduction_shuffle.cuh", .barriersPerPhase = 0,
        .summary = "Segmented sum whose shared-memory tree stops at 32 partial sums: warp 0 adds them with five __shfl_down_sync, no barrier, then one atomicAdd per block",
        .barriers = kernels::AFTER_LOAD,
        .lecture = "PMPP sec. 10.7, Fig. 10.13, finished with warp shuffles (CUDA's __shfl_down_sync); preset reduction-shuffle-256",
        .tiles = TileSizes::values, .params = kManyBlockSumParams,
        .grid = "(N + 2 * BLOCK_DIM - 1) / (2 * BLOCK_DIM)", .block = "BLOCK_DIM",
        .arrays = kSumArraysAtomic, .sizes = "N = 100000", .formula = kSumFormula, .defaultTile = 256,
        .compiledNotes = notes::kShuffleFinishNotes, .reductionTree = true, .atomics = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::shuffleSumReduction<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP ch. 9's text histograms: the text (a char array; the scenario's TextInput) and the
/// seven bins of four letters (kernels/histogram_bins.cuh), all starting at 0.
inline constexpr const char* kHistogramArrays = "in char data[N], out unsigned histo[7] = 0";
inline constexpr const char* kHistogramFormula = "histo[b] = count(data, 'a' + 4 * b, min('a' + 4 * b + 3, 'z'))";
inline constexpr ParamLimit kHistogramParams[] = {
    {ParamId::Height, "A histogram's text has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the text's characters)", 1, 1 << 24, false, ", so that every bin's count stays exact (2^24)"},
};
/// BLOCK_DIM of the histograms: any whole number of warps up to 1024 threads.
using HistogramTiles = Tiles<32, 64, 128, 256, 512, 1024>;

/// A histogram row: the text and bins, BLOCK_DIM threads a block, one character a thread
/// (Figs. 9.6 to 9.10) or CFACTOR (Figs. 9.12 to 9.15, a quarter of the blocks).
#define TS_HISTOGRAM_ROW(NAME, FILE, SUMMARY, LECTURE, GRID)                                                    \
    .name = NAME, .family = Family::Array, .tiled = true, .untiled = "histogram-basic", .sourceFile = FILE,   \
    .barriersPerPhase = 0, .summary = SUMMARY, .lecture = LECTURE, .tiles = TileSizes::values,                 \
    .params = kHistogramParams, .grid = GRID, .block = "BLOCK_DIM"
inline constexpr const char* kOneCharGrid = "(N + BLOCK_DIM - 1) / BLOCK_DIM";
inline constexpr const char* kCoarseGrid = "(N + 4 * BLOCK_DIM - 1) / (4 * BLOCK_DIM)";

/// PMPP Fig. 9.6: one thread a character, one atomicAdd on a global bin a letter (preset
/// histogram-basic-256).
struct HistogramBasic {
    using TileSizes = HistogramTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-basic", "histogram_basic.cuh",
                         "Text histogram, one thread a character, one atomicAdd on a bin in global memory a letter: lanes on one bin are serialised (PMPP Fig. 9.6)",
                         "PMPP sec. 9.2-9.3, Fig. 9.6; preset histogram-basic-256", kOneCharGrid),
        .arrays = kHistogramArrays, .sizes = "N = 65536", .formula = kHistogramFormula, .defaultTile = 256,
        .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoKernel(x, X::template elementsAs<const char>(a.in[0]), static_cast<unsigned>(a.size[0]),
                             X::template elementsAs<unsigned>(a.out));
    }
};

/// PMPP Fig. 9.9: a private copy of the bins per block in global memory, merged into block
/// 0's copy (preset histogram-private-global-256). Its output holds every block's copy, so
/// the grid, and BLOCK_DIM, are fixed by the description (256 threads a block).
struct HistogramPrivateGlobal {
    using TileSizes = Tiles<256>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-private-global", "histogram_private_global.cuh",
                         "Text histogram privatized in global memory: each block counts into its own copy of the bins, then adds it to block 0's (PMPP Fig. 9.9)",
                         "PMPP sec. 9.4, Fig. 9.9; preset histogram-private-global-256", kOneCharGrid),
        .arrays = "in char data[N], out unsigned histo[(N + 255) / 256 * 7] = 0", .sizes = "N = 65536",
        .formula = "histo[b] = count(data, 'a' + 4 * (b % 7), min('a' + 4 * (b % 7) + 3, 'z'), "
                   "b < 7 ? 0 : b / 7 * 256, b < 7 ? N - 1 : b / 7 * 256 + 255)",
        .defaultTile = 256, .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoPrivateGlobalKernel(x, X::template elementsAs<const char>(a.in[0]), static_cast<unsigned>(a.size[0]),
                                          X::template elementsAs<unsigned>(a.out));
    }
};

/// PMPP Fig. 9.10: the bins privatized in shared memory (preset histogram-private-shared-256).
struct HistogramPrivateShared {
    using TileSizes = HistogramTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-private-shared", "histogram_private_shared.cuh",
                         "Text histogram privatized in shared memory: atomics on histo_s, then one global atomicAdd a non-empty bin a block (PMPP Fig. 9.10)",
                         "PMPP sec. 9.4, Fig. 9.10; preset histogram-private-shared-256", kOneCharGrid),
        .arrays = kHistogramArrays, .sizes = "N = 65536", .formula = kHistogramFormula, .defaultTile = 256,
        .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoPrivateSharedKernel(x, X::template elementsAs<const char>(a.in[0]), static_cast<unsigned>(a.size[0]),
                                          X::template elementsAs<unsigned>(a.out));
    }
};

/// PMPP Fig. 9.12: Fig. 9.10 coarsened, CFACTOR contiguous characters a thread (preset
/// histogram-contiguous-256).
struct HistogramContiguous {
    using TileSizes = HistogramTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-contiguous", "histogram_coarsened_contiguous.cuh",
                         "Shared-memory histogram, 4 contiguous characters a thread: a warp's loads are 4 bytes apart, 4 sectors each (PMPP Fig. 9.12)",
                         "PMPP sec. 9.5, Fig. 9.12; preset histogram-contiguous-256", kCoarseGrid),
        .arrays = kHistogramArrays, .sizes = "N = 65536", .formula = kHistogramFormula, .defaultTile = 256,
        .compiledNotes = notes::kContiguousHistogramNotes, .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoCoarsenedContiguousKernel(x, X::template elementsAs<const char>(a.in[0]),
                                                static_cast<unsigned>(a.size[0]), X::template elementsAs<unsigned>(a.out));
    }
};

/// PMPP Fig. 9.14: Fig. 9.10 coarsened with interleaved partitioning (preset
/// histogram-interleaved-256).
struct HistogramInterleaved {
    using TileSizes = HistogramTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-interleaved", "histogram_coarsened_interleaved.cuh",
                         "Shared-memory histogram, a quarter of the threads striding over the text: a warp's loads stay one sector (PMPP Fig. 9.14)",
                         "PMPP sec. 9.5, Fig. 9.14; preset histogram-interleaved-256", kCoarseGrid),
        .arrays = kHistogramArrays, .sizes = "N = 65536", .formula = kHistogramFormula, .defaultTile = 256,
        .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoCoarsenedInterleavedKernel(x, X::template elementsAs<const char>(a.in[0]),
                                                 static_cast<unsigned>(a.size[0]), X::template elementsAs<unsigned>(a.out));
    }
};

/// PMPP Fig. 9.15: Fig. 9.14 with aggregation, a run of one bin added with one atomicAdd
/// (preset histogram-aggregated-256).
struct HistogramAggregated {
    using TileSizes = HistogramTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_HISTOGRAM_ROW("histogram-aggregated", "histogram_aggregated.cuh",
                         "Interleaved shared-memory histogram with aggregation: each thread adds a run of letters of one bin with one atomicAdd (PMPP Fig. 9.15)",
                         "PMPP sec. 9.6, Fig. 9.15; preset histogram-aggregated-256", kCoarseGrid),
        .arrays = kHistogramArrays, .sizes = "N = 65536", .formula = kHistogramFormula, .defaultTile = 256,
        .atomics = true, .histogram = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::histoAggregatedKernel(x, X::template elementsAs<const char>(a.in[0]), static_cast<unsigned>(a.size[0]),
                                       X::template elementsAs<unsigned>(a.out));
    }
};
#undef TS_HISTOGRAM_ROW

/// PMPP ch. 11's scans: an input of small integers (every prefix is exact in float, so every
/// order of the additions gives the same bits) and its inclusive or exclusive scan.
inline constexpr const char* kScanArrays = "in X_in[N] = 1..8, out Y[N]";
inline constexpr const char* kInclusiveScan = "Y[i] = sum(X_in, 0, i)";
inline constexpr const char* kExclusiveScan = "Y[i] = sum(X_in, 0, i - 1)";
inline constexpr ParamLimit kSectionScanParams[] = {
    {ParamId::Height, "A scan has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the input's elements, at most one section: a block scans it alone)", 1, 4096},
};
inline constexpr ParamLimit kSequentialScanParams[] = {
    {ParamId::Height, "A scan has one size, N, so its height", 1, 1},
    {ParamId::Width, "N (the input's elements)", 1, 1 << 21, false, ", so that a prefix of inputs up to 8 stays exact in float (2^24)"},
};
/// BLOCK_DIM of the one-section scans: powers of two up to 1024 threads.
using ScanTiles = Tiles<8, 16, 32, 64, 128, 256, 512, 1024>;
/// A one-section scan row: one block of BLOCK_DIM threads scans all N elements.
#define TS_SCAN_ROW(NAME, FILE, SUMMARY, BARRIERS, LECTURE, FORMULA, PER_THREAD)                                  \
    .name = NAME, .family = Family::Array, .tiled = true, .untiled = "scan-sequential", .sourceFile = FILE,    \
    .barriersPerPhase = 0, .summary = SUMMARY, .barriers = BARRIERS, .lecture = LECTURE,                      \
    .tiles = TileSizes::values, .params = kSectionScanParams, .grid = "1", .block = "BLOCK_DIM",              \
    .arrays = kScanArrays, .sizes = "N = 16", .formula = FORMULA, .defaultTile = 16,                          \
    .scanElementsPerThread = PER_THREAD, .scan = true

/// PMPP Fig. 11.1: the sequential scan, one thread (preset scan-sequential-16).
struct ScanSequential {
    using TileSizes = Tiles<>;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "scan-sequential", .family = Family::Array, .tiled = false, .untiled = "scan-sequential",
        .sourceFile = "scan_sequential.cuh", .barriersPerPhase = 0,
        .summary = "Inclusive scan by one thread in index order: N - 1 adds, the work every parallel scan is measured against (PMPP Fig. 11.1)",
        .lecture = "PMPP sec. 11.1, Fig. 11.1; preset scan-sequential-16",
        .maxBlockEdge = 1, .params = kSequentialScanParams, .grid = "1", .block = "1",
        .arrays = kScanArrays, .sizes = "N = 16", .formula = kInclusiveScan, .defaultTile = 1, .scan = true};
    template <int, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::sequentialScan(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP Fig. 11.3: Kogge-Stone, one element a thread (presets scan-kogge-stone-16,
/// scan-kogge-stone-race-16).
struct ScanKoggeStone {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_SCAN_ROW("scan-kogge-stone", "scan_kogge_stone.cuh",
                    "Kogge-Stone inclusive scan of one section, a thread an element: log2 n steps, n log2 n - (n - 1) adds; the temp and the second barrier keep each step's reads before its writes (PMPP Fig. 11.3)",
                    kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
                    "PMPP sec. 11.2, Fig. 11.3; presets scan-kogge-stone-16, scan-kogge-stone-race-16", kInclusiveScan, 1)};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::koggeStoneScan<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP sec. 11.2: Kogge-Stone for an exclusive scan.
struct ScanKoggeStoneExclusive {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_SCAN_ROW("scan-kogge-stone-exclusive", "scan_kogge_stone_exclusive.cuh",
                    "Kogge-Stone exclusive scan: thread t loads X[i - 1] and thread 0 the identity 0, then Fig. 11.3's network (PMPP sec. 11.2)",
                    kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
                    "PMPP sec. 11.2 (exclusive scan)", kExclusiveScan, 1)};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::koggeStoneExclusiveScan<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP sec. 11.2: Kogge-Stone with a double buffer, one barrier a step (preset
/// scan-kogge-stone-double-buffer-16).
struct ScanKoggeStoneDoubleBuffer {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_SCAN_ROW("scan-kogge-stone-double-buffer", "scan_kogge_stone_double_buffer.cuh",
                    "Kogge-Stone with XY in two halves, read one and write the other: no write-after-read race, so one barrier a step (PMPP sec. 11.2)",
                    kernels::AFTER_LOAD,
                    "PMPP sec. 11.2 (double buffering); preset scan-kogge-stone-double-buffer-16", kInclusiveScan, 1)};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::koggeStoneDoubleBufferScan<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP Fig. 11.7: Brent-Kung, two elements a thread (preset scan-brent-kung-16).
struct ScanBrentKung {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_SCAN_ROW("scan-brent-kung", "scan_brent_kung.cuh",
                    "Brent-Kung inclusive scan of 2 x BLOCK_DIM elements: a reduction tree, then a distribution tree, 2n - 2 - log2 n adds (PMPP Fig. 11.7)",
                    kernels::AFTER_LOAD,
                    "PMPP sec. 11.4, Fig. 11.7; preset scan-brent-kung-16", kInclusiveScan, 2)};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::brentKungScan<2 * BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};

/// PMPP sec. 11.5: the three-phase scan, SCAN_COARSE_FACTOR elements a thread (preset
/// scan-coarsened-16).
struct ScanCoarsened {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        TS_SCAN_ROW("scan-coarsened", "scan_coarsened.cuh",
                    "Three-phase scan, 4 elements a thread: each thread scans its subsection, Kogge-Stone over the subsections' ends, then each adds its predecessor's end (PMPP sec. 11.5)",
                    kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
                    "PMPP sec. 11.5 (thread coarsening); preset scan-coarsened-16", kInclusiveScan, static_cast<int>(kernels::SCAN_COARSE_FACTOR))};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::coarsenedScan<kernels::SCAN_COARSE_FACTOR * BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]));
    }
};
#undef TS_SCAN_ROW

/// PMPP sec. 11.7: the single-pass scan of any length, its blocks chained through flags
/// (preset scan-single-pass-64).
struct ScanSinglePass {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "scan-single-pass", .family = Family::Array, .tiled = true, .untiled = "scan-sequential",
        .sourceFile = "scan_single_pass.cuh", .barriersPerPhase = 0,
        .summary = "Single-pass scan of any length: each block scans its section (Fig. 11.3), then waits for the previous block's flag, adds its running sum and hands its own on through scan_value and a flag, a __threadfence() between them (PMPP sec. 11.7)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE | kernels::FENCE,
        .lecture = "PMPP sec. 11.7 (single-pass scan, dynamic block index); preset scan-single-pass-64",
        .tiles = TileSizes::values, .params = kSequentialScanParams, .grid = "(N + BLOCK_DIM - 1) / BLOCK_DIM",
        .block = "BLOCK_DIM",
        .arrays = "in X_in[N] = 1..8, out Y[N], tmp unsigned flags[(N + BLOCK_DIM - 1) / BLOCK_DIM + 1], "
                  "tmp scan_value[(N + BLOCK_DIM - 1) / BLOCK_DIM + 1], tmp unsigned blockCounter[1]",
        .sizes = "N = 64", .formula = kInclusiveScan, .defaultTile = 16, .atomics = true, .scan = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        kernels::singlePassScan<BLOCK_DIM>(x, a.in[0], a.out, static_cast<unsigned>(a.size[0]),
                                           X::template elementsAs<unsigned>(a.tmp[0]),
                                           X::template elementsAs<volatile float>(a.tmp[1]),
                                           X::template elementsAs<unsigned>(a.tmp[2]));
    }
};

/// PMPP sec. 11.6: the hierarchical scan of any length up to BLOCK_DIM x BLOCK_DIM, three
/// launches (presets scan-hierarchical-64 and scan-hierarchical-sums-64).
struct ScanHierarchical {
    using TileSizes = ScanTiles;
    template <class X> using Args = ArrayProblemArgs<X>;
    static constexpr KernelInfo info{
        .name = "scan-hierarchical", .family = Family::Array, .tiled = true, .untiled = "scan-sequential",
        .sourceFile = "scan_hierarchical.cuh", .barriersPerPhase = 0,
        .summary = "Hierarchical scan of any length in three launches: each block scans its section (Fig. 11.3) and writes its sum to S, one block scans S, then each block adds the sum of the sections before it (PMPP sec. 11.6)",
        .barriers = kernels::AFTER_LOAD | kernels::AFTER_COMPUTE,
        .lecture = "PMPP sec. 11.6 (hierarchical scan); presets scan-hierarchical-64, scan-hierarchical-sums-64",
        .tiles = TileSizes::values, .params = kSequentialScanParams, .grid = "(N + BLOCK_DIM - 1) / BLOCK_DIM",
        .block = "BLOCK_DIM",
        .arrays = "in X_in[N] = 1..8, out Y[N], tmp S[(N + BLOCK_DIM - 1) / BLOCK_DIM]",
        .sizes = "N = 64", .formula = kInclusiveScan, .defaultTile = 16, .scan = true,
        .laterGrids = "1; (N + BLOCK_DIM - 1) / BLOCK_DIM", .sectionSumsInOneBlock = true};
    template <int BLOCK_DIM, class X>
    TS_DEVICE static void run(X& x, const Args<X>& a)
    {
        const unsigned N = static_cast<unsigned>(a.size[0]);
        if (a.launch == 0) {
            kernels::scanSectionsKernel<BLOCK_DIM>(x, a.in[0], a.out, N, a.tmp[0]);
        } else if (a.launch == 1) {
            kernels::scanBlockSumsKernel<BLOCK_DIM>(x, a.tmp[0], (N + BLOCK_DIM - 1) / BLOCK_DIM);
        } else {
            kernels::addBlockSumsKernel(x, a.out, N, a.tmp[0]);
        }
    }
};

}  // namespace registry

/// The optimisation ladder, rung by rung (docs/ladder.md): PMPP's kernels, then one idea
/// per rung on the way to cuBLAS. `bench --kernel ladder` times them all and cuBLAS. The
/// one place that orders the rungs: kernel headers and registry entries carry no rung
/// numbers, and docs/ladder.md's tables follow this list.
inline constexpr const char* kLadderRungs[] = {"matmul-naive", "matmul-tiled", "matmul-coarsened",
                                               "matmul-regtile-1d", "matmul-regtile-2d", "matmul-vectorized",
                                               "matmul-double-buffered", "matmul-conflict-free",
                                               "matmul-tuned", "matmul-warptiled"};

/// A list of registry entries.
template <class... K>
struct KernelList {};

/// Every kernel, in the order list-kernels and the app show them.
using Kernels = KernelList<registry::MatmulNaive, registry::MatmulTiled, registry::MatmulNaiveUncoalesced,
                           registry::MatmulTiledNdsTransposed, registry::MatmulTiledNdsPadded,
                           registry::MatmulCornerTurning,
                           registry::MatmulCoarsened, registry::MatmulRegtile1d, registry::MatmulRegtile2d,
                           registry::MatmulVectorized, registry::MatmulDoubleBuffered,
                           registry::MatmulConflictFree, registry::MatmulTuned, registry::MatmulWarptiled,
                           registry::Conv1dBasic, registry::Conv1dTiled, registry::Conv1dTiledCache,
                           registry::Conv2dBasic, registry::Conv2dTiled, registry::StencilBasic,
                           registry::ReductionSimple, registry::ReductionConvergent, registry::ReductionShared,
                           registry::ReductionSegmented, registry::ReductionSegmentedFloats, registry::ReductionCoarsened,
                           registry::ReductionShuffle, registry::HistogramBasic, registry::HistogramPrivateGlobal,
                           registry::HistogramPrivateShared, registry::HistogramContiguous, registry::HistogramInterleaved,
                           registry::HistogramAggregated, registry::ScanSequential, registry::ScanKoggeStone,
                           registry::ScanKoggeStoneExclusive, registry::ScanKoggeStoneDoubleBuffer, registry::ScanBrentKung,
                           registry::ScanCoarsened, registry::ScanSinglePass, registry::ScanHierarchical>;

namespace detail {
template <class F, class... K>
void forEach(F& f, KernelList<K...>)
{
    (f(K{}), ...);
}
}  // namespace detail

/// Calls `f(K{})` for every registry entry K, in order.
template <class F>
void forEachKernel(F&& f)
{
    detail::forEach(f, Kernels{});
}

/// Calls `f(K{})` for the registry entry K named `name` whose argument type for context X
/// is `Args` (so that a caller holding matrix-multiplication arguments only instantiates
/// the matrix-multiplication kernels). False if there is none.
template <class Args, class X, class F>
bool withKernel(std::string_view name, F&& f)
{
    bool found = false;
    forEachKernel([&](auto k) {
        using K = decltype(k);
        if constexpr (std::is_same_v<typename K::template Args<X>, Args>)
            if (!found && name == K::info.name) {
                found = true;
                f(k);
            }
    });
    return found;
}

namespace detail {
template <int... T, class F>
bool pickTile(Tiles<T...>, int tile, F& f)
{
    if constexpr (sizeof...(T) == 0) {
        f(std::integral_constant<int, 0>{});
        return true;
    } else {
        return ((tile == T && (f(std::integral_constant<int, T>{}), true)) || ...);
    }
}
}  // namespace detail

/// Calls `f(std::integral_constant<int, T>{})` for the compiled tile T of entry K equal to
/// `tile`; for an untiled kernel T is 0 (its block edge is a run-time value). False if K has
/// no instance for `tile`.
template <class K, class F>
bool withTile(int tile, F&& f)
{
    return detail::pickTile(typename K::TileSizes{}, tile, f);
}

}  // namespace ts::sim
