// A correct scan with too much work for the scan-kogge-stone exercise: each thread adds up
// its own prefix from shared memory, i + 1 terms, about n^2 / 2 adds for the section (PMPP
// sec. 11.3's point against the naive parallel scan). Fails "work", passes the rest.
// tilescope: family = array
// tilescope: arrays = in X[N] = 1..8, out Y[N]
// tilescope: sizes = N = 1024
// tilescope: reference = Y[i] = sum(X, 0, i)
// tilescope: grid = 1
// tilescope: block = SECTION_SIZE
// run: --width 1000
// expect: Y vs reference  bit-identical
// grade: scan-kogge-stone
// grade-expect: where this exercise allows at most 9217
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
    __syncthreads();
    if (i < N) {
        Y[i] = XY[0];
        for (unsigned int j = 1; j <= threadIdx.x; ++j) {
            Y[i] += XY[j];
        }
    }
}
