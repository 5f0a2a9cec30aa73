// The GPU path of a build without CUDA: every call says plainly why there is no GPU.
#include "gpu.hpp"
#include "kernel_resources.hpp"
#include "student_launch.hpp"

namespace ts::gpu {
namespace {
const char* kWhy = "This build of TileScope has no GPU path: it was built without the CUDA "
                   "toolkit (nvcc was not found in /usr/local/cuda).";
}

DeviceInfo queryDevice()
{
    DeviceInfo d;
    d.why = kWhy;
    return d;
}

BenchResult bench(const BenchRequest&, const std::function<void(double)>&) { throw Unavailable(kWhy); }

Ceilings measureCeilings() { throw Unavailable(kWhy); }

KernelResources kernelResources(const sim::Scenario&) { throw Unavailable(kWhy); }

CountedRun runCounted(const sim::Scenario&, const std::vector<float>&, const std::vector<float>&)
{
    throw Unavailable(kWhy);
}

std::vector<float> runPlain(const sim::Scenario&, const std::vector<float>&, const std::vector<float>&)
{
    throw Unavailable(kWhy);
}

double compileStudentKernel(const StudentKernel&, const std::string&) { throw Unavailable(kWhy); }

StudentBuild buildStudentKernel(const StudentKernel&) { throw Unavailable(kWhy); }

std::vector<float> runStudentPlain(const StudentKernel&, const sim::Scenario&, const std::vector<float>&,
                                   const std::vector<float>&)
{
    throw Unavailable(kWhy);
}

BenchResult benchStudent(const StudentKernel&, const BenchRequest&, const std::function<void(double)>&)
{
    throw Unavailable(kWhy);
}

StudentGpuCheck checkStudentOnGpu(const StudentKernel&, const sim::Scenario&, const std::string&, int)
{
    throw Unavailable(kWhy);
}

}  // namespace ts::gpu
