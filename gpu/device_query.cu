// The device query: which CUDA device this machine has, or one sentence saying why none is
// usable (no driver, no device, driver too old, device too old for this build).
#include <cuda_runtime.h>

#include <sstream>
#include <string>

#include "gpu.hpp"

namespace ts::gpu {
namespace {

/// CUDA's version number 13000 as "13.0".
std::string cudaVersion(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

/// The oldest compute capability this build has machine code or PTX for
/// (CMAKE_CUDA_ARCHITECTURES starts at 75).
constexpr int kOldestCc = 75;

}  // namespace

DeviceInfo queryDevice()
{
    DeviceInfo d;
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);  // 0 when no driver is installed
    if (driver == 0) {
        d.why = "No NVIDIA driver is installed (libcuda.so.1 was not found), so there is no CUDA "
                "device to run on.";
        return d;
    }
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || driver < runtime) {
        d.why = "The NVIDIA driver supports CUDA up to " + cudaVersion(driver) +
                ", but this build needs CUDA " + cudaVersion(runtime) + "; a newer driver is needed.";
        return d;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        d.why = "The NVIDIA driver (CUDA " + cudaVersion(driver) + ") is installed but found no "
                "CUDA device.";
        return d;
    }
    if (e != cudaSuccess) {
        d.why = std::string("CUDA could not be initialised: ") + cudaGetErrorString(e) + " (" +
                cudaGetErrorName(e) + ").";
        return d;
    }
    cudaDeviceProp p{};
    if (const cudaError_t pe = cudaGetDeviceProperties(&p, 0); pe != cudaSuccess) {
        d.why = std::string("Reading the properties of CUDA device 0 failed: ") +
                cudaGetErrorString(pe) + ".";
        return d;
    }
    int clockKHz = 0;
    cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0);
    d.name = p.name;
    d.ccMajor = p.major;
    d.ccMinor = p.minor;
    d.smCount = p.multiProcessorCount;
    d.clockGHz = clockKHz / 1e6;
    d.globalMemBytes = p.totalGlobalMem;
    d.sharedMemPerBlock = static_cast<int>(p.sharedMemPerBlock);
    d.maxThreadsPerBlock = p.maxThreadsPerBlock;
    d.maxGridX = p.maxGridSize[0];
    d.maxGridY = p.maxGridSize[1];
    if (p.major * 10 + p.minor < kOldestCc) {
        std::ostringstream m;
        m << "The device " << d.name << " has compute capability " << d.computeCapability()
          << ", but this build has code for compute capability " << kOldestCc / 10 << "."
          << kOldestCc % 10 << " and newer only.";
        d.why = m.str();
        return d;
    }
    d.available = true;
    return d;
}

}  // namespace ts::gpu
