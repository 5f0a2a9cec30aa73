// matmul-tiled-nds-transposed as a student writes it for nvcc: matmul-tiled with the N
// tile stored transposed in Nds (bank conflicts, PMPP sec. 5.4 and 6.1). The same kernel
// as kernels/matmul_tiled_nds_transposed.cuh, in plain CUDA
// (tests/student/student_kernel_test.cpp compares the two).
#define TILE_WIDTH 16

__global__ void matmulTiledNdsTransposed(const float* M, const float* N, float* P, int j, int k, int l)
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
        // Collaborative loading of M and N tiles into shared memory; the global reads are
        // those of matmul-tiled (coalesced), only the N tile is stored with its axes swapped
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + ty < k && Col < l)
            Nds[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else
            Nds[tx][ty] = 0;
        // Wait until the whole tile is in shared memory (true dependence: read after write)
        __syncthreads();

        // Lanes tx and tx + 1 read Nds[tx][i] and Nds[tx + 1][i], TILE_WIDTH words apart:
        // at TILE_WIDTH 16 a warp's 16 words fall into 2 banks (8-way conflict), at 32 into 1
        if (Row < j && Col < l)
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue += Mds[ty][i] * Nds[tx][i];
        // Wait until every thread is done with the tile before it is overwritten in the
        // next phase (false dependence: write after read)
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue;
}
