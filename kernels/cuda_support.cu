// Checked CUDA runtime calls and device memory (see cuda_support.hpp).
#include "cuda_support.hpp"

#include <sstream>
#include <string>

namespace ts::gpu::detail {

void check(cudaError_t e, const char* what)
{
    if (e == cudaSuccess) return;
    throw LaunchError(std::string(what) + " failed: " + cudaGetErrorString(e) + " (" +
                      cudaGetErrorName(e) + ").");
}

const DeviceInfo& requireDevice()
{
    static const DeviceInfo info = queryDevice();
    if (!info.available) throw Unavailable(info.why);
    return info;
}

namespace {
std::string outOfMemory(size_t needed)
{
    size_t freeBytes = 0, total = 0;
    cudaMemGetInfo(&freeBytes, &total);
    std::ostringstream m;
    m << "Out of GPU memory: the run needs " << (needed + (1u << 20) - 1) / (1u << 20) << " MiB, "
      << freeBytes / (1u << 20) << " MiB are free.";
    return m.str();
}
}  // namespace

void requireFreeMemory(size_t bytes)
{
    size_t freeBytes = 0, total = 0;
    check(cudaMemGetInfo(&freeBytes, &total), "asking the device how much memory is free");
    if (bytes > freeBytes) throw LaunchError(outOfMemory(bytes));
}

void* deviceAllocate(size_t bytes)
{
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // clear the (non-sticky) error so later calls are not blamed
        throw LaunchError(outOfMemory(bytes));
    }
    check(e, "allocating device memory");
    return p;
}

}  // namespace ts::gpu::detail
