// Execution-context glue shared by every single-source kernel in kernels/*.cuh.
//
// A kernel is a function template over an execution context X (docs/design.md, principle 1).
// nvcc instantiates it with ts::gpu::DeviceContext (plain pointers, real __shared__ arrays,
// __syncthreads()); the host compiler instantiates it with ts::sim::ThreadContext, whose
// accessors record every load, store and barrier with its source line.
#pragma once

#if defined(__CUDACC__)
#define TS_DEVICE __device__ __forceinline__
#else
#define TS_DEVICE inline
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
};

/// The widest convolution mask the kernels take (elements per side). Constant memory holds
/// one MAX_MASK_WIDTH x MAX_MASK_WIDTH mask, and conv1d-tiled's N_ds has TILE_SIZE +
/// MAX_MASK_WIDTH - 1 slots (preset conv1d-tiled-tile8-mask5). 9 is the widest mask of the
/// bandwidth-reduction tables (docs/references.md).
inline constexpr int MAX_MASK_WIDTH = 9;

}  // namespace ts::kernels

#if defined(__CUDACC__)
namespace ts::gpu {

/// The convolution mask M in constant memory (seed 002 "Host Code": `__constant__ float
/// Mc[MASK_WIDTH][MASK_WIDTH]`, filled with cudaMemcpyToSymbol). A 2D mask fills the first
/// Mask_Width columns of the first Mask_Width rows; a 1D mask is row 0. `static`: without
/// relocatable device code each .cu file has its own copy, filled by its own launcher.
static __constant__ float Mc[kernels::MAX_MASK_WIDTH][kernels::MAX_MASK_WIDTH];

/// The device execution context: the CUDA built-ins, read once per thread, plus the
/// shared-memory and barrier primitives. Everything inlines to the plain CUDA kernel.
struct DeviceContext {
    uint3 threadIdx;
    uint3 blockIdx;
    dim3 blockDim;
    dim3 gridDim;
    unsigned dropMask;   ///< ts::kernels::Barrier bits of the barriers to skip

    /// Pointer types the kernel's parameters use.
    template <class T> using GlobalPtr = T*;

    __device__ __forceinline__ static DeviceContext here(unsigned dropMask = 0) {
        return DeviceContext{::threadIdx, ::blockIdx, ::blockDim, ::gridDim, dropMask};
    }
    __device__ __forceinline__ void syncthreads(unsigned barrier = 0) const {
        if (!(dropMask & barrier)) __syncthreads();
    }

    /// The mask in constant memory as 1D kernels read it: `M[j]`, a constant load.
    __device__ __forceinline__ static const float (&mask1d())[kernels::MAX_MASK_WIDTH] {
        return Mc[0];
    }
    /// The mask in constant memory as 2D kernels read it: `Mc[i][j]`.
    __device__ __forceinline__ static const float (&mask2d())[kernels::MAX_MASK_WIDTH][kernels::MAX_MASK_WIDTH] {
        return Mc;
    }

    template <class T, int ROWS, int COLS, int ID>
    __device__ __forceinline__ static T (&shared2d(const char*))[ROWS][COLS] {
        __shared__ T storage[ROWS][COLS];
        return storage;
    }
    template <class T, int SIZE, int ID>
    __device__ __forceinline__ static T (&shared1d(const char*))[SIZE] {
        __shared__ T storage[SIZE];
        return storage;
    }
};

}  // namespace ts::gpu
#endif
