// matmul-coarsened as a student writes it for nvcc: PMPP sec. 6.3's thread coarsening
// (Fig. 6.13) with the boundary checks of sec. 5.5. Each thread computes COARSE_FACTOR
// elements of one row of P, TILE_WIDTH columns apart, and the block loads its M tile once
// per phase for all of them. The same kernel as kernels/matmul_coarsened.cuh, in plain
// CUDA (tests/student/student_kernel_test.cpp compares the two). A block covers
// TILE_WIDTH*COARSE_FACTOR columns of P, hence the grid:
// tilescope: block = TILE_WIDTH, TILE_WIDTH
// tilescope: grid = (l + TILE_WIDTH*COARSE_FACTOR - 1)/(TILE_WIDTH*COARSE_FACTOR), (j + TILE_WIDTH - 1)/TILE_WIDTH
#define TILE_WIDTH 32
#define COARSE_FACTOR 4

__global__ void matmulCoarsened(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // The row of P, and the first of this thread's COARSE_FACTOR columns
    int Row = by * TILE_WIDTH + ty;
    int colStart = bx * TILE_WIDTH * COARSE_FACTOR + tx;

    // A running sum for each of the thread's P elements
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c)
        Pvalue[c] = 0;

    // Loop over the phases: one M tile, COARSE_FACTOR N tiles each
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // The M tile comes in once and serves every coarsened column
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;

        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int Col = colStart + c * TILE_WIDTH;
            // The c-th N tile of this phase
            if (ph*TILE_WIDTH + ty < k && Col < l)
                Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
            else
                Nds[ty][tx] = 0;
            // Both tiles must be loaded before they are read
            __syncthreads();

            if (Row < j && Col < l)
                for (int i = 0; i < TILE_WIDTH; ++i)
                    Pvalue[c] += Mds[ty][i] * Nds[i][tx];
            // Nds (and Mds, after the last c) must be read by all before it is replaced
            __syncthreads();
        }
    }
    // Write the COARSE_FACTOR results
    for (int c = 0; c < COARSE_FACTOR; ++c) {
        int Col = colStart + c * TILE_WIDTH;
        if (Row < j && Col < l)
            P[Row*l + Col] = Pvalue[c];
    }
}
