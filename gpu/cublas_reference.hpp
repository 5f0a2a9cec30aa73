// cuBLAS SGEMM as the reference the project's kernels are timed against: pure FP32
// (CUBLAS_PEDANTIC_MATH, so no TF32 or other reduced-precision shortcut), row-major.
#pragma once
#include <cublas_v2.h>

namespace ts::gpu::detail {

/// A cuBLAS handle set up for pure-FP32 row-major products. Throws LaunchError if cuBLAS
/// cannot be initialised.
class CublasSgemm {
public:
    CublasSgemm();
    ~CublasSgemm();
    CublasSgemm(const CublasSgemm&) = delete;
    CublasSgemm& operator=(const CublasSgemm&) = delete;

    /// P (j x l) = M (j x k) * N (k x l), all row-major device arrays, on the default stream
    /// (asynchronous). Throws LaunchError if cuBLAS refuses the call.
    void run(const float* M, const float* N, float* P, int j, int k, int l);

private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace ts::gpu::detail
