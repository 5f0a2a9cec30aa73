// A student's kernel that computes its tile count as an integer division by a value that
// comes out 0 (Width / (Width + 1)): the division traps, as it would on the host. The run
// ends in its child process and TileScope reports the crash instead of going down with it.
// run: --width 4 --tile 4
// expect: your kernel's run crashed (Floating point exception)
__global__ void tilesByZero(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    int perTile = Width / (Width + 1);
    int tiles = Width / perTile;
    P[Row * Width + Col] = M[(Row * tiles) % (Width * Width)];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
