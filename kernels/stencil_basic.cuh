// Basic 3D seven-point stencil: one thread per grid point, each of its seven inputs read from
// global memory. PMPP sec. 8.2, Fig. 8.6 (preset stencil-basic-8). The problem it solves,
// its arrays in[N][N][N] and out[N][N][N] and the CPU reference, is stated in its registry
// row (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// out[i][j][k] = c0*in[i][j][k] + c1*in[i][j][k-1] + c2*in[i][j][k+1] + c3*in[i][j-1][k]
/// + c4*in[i][j+1][k] + c5*in[i-1][j][k] + c6*in[i+1][j][k] for every interior point of the
/// N x N x N grid (1 <= i, j, k < N - 1), row-major (i the plane, k the column); the boundary
/// points of out are not written. Thread (x, y, z) of the launch takes point (k, j, i), as
/// PMPP names them. Blocks of blockDim.x x blockDim.y x blockDim.z threads; threads outside
/// the interior do nothing.
template <class X>
TS_DEVICE void stencilBasic(X& x, typename X::template GlobalPtr<const float> in,
                            typename X::template GlobalPtr<float> out, unsigned int N)
{
    // The seven weights, compile-time constants (PMPP leaves their values to the program).
    constexpr float c0 = 0.4f, c1 = 0.1f, c2 = 0.1f, c3 = 0.1f, c4 = 0.1f, c5 = 0.1f, c6 = 0.1f;

    unsigned int i = x.blockIdx.z*x.blockDim.z + x.threadIdx.z;
    unsigned int j = x.blockIdx.y*x.blockDim.y + x.threadIdx.y;
    unsigned int k = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[i*N*N + j*N + k] = c0*in[i*N*N + j*N + k]
                             + c1*in[i*N*N + j*N + (k - 1)]
                             + c2*in[i*N*N + j*N + (k + 1)]
                             + c3*in[i*N*N + (j - 1)*N + k]
                             + c4*in[i*N*N + (j + 1)*N + k]
                             + c5*in[(i - 1)*N*N + j*N + k]
                             + c6*in[(i + 1)*N*N + j*N + k];
    }
}

}  // namespace ts::kernels
