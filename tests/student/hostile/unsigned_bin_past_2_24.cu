// hostile: a histogram whose every thread adds 2^23 to one unsigned int bin, so the count runs
// past 2^24, where a float slot no longer holds every integer and a rounded count would pass
// for a right one
// expect-line: 16
// only: simulate
// simulate-args: --width 64
// tilescope: family = array
// tilescope: arrays = in char data[length], out unsigned histo[7] = 0
// tilescope: sizes = length = 64
// tilescope: reference = histo[b] = count(data, 'a' + 4 * b, min('a' + 4 * b + 3, 'z'))
// tilescope: grid = (length + 31) / 32
// tilescope: block = 32
__global__ void histo_kernel(char* data, unsigned int length, unsigned int* histo)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) atomicAdd(&histo[0], 8388608u);
}
