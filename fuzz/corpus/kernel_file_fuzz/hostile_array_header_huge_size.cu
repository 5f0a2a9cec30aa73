// hostile: an array problem whose header asks for three arrays of two billion floats (grade uses the exercise's sizes)
// expect-line: 7
// only: simulate
// simulate-args:
// tilescope: family = array
// tilescope: arrays = in A[n], in B[n], out C[n]
// tilescope: sizes = n = 2000000000
// tilescope: reference = C[i] = A[i] + B[i]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void vecAddKernel(float* A, float* B, float* C, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n) {
        C[i] = A[i] + B[i];
    }
}
