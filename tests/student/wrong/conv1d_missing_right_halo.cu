// A student's tiled 1D convolution that loads the left halo and the internal elements but
// forgets the right halo: the last Mask_Width/2 threads of each block read N_ds slots that no
// thread wrote (uninitialised shared memory), and their P elements come out wrong.
// run: --width 32 --mask-width 5 --tile 8 --hazard-report
// expect: Uninitialised read of shared N_ds[10] at line 28: no thread of the block had written that slot
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[MAX_MASK_WIDTH];

__global__ void conv1dNoRightHalo(const float* N, float* P, int Mask_Width, int Width)
{
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

    int n = Mask_Width/2;

    int halo_index_left = (blockIdx.x - 1)*blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) {
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
    }

    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0.0f;

    __syncthreads();

    float Pvalue = 0;
    for (int j = 0; j < Mask_Width; j++) {
        Pvalue += N_ds[threadIdx.x + j]*M[j];
    }
    if (i < Width) P[i] = Pvalue;
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: conv1d-tiled-halo
// grade-expect: Uninitialised read of shared N_ds[
// grade-line: 28
