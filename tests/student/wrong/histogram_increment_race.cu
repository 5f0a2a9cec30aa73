// PMPP Fig. 9.6 with the atomicAdd replaced by a plain increment: histo[b]++ reads the bin,
// adds 1 and writes it back, so two threads of one bin that read the same old value both
// write old + 1 and a count is lost (PMPP sec. 9.2's read-modify-write race). The simulator
// names the race and its line; on the GPU the counts come out short (gpu-run).
// run: --exercise histogram-basic --width 1000 --hazard-report
// expect: hazard on global histo
// grade: histogram-basic
// grade-expect: hazard on global histo
// grade-line: 15
__global__ void histo_kernel(char* data, unsigned int length, unsigned int* histo)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) histo[alphabet_position / 4]++;
    }
}
