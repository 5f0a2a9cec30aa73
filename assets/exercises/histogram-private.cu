// Privatized text histogram (PMPP sec. 9.4, Fig. 9.10). Grade with
//   tilescope-cli grade --exercise histogram-private --kernel-file histogram-private.cu
// The exercise gives the launch: ceil(length / 256) blocks of 256 threads; histo starts at 0.
#define NUM_BINS 7

__global__ void histo_private_kernel(char* data, unsigned int length, unsigned int* histo)
{
    // TODO: a private copy of the bins in shared memory, set to 0, then a barrier
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) {
            atomicAdd(&histo[alphabet_position / 4], 1);   // TODO: into the private copy
        }
    }
    // TODO: a barrier, then threads 0 .. NUM_BINS - 1 add their bin to histo
}
