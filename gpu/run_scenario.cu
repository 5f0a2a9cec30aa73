// One scenario on the GPU on given inputs: the plain kernel (runPlain) and the counting
// instantiation (runCounted), compared by the CLI's verify and the GPU tests with the
// simulator bit for bit and count for count.
#include <tuple>
#include <sstream>

#include "cublas_reference.hpp"
#include "array_launch.hpp"
#include "conv_launch.hpp"
#include "cuda_support.hpp"
#include "gpu.hpp"
#include "matmul_launch.hpp"

namespace ts::gpu {
namespace {
using namespace detail;

/// Device copies of M and N and a poisoned P (every element NaN until the kernel writes
/// it), after checking the launch's preconditions and the free memory.
struct Operands {
    DeviceBuffer<float> M, N, P;
    Operands(const sim::Scenario& s, const std::vector<float>& hM, const std::vector<float>& hN)
        : M(hM.size()), N(hN.size()), P(static_cast<size_t>(s.j) * s.l)
    {
        M.upload(hM, "copying M to the device");
        N.upload(storedN(s, hN), "copying N to the device");
        P.fill(0xFF, "poisoning P");
    }
};

/// Checks the device, the kernel, the launch and the input sizes of `s`. Throws
/// Unavailable or LaunchError.
void prepare(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N,
                     size_t extraBytes)
{
    const DeviceInfo& d = requireDevice();
    checkLaunchable(d, s);
    for (auto [what, have, want] : {std::tuple{"M", M.size(), 1ull * s.j * s.k},
                                    std::tuple{"N", N.size(), 1ull * s.k * s.l}})
        if (have != want) {
            std::ostringstream e;
            e << what << " has " << have << " elements, but the scenario (" << s.j << "x" << s.k << "x"
              << s.l << ") needs " << want << ".";
            throw LaunchError(e.str());
        }
    requireFreeMemory(4 * (M.size() + N.size() + 1ull * s.j * s.l) + extraBytes);
}
}  // namespace

std::vector<float> runPlain(const sim::Scenario& s, const std::vector<float>& M,
                            const std::vector<float>& N)
{
    if (sim::isConvolution(s)) return runConvPlain(s, M, N);
    if (sim::familyOf(s) == sim::Family::Array) return runArrayPlain(s, M, N);
    prepare(s, M, N, 0);
    Operands d(s, M, N);
    if (isCublas(s.kernel))
        CublasSgemm().run(d.M.get(), d.N.get(), d.P.get(), s.j, s.k, s.l);
    else
        launchMatmul(s, d.M.get(), d.N.get(), d.P.get());
    check(cudaDeviceSynchronize(), ("running " + s.kernel).c_str());
    return d.P.download("copying P back from the device");
}

CountedRun runCounted(const sim::Scenario& s, const std::vector<float>& M,
                      const std::vector<float>& N)
{
    if (sim::isConvolution(s)) return runConvCounted(s, M, N);
    if (sim::familyOf(s) == sim::Family::Array) return runArrayCounted(s, M, N);
    prepare(s, M, N, 4 * (M.size() + N.size()));
    Operands d(s, M, N);
    DeviceBuffer<unsigned> loadsM(M.size()), loadsN(N.size());
    loadsM.fill(0, "zeroing the load counters of M");
    loadsN.fill(0, "zeroing the load counters of N");
    launchMatmulCounted(s, d.M.get(), d.N.get(), d.P.get(), loadsM.get(), loadsN.get());
    check(cudaDeviceSynchronize(), ("running the counting instantiation of " + s.kernel).c_str());
    CountedRun r;
    r.P = d.P.download("copying P back from the device");
    r.loadsM = loadsM.download("copying the load counts of M back");
    r.loadsN = loadsN.download("copying the load counts of N back");
    return r;
}

}  // namespace ts::gpu
