// hostile: an array problem whose reference formula divides INT_MIN by -1 and by zero: integer division traps (SIGFPE) in the process that evaluates it, which reads the formula before any child runs (grade uses the exercise's formula)
// expect-line: 8
// only: simulate
// simulate-args:
// tilescope: family = array
// tilescope: arrays = in A[n], in B[n], out C[n]
// tilescope: sizes = n = 300
// tilescope: reference = C[i] = A[i] + B[(-2147483647 - 1) / (n - 301) % n] + B[i / (n - n)]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void vecAddKernel(float* A, float* B, float* C, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n) {
        C[i] = A[i] + B[i];
    }
}
