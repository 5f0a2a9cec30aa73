// Launching the convolution kernels on the device (PMPP ch. 7): the mask copied into constant
// memory with cudaMemcpyToSymbol, the plain and counting instantiations of the
// single-source kernels (kernels/conv*.cuh), one scenario run on given inputs, and timing.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "gpu.hpp"
#include "kernel_resources.hpp"

namespace ts::gpu::detail {

/// runPlain() for a convolution scenario: N (width, or height x width) and the mask M
/// (Mask_Width, or its square) from the host, M into constant memory, one launch of the
/// plain instantiation (skipping s.dropBarriers), P back. Throws Unavailable or
/// LaunchError (sim::validate()'s sentence for a scenario that cannot launch).
std::vector<float> runConvPlain(const sim::Scenario& s, const std::vector<float>& M,
                                const std::vector<float>& N);

/// runCounted() for a convolution scenario: as runConvPlain with the counting context;
/// loadsN counts every global read of N[i]. loadsM stays empty: the mask is read from
/// constant memory, which the counting context does not count.
CountedRun runConvCounted(const sim::Scenario& s, const std::vector<float>& M,
                          const std::vector<float>& N);

/// bench() for a convolution kernel: r.scenario's width, height (2D), maskWidth and tile.
/// Inputs from sim::randomInput with its seed (as the simulator draws them), warm-up, CUDA-event
/// median of r.reps, P checked against a double-precision reference (every element, or a
/// random sample for large problems) before any figure is reported. gflops counts 2 per
/// multiply-add with an element inside N (the basic kernel's work, the same for all three
/// kernels); gbytesPerS counts N read once and P written once.
BenchResult benchConv(const BenchRequest& r, const std::function<void(double)>& progress);

/// benchConv()'s measurement, whatever launches the kernel: `uploadMask(M)` puts the mask
/// (Mask_Width, or its square, row-major) where the kernel reads it, `launch(N, P)` runs it
/// on device arrays of height x width elements.
BenchResult timeConv(const BenchRequest& r, const std::function<void(const std::vector<float>&)>& uploadMask,
                     const std::function<void(const float*, float*)>& launch, const std::function<void(double)>& progress);

/// Elements of a convolution's mask M: Mask_Width, or its square in 2D.
size_t convMaskElements(const sim::Scenario& s);

/// kernelResources() for a convolution kernel (s.kernel at its compiled TILE_SIZE s.tile).
KernelResources convResources(const sim::Scenario& s);

}  // namespace ts::gpu::detail
