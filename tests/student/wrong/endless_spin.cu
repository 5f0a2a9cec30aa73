// A student's row-per-thread kernel whose loop never ends and reads no memory while it spins:
// the simulator's read budget never sees it, and the child process it runs in is stopped at
// its time limit.
// run: --width 4 --tile 4
// expect: your kernel ran longer than
#define BLOCK_SIZE 16

__global__ void spin(const float* M, const float* N, float* P, int j, int k, int l)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < j) {
        float Pvalue = M[row * k];
        for (int i = 0; i < k; )
            Pvalue = Pvalue * 0.5f + 1.0f;
        for (int col = 0; col < l; ++col)
            P[row * l + col] = Pvalue;
    }
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: matmul-row-per-thread
// (The grader's child may reach its memory limit before its time limit: either says this.)
// grade-expect: look for a loop that never ends
