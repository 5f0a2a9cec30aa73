// A student's naive kernel with a printf left in from debugging: refused with its line (the
// Threads panel shows each thread's values instead).
// run: --width 4 --tile 4
// expect: printf_debugging.cu:13:9: error: printf is not supported
__global__ void matmulNaive(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        printf("%f\n", Pvalue);
        P[Row * Width + Col] = Pvalue;
    }
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 13
