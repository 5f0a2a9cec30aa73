// The occupancy limits of device 0 from cudaGetDeviceProperties (see gpu_occupancy.hpp).
#include <cuda_runtime.h>

#include "gpu.hpp"
#include "gpu_occupancy.hpp"

namespace ts::gpu {

sim::DeviceLimits deviceOccupancyLimits()
{
    const DeviceInfo info = queryDevice();
    if (!info.available) throw Unavailable(info.why);
    cudaDeviceProp p{};
    if (const cudaError_t e = cudaGetDeviceProperties(&p, 0); e != cudaSuccess)
        throw Unavailable(std::string("Reading the properties of CUDA device 0 failed: ") +
                          cudaGetErrorString(e) + ".");
    sim::DeviceLimits d;
    d.name = p.name;
    d.ccMajor = p.major;
    d.ccMinor = p.minor;
    d.warpSize = p.warpSize;
    d.maxThreadsPerBlock = p.maxThreadsPerBlock;
    d.maxThreadsPerSm = p.maxThreadsPerMultiProcessor;
    d.maxBlocksPerSm = p.maxBlocksPerMultiProcessor;
    d.regsPerSm = p.regsPerMultiprocessor;
    d.regsPerBlock = p.regsPerBlock;
    d.smemPerSm = static_cast<int>(p.sharedMemPerMultiprocessor);
    d.smemPerBlockOptin = static_cast<int>(p.sharedMemPerBlockOptin);
    d.smemReservedPerBlock = static_cast<int>(p.reservedSharedMemPerBlock);
    return d;
}

}  // namespace ts::gpu
