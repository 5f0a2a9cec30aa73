// matmul-naive-uncoalesced as a student writes it for nvcc: PMPP Fig. 3.11's kernel with
// the thread axes swapped, so that threadIdx.x walks down the rows of P. Each warp's lanes
// then read M and write P one row (k or l floats) apart: no coalescing (PMPP sec. 6.1).
// The same kernel as kernels/matmul_naive_uncoalesced.cuh, in plain CUDA
// (tests/student/student_kernel_test.cpp compares the two). The launch puts the rows of P
// on the grid's x axis too:
// tilescope: block = BLOCK_WIDTH, BLOCK_WIDTH
// tilescope: grid = (j + BLOCK_WIDTH - 1)/BLOCK_WIDTH, (l + BLOCK_WIDTH - 1)/BLOCK_WIDTH
#define BLOCK_WIDTH 16

__global__ void matmulNaiveUncoalesced(const float* M, const float* N, float* P, int j, int k, int l)
{
    // Row of P (and M) from the x axis: lanes next to each other are k floats of M apart
    int Row = blockIdx.x * blockDim.x + threadIdx.x;
    // Column of P (and N) from the y axis
    int Col = blockIdx.y * blockDim.y + threadIdx.y;

    if ((Row < j) && (Col < l)) {
        float Pvalue = 0;
        // every thread walks along its row of M and down its column of N
        for (int i = 0; i < k; ++i) {
            Pvalue += M[Row*k + i] * N[i*l + Col];
        }
        P[Row*l + Col] = Pvalue;
    }
}
