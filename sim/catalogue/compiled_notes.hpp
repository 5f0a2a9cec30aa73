// What nvcc makes of some source lines of the registry's kernels, where the instructions it
// emits differ from the simulator's per-element model (so the hardware's counts on that line
// differ from the simulator's): data for the registry's entries (KernelInfo::compiledNotes),
// shown by the warp view and the Code panel beside the line. Kept beside the registry so that
// a kernel's notes come with its entry, never from a list keyed by its name.
#pragma once
#include "sim/catalogue/kernel_info.hpp"

namespace ts::sim::notes {

// Where these notes come from: nvcc 13.0 -arch=sm_90 -O3 -lineinfo on gpu/matmul_launch.cu,
// nvdisasm -g (the shared-memory instructions of each DeviceContext instance by source line),
// and Nsight Compute 2025 on an H100 (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st,
// smsp__inst_executed_op_shared_ld/st) beside `tilescope-cli simulate` on the same sizes.
//   - The inner loop is unrolled; a row of Mds, Mds[ty][i..i+3], is read with one LDS.128 at
//     TILE_WIDTH 4 to 32 and Mds[ty][0..1] with one LDS.64 at 2. Nds[i][tx] (and the padded
//     kernel's Nds[tx][i], whose rows of TILE_WIDTH + 1 words are not 16-byte aligned) stay
//     one LDS per element; the transposed kernel's Nds[tx][i] is vectorised like Mds.
//   - Each if/else of the tile loads ends in one STS of the selected value: 2 STS per phase
//     (matmul-tiled at every TILE_WIDTH, the transposed and padded kernels from 4 up; at 2
//     their unrolled phases keep some branches apart), where the model counts a store on
//     the load line and one on the zero-fill line wherever a warp's lanes take both.
inline constexpr const char* kVector4 = "on the GPU: one LDS.128 reads 4 of these elements";
inline constexpr const char* kVector2 = "on the GPU: one LDS.64 reads 2 of these elements";
inline constexpr const char* kOneStore = "on the GPU: this if/else is one STS";
inline constexpr const char* kTiledMds4 =
    "nvcc unrolls the loop and reads Mds[ty][i..i+3] with one 128-bit load (LDS.128, 2 wavefronts); Nds[i][tx] stays "
    "one 32-bit load per element. Nsight Compute on an H100, 64 x 64 at TILE_WIDTH 16: 10,240 shared load "
    "instructions and 12,288 wavefronts for the grid, where this per-element model counts 16,384 and 16,384.";
inline constexpr const char* kTiledMds2 =
    "nvcc unrolls the loop and reads Mds[ty][0..1] with one 64-bit load (LDS.64); Nds[i][tx] stays one 32-bit load "
    "per element. Nsight Compute on an H100, 4 x 4 at TILE_WIDTH 2: 24 shared load instructions and 24 wavefronts, "
    "where this per-element model counts 32 and 32.";
inline constexpr const char* kStore =
    "nvcc compiles the if/else into one store (STS) of the selected value, the loaded element or 0: where a warp's "
    "lanes take both branches the GPU issues one store, the model two (one on each line). Nsight Compute on an H100, "
    "matmul-tiled 60 x 60 at TILE_WIDTH 16: 1,024 shared store instructions, where this model counts 1,264.";
inline constexpr const char* kTransposed4 =
    "nvcc unrolls the loop and reads Mds[ty][i..i+3] and Nds[tx][i..i+3] with one 128-bit load (LDS.128) each. The "
    "conflicts are real but fewer: Nsight Compute on an H100, 64 x 64 at TILE_WIDTH 16: 4,096 shared load "
    "instructions, 36,864 wavefronts and 24,576 bank conflicts for the grid, where this per-element model counts "
    "16,384 requests and 73,728 wavefronts.";
inline constexpr const char* kTransposed2 =
    "nvcc unrolls the loop and reads Mds[ty][0..1] and Nds[tx][0..1] with one 64-bit load (LDS.64) each, so the "
    "GPU issues half the requests counted here and its wavefronts on this line differ.";
inline constexpr const char* kPaddedMds4 =
    "nvcc unrolls the loop and reads Mds[ty][i..i+3] with one 128-bit load (LDS.128, 2 wavefronts); Nds[tx][i] stays "
    "one 32-bit load per element (a padded row of TILE_WIDTH + 1 words is not 16-byte aligned). Nsight Compute on an "
    "H100, 64 x 64 at TILE_WIDTH 16: 10,240 shared load instructions and 12,288 wavefronts for the grid, where this "
    "per-element model counts 16,384 and 16,384.";
inline constexpr const char* kPaddedMds2 =
    "nvcc unrolls the loop and reads Mds[ty][0..1] with one 64-bit load (LDS.64); Nds[tx][i] stays one 32-bit load "
    "per element, so the GPU issues fewer Mds requests than counted here.";

inline constexpr const char* kTiledUse = "Pvalue += Mds[ty][i] * Nds[i][tx];";
inline constexpr const char* kTransposedUse = "Pvalue += Mds[ty][i] * Nds[tx][i];";
inline constexpr const char* kMdsLoad = "Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];";
inline constexpr const char* kMdsZero = "Mds[ty][tx] = 0;";
inline constexpr const char* kNdsLoad = "Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];";
inline constexpr const char* kNdsZero = "Nds[ty][tx] = 0;";
inline constexpr const char* kNdsLoadT = "Nds[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];";
inline constexpr const char* kNdsZeroT = "Nds[tx][ty] = 0;";


/// matmul-tiled (PMPP Fig. 5.9, 5.13).
inline constexpr CompiledNote kTiledNotes[] = {
    {kTiledUse, "Mds", false, 4, 32, kVector4, kTiledMds4},
    {kTiledUse, "Mds", false, 2, 2, kVector2, kTiledMds2},
    {kMdsLoad, "Mds", true, 2, 32, kOneStore, kStore},
    {kMdsZero, "Mds", true, 2, 32, kOneStore, kStore},
    {kNdsLoad, "Nds", true, 2, 32, kOneStore, kStore},
    {kNdsZero, "Nds", true, 2, 32, kOneStore, kStore},
};

/// matmul-tiled-nds-transposed.
inline constexpr CompiledNote kTransposedNotes[] = {
    {kTransposedUse, "Mds", false, 4, 32, kVector4, kTransposed4},
    {kTransposedUse, "Nds", false, 4, 32, kVector4, kTransposed4},
    {kTransposedUse, "Mds", false, 2, 2, kVector2, kTransposed2},
    {kTransposedUse, "Nds", false, 2, 2, kVector2, kTransposed2},
    {kMdsLoad, "Mds", true, 4, 32, kOneStore, kStore},
    {kMdsZero, "Mds", true, 4, 32, kOneStore, kStore},
    {kNdsLoadT, "Nds", true, 4, 32, kOneStore, kStore},
    {kNdsZeroT, "Nds", true, 4, 32, kOneStore, kStore},
};

/// matmul-tiled-nds-padded.
inline constexpr CompiledNote kPaddedNotes[] = {
    {kTransposedUse, "Mds", false, 4, 32, kVector4, kPaddedMds4},
    {kTransposedUse, "Mds", false, 2, 2, kVector2, kPaddedMds2},
    {kMdsLoad, "Mds", true, 4, 32, kOneStore, kStore},
    {kMdsZero, "Mds", true, 4, 32, kOneStore, kStore},
    {kNdsLoadT, "Nds", true, 4, 32, kOneStore, kStore},
    {kNdsZeroT, "Nds", true, 4, 32, kOneStore, kStore},
};

/// The reductions that run their tree in shared memory (PMPP Figs. 10.11, 10.13, 10.15):
/// nvcc turns the tree's `if` into predicated instructions, so Nsight Compute counts no
/// branch on that line (notes with no array are about a line's branch, not a memory access).
inline constexpr const char* kPredicatedBrief = "on the GPU: predicated, no branch instruction";
inline constexpr const char* kPredicated =
    "nvcc compiles this if, whose body is a shared load, an add and a shared store, to predicated instructions: "
    "no branch, so Nsight Compute counts no divergent branch on this line, though the lanes whose condition is "
    "false still idle through it. Nsight Compute on an H200, reduction-shared at 1024 threads: 352 uniform and "
    "0 divergent branch targets, the loop's own branch alone, where the source's if has 320 warp executions, "
    "5 of them divergent.";
inline constexpr CompiledNote kSharedTreeNotes[] = {
    {"if (x.branch(x.threadIdx.x < stride)) {", "", false, 1, 1024, kPredicatedBrief, kPredicated},
};
/// The contiguous coarsened histogram (kernels/histogram_coarsened_contiguous.cuh, PMPP Fig.
/// 9.12): nvcc unrolls the loop of at most CFACTOR characters by 4 after a remainder loop, so
/// a warp whose lanes run different trip counts (at a ragged end of the text) issues the
/// remainder's load and atomic and the unrolled body's separately: one request more than the
/// source's iterations there (scripts/gpu-histogram.sh, 100 001 characters: 3129 against 3128).
inline constexpr CompiledNote kContiguousHistogramNotes[] = {
    {"int alphabet_position = data[i] - 'a';", "data", false, 1, 1024, "nvcc: remainder loop, then unrolled by 4",
     "nvcc unrolls this loop by 4 after a remainder loop: a warp whose lanes have different trip counts (a ragged "
     "end of the text) issues the remainder's loads and the unrolled body's separately, one request more than the "
     "source's iterations."},
};
inline constexpr CompiledNote kSegmentedTreeNotes[] = {
    {"if (x.branch(t < stride)) {", "", false, 1, 1024, kPredicatedBrief, kPredicated},
};
/// The warp-shuffle finish (kernels/reduction_shuffle.cuh): nothing follows its `if (t <
/// WARP_SIZE)` block, so nvcc makes the test a predicated EXIT of the threads that fail it
/// (`@P0 EXIT`, cuobjdump -sass on sm_90), no branch.
inline constexpr const char* kEarlyExitBrief = "on the GPU: a predicated exit, no branch instruction";
inline constexpr const char* kEarlyExit =
    "Nothing follows this if's block, so nvcc compiles the test as a predicated EXIT of the threads that fail it "
    "(@P0 EXIT in the SASS on sm_90), no branch: Nsight Compute counts one uniform branch target fewer per warp "
    "than the source has, e.g. 6 a warp at 1024 threads a block, against the source's 7.";
inline constexpr CompiledNote kShuffleFinishNotes[] = {
    {"if (x.branch(t < stride)) {", "", false, 1, 1024, kPredicatedBrief, kPredicated},
    {"if (x.branch(t < WARP_SIZE)) {", "", false, 1, 1024, kEarlyExitBrief, kEarlyExit},
};

}  // namespace ts::sim::notes
