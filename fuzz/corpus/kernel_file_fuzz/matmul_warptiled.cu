// matmul-warptiled as a student writes it for nvcc: matmul-conflict-free's double buffer and
// 128-bit accesses, with the block's 2T x T tile of P cut into WM x WN = 64 x 64 warp tiles.
// Lane (ly, lx) of a warp computes 16 x 8 elements of its warp's tile, in 4 x 4 pieces
// ROW_STEP rows and COL_STEP columns apart, so that a warp's shared reads take fewer
// wavefronts per multiply-add. The same kernel as kernels/matmul_warptiled.cuh, in plain
// CUDA (tests/student/student_kernel_test.cpp compares the two). One difference of form
// changes no access: the boundary checks are made in every block (the built-in skips them
// in blocks that lie wholly inside the matrices, where they all hold).
// tilescope: block = TILE_WIDTH/TN, 2*TILE_WIDTH/TM
// tilescope: grid = (l + TILE_WIDTH - 1)/TILE_WIDTH, (j + 2*TILE_WIDTH - 1)/(2*TILE_WIDTH)
#define TILE_WIDTH 64
#define BM (2 * TILE_WIDTH)   // the block's tile of P: BM x BN
#define BN TILE_WIDTH
#define BK 8
#define TM 16                 // the lane's tile of P: TM x TN
#define TN 8
#define WM 64                 // the warp's tile of P: WM x WN
#define WN 64
#define WARPS_N (BN / WN)     // warps side by side in a block
#define LX (WN / TN)          // lanes side by side in a warp
#define THREADS ((BN / TN) * (BM / TM))
#define M_LOADS (BM * BK / 4 / THREADS)   // float4 of M per thread and phase
#define N_LOADS (BK * BN / 4 / THREADS)   // float4 of N per thread and phase
#define M_PAD 4
#define ROW_STEP (WM / (TM / 4))          // 16: how far apart a lane's pieces lie
#define COL_STEP (WN / (TN / 4))          // 32

// Phase s's elements of M and N from global memory into registers, a float4 where possible
__device__ void loadPhase(const float* M, const float* N, float Mnext[][4], float Nnext[][4],
                          int s, int t, int bx, int by, int j, int k, int l)
{
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

// The registers into buffer buf: M transposed, N in 128-bit stores
__device__ void storePhase(float Mds[][BM + M_PAD], float Nds[][BN], float Mnext[][4], float Nnext[][4], int buf, int t)
{
#pragma unroll
    for (int q = 0; q < M_LOADS; ++q) {
        int e = t + q * THREADS;
        int r = e / (BK / 4), c = 4 * (e % (BK / 4));
        for (int d = 0; d < 4; ++d)
            Mds[buf*BK + c + d][r] = Mnext[q][d];
    }
#pragma unroll
    for (int q = 0; q < N_LOADS; ++q) {
        int e = t + q * THREADS;
        int r = e / (BN / 4), c = 4 * (e % (BN / 4));
        *reinterpret_cast<float4*>(&Nds[buf*BK + r][c]) =
            make_float4(Nnext[q][0], Nnext[q][1], Nnext[q][2], Nnext[q][3]);
    }
}

__global__ void matmulWarptiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[2 * BK][BM + M_PAD];   // buffers b = 0, 1, transposed: Mds[b*BK + c][r]
    __shared__ float Nds[2 * BK][BN];           // buffers b = 0, 1: Nds[b*BK + r][c]

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int t = ty * (BN / TN) + tx;   // the thread's number in the block: loads and warps use it
    int warp = t / 32, lane = t % 32;
    int wr = (warp / WARPS_N) * WM, wc = (warp % WARPS_N) * WN;   // the warp's tile in the block's
    int ly = lane / LX, lx = lane % LX;                             // the lane's place in the warp's

    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];
    float Mnext[M_LOADS][4], Nnext[N_LOADS][4];   // the next phase's elements

    // Phase 0's tiles into buffer 0
    int phases = (k - 1) / BK + 1;
    loadPhase(M, N, Mnext, Nnext, 0, t, bx, by, j, k, l);
    storePhase(Mds, Nds, Mnext, Nnext, 0, t);
    __syncthreads();
    for (int ph = 0; ph < phases; ++ph) {
        // The next phase's elements start their way from global memory
        if (ph + 1 < phases)
            loadPhase(M, N, Mnext, Nnext, ph + 1, t, bx, by, j, k, l);
        // This phase's tiles, in buffer ph % 2, multiplied: per column i of the M tile, four
        // pieces of 4 elements of M and two of 4 elements of N
        int cur = ph % 2;
#pragma unroll
        for (int i = 0; i < BK; ++i) {
            for (int m = 0; m < TM; m += 4) {
                float4 v = *reinterpret_cast<const float4*>(&Mds[cur*BK + i][wr + (m / 4)*ROW_STEP + ly*4]);
                Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
            }
            for (int n = 0; n < TN; n += 4) {
                float4 v = *reinterpret_cast<const float4*>(&Nds[cur*BK + i][wc + (n / 4)*COL_STEP + lx*4]);
                Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
            }
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    Pvalue[m][n] += Mreg[m] * Nreg[n];
        }
        // The next phase's registers into the other buffer, which nobody reads in this phase
        if (ph + 1 < phases)
            storePhase(Mds, Nds, Mnext, Nnext, (ph + 1) % 2, t);
        // One barrier a phase: the other buffer complete (read after write), this one free
        // for the next phase to fill (write after read)
        __syncthreads();
    }
    // P four elements at a time where the row has them (128-bit stores), else one by one
#pragma unroll
    for (int m = 0; m < TM; ++m) {
#pragma unroll
        for (int n = 0; n < TN; n += 4) {
            int Row = by*BM + wr + (m / 4)*ROW_STEP + ly*4 + m % 4;
            int Col = bx*BN + wc + (n / 4)*COL_STEP + lx*4;
            if (l % 4 == 0 && Row < j && Col + 3 < l) {
                *reinterpret_cast<float4*>(&P[Row*l + Col]) =
                    make_float4(Pvalue[m][n], Pvalue[m][n + 1], Pvalue[m][n + 2], Pvalue[m][n + 3]);
            } else {
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    if (Row < j && Col + c < l)
                        P[Row*l + Col + c] = Pvalue[m][n + c];
                }
            }
        }
    }
}
