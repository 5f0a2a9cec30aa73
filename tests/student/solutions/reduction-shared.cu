// Reference solution of the reduction-shared exercise (PMPP sec. 10.5, Fig. 10.11): two
// global reads per thread into input_s, then the convergent tree in shared memory with a
// barrier before each round.
#define BLOCK_DIM 1024

__global__ void SharedMemorySumReductionKernel(float* input, float* output)
{
    __shared__ float input_s[BLOCK_DIM];
    unsigned int t = threadIdx.x;
    input_s[t] = input[t] + input[t + blockDim.x];
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        output[0] = input_s[0];
    }
}
