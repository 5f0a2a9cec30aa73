// hostile: an input of integers whose range is written past every integer type (the `= LO..HI` form of PMPP ch. 10's sums), and an output start of 1e400
// expect-line: 6
// only: simulate
// simulate-args:
// tilescope: family = array
// tilescope: arrays = in A[n] = 0..99999999999999999999999, out B[n] = 1e400
// tilescope: sizes = n = 1024
// tilescope: reference = B[i] = A[i]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void copy(float* A, float* B, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) B[i] = A[i];
}
