// Kogge-Stone inclusive scan of one section (PMPP sec. 11.2, Fig. 11.3). Grade with
//   tilescope-cli grade --exercise scan-kogge-stone --kernel-file scan-kogge-stone.cu
// The exercise gives the launch: one block of SECTION_SIZE threads, N <= SECTION_SIZE.
#define SECTION_SIZE 1024

__global__ void Kogge_Stone_scan_kernel(float* X, float* Y, unsigned int N)
{
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: load X[i] into XY[threadIdx.x], or 0 past N
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        // TODO: a thread at or past the stride adds XY[threadIdx.x - stride] into
        // XY[threadIdx.x]: read both into a temporary, wait at a second barrier, then write
    }
    if (i < N) {
        Y[i] = XY[threadIdx.x];
    }
}
