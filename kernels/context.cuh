// Execution-context glue shared by every single-source kernel in kernels/*.cuh.
//
// A kernel is a function template over an execution context X (docs/design.md, principle 1).
// nvcc instantiates it with ts::gpu::DeviceContext (gpu/device_context.cuh: plain pointers,
// real __shared__ arrays, __syncthreads()); the host compiler instantiates it with
// ts::sim::ThreadContext (sim/engine/context.hpp), whose accessors record every load, store and
// barrier with its source line. This file is the whole interface a kernel is written
// against; kernels/ includes nothing outside kernels/.
#pragma once

#if defined(__CUDACC__)
#define TS_DEVICE __device__ __forceinline__
#else
#define TS_DEVICE inline
#endif

/// Asks nvcc to unroll the loop that follows completely (`#pragma unroll`). A register
/// tile's arrays (Pvalue, Mreg, ...) stay in registers only when every index into them is a
/// constant, and nvcc's own heuristics stop unrolling once a loop body is large (the
/// 128 multiply-adds of a warp-tiled lane). Nothing in the simulator, which runs the loop.
#if defined(__CUDACC__)
#define TS_UNROLL _Pragma("unroll")
#else
#define TS_UNROLL
#endif

/// Declares a 2D shared-memory array `name[ROWS][COLS]` of element type T, one per block.
/// On the GPU this is a real `__shared__ T name[ROWS][COLS]`; in the simulator it is a
/// recording view of the block's shared memory. `__LINE__` keeps two arrays of the same
/// shape apart.
#define TS_SHARED_2D(T, name, ROWS, COLS) \
    auto&& name = x.template shared2d<T, ROWS, COLS, __LINE__>(#name)

/// Declares a 1D shared-memory array `name[SIZE]` (see TS_SHARED_2D).
#define TS_SHARED_1D(T, name, SIZE) \
    auto&& name = x.template shared1d<T, SIZE, __LINE__>(#name)

namespace ts::kernels {

/// Names of a tiled kernel's barriers, so that a lesson can drop one (PMPP sec. 5.4, the
/// barriers of Fig. 5.9). A context skips `x.syncthreads(B)` when bit B is set in its
/// drop mask; the mask is the same for every thread of the launch, so the skip is block-uniform.
enum Barrier : unsigned {
    ANY_BARRIER = 0,           ///< a barrier that can't be dropped
    AFTER_LOAD = 1u << 0,      ///< the tile is complete before anyone reads it (RAW)
    AFTER_COMPUTE = 1u << 1,   ///< everyone is done with the tile before it is overwritten (WAR)
    /// Not a barrier: the __threadfence() between a block's data and the flag that hands it
    /// to the next block (PMPP sec. 11.7), dropped with the same switch (x.threadfence(FENCE)).
    FENCE = 1u << 2,
};

/// The widest convolution mask the kernels take (elements per side). Constant memory holds
/// one MAX_MASK_WIDTH x MAX_MASK_WIDTH mask, and conv1d-tiled's N_ds has TILE_SIZE +
/// MAX_MASK_WIDTH - 1 slots (preset conv1d-tiled-tile8-mask5). 9 is the widest mask of the
/// bandwidth-reduction tables (docs/references.md).
inline constexpr int MAX_MASK_WIDTH = 9;

}  // namespace ts::kernels
