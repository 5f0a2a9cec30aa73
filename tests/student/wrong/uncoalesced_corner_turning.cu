// A student's corner-turning kernel (PMPP sec. 6.1) that is correct but reads the
// column-major N along its rows: consecutive threadIdx.x are k floats apart, so each lane
// of a warp needs its own 32-byte sector. The grader's coalesced check compares the
// sectors per request of the loads of N with matmul-corner-turning's.
// tilescope: N = column-major
// run: --j 33 --k 17 --l 45 --tile 16
// expect: P vs reference  bit-identical
// grade: corner-turning
// grade-expect: where matmul-corner-turning's take
// grade-line: 25
#define TILE_WIDTH 16

__global__ void cornerNotTurned(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = (Row < j && ph * TILE_WIDTH + tx < k) ? M[Row * k + ph * TILE_WIDTH + tx] : 0.0f;
        // Element (ph*TILE_WIDTH + ty, Col) of N, which is column-major: tx jumps k floats
        if (ph * TILE_WIDTH + ty < k && Col < l)
            Nds[ty][tx] = N[Col * k + ph * TILE_WIDTH + ty];
        else
            Nds[ty][tx] = 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row * l + Col] = Pvalue;
}
