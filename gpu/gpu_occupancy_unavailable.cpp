// The occupancy limits in a build without CUDA: there is no device to read them from.
#include "gpu.hpp"
#include "gpu_occupancy.hpp"

namespace ts::gpu {

sim::DeviceLimits deviceOccupancyLimits() { throw Unavailable(queryDevice().why); }

}  // namespace ts::gpu
