// A student's naive kernel whose loop never ends and reads no memory while it spins: nothing
// in the simulator sees it, and the child process it runs in is stopped at its time limit.
// run: --width 4 --tile 4
// expect: your kernel ran longer than
__global__ void spin(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = M[Row * Width] * N[Col];
    for (int k = 0; k < Width; )
        Pvalue = Pvalue * 0.5f + 1.0f;
    P[Row * Width + Col] = Pvalue;
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: matmul-row-per-thread
// (The grader's child may reach its memory limit before its time limit: either says this.)
// grade-expect: look for a loop that never ends
