// Coarsened sum reduction over many blocks (PMPP sec. 10.8, Fig. 10.15). Grade with
//   tilescope-cli grade --exercise reduction-coarsened --kernel-file reduction-coarsened.cu
// The exercise gives the launch: ceil(N / (COARSE_FACTOR * 2 * BLOCK_DIM)) blocks of
// BLOCK_DIM threads; output[0] starts at 0.
#define BLOCK_DIM 256
#define COARSE_FACTOR 2

__global__ void CoarsenedSumReductionKernel(float* input, float* output, unsigned int N)
{
    __shared__ float input_s[BLOCK_DIM];
    unsigned int segment = COARSE_FACTOR * 2 * blockDim.x * blockIdx.x;
    unsigned int i = segment + threadIdx.x;
    unsigned int t = threadIdx.x;
    // TODO: add the thread's COARSE_FACTOR * 2 elements, BLOCK_DIM apart; those at or past N count as 0
    float sum = i < N ? input[i] : 0.0f;
    input_s[t] = sum;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] += input_s[t + stride];
        }
    }
    // TODO: one atomicAdd per block: thread 0 adds the block's total, input_s[0], to output[0]
}
