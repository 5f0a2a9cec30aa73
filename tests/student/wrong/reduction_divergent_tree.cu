// PMPP Fig. 10.6's simple reduction tree submitted to the reduction-convergent exercise: the
// total is right, but `threadIdx.x % stride == 0` spreads the threads that add over every
// warp, so at stride 2 the 512 threads that add split all 32 warps of the 1024-thread block.
// run: --exercise reduction-convergent --width 2048
// expect: output vs reference  bit-identical
// grade: reduction-convergent
// grade-expect: was taken by 512 threads, and 32 warps diverged
// grade-line: 15
__global__ void SimpleSumReductionKernel(float* input, float* output)
{
    unsigned int i = 2 * threadIdx.x;
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        // At stride s only every s-th thread adds: spread over all warps, each warp splits
        // (PMPP sec. 10.3).
        if (threadIdx.x % stride == 0) {
            input[i] += input[i + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        output[0] = input[0];
    }
}
