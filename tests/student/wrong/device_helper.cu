// A student's kernel that calls a __device__ helper, which this version cannot simulate yet:
// the refusal names the helper's line.
// run: --width 4 --tile 4
// expect: device_helper.cu:5:18: error: __device__ function dot is not supported yet
__device__ float dot(float a, float b) { return a * b; }

__global__ void withHelper(const float* M, const float* N, float* P, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width * Width) P[i] = dot(M[i], N[i]);
}
