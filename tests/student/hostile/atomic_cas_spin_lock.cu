// hostile: a lock built from atomicCAS that every thread of a warp spins on; on a GPU the
// lanes that lose wait for the winner, who waits for them, and the warp never moves on
// expect-line: 10
__global__ void vecAdd(const float* A, const float* B, float* C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int lock;
    if (threadIdx.x == 0) lock = 0;
    __syncthreads();
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    if (i < n) C[i] = A[i] + B[i];
    lock = 0;
}
