// hostile: every lane meets its warp at __syncwarp forever and loads nothing, so the read
// budget that stops other endless loops never runs out; the runner's clock must
// stop it
// expect-limit: time|memory|longer than|never ends
__global__ void vecAdd(const float* A, const float* B, float* C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (1) {
        __syncwarp();
    }
    C[i] = A[i] + B[i];
}
