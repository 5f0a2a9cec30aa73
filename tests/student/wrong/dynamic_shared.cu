// A student's tile in dynamic shared memory, sized at launch: TileScope needs the size in
// the file.
// run: --width 4 --tile 4
// expect: dynamic_shared.cu:7:29: error: extern __shared__ tile (dynamic shared memory) is not supported
__global__ void dynamicTile(const float* M, const float* N, float* P, int Width)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = M[threadIdx.x];
    __syncthreads();
    P[threadIdx.x] = tile[threadIdx.x];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 7
