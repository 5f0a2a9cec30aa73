// A student's kernel with a typo: Pvalu for Pvalue. The front end's error names the line
// and column.
// run: --width 4 --tile 4
// expect: compile_error.cu:12:13: error: use of undeclared identifier 'Pvalu'
__global__ void typo(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalu += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: matmul-row-per-thread
// grade-line: 12
