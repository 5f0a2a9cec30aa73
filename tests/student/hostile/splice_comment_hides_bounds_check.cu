// hostile: a backslash at the end of a // comment turns the next line, the bounds check, into comment, so the kernel writes past P
// expect-line: 11
#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    // only inside P \
    if (Row < j && Col < l)
    {
        for (int i = 0; i < k; ++i) Pvalue += M[Row * k + i] * N[i * l + Col];
        P[Row * l + Col] = Pvalue;
    }
}
