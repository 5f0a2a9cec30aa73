// A student's vector addition whose boundary check is off by one: `i <= n` lets thread n of
// the last block read A[n], one past the end.
// tilescope: family = array
// tilescope: arrays = in A[n], in B[n], out C[n]
// tilescope: sizes = n = 1000
// tilescope: reference = C[i] = A[i] + B[i]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void vecAddOffByOne(const float* A, const float* B, float* C, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i <= n) {
        C[i] = A[i] + B[i];
    }
}
