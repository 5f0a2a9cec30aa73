// hostile: a chain of blocks through flags in global memory, written backwards: block b
// waits for a flag that block b + 1 sets only after its own wait. The simulator runs block 0
// to its end first, so it waits for a block that cannot start (PMPP sec. 11.7's deadlock
// when blocks are not all resident); a GPU that holds both blocks may still hang
// expect-line: 19
// only: simulate
// simulate-args: --width 64
// tilescope: family = array
// tilescope: arrays = in X[n] = 1..8, out unsigned flags[n] = 0
// tilescope: sizes = n = 64
// tilescope: reference = flags[i] = i % 32 == 0 ? 1 : 0
// tilescope: grid = (n + 31) / 32
// tilescope: block = 32
__global__ void chainBackwards(const float* X, unsigned int* flags, int n)
{
    unsigned int next = (blockIdx.x + 1) * blockDim.x;
    if (threadIdx.x == 0 && blockIdx.x + 1 < gridDim.x) {
        // The next block's flag, which that block sets below, after its own wait.
        while (atomicAdd(&flags[next], 0u) == 0u) {
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&flags[blockIdx.x * blockDim.x], 1u);
}
