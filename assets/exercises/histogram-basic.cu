// Text histogram with atomicAdd (PMPP sec. 9.2, Fig. 9.6). Grade with
//   tilescope-cli grade --exercise histogram-basic --kernel-file histogram-basic.cu
// The exercise gives the launch: ceil(length / 256) blocks of 256 threads; histo starts at 0.
__global__ void histo_kernel(char* data, unsigned int length, unsigned int* histo)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) {
            // TODO: add 1 to bin alphabet_position / 4 so that no other thread's addition is lost
        }
    }
}
