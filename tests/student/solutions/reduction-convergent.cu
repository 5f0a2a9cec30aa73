// Reference solution of the reduction-convergent exercise (PMPP sec. 10.4, Fig. 10.9): the
// stride halves from blockDim.x and the threads below it add, so the active threads stay
// packed and whole warps drop out; only the last five rounds leave warp 0 divergent.
__global__ void ConvergentSumReductionKernel(float* input, float* output)
{
    unsigned int i = threadIdx.x;
    for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) {
        if (threadIdx.x < stride) {
            input[i] += input[i + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        output[0] = input[0];
    }
}
