// The GPU path, as the CLI and the app see it: device query, timed runs next to cuBLAS,
// and the instrumented instantiation that counts per-element global loads on the device.
// Plain C++ (no CUDA headers): built from gpu/*.cu with CUDA, or from
// gpu/gpu_unavailable.cpp without it, where every call says why there is no GPU.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/catalogue/scenario.hpp"

namespace ts::gpu {

/// No usable CUDA device (no driver, no device, built without CUDA). what() is one
/// sentence saying which. The CLI exits 3 on it.
struct Unavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A launch the device cannot run (a precondition of the launcher failed, out of device
/// memory). what() is one sentence.
struct LaunchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A kernel ran but its P failed the check against the reference (an element off by more
/// than the FP32 error bound, or never written). No timing is reported for it. what() is
/// one sentence naming the element, its value and the reference.
struct WrongResult : LaunchError {
    using LaunchError::LaunchError;
};

/// The CUDA device in this machine.
struct DeviceInfo {
    bool available = false;
    std::string why;                 ///< if !available: one sentence
    std::string name;                ///< "NVIDIA H100 80GB HBM3"
    int ccMajor = 0, ccMinor = 0;
    int smCount = 0;
    double clockGHz = 0;
    unsigned long long globalMemBytes = 0;
    int sharedMemPerBlock = 0;       ///< bytes, static limit
    int maxThreadsPerBlock = 0;
    int maxGridX = 0, maxGridY = 0;  ///< most blocks in x and in y of one grid
    std::string computeCapability() const
    {
        return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
    }
};

/// Queries device 0. Never throws: without a device, available is false and why says why.
DeviceInfo queryDevice();

/// The ceilings of a roofline, measured on device 0 (gpu/ceilings.cu): the FP32 rate of
/// independent fused multiply-adds, in GFLOPS (2 flops each), and the bandwidth of a
/// device-to-device copy, in GB/s (bytes read plus bytes written), each the best of 5 runs;
/// and the CUDA version of the driver ("13.0"). Throws Unavailable without a GPU.
struct Ceilings {
    double peakFp32Gflops = 0;
    double copyGbytesPerS = 0;
    std::string driverCudaVersion;
};
Ceilings measureCeilings();

/// One timing request: a scenario and how many times to time it.
struct BenchRequest {
    /// What to time, as the simulator would run it: the kernel (a registry kernel, or
    /// "cublas" with the sizes j, k, l and a tile it ignores), its sizes (j, k, l; or width,
    /// height and maskWidth for a convolution), its tile, the barriers it drops, and the
    /// seed of its inputs (sim::randomInput, never zeros). The traced block is not used.
    sim::Scenario scenario;
    int reps = 20;                   ///< timed repeats after warm-up
};

/// One timing result. Times are CUDA-event milliseconds after warm-up.
struct BenchResult {
    BenchRequest request;
    double msMedian = 0, msMin = 0;
    double gflops = 0;               ///< 2*j*k*l / median time (convolution: 2 per in-range term)
    double gbytesPerS = 0;           ///< (M + N read once, P written once) bytes / median time
    double maxAbsErr = 0;            ///< against the double-precision CPU reference
    std::optional<bool> bitExactVsSim;  ///< where the size is small enough to simulate
};

/// Times one kernel; checks its P against the reference before reporting. Throws
/// Unavailable, LaunchError, or WrongResult (a LaunchError) when P fails the check.
/// `progress` (0..1) may be called from the calling thread.
BenchResult bench(const BenchRequest& r, const std::function<void(double)>& progress = {});

/// The result of running a scenario's kernel once on the GPU with the instrumented
/// instantiation: P and the per-element global-load counts of M and N.
struct CountedRun {
    std::vector<float> P;
    std::vector<uint32_t> loadsM, loadsN;
};

/// Runs `s` on the GPU on the given inputs with the counting context, skipping the barriers
/// in s.dropBarriers. Throws Unavailable or LaunchError (also for "cublas", which has no
/// counting instantiation).
CountedRun runCounted(const sim::Scenario& s, const std::vector<float>& M,
                      const std::vector<float>& N);

/// Runs `s` on the GPU with the plain (uninstrumented) kernel, skipping the barriers in
/// s.dropBarriers, and returns P; s.kernel may also be "cublas". Throws Unavailable or
/// LaunchError.
std::vector<float> runPlain(const sim::Scenario& s, const std::vector<float>& M,
                            const std::vector<float>& N);

}  // namespace ts::gpu
