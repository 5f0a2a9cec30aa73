// SAXPY spelled as BLAS spells it, X and Y: the same kernel as array_saxpy.cu, whose
// parameter names must not collide with anything the translation adds.
// tilescope: family = array
// tilescope: arrays = in X[n], in Y[n], out Z[n]
// tilescope: sizes = n = 300
// tilescope: reference = Z[i] = 2.5f * X[i] + Y[i] - X[i] * Y[(i + 1) % n]
// tilescope: grid = (n + 127) / 128
// tilescope: block = 128
__global__ void saxpyShifted(const float* X, const float* Y, float* Z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Z[i] = 2.5f * X[i] + Y[i] - X[i] * Y[(i + 1) % n];
    }
}
