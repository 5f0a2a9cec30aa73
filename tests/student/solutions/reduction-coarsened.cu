// Reference solution of the reduction-coarsened exercise (PMPP sec. 10.8, Fig. 10.15): each
// thread sums COARSE_FACTOR * 2 elements BLOCK_DIM apart (past N: 0), the block runs the
// shared-memory tree, and thread 0 adds the block's total with one atomicAdd.
#define BLOCK_DIM 256
#define COARSE_FACTOR 2

__global__ void CoarsenedSumReductionKernel(float* input, float* output, unsigned int N)
{
    __shared__ float input_s[BLOCK_DIM];
    unsigned int segment = COARSE_FACTOR * 2 * blockDim.x * blockIdx.x;
    unsigned int i = segment + threadIdx.x;
    unsigned int t = threadIdx.x;
    float sum = i < N ? input[i] : 0.0f;
    for (unsigned int tile = 1; tile < COARSE_FACTOR * 2; ++tile) {
        sum += i + tile * BLOCK_DIM < N ? input[i + tile * BLOCK_DIM] : 0.0f;
    }
    input_s[t] = sum;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        atomicAdd(output, input_s[0]);
    }
}
