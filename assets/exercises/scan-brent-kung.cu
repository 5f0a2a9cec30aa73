// Brent-Kung inclusive scan of one section (PMPP sec. 11.4, Fig. 11.7). Grade with
//   tilescope-cli grade --exercise scan-brent-kung --kernel-file scan-brent-kung.cu
// The exercise gives the launch: one block of SECTION_SIZE / 2 threads, N <= SECTION_SIZE.
#define SECTION_SIZE 1024

__global__ void Brent_Kung_scan_kernel(float* X, float* Y, unsigned int N)
{
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) XY[threadIdx.x] = X[i];
    else XY[threadIdx.x] = 0.0f;
    if (i + blockDim.x < N) XY[threadIdx.x + blockDim.x] = X[i + blockDim.x];
    else XY[threadIdx.x + blockDim.x] = 0.0f;
    // Reduction tree
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        // TODO: index = (threadIdx.x + 1) * 2 * stride - 1; below SECTION_SIZE, add
        // XY[index - stride] into XY[index]
    }
    // TODO: the distribution tree, strides SECTION_SIZE / 4 down to 1: add XY[index] into
    // XY[index + stride] while index + stride is below SECTION_SIZE
    __syncthreads();
    if (i < N) Y[i] = XY[threadIdx.x];
    if (i + blockDim.x < N) Y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}
