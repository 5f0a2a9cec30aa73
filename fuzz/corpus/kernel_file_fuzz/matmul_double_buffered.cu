// matmul-double-buffered as a student writes it for nvcc: matmul-vectorized with two
// buffers of each shared tile. While the block multiplies the tiles of one phase from one
// buffer, the next phase's elements travel from global memory into registers and are then
// written into the other buffer, so one barrier per phase suffices. The same kernel as
// kernels/matmul_double_buffered.cuh, in plain CUDA (tests/student/student_kernel_test.cpp
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
#define M_LOADS (BM * BK / 4 / THREADS)   // float4 of M per thread and phase
#define N_LOADS (BK * BN / 4 / THREADS)   // float4 of N per thread and phase

__global__ void matmulDoubleBuffered(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[2 * BK][BM];   // buffers b = 0, 1, transposed: Mds[b*BK + c][r]
    __shared__ float Nds[2 * BK][BN];   // buffers b = 0, 1: Nds[b*BK + r][c]

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
    float Mnext[M_LOADS][4], Nnext[N_LOADS][4];   // the next phase's elements

    int phases = (k - 1) / BK + 1;
    for (int s = 0; s <= phases; ++s) {
        // Phase s's elements from global memory into registers, a float4 where possible
        if (s < phases) {
#pragma unroll
            for (int q = 0; q < M_LOADS; ++q) {
                int e = t + q * THREADS;
                int Row = by*BM + e / (BK / 4), Col = s*BK + 4 * (e % (BK / 4));
                if (k % 4 == 0 && Row < j && Col + 3 < k) {
                    float4 v = *reinterpret_cast<const float4*>(&M[Row*k + Col]);
                    Mnext[q][0] = v.x; Mnext[q][1] = v.y; Mnext[q][2] = v.z; Mnext[q][3] = v.w;
                } else {
#pragma unroll
                    for (int c = 0; c < 4; ++c) {
                        if (Row < j && Col + c < k)
                            Mnext[q][c] = M[Row*k + Col + c];
                        else
                            Mnext[q][c] = 0;
                    }
                }
            }
#pragma unroll
            for (int q = 0; q < N_LOADS; ++q) {
                int e = t + q * THREADS;
                int Row = s*BK + e / (BN / 4), Col = bx*BN + 4 * (e % (BN / 4));
                if (l % 4 == 0 && Row < k && Col + 3 < l) {
                    float4 v = *reinterpret_cast<const float4*>(&N[Row*l + Col]);
                    Nnext[q][0] = v.x; Nnext[q][1] = v.y; Nnext[q][2] = v.z; Nnext[q][3] = v.w;
                } else {
#pragma unroll
                    for (int c = 0; c < 4; ++c) {
                        if (Row < k && Col + c < l)
                            Nnext[q][c] = N[Row*l + Col + c];
                        else
                            Nnext[q][c] = 0;
                    }
                }
            }
        }
        // Phase s - 1's tiles, stored at the step before, multiplied from their buffer
        if (s > 0) {
            int cur = (s - 1) % 2;
            for (int i = 0; i < BK; ++i) {
                for (int m = 0; m < TM; m += 4) {
                    float4 v = *reinterpret_cast<const float4*>(&Mds[cur*BK + i][ty*TM + m]);
                    Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
                }
                for (int n = 0; n < TN; n += 4) {
                    float4 v = *reinterpret_cast<const float4*>(&Nds[cur*BK + i][tx*TN + n]);
                    Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
                }
                for (int m = 0; m < TM; ++m)
                    for (int n = 0; n < TN; ++n)
                        Pvalue[m][n] += Mreg[m] * Nreg[n];
            }
        }
        // The registers into the other buffer, which no thread reads during this step
        if (s < phases) {
            int nxt = s % 2;
#pragma unroll
            for (int q = 0; q < M_LOADS; ++q) {
                int e = t + q * THREADS;
                int r = e / (BK / 4), c = 4 * (e % (BK / 4));
                for (int d = 0; d < 4; ++d)
                    Mds[nxt*BK + c + d][r] = Mnext[q][d];
            }
#pragma unroll
            for (int q = 0; q < N_LOADS; ++q) {
                int e = t + q * THREADS;
                int r = e / (BN / 4), c = 4 * (e % (BN / 4));
                for (int d = 0; d < 4; ++d)
                    Nds[nxt*BK + r][c + d] = Nnext[q][d];
            }
        }
        // One barrier a phase: the new buffer is complete (read after write) and the old
        // one has been read by everyone before the next step refills it (write after read)
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
