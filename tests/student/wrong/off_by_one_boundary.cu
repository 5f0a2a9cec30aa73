// A student's naive matrix multiplication whose boundary check lets one row and one column
// too many through (<= for <): on a size the blocks overrun, those threads read past the
// end of M and N.
// run: --width 6 --tile 4
// expect: thread (tx=2, ty=0) of block (1, 0) accessed N[36] at line 13, outside its 36 elements
__global__ void matmulNaive(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row <= Width && Col <= Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-expect: at line 13, outside its 1 elements
// grade-line: 13
