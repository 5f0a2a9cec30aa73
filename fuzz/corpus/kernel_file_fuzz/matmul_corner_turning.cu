// matmul-corner-turning as a student writes it for nvcc: PMPP sec. 6.1's corner turning on
// the tiled kernel of Fig. 5.9/5.13. N is stored column-major (element (r, c) at
// N[c*k + r]), so the block loads its N tile with threadIdx.x running down a column, which
// is contiguous, and stores it turned, in Nds[tx][ty]. The same kernel as
// kernels/matmul_corner_turning.cuh, in plain CUDA
// (tests/student/student_kernel_test.cpp compares the two).
// tilescope: N = column-major
#define TILE_WIDTH 16

__global__ void matmulCornerTurning(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // M's tile as in matmul-tiled; N's tile with the corner turned: tx walks down
        // column bx*TILE_WIDTH + ty of N, i.e. along consecutive addresses
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + tx < k && bx*TILE_WIDTH + ty < l)
            Nds[tx][ty] = N[(bx*TILE_WIDTH + ty)*k + ph*TILE_WIDTH + tx];
        else
            Nds[tx][ty] = 0;
        // The whole tile must be in shared memory before anyone reads it
        __syncthreads();

        // Nds[i][tx] is element (i, tx) of the tile, as in matmul-tiled
        if (Row < j && Col < l)
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue += Mds[ty][i] * Nds[i][tx];
        // Everyone must be done with the tile before the next phase overwrites it
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue;
}
