// A tiled matrix transpose: each block loads a TILE_DIM x TILE_DIM tile of A into shared
// memory with coalesced reads along A's rows, waits at the barrier, and writes the tile's
// transpose with coalesced writes along B's rows. The tile has one padding column, so that
// reading a column of it does not fall into one shared-memory bank.
#define TILE_DIM 16
// tilescope: family = array
// tilescope: arrays = in A[rows][cols], out B[cols][rows]
// tilescope: sizes = rows = 40, cols = 24
// tilescope: reference = B[r][c] = A[c][r]
// tilescope: grid = (cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM
// tilescope: block = TILE_DIM, TILE_DIM
__global__ void transposeTiled(const float* A, float* B, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (y < rows && x < cols) {
        tile[threadIdx.y][threadIdx.x] = A[y * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (y < cols && x < rows) {
        B[y * rows + x] = tile[threadIdx.x][threadIdx.y];
    }
}
