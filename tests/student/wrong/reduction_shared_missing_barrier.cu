// PMPP Fig. 10.11's shared-memory reduction with the barrier at the top of the loop left
// out: a thread reads input_s[t + stride] before the thread that owns it stored its sum of
// the round before (a RAW race), so some partial sums are read stale or never written.
// run: --exercise reduction-shared --width 2048 --hazard-report
// expect: RAW hazard on shared input_s
// grade: reduction-shared
// grade-expect: RAW hazard on shared input_s: write at line 15, then read at line 18
// grade-line: 18
#define BLOCK_DIM 1024

__global__ void SharedMemorySumReductionKernel(float* input, float* output)
{
    __shared__ float input_s[BLOCK_DIM];
    unsigned int t = threadIdx.x;
    input_s[t] = input[t] + input[t + blockDim.x];
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        if (t < stride) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        output[0] = input_s[0];
    }
}
