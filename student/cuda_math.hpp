// The math functions a student's kernel may call (frontend/scan.hpp, allowedFunctions()), as
// its module sees them: inside namespace ts_student, where the translated kernel lives
// (student/module.cpp wraps it so), with CUDA's overloads. Each gives the bits CUDA's does:
// an exact operation (ceil, floor, trunc, round, fabs, abs, fmin, fmax, min, max) or a correctly
// rounded one (sqrt, fma); the functions the CPU and the GPU round differently (expf, sinf,
// ...) are not here, and a kernel file that calls one is refused.
//
// Where the CPU's library and the GPU part, these follow the GPU, as
// tests/student/cuda_math_gpu_check.cu checks on a device against CUDA's own functions: a
// float NaN result is CUDA's one NaN, 0x7fffffff, whatever NaN went in; fmin, fmax, min and
// max order -0 below +0, and a NaN operand, signalling too, gives the other operand. Every
// float result has the GPU's bits; a double one too, but for which NaN comes out where a NaN
// went in (the simulator's arrays are floats).
//
// CUDA's C++ overloads are kept: `ceil(x)` of a float is the float ceil (a float result, as
// PMPP Fig. 5.13's `ceil(Width/(float)TILE_WIDTH)`), `min` and `max` of floats are fminf and
// fmaxf, of ints and unsigned ints the integer ones (an int and an unsigned int compare as
// unsigned, as CUDA's do). The front end's prelude (frontend/translate.cpp) declares the
// same set, so that a call resolves to the same overload when the file is parsed and when
// its module is built. The simulator's memory references convert to float, so `fabsf(M[i])`
// loads M[i] once and works on its value.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sim/engine/fma.hpp"

namespace ts_student {

namespace cuda_math_detail {
/// x, or CUDA's NaN where x is a NaN (the GPU gives no other from these functions).
inline float canonical(float x)
{
    if (x == x) return x;
    const uint32_t nan = 0x7fffffffu;
    float f;
    std::memcpy(&f, &nan, sizeof f);
    return f;
}
/// Doubles keep the CPU's NaN, which is the GPU's for these functions but fmin and fmax of two.
inline double canonical(double x) { return x; }
/// IEEE 754's minimumNumber and maximumNumber, as the GPU's min and max instructions: a NaN
/// operand gives the other one (two give the first, as CUDA's NaN for floats), and -0 is
/// below +0.
template <class T> T least(T a, T b)
{
    if (a != a) return b != b ? canonical(a) : b;
    if (b != b) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}
template <class T> T greatest(T a, T b)
{
    if (a != a) return b != b ? canonical(a) : b;
    if (b != b) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
}  // namespace cuda_math_detail

// Exact: a float that is an integer value, or the sign bit cleared.
inline float ceilf(float x) { return cuda_math_detail::canonical(std::ceil(x)); }
inline float floorf(float x) { return cuda_math_detail::canonical(std::floor(x)); }
inline float truncf(float x) { return cuda_math_detail::canonical(std::trunc(x)); }
inline float roundf(float x) { return cuda_math_detail::canonical(std::round(x)); }   // halfway away from zero, as CUDA's
inline float fabsf(float x) { return cuda_math_detail::canonical(std::fabs(x)); }
inline float ceil(float x) { return ceilf(x); }
inline double ceil(double x) { return cuda_math_detail::canonical(std::ceil(x)); }
inline float floor(float x) { return floorf(x); }
inline double floor(double x) { return cuda_math_detail::canonical(std::floor(x)); }
inline float trunc(float x) { return truncf(x); }
inline double trunc(double x) { return cuda_math_detail::canonical(std::trunc(x)); }
inline float round(float x) { return roundf(x); }
inline double round(double x) { return cuda_math_detail::canonical(std::round(x)); }
inline float fabs(float x) { return fabsf(x); }
inline double fabs(double x) { return x != x ? x : std::fabs(x); }   // the GPU keeps a double NaN's sign
// abs of the most negative integer is itself, as on the GPU (no overflow here either).
inline int abs(int a) { return static_cast<int>(a < 0 ? 0u - static_cast<unsigned int>(a) : static_cast<unsigned int>(a)); }
inline long abs(long a)
{
    return static_cast<long>(a < 0 ? 0ul - static_cast<unsigned long>(a) : static_cast<unsigned long>(a));
}
inline long long abs(long long a)
{
    return static_cast<long long>(a < 0 ? 0ull - static_cast<unsigned long long>(a) : static_cast<unsigned long long>(a));
}
inline float abs(float x) { return fabsf(x); }
inline double abs(double x) { return fabs(x); }

// Exact: one of the two operands.
inline float fminf(float a, float b) { return cuda_math_detail::least(a, b); }
inline float fmaxf(float a, float b) { return cuda_math_detail::greatest(a, b); }
inline float fmin(float a, float b) { return fminf(a, b); }
inline double fmin(double a, double b) { return cuda_math_detail::least(a, b); }
inline float fmax(float a, float b) { return fmaxf(a, b); }
inline double fmax(double a, double b) { return cuda_math_detail::greatest(a, b); }

// Correctly rounded on both: IEEE 754's square root and fused multiply-add.
inline float sqrtf(float x) { return cuda_math_detail::canonical(std::sqrt(x)); }
inline float sqrt(float x) { return sqrtf(x); }
inline double sqrt(double x) { return cuda_math_detail::canonical(std::sqrt(x)); }
inline float fmaf(float a, float b, float c) { return cuda_math_detail::canonical(ts::sim::fusedMultiplyAdd(a, b, c)); }
inline float fma(float a, float b, float c) { return fmaf(a, b, c); }
inline double fma(double a, double b, double c) { return cuda_math_detail::canonical(std::fma(a, b, c)); }

// CUDA's min and max: integers compared as their types (a signed and an unsigned operand as
// unsigned), floating point as fmin and fmax.
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned int>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned int>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return fminf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double min(float a, double b) { return fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return fmin(a, static_cast<double>(b)); }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned int>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned int>(b)); }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double max(float a, double b) { return fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return fmax(a, static_cast<double>(b)); }

}  // namespace ts_student
