// matmul-vectorized as a student writes it for nvcc: matmul-regtile-2d with 128-bit memory
// accesses. Four neighbouring floats move as one float4, from global memory into registers
// and from shared memory into registers; the M tile is stored transposed (Mds[c][r]) so that
// a thread's TM elements of a column of it lie side by side. Where a float4 would leave the
// matrix, or a row's length is not a multiple of 4 (so the address is off a 16-byte
// boundary), four scalar loads with the checks of PMPP sec. 5.5 replace it. The same kernel
// as kernels/matmul_vectorized.cuh, in plain CUDA (tests/student/student_kernel_test.cpp
// compares the two).
// tilescope: block = TILE_WIDTH/TN, TILE_WIDTH/TM
// tilescope: grid = (l + TILE_WIDTH - 1)/TILE_WIDTH, (j + TILE_WIDTH - 1)/TILE_WIDTH
#define TILE_WIDTH 64      // the block's tile of P is TILE_WIDTH x TILE_WIDTH
#define BM TILE_WIDTH
#define BN TILE_WIDTH
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BN / TN) * (BM / TM))

__global__ void matmulVectorized(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[BK][BM];   // transposed: Mds[c][r] is element (r, c) of the M tile
    __shared__ float Nds[BK][BN];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int t = ty * (BN / TN) + tx;   // the thread's number in the block, for the tile loads

    // This thread's TM x TN tile of P starts at row rowStart, column colStart
    int rowStart = by * BM + ty * TM;
    int colStart = bx * BN + tx * TN;
    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];

    for (int ph = 0; ph < (k - 1) / BK + 1; ++ph) {
        // M tile, a float4 at a time: float4 number e is row e / (BK/4), columns c .. c + 3
#pragma unroll
        for (int e = t; e < BM * BK / 4; e += THREADS) {
            int r = e / (BK / 4), c = 4 * (e % (BK / 4));
            int Row = by*BM + r, Col = ph*BK + c;
            if (k % 4 == 0 && Row < j && Col + 3 < k) {
                float4 v = *reinterpret_cast<const float4*>(&M[Row*k + Col]);
                Mds[c][r] = v.x; Mds[c + 1][r] = v.y; Mds[c + 2][r] = v.z; Mds[c + 3][r] = v.w;
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    if (Row < j && Col + q < k)
                        Mds[c + q][r] = M[Row*k + Col + q];
                    else
                        Mds[c + q][r] = 0;
                }
            }
        }
        // N tile: float4 number e is row e / (BN/4), columns c .. c + 3, stored as it is
#pragma unroll
        for (int e = t; e < BK * BN / 4; e += THREADS) {
            int r = e / (BN / 4), c = 4 * (e % (BN / 4));
            int Row = ph*BK + r, Col = bx*BN + c;
            if (l % 4 == 0 && Row < k && Col + 3 < l) {
                *reinterpret_cast<float4*>(&Nds[r][c]) = *reinterpret_cast<const float4*>(&N[Row*l + Col]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    if (Row < k && Col + q < l)
                        Nds[r][c + q] = N[Row*l + Col + q];
                    else
                        Nds[r][c + q] = 0;
                }
            }
        }
        // The tiles must be complete before anyone reads them
        __syncthreads();

        for (int i = 0; i < BK; ++i) {
            // Two 128-bit shared loads for the TM elements of M, two for the TN of N
            for (int m = 0; m < TM; m += 4) {
                float4 v = *reinterpret_cast<const float4*>(&Mds[i][ty*TM + m]);
                Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
            }
            for (int n = 0; n < TN; n += 4) {
                float4 v = *reinterpret_cast<const float4*>(&Nds[i][tx*TN + n]);
                Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
            }
            // The outer product, one FMA each
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    Pvalue[m][n] += Mreg[m] * Nreg[n];
        }
        // Everyone must be done with the tiles before the next phase overwrites them
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m) {
#pragma unroll
        for (int n = 0; n < TN; ++n) {
            if (rowStart + m < j && colStart + n < l)
                P[(rowStart + m)*l + colStart + n] = Pvalue[m][n];
        }
    }
}
