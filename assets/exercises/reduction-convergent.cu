// Convergent sum reduction in one block (PMPP sec. 10.4, Fig. 10.9). Grade with
//   tilescope-cli grade --exercise reduction-convergent --kernel-file reduction-convergent.cu
// The exercise gives the launch: one block of N / 2 threads, N = 2 x blockDim.x.

__global__ void ConvergentSumReductionKernel(float* input, float* output)
{
    unsigned int i = threadIdx.x;
    // TODO: the stride starts at blockDim.x and halves each round, down to 1
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        // TODO: only the threads below the stride add, so that whole warps drop out
        if (threadIdx.x % stride == 0) {
            input[i] += input[i + stride];
        }
        __syncthreads();
    }
    // TODO: thread 0 copies the total, input[0], into output[0]
}
