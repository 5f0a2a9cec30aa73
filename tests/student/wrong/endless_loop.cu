// A student's naive kernel whose loop counter is never increased: the run would never end.
// Its threads keep reading M and N, so the simulator stops the first of them once it has
// read far more than the problem holds, naming the line it was reading and the loop.
// run: --width 4 --tile 4
// expect: was still reading at line 12: a loop that never ends?
__global__ void endless(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    for (int k = 0; k < Width; )
        Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-expect: the loop on line 11 never ends
// grade-line: 11
