// Reference solution of the histogram-basic exercise (PMPP sec. 9.2, Fig. 9.6): one thread a
// character, one atomicAdd on the letter's bin.
__global__ void histo_kernel(char* data, unsigned int length, unsigned int* histo)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) {
            atomicAdd(&histo[alphabet_position / 4], 1);
        }
    }
}
