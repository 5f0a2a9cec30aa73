// One fused multiply-add of floats, the simulator's (sim/engine/context.hpp) and the CPU
// references' (reference.cpp, conv_problem.cpp): x * y + z with one rounding, std::fma.
#pragma once
#include <cmath>
#include <cstdint>

namespace ts::sim {

/// std::fma(x, y, z) for floats. Natively exactly that (one instruction or glibc's fmaf).
/// In the web build std::fma is a call of musl's fmaf (WebAssembly has no fused
/// multiply-add); its common case is inline here, the same arithmetic with the same test:
/// x * y is exact in a double, and x * y + z rounded to a double and then to a float gives
/// the single rounding unless the double lies exactly halfway between two floats (or is not
/// finite), where fmaf itself is called. So the result is fmaf's, bit for bit.
inline float fusedMultiplyAdd(float x, float y, float z)
{
#if defined(__EMSCRIPTEN__)
    const double xy = static_cast<double>(x) * y;
    const double result = xy + z;
    const uint64_t u = __builtin_bit_cast(uint64_t, result);   // std::bit_cast: not in its libc++
    if ((u & 0x1fffffff) != 0x10000000 || (u >> 52 & 0x7ff) == 0x7ff) [[likely]]
        return static_cast<float>(result);
#endif
    return std::fma(x, y, z);
}

}  // namespace ts::sim
