// Sum reduction in shared memory, one block (PMPP sec. 10.5, Fig. 10.11). Grade with
//   tilescope-cli grade --exercise reduction-shared --kernel-file reduction-shared.cu
// The exercise gives the launch: one block of N / 2 threads, N = 2 x blockDim.x.
#define BLOCK_DIM 1024

__global__ void SharedMemorySumReductionKernel(float* input, float* output)
{
    __shared__ float input_s[BLOCK_DIM];
    unsigned int t = threadIdx.x;
    // TODO: add this thread's two elements, t and t + blockDim.x, into input_s[t]
    input_s[t] = input[t];
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        // TODO: a barrier, so that the sums of the round before are all stored
        if (t < stride) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        output[0] = input_s[0];
    }
}
