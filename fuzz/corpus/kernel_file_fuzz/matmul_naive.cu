// matmul-naive as a student writes it for nvcc: PMPP Fig. 3.11 (sec. 3.4), generalised to
// M (j x k) times N (k x l). The same kernel as kernels/matmul_naive.cuh, in plain CUDA
// (tests/student/student_kernel_test.cpp compares the two).

__global__ void matmulNaive(const float* M, const float* N, float* P, int j, int k, int l)
{
    // Calculate the row index of the P element and M
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    // Calculate the column index of P and N
    int Col = blockIdx.x * blockDim.x + threadIdx.x;

    if ((Row < j) && (Col < l)) {
        float Pvalue = 0;
        // each thread computes one element of P
        for (int i = 0; i < k; ++i) {
            Pvalue += M[Row*k + i] * N[i*l + Col];
        }
        P[Row*l + Col] = Pvalue;
    }
}
