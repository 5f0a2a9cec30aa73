// Reference solution of the vector-add exercise (PMPP ch. 2): one thread per element, the
// global index from the block and the thread, and the boundary check for the last block.
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        C[i] = A[i] + B[i];
    }
}
