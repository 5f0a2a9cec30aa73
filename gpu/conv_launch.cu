// The device instantiations of the single-source convolution kernels and their launchers
// (see conv_launch.hpp). The kernel bodies live in kernels/conv*.cuh only; the __global__
// functions here bind the execution context, and this file's copy of the constant-memory
// mask Mc (gpu/device_context.cuh) is the one they read.
#include "conv_launch.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "registry_launch.cuh"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu::detail {
namespace {

using kernels::MAX_MASK_WIDTH;

template <class X>
using Args = sim::ConvArgs<X>;

/// Launches the kernel of `s` with context X (gpu/registry_launch.cuh). N is X's read-only
/// pointer; the mask must already be in this file's Mc.
template <class X>
void launch(const sim::Scenario& s, typename X::template GlobalPtr<const float> N, float* P)
{
    launchRegistered<X>(s, Args<X>{N, P, s.maskWidth, s.height, s.width});
}

/// Elements of N and P, and of the mask M.
size_t sizeN(const sim::Scenario& s) { return static_cast<size_t>(s.height) * s.width; }
size_t sizeM(const sim::Scenario& s)
{
    return sim::familyOf(s) == sim::Family::Conv2D ? static_cast<size_t>(s.maskWidth) * s.maskWidth
                                                   : static_cast<size_t>(s.maskWidth);
}

/// Copies the mask into constant memory Mc (PMPP sec. 7.3). Row i
/// of a 2D mask goes to Mc[i]; a 1D mask is row 0.
void uploadMask(const sim::Scenario& s, const std::vector<float>& M)
{
    float padded[MAX_MASK_WIDTH][MAX_MASK_WIDTH] = {};
    const int rows = sim::familyOf(s) == sim::Family::Conv2D ? s.maskWidth : 1;
    for (int i = 0; i < rows; ++i)
        std::copy_n(M.data() + static_cast<size_t>(i) * s.maskWidth, s.maskWidth, padded[i]);
    check(cudaMemcpyToSymbol(Mc, padded, sizeof padded), "copying the mask M to constant memory");
}

/// Checks the device, the scenario and the input sizes. Throws Unavailable or LaunchError.
void prepare(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    requireDevice();
    if (!sim::isConvolution(s)) throw LaunchError("'" + s.kernel + "' is not a convolution kernel.");
    if (std::string e = sim::validate(s); !e.empty()) throw LaunchError(e);
    for (auto [what, have, want] : {std::tuple{"M", M.size(), sizeM(s)}, std::tuple{"N", N.size(), sizeN(s)}})
        if (have != want) {
            std::ostringstream e;
            e << what << " has " << have << " elements, but the scenario (" << s.kernel << ", " << s.height << "x"
              << s.width << ", Mask_Width " << s.maskWidth << ") needs " << want << ".";
            throw LaunchError(e.str());
        }
}

/// Up to this many multiply-adds every element of P is checked; above, a random sample.
constexpr unsigned long long kFullCheckLimit = 1ull << 27;
constexpr int kSampleSize = 4096;
/// Up to this many multiply-adds bench also simulates the kernel and compares bit for bit.
constexpr unsigned long long kSimulateLimit = 1ull << 21;

/// Checks P against a double-precision convolution at every element or a sample; returns
/// the largest |P - reference|. An element off by more than gamma_n * sum|terms| (n terms,
/// any order, fused or not) or never written (NaN) throws WrongResult.
double checkConv(const sim::Scenario& s, const std::vector<float>& P, const std::vector<float>& M,
                 const std::vector<float>& N)
{
    const bool twoD = sim::familyOf(s) == sim::Family::Conv2D;
    const int n = s.maskWidth / 2, mRows = twoD ? s.maskWidth : 1;
    const size_t count = sizeN(s);
    std::vector<size_t> check;
    if (1ull * count * sizeM(s) <= kFullCheckLimit) {
        for (size_t i = 0; i < count; ++i) check.push_back(i);
    } else {
        std::mt19937_64 rng(s.seed);
        std::uniform_int_distribution<size_t> pick(0, count - 1);
        for (int i = 0; i < kSampleSize; ++i) check.push_back(pick(rng));
    }
    const double ku = s.maskWidth * mRows * std::ldexp(1.0, -24);
    const double gamma = ku / (1 - ku);
    double maxErr = 0;
    for (size_t e : check) {
        const int r = static_cast<int>(e / s.width), c = static_cast<int>(e % s.width);
        double v = 0, a = 0;
        for (int i = 0; i < mRows; ++i)
            for (int j = 0; j < s.maskWidth; ++j) {
                const int row = twoD ? r - n + i : 0, col = c - n + j;
                if (row < 0 || row >= s.height || col < 0 || col >= s.width) continue;
                const double t = double(M[static_cast<size_t>(i) * s.maskWidth + j]) * N[static_cast<size_t>(row) * s.width + col];
                v += t;
                a += std::fabs(t);
            }
        const double err = std::fabs(double(P[e]) - v), bound = gamma * a + 1e-30;
        if (!(err <= bound)) {
            std::ostringstream m;
            m.precision(9);
            m << s.kernel << " at " << s.height << "x" << s.width << " (Mask_Width " << s.maskWidth << ", tile "
              << s.tile << ") computed P[" << r << "][" << c << "] = " << P[e]
              << ", but the double-precision reference is " << v << " (allowed error " << bound
              << "), so no timing is reported.";
            throw WrongResult(m.str());
        }
        maxErr = std::max(maxErr, err);
    }
    return maxErr;
}

}  // namespace

