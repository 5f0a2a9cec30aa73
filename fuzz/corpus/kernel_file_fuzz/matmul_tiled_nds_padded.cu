// matmul-tiled-nds-padded as a student writes it for nvcc: the transposed Nds padded by
// one column (no bank conflicts). The same kernel as kernels/matmul_tiled_nds_padded.cuh,
// in plain CUDA (tests/student/student_kernel_test.cpp compares the two).
#define TILE_WIDTH 16

__global__ void matmulTiledNdsPadded(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    // One padding column: row tx of Nds starts tx*(TILE_WIDTH + 1) words in, so lane tx
    // lands in bank (tx*(TILE_WIDTH + 1) + i) mod 32, a different bank for every tx
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH + 1];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // Collaborative loading of M and N tiles into shared memory, N transposed
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

        // The same reads as the transposed kernel, now one bank per lane: no conflict
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
