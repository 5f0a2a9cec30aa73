// Timing one kernel on the GPU (gpu::bench): CUDA events around each launch after a
// warm-up, median and minimum of the repeats, on random inputs (never zeros) into a
// poisoned P, whose result is checked against a double-precision reference before any
// figure is reported (docs/design.md, principle 5).
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>

#include "cublas_reference.hpp"
#include "conv_launch.hpp"
#include "cuda_support.hpp"
#include "gpu.hpp"
#include "matmul_launch.hpp"
#include "sim/engine/reference.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu {
namespace {
using namespace detail;

constexpr int kWarmups = 2;
/// Up to this many multiply-adds (j*k*l) the whole of P is checked against
/// sim::matmulReferenceDouble; above it (e.g. 4096^3) a full double-precision product would
/// take minutes on the CPU, so a random sample of kSampleSize elements is checked, each
/// with its own double-precision dot product.
constexpr unsigned long long kFullCheckLimit = 1ull << 27;
constexpr int kSampleSize = 4096;
/// Up to this many multiply-adds bench also simulates the kernel (well under a second on
/// one core) and reports whether the GPU's P is bit-identical to the simulator's.
constexpr unsigned long long kSimulateLimit = 1ull << 21;

/// One checked element of P: its flat index, the double-precision value of the dot
/// product and the sum of the absolute values of its terms.
struct Expected {
    size_t index;
    double value, absSum;
};

/// The elements of P to check with their expected values (all, or a random sample).
std::vector<Expected> expectedElements(const std::vector<float>& M, const std::vector<float>& N,
                                       int j, int k, int l, uint64_t seed)
{
    std::vector<Expected> out;
    if (1ull * j * k * l <= kFullCheckLimit) {
        std::vector<float> absM(M.size()), absN(N.size());
        std::transform(M.begin(), M.end(), absM.begin(), [](float v) { return std::fabs(v); });
        std::transform(N.begin(), N.end(), absN.begin(), [](float v) { return std::fabs(v); });
        const std::vector<double> ref = sim::matmulReferenceDouble(M, N, j, k, l);
        const std::vector<double> abs = sim::matmulReferenceDouble(absM, absN, j, k, l);
        for (size_t i = 0; i < ref.size(); ++i) out.push_back({i, ref[i], abs[i]});
        return out;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> row(0, j - 1), col(0, l - 1);
    for (int s = 0; s < kSampleSize; ++s) {
        const int r = row(rng), c = col(rng);
        double v = 0, a = 0;
        for (int i = 0; i < k; ++i) {
            const double t = double(M[size_t(r) * k + i]) * N[size_t(i) * l + c];
            v += t;
            a += std::fabs(t);
        }
        out.push_back({size_t(r) * l + c, v, a});
    }
    return out;
}

/// Checks P against the expected elements; returns the largest |P - reference|. An element
/// further off than the FP32 bound gamma_k * sum|terms| (gamma_k = k u / (1 - k u),
/// u = 2^-24: any summation order of k products, fused or not), or never written (NaN),
/// throws WrongResult.
double checkResult(const sim::Scenario& s, const std::vector<float>& P, const std::vector<Expected>& expected)
{
    const double ku = s.k * std::ldexp(1.0, -24);
    const double gamma = ku / (1 - ku);
    double maxErr = 0;
    for (const Expected& e : expected) {
        const double err = std::fabs(double(P[e.index]) - e.value);
        const double bound = gamma * e.absSum + 1e-30;
        if (!(err <= bound)) {
            std::ostringstream m;
            m.precision(9);
            m << s.kernel << " at " << s.j << "x" << s.k << "x" << s.l << " (tile " << s.tile << ") computed P["
              << e.index / s.l << "][" << e.index % s.l << "] = " << P[e.index]
              << ", but the double-precision reference is " << e.value << " (allowed error " << bound
              << "), so no timing is reported.";
            throw WrongResult(m.str());
        }
        maxErr = std::max(maxErr, err);
    }
    return maxErr;
}

}  // namespace

namespace detail {

BenchResult timeMatmul(const BenchRequest& r, const std::function<void(const float*, const float*, float*)>& launch,
                       bool compareWithSimulator, const std::function<void(double)>& progress)
{
    const sim::Scenario& s = r.scenario;
    if (r.reps < 1)
        throw LaunchError("The number of timed repeats must be at least 1; got " + std::to_string(r.reps) + ".");
    const size_t sizeM = size_t(s.j) * s.k, sizeN = size_t(s.k) * s.l, sizeP = size_t(s.j) * s.l;
    // The same inputs as the simulator draws for this seed (sim::simulate).
    const std::vector<float> M = sim::randomInput(sizeM, s.seed, 1);
    const std::vector<float> N = sim::randomInput(sizeN, s.seed, 2);
    requireFreeMemory(4 * (sizeM + sizeN + sizeP));
    DeviceBuffer<float> dM(sizeM), dN(sizeN), dP(sizeP);
    dM.upload(M, "copying M to the device");
    dN.upload(storedN(s, N), "copying N to the device");

    // Poisoning P after the warm-up: the timed runs must write every element themselves.
    const std::vector<double> ms = timeRuns(
        s.kernel, kWarmups, r.reps, [&] { launch(dM.get(), dN.get(), dP.get()); },
        [&] { dP.fill(0xFF, "poisoning P"); }, progress);

    BenchResult b;
    b.request = r;
    const std::vector<float> P = dP.download("copying P back from the device");
    b.maxAbsErr = checkResult(s, P, expectedElements(M, N, s.j, s.k, s.l, s.seed));
    b.msMedian = median(ms);
    b.msMin = *std::min_element(ms.begin(), ms.end());
    const double seconds = b.msMedian * 1e-3;
    b.gflops = 2.0 * s.j * s.k * s.l / seconds / 1e9;
    b.gbytesPerS = 4.0 * (sizeM + sizeN + sizeP) / seconds / 1e9;
    if (compareWithSimulator && 1ull * s.j * s.k * s.l <= kSimulateLimit) b.bitExactVsSim = matchesSimulator(s, P);
    if (progress) progress(1.0);
    return b;
}

}  // namespace detail

BenchResult bench(const BenchRequest& r, const std::function<void(double)>& progress)
{
    const sim::Scenario& s = r.scenario;
    if (sim::isConvolution(s)) return benchConv(r, progress);
    const DeviceInfo& dev = requireDevice();
    checkLaunchable(dev, s);
    std::optional<CublasSgemm> blas;
    if (isCublas(s.kernel)) blas.emplace();
    return timeMatmul(
        r,
        [&](const float* M, const float* N, float* P) {
            if (blas) blas->run(M, N, P, s.j, s.k, s.l);
            else launchMatmul(s, M, N, P);
        },
        !blas, progress);
}

}  // namespace ts::gpu