std::vector<float> runConvPlain(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    prepare(s, M, N);
    requireFreeMemory(4 * 2 * sizeN(s));
    DeviceBuffer<float> dN(sizeN(s)), dP(sizeN(s));
    dN.upload(N, "copying N to the device");
    dP.fill(0xFF, "poisoning P");
    uploadMask(s, M);
    launch<DeviceContext>(s, dN.get(), dP.get());
    check(cudaDeviceSynchronize(), ("running " + s.kernel).c_str());
    return dP.download("copying P back from the device");
}

CountedRun runConvCounted(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    prepare(s, M, N);
    requireFreeMemory(4 * 3 * sizeN(s));
    DeviceBuffer<float> dN(sizeN(s)), dP(sizeN(s));
    DeviceBuffer<unsigned> loadsN(sizeN(s));
    dN.upload(N, "copying N to the device");
    dP.fill(0xFF, "poisoning P");
    loadsN.fill(0, "zeroing the load counters of N");
    uploadMask(s, M);
    launch<CountingContext>(s, CountingPtr{dN.get(), loadsN.get()}, dP.get());
    check(cudaDeviceSynchronize(), ("running the counting instantiation of " + s.kernel).c_str());
    CountedRun r;
    r.P = dP.download("copying P back from the device");
    r.loadsN = loadsN.download("copying the load counts of N back");
    return r;
}

BenchResult timeConv(const BenchRequest& r, const std::function<void(const std::vector<float>&)>& uploadMask,
                     const std::function<void(const float*, float*)>& launch, const std::function<void(double)>& progress)
{
    const sim::Scenario& s = r.scenario;
    if (r.reps < 1)
        throw LaunchError("The number of timed repeats must be at least 1; got " + std::to_string(r.reps) + ".");
    // The same inputs as the simulator draws for this seed (sim::convProblem).
    const std::vector<float> M = sim::randomInput(convMaskElements(s), s.seed, 1);
    const std::vector<float> N = sim::randomInput(sizeN(s), s.seed, 2);
    prepare(s, M, N);
    requireFreeMemory(4 * 2 * sizeN(s));
    DeviceBuffer<float> dN(sizeN(s)), dP(sizeN(s));
    dN.upload(N, "copying N to the device");
    uploadMask(M);

    // Two untimed runs, then P poisoned: the timed runs must write every element themselves.
    const std::vector<double> ms = timeRuns(
        s.kernel, 2, r.reps, [&] { launch(dN.get(), dP.get()); }, [&] { dP.fill(0xFF, "poisoning P"); }, progress);

    BenchResult b;
    b.request = r;
    const std::vector<float> P = dP.download("copying P back from the device");
    b.maxAbsErr = checkConv(s, P, M, N);
    b.msMedian = median(ms);
    b.msMin = *std::min_element(ms.begin(), ms.end());
    const double seconds = b.msMedian * 1e-3;
    const uint64_t fmas = sim::untiledGlobalLoads(s);   // one per in-range term
    b.gflops = 2.0 * fmas / seconds / 1e9;
    b.gbytesPerS = 4.0 * 2 * sizeN(s) / seconds / 1e9;
    if (fmas <= kSimulateLimit) {
        b.bitExactVsSim = matchesSimulator(s, P);
    }
    if (progress) progress(1.0);
    return b;
}

BenchResult benchConv(const BenchRequest& r, const std::function<void(double)>& progress)
{
    const sim::Scenario& s = r.scenario;
    return timeConv(
        r, [&](const std::vector<float>& M) { uploadMask(s, M); },
        [&](const float* N, float* P) { launch<DeviceContext>(s, N, P); }, progress);
}

size_t convMaskElements(const sim::Scenario& s) { return sizeM(s); }

KernelResources convResources(const sim::Scenario& s)
{
    return plainResources<Args<DeviceContext>>(s);
}

}  // namespace ts::gpu::detail
