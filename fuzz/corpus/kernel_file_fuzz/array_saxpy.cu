// SAXPY with a shifted second term: a product that is only added is one fused multiply-add
// on the GPU (nvcc's default), and the reference formula rounds it the same way.
// tilescope: family = array
// tilescope: arrays = in U[n], in V[n], out W[n]
// tilescope: sizes = n = 300
// tilescope: reference = W[i] = 2.5f * U[i] + V[i] - U[i] * V[(i + 1) % n]
// tilescope: grid = (n + 127) / 128
// tilescope: block = 128
__global__ void saxpyShifted(const float* U, const float* V, float* W, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        W[i] = 2.5f * U[i] + V[i] - U[i] * V[(i + 1) % n];
    }
}
