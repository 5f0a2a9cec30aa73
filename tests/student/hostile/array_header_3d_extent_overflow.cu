// hostile: a 3D array problem whose extents, each within the limit, multiply past 64 bits (2^24 cubed is 2^72)
// expect-line: 6
// only: simulate
// simulate-args:
// tilescope: family = array
// tilescope: arrays = in A[n][n][n], out B[n][n][n]
// tilescope: sizes = n = 16777216
// tilescope: reference = B[i][j][k] = A[i][j][k]
// tilescope: grid = (n + 7) / 8, (n + 7) / 8, (n + 7) / 8
// tilescope: block = 8, 8, 8
__global__ void copy3d(float* A, float* B, int n)
{
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n && k < n) {
        B[(i * n + j) * n + k] = A[(i * n + j) * n + k];
    }
}
