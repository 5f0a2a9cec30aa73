// A coarsened reduction (PMPP Fig. 10.15) in which every thread adds its own coarsened sum
// to output[0] with atomicAdd instead of reducing the block in shared memory first: the
// total is right (the inputs are small integers), but 256 atomics per block serialise on
// one address where the exercise asks for one. (Its blocks run on one worker, in block
// order, as every kernel with atomics does.)
// run: --exercise reduction-coarsened --width 4096
// expect: output vs reference  bit-identical
// grade: reduction-coarsened
// grade-expect: your kernel made 1024 global atomics for 4 blocks where this exercise asks for 1 per block
// grade-line: 22
#define BLOCK_DIM 256
#define COARSE_FACTOR 2

__global__ void CoarsenedSumReductionKernel(float* input, float* output, unsigned int N)
{
    unsigned int segment = COARSE_FACTOR * 2 * blockDim.x * blockIdx.x;
    unsigned int i = segment + threadIdx.x;
    float sum = i < N ? input[i] : 0.0f;
    for (unsigned int tile = 1; tile < COARSE_FACTOR * 2; ++tile) {
        sum += i + tile * BLOCK_DIM < N ? input[i + tile * BLOCK_DIM] : 0.0f;
    }
    atomicAdd(output, sum);
}
