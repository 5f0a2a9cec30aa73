// Vector addition as PMPP ch. 2 writes it (Fig. 2.11): one thread per element, a block of
// 256 threads, and the boundary check for the last block, which runs past n.
// tilescope: family = array
// tilescope: arrays = in A[n], in B[n], out C[n]
// tilescope: sizes = n = 1000
// tilescope: reference = C[i] = A[i] + B[i]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void vecAddKernel(float* A, float* B, float* C, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n) {
        C[i] = A[i] + B[i];
    }
}
