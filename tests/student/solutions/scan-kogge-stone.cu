// Reference solution of the scan-kogge-stone exercise (PMPP sec. 11.2, Fig. 11.3): each step
// reads both operands into temp, waits at a second barrier, then writes, so no thread
// overwrites a slot another thread has yet to read in the same step.
#define SECTION_SIZE 1024

__global__ void Kogge_Stone_scan_kernel(float* X, float* Y, unsigned int N)
{
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        XY[threadIdx.x] = X[i];
    } else {
        XY[threadIdx.x] = 0.0f;
    }
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float temp = 0.0f;
        if (threadIdx.x >= stride) {
            temp = XY[threadIdx.x] + XY[threadIdx.x - stride];
        }
        __syncthreads();
        if (threadIdx.x >= stride) {
            XY[threadIdx.x] = temp;
        }
    }
    if (i < N) {
        Y[i] = XY[threadIdx.x];
    }
}
