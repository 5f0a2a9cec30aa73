// The limits of this machine's GPU that occupancy depends on, for the `current` occupancy
// profile (sim/teaching/occupancy.hpp). Plain C++ (no CUDA headers): built from
// gpu/device_occupancy.cu with CUDA, or from gpu/gpu_occupancy_unavailable.cpp
// without it.
#pragma once
#include "sim/teaching/occupancy.hpp"

namespace ts::gpu {

/// The occupancy limits of CUDA device 0, read with cudaGetDeviceProperties (threads,
/// blocks, registers and shared memory per SM, per-block limits, reserved shared memory per
/// block). Throws Unavailable (gpu/gpu.hpp; one sentence: no driver, no device, built
/// without CUDA) when there is no usable device.
sim::DeviceLimits deviceOccupancyLimits();

}  // namespace ts::gpu
