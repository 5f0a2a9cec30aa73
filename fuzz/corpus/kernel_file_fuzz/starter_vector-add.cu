// Vector addition, one thread per element (PMPP ch. 2). Grade with
//   tilescope-cli grade --exercise vector-add --kernel-file vector-add.cu
// The exercise gives the launch: blocks of 256 threads, ceil(n / 256) of them.

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n)
{
    // TODO: the global index of this thread, from its block and its place in the block
    int i = threadIdx.x;
    // TODO: the threads of the last block past n must do nothing
    C[i] = A[i] + B[i];
}
