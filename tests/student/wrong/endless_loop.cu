// A student's naive kernel whose loop counter is never increased: the run would never end.
// TileScope runs a student's kernel in a child process and stops it at a time limit.
// run: --width 4 --tile 4
// expect: your kernel ran longer than
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
// (The grader's child may reach its memory limit before its time limit: either says this.)
// grade-expect: look for a loop that never ends
