// Helpers shared by the GPU tests: skipping without a device, comparing floats bit for bit.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu.hpp"

namespace ts::gpu::test {

/// True when TILESCOPE_REQUIRE_GPU=1: then a missing device fails the tests.
inline bool gpuRequired()
{
    const char* v = std::getenv("TILESCOPE_REQUIRE_GPU");
    return v && std::string(v) == "1";
}

/// "" if a and b hold the same floats bit for bit, else where and how they first differ.
inline std::string bitDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
        return "sizes differ: " + std::to_string(a.size()) + " and " + std::to_string(b.size());
    for (size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) {
            std::ostringstream m;
            m.precision(9);
            m << "element " << i << " differs: " << a[i] << " vs " << b[i];
            return m.str();
        }
    return {};
}

}  // namespace ts::gpu::test

/// Skips the test (or fails it, with TILESCOPE_REQUIRE_GPU=1) when no CUDA device is usable.
#define TS_REQUIRE_GPU()                                                          \
    do {                                                                          \
        const ts::gpu::DeviceInfo dev_ = ts::gpu::queryDevice();                  \
        if (!dev_.available) {                                                    \
            if (ts::gpu::test::gpuRequired()) FAIL() << dev_.why;                 \
            GTEST_SKIP() << dev_.why;                                             \
        }                                                                         \
    } while (0)
