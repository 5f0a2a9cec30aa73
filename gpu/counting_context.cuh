// The instrumented device context: DeviceContext (gpu/device_context.cuh) with one change,
// a global pointer for read-only arrays whose every element read adds 1 to that element's
// counter with atomicAdd. The kernels of kernels/*.cuh are instantiated with it unchanged
// (they declare M and N as `typename X::template GlobalPtr<const float>`), so the GPU
// counts the very loads the simulator counts (docs/design.md, principle 3). Stores are not
// counted; writable arrays stay plain pointers.
#pragma once
#include <type_traits>

#include "device_context.cuh"

#if defined(__CUDACC__)
namespace ts::gpu {

/// One element of a counted read-only array, not yet read. Converting it to float reads
/// the element and counts the read; a CountedLoad that is never converted counts nothing.
class CountedLoad {
public:
    __device__ __forceinline__ CountedLoad(const float* element, unsigned* counter)
        : element_(element), counter_(counter) {}
    __device__ __forceinline__ operator float() const
    {
        atomicAdd(counter_, 1u);
        return *element_;
    }

private:
    const float* element_;
    unsigned* counter_;
};

/// One element of a counted array that the kernel also writes (a reduction's `input`, PMPP
/// Fig. 10.6): reads count as CountedLoad's do, writes are plain stores.
class CountedElement {
public:
    __device__ __forceinline__ CountedElement(float* element, unsigned* counter) : element_(element), counter_(counter) {}
    __device__ __forceinline__ operator float() const
    {
        atomicAdd(counter_, 1u);
        return *element_;
    }
    __device__ __forceinline__ CountedElement& operator=(float v)
    {
        *element_ = v;
        return *this;
    }
    __device__ __forceinline__ CountedElement& operator+=(float v) { return *this = float(*this) + v; }

private:
    float* element_;
    unsigned* counter_;
};

/// A counted input the kernel writes in place (CountingPtr::writable()).
struct CountingWritablePtr {
    float* data;
    unsigned* loads;
    __device__ __forceinline__ CountedElement operator[](int i) const { return CountedElement(data + i, loads + i); }
};

/// `const float*` into global memory with one load counter per element (same length).
struct CountingPtr {
    const float* data;
    unsigned* loads;
    __device__ __forceinline__ CountedLoad operator[](int i) const
    {
        return CountedLoad(data + i, loads + i);
    }
    /// The same array and counters, written by the kernel (sim::GlobalPtr::writable()).
    __device__ __forceinline__ CountingWritablePtr writable() const
    {
        return CountingWritablePtr{const_cast<float*>(data), loads};
    }
};

/// A counted read-only array of another element type (a `const char* data` text, PMPP ch. 9),
/// over the same bytes and with one counter per element.
template <class V>
struct CountingPtrOf {
    const V* data;
    unsigned* loads;
    __device__ __forceinline__ V operator[](long long i) const
    {
        ::atomicAdd(loads + i, 1u);
        return data[i];
    }
};

namespace detail {
template <class T> struct CountingGlobal { using type = T*; };  // written arrays: plain
template <> struct CountingGlobal<const char> { using type = CountingPtrOf<char>; };
template <> struct CountingGlobal<const float> { using type = CountingPtr; };
}  // namespace detail

/// DeviceContext whose read-only global arrays count their element reads.
struct CountingContext : DeviceContext {
    template <class T> using GlobalPtr = typename detail::CountingGlobal<T>::type;

    __device__ __forceinline__ static CountingContext here(unsigned dropMask = 0)
    {
        return CountingContext{DeviceContext::here(dropMask)};
    }

    /// A 128-bit load of elements i .. i + 3 of a counted array: one count each, as the
    /// simulator counts four loads (DeviceContext::ldg4 would take the address of a
    /// CountedLoad).
    __device__ __forceinline__ static float4 ldg4(const CountingPtr& p, long long i)
    {
        for (int q = 0; q < 4; ++q) ::atomicAdd(p.loads + i + q, 1u);
        return *reinterpret_cast<const float4*>(p.data + i);
    }
    using DeviceContext::ldg4;

    /// A counted array as another element type: the same bytes and counters.
    template <class U>
    __device__ __forceinline__ static CountingPtrOf<std::remove_const_t<U>> elementsAs(const CountingPtr& p)
    {
        static_assert(std::is_const_v<U>, "a counted array is read-only");
        return CountingPtrOf<std::remove_const_t<U>>{reinterpret_cast<const std::remove_const_t<U>*>(p.data), p.loads};
    }
    using DeviceContext::elementsAs;
};

}  // namespace ts::gpu
#endif
