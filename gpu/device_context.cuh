// The device execution context: what nvcc instantiates the single-source kernels of
// kernels/*.cuh with for a real launch. Plain pointers, real __shared__ arrays,
// __syncthreads(), and the convolution mask in __constant__ memory. The GPU runtime's side of
// the context interface in kernels/context.cuh.
#pragma once
#include "kernels/context.cuh"

#if defined(__CUDACC__)
namespace ts::gpu {

/// The convolution mask M in constant memory (host code of PMPP sec. 7.3: `__constant__ float
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
    /// Array `p` with elements of type U: the described problem's buffers hold the bytes of
    /// the element types its arrays declare (`char`, `unsigned int`; gpu/array_launch.cu).
    template <class U, class T>
    __device__ __forceinline__ static U* elementsAs(T* p) {
        return reinterpret_cast<U*>(p);
    }

    __device__ __forceinline__ static DeviceContext here(unsigned dropMask = 0) {
        return DeviceContext{::threadIdx, ::blockIdx, ::blockDim, ::gridDim, dropMask};
    }
    /// Elements i .. i + 3 of global array p in one 128-bit load (LDG.128); i a multiple of 4.
    template <class P>
    __device__ __forceinline__ static float4 ldg4(P p, long long i) {
        return *reinterpret_cast<const float4*>(&p[i]);
    }
    /// Elements i .. i + 3 of global array p written in one 128-bit store (STG.128).
    template <class P>
    __device__ __forceinline__ static void stg4(P p, long long i, const float4& v) {
        *reinterpret_cast<float4*>(&p[i]) = v;
    }
    /// Slots c .. c + 3 of a shared row in one 128-bit load (LDS.128); c a multiple of 4.
    template <class T, int N>
    __device__ __forceinline__ static float4 lds4(T (&row)[N], long long c) {
        return *reinterpret_cast<const float4*>(&row[c]);
    }
    /// Slots c .. c + 3 of a shared row written in one 128-bit store (STS.128).
    template <class T, int N>
    __device__ __forceinline__ static void sts4(T (&row)[N], long long c, const float4& v) {
        *reinterpret_cast<float4*>(&row[c]) = v;
    }
    /// The simulator's tag for an iteration of an unrolled loop (which instruction a guarded
    /// access belongs to): nothing on the GPU, where each unrolled iteration has its own.
    struct Unrolled {
        __device__ __forceinline__ ~Unrolled() {}
    };
    __device__ __forceinline__ static Unrolled unrolled(unsigned) { return {}; }
    /// A branch condition the simulator counts per warp (ThreadContext::branch): `cond` here.
    __device__ __forceinline__ static bool branch(bool cond) { return cond; }
    /// CUDA's atomicAdd and atomicExch on a float of global memory; `p` alone is element 0.
    __device__ __forceinline__ static float atomicAdd(float* address, float val) { return ::atomicAdd(address, val); }
    __device__ __forceinline__ static float atomicExch(float* address, float val) { return ::atomicExch(address, val); }
    /// The same on int and unsigned int elements (PMPP ch. 9's bins), global or shared.
    __device__ __forceinline__ static int atomicAdd(int* address, int val) { return ::atomicAdd(address, val); }
    __device__ __forceinline__ static unsigned atomicAdd(unsigned* address, unsigned val) { return ::atomicAdd(address, val); }
    __device__ __forceinline__ static int atomicExch(int* address, int val) { return ::atomicExch(address, val); }
    __device__ __forceinline__ static unsigned atomicExch(unsigned* address, unsigned val) { return ::atomicExch(address, val); }
    /// CUDA's warp shuffles and __syncwarp (ThreadContext::shfl_sync and its kin say what the
    /// simulator checks of them).
    template <class T>
    __device__ __forceinline__ static T shfl_sync(unsigned mask, T var, int srcLane, int width = 32) {
        return __shfl_sync(mask, var, srcLane, width);
    }
    template <class T>
    __device__ __forceinline__ static T shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) {
        return __shfl_up_sync(mask, var, delta, width);
    }
    template <class T>
    __device__ __forceinline__ static T shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) {
        return __shfl_down_sync(mask, var, delta, width);
    }
    template <class T>
    __device__ __forceinline__ static T shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32) {
        return __shfl_xor_sync(mask, var, laneMask, width);
    }
    __device__ __forceinline__ static void syncwarp(unsigned mask = 0xffffffffu) { __syncwarp(mask); }
    /// fmaf(a, b, c): one fused multiply-add (FFMA), as the simulator's x.fmaf computes it.
    __device__ __forceinline__ static float fmaf(float a, float b, float c) { return ::fmaf(a, b, c); }
    __device__ __forceinline__ void syncthreads(unsigned barrier = 0) const {
        if (!(dropMask & barrier)) __syncthreads();
    }
    /// __threadfence(), skipped when `barrier` (kernels::FENCE) is in the drop mask.
    __device__ __forceinline__ void threadfence(unsigned barrier = 0) const {
        if (!(dropMask & barrier)) __threadfence();
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
