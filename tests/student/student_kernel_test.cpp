// A student's kernel in plain CUDA (student/): the translation keeps the student's lines and
// refuses what TileScope does not model, naming the line; and the registry's kernels, written
// as plain CUDA files (tests/student/kernels/), simulate exactly like the built-in ones: the
// same P, the same counters and the same trace, with source lines moved to the file's.
#include <algorithm>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/wait.h>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/engine/simulate.hpp"
#include "student/module.hpp"
#include "frontend/translate.hpp"
#include "student_test_support.hpp"

namespace {

using namespace ts;
using student::test::errorsOf;
using student::test::kernelPath;
using student::test::options;


/// The one error translateCuda() gives `source`, checked to be on `line`, and its text.
std::string onlyError(const std::string& source, unsigned line)
{
    const student::Translation t = student::translateCuda(source, "kernel.cu");
    EXPECT_EQ(t.errors.size(), 1u) << errorsOf(t.errors);
    if (t.errors.empty()) return "";
    EXPECT_EQ(t.errors.front().line, line) << errorsOf(t.errors);
    EXPECT_TRUE(t.code.empty());
    return t.errors.front().message;
}

TEST(StudentTranslate, KeepsEveryLineAndRewritesOnlyTheCudaNames)
{
    const std::string src = "#define TILE_WIDTH 4\n"
                            "__global__ void k(float* M, const float* N, float* P, int Width)\n"
                            "{\n"
                            "    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];\n"
                            "    int tx = threadIdx.x + blockDim.x * blockIdx.y;\n"
                            "    __syncthreads();\n"
                            "}\n";
    const student::Translation t = student::translateCuda(src, "kernel.cu");
    ASSERT_TRUE(t.ok()) << errorsOf(t.errors);
    EXPECT_EQ(std::count(t.code.begin(), t.code.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    EXPECT_NE(t.code.find("template <class TsContext> TS_DEVICE void k(TsContext& ts_ctx, typename TsContext::template GlobalPtr<float> M, "
                          "typename TsContext::template GlobalPtr<const float> N, typename TsContext::template GlobalPtr<float> P, int Width)"),
              std::string::npos)
        << t.code;
    EXPECT_NE(t.code.find("auto&& Mds = ts_ctx.template shared2d<float, (TILE_WIDTH), (TILE_WIDTH), __LINE__>(\"Mds\");"),
              std::string::npos)
        << t.code;
    EXPECT_NE(t.code.find("int tx = ts_ctx.threadIdx.x + ts_ctx.blockDim.x * ts_ctx.blockIdx.y;"), std::string::npos) << t.code;
    EXPECT_NE(t.code.find("    ts_ctx.syncthreads();\n"), std::string::npos) << t.code;
    EXPECT_EQ(t.kernelName, "k");
    ASSERT_EQ(t.params.size(), 4u);
    EXPECT_EQ(t.params[0].kind, student::KernelParam::Kind::FloatPointer);
    EXPECT_EQ(t.params[1].kind, student::KernelParam::Kind::ConstFloatPointer);
    EXPECT_EQ(t.params[3].kind, student::KernelParam::Kind::Int);
    ASSERT_EQ(t.shared.size(), 1u);
    EXPECT_EQ(t.shared[0].extents, (std::vector<long long>{4, 4}));
    EXPECT_EQ(t.barrierLines, std::vector<unsigned>{6});
    ASSERT_NE(t.define("TILE_WIDTH"), nullptr);
    EXPECT_EQ(*t.define("TILE_WIDTH"), 4);
}

TEST(StudentTranslate, RefusesWhatItDoesNotModelWithTheLine)
{
    const std::string head = "__global__ void k(float* M, float* N, float* P, int Width)\n{\n";
    EXPECT_NE(onlyError(head + "    atomicCAS(P, 1.0f, 2.0f);\n}\n", 3).find("atomicCAS is not supported"), std::string::npos);
    EXPECT_NE(onlyError(head + "    unsigned v = __ballot_sync(0xffffffff, 1);\n}\n", 3).find("warp intrinsics"),
              std::string::npos);
    EXPECT_NE(onlyError(head + "    printf(\"%d\", 1);\n}\n", 3).find("printf is not supported"), std::string::npos);
    EXPECT_NE(onlyError(head + "    extern __shared__ float buf[];\n}\n", 3).find("dynamic shared memory"), std::string::npos);
    EXPECT_NE(onlyError(head + "    __shared__ double counts[4];\n}\n", 3).find("arrays of float, int and unsigned int"), std::string::npos);
    EXPECT_NE(onlyError(head + "    k(M, N, P, Width);\n}\n", 3).find("recursion"), std::string::npos);
    EXPECT_NE(onlyError(head + "    goto done;\n    done: return;\n}\n", 3).find("goto is not supported"), std::string::npos);
    EXPECT_NE(onlyError(head + "    int x = undefinedThing;\n}\n", 3).find("undeclared identifier 'undefinedThing'"),
              std::string::npos);
    EXPECT_NE(onlyError(head + "}\n__global__ void k2(float* P) {}\n", 4).find("a second __global__ kernel"),
              std::string::npos);
    EXPECT_NE(onlyError("__device__ float twice(float v) { return twice(v); }\n" + head + "}\n", 1)
                  .find("__device__ function twice calls itself: recursion is not supported"),
              std::string::npos);
    EXPECT_NE(onlyError("__device__ void stage() {\n    __shared__ float t[4];\n}\n" + head + "}\n", 2)
                  .find("declare shared arrays in the kernel"),
              std::string::npos);
    EXPECT_NE(onlyError("__constant__ float M1[5];\n__constant__ float M2[5];\n" + head + "}\n", 2).find("a second __constant__ array"),
              std::string::npos);
    EXPECT_NE(onlyError("__constant__ float Mk[3] = {1, 2, 3};\n" + head + "}\n", 1).find("cudaMemcpyToSymbol"),
              std::string::npos);
    EXPECT_NE(onlyError(head + "}\nint main() { return 0; }\n", 4).find("host code"), std::string::npos);
    EXPECT_NE(onlyError("__global__ void k(double* P)\n{\n}\n", 1).find("points to double: the simulator models arrays of float, int, unsigned int and (read only) char"), std::string::npos);
    EXPECT_NE(onlyError("#include <cstdio>\n" + head + "}\n", 1).find("includes nothing"), std::string::npos);
    const student::Translation none = student::translateCuda("int x;\n", "kernel.cu");
    ASSERT_FALSE(none.ok());
}

/// __device__ helpers become templates over the context like the kernel, and every call
/// passes the context on; the __constant__ mask leaves file scope for the context's.
TEST(StudentTranslate, HelpersTakeTheContextAndTheMaskComesFromIt)
{
    const std::string src = "#define MAX_MASK_WIDTH 9\n"
                            "__constant__ float M[MAX_MASK_WIDTH];\n"
                            "__device__ int clampIndex(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }\n"
                            "__device__ float tap(const float* N, int i, int j) { return N[i]*M[j]; }\n"
                            "__global__ void k(const float* N, float* P, int Mask_Width, int Width)\n"
                            "{\n"
                            "    int i = clampIndex(blockIdx.x*blockDim.x + threadIdx.x, Width);\n"
                            "    P[i] = tap(N, i, 0);\n"
                            "}\n";
    const student::Translation t = student::translateCuda(src, "k.cu");
    ASSERT_TRUE(t.ok()) << errorsOf(t.errors);
    EXPECT_EQ(std::count(t.code.begin(), t.code.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    ASSERT_EQ(t.constants.size(), 1u);
    EXPECT_EQ(t.constants[0].name, "M");
    EXPECT_EQ(t.constants[0].extents, std::vector<long long>{9});
    EXPECT_EQ(t.helpers, (std::vector<std::string>{"clampIndex", "tap"}));
    EXPECT_NE(t.code.find("template <class TsContext> __device__ int clampIndex(TsContext& ts_ctx, int i, int n)"), std::string::npos) << t.code;
    EXPECT_NE(t.code.find("tap(TsContext& ts_ctx, auto N, int i, int j) { auto&& M = ts_ctx.mask1d();"), std::string::npos) << t.code;
    EXPECT_NE(t.code.find("clampIndex(ts_ctx, ts_ctx.blockIdx.x*ts_ctx.blockDim.x + ts_ctx.threadIdx.x, Width)"), std::string::npos)
        << t.code;
    EXPECT_NE(t.code.find("tap(ts_ctx, N, i, 0)"), std::string::npos) << t.code;
    EXPECT_EQ(t.code.find("__constant__"), std::string::npos) << t.code;
}

/// A multiply-add of registers (a register tile's outer product) becomes the context's fmaf,
/// in each of the three ways C writes it, with every line kept; a product that reads memory,
/// or an accumulator that is not a plain register, is left as written.
TEST(StudentTranslate, RegisterMultiplyAddsBecomeTheContextsFma)
{
    const std::string src = "#define TM 2\n"
                            "__global__ void k(const float* M, const float* N, float* P, int j, int k, int l)\n"
                            "{\n"
                            "    __shared__ float Mds[4][4];\n"
                            "    float acc[TM][TM], a[TM], b = M[0], s = 0;\n"
                            "    acc[0][1] += a[TM - 1] * b;\n"
                            "    s = s + a[0] *\n"
                            "            b;\n"
                            "    s = a[1] * (b + 1.0f) + s;\n"
                            "    s += Mds[0][0] * b;\n"
                            "    s += M[1] * b;\n"
                            "    acc[threadIdx.x][0] += a[0] * b;\n"
                            "    s = b + a[0] * b;\n"
                            "    int n = 0;  n += n * j;\n"
                            "    s -= a[0] * b;\n"
                            "}\n";
    const student::Translation t = student::translateCuda(src, "k.cu");
    ASSERT_TRUE(t.ok()) << errorsOf(t.errors);
    EXPECT_EQ(std::count(t.code.begin(), t.code.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    std::vector<std::string> lines;
    std::istringstream in(t.code);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 16u) << t.code;
    EXPECT_EQ(lines[5], "    acc[ts_ctx.localIndex(0, 2, \"acc\")][ts_ctx.localIndex(1, 2, \"acc\")] = ts_ctx.fmaf(a[ts_ctx.localIndex(TM - 1, 2, \"a\")] , b, acc[0][1]);");
    EXPECT_EQ(lines[6], "    s = ts_ctx.fmaf(a[ts_ctx.localIndex(0, 2, \"a\")] ,");
    EXPECT_EQ(lines[7], "            b, s);");
    EXPECT_EQ(lines[8], "    s = ts_ctx.fmaf(a[ts_ctx.localIndex(1, 2, \"a\")] , (b + 1.0f) , s);");
    // Memory operands: the recording reference fuses and counts them already.
    EXPECT_EQ(lines[9], "    s += Mds[0][0] * b;");
    EXPECT_EQ(lines[10], "    s += M[1] * b;");
    // Not the accumulator's own text, an index from the context, an int, a subtraction.
    EXPECT_EQ(lines[11], "    acc[ts_ctx.localIndex(ts_ctx.threadIdx.x, 2, \"acc\")][ts_ctx.localIndex(0, 2, \"acc\")] += a[ts_ctx.localIndex(0, 2, \"a\")] * b;");
    EXPECT_EQ(lines[12], "    s = b + a[ts_ctx.localIndex(0, 2, \"a\")] * b;");
    EXPECT_EQ(lines[13], "    int n = 0;  n += n * j;");
    EXPECT_EQ(lines[14], "    s -= a[ts_ctx.localIndex(0, 2, \"a\")] * b;");
}

/// CUDA's 128-bit accesses through float4, as they are written for nvcc, become the
/// context's: a global load ldg4, a shared load lds4, a shared store sts4, a global store
/// stg4, the float4 type and make_float4 the context's Float4; any other reinterpret_cast is
/// refused.
TEST(StudentTranslate, Float4AccessesBecomeTheContextsVectorAccesses)
{
    const std::string src = "__global__ void k(const float* M, const float* N, float* P, int j, int k, int l)\n"
                            "{\n"
                            "    __shared__ float Nds[4][8];\n"
                            "    float4 v = *reinterpret_cast<const float4*>(&M[4*threadIdx.x]);\n"
                            "    *reinterpret_cast<float4*>(&Nds[threadIdx.y][4]) = v;\n"
                            "    const float4 w = *reinterpret_cast<const float4*>(&Nds[1][0]);\n"
                            "    *reinterpret_cast<float4*>(&P[(j + 1)*4]) =\n"
                            "        *reinterpret_cast<const float4*>(&N[0]);\n"
                            "    P[0] = v.x + w.w;\n"
                            "    *reinterpret_cast<float4*>(&Nds[0][0]) = make_float4(v.x, 1.0f, w.y, 0);\n"
                            "}\n";
    const student::Translation t = student::translateCuda(src, "k.cu");
    ASSERT_TRUE(t.ok()) << errorsOf(t.errors);
    std::vector<std::string> lines;
    std::istringstream in(t.code);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 11u) << t.code;
    EXPECT_EQ(lines[3], "    typename TsContext::Float4 v = ts_ctx.ldg4(M, 4*ts_ctx.threadIdx.x);");
    EXPECT_EQ(lines[4], "    ts_ctx.sts4(Nds[ts_ctx.threadIdx.y], 4 , v);");
    EXPECT_EQ(lines[5], "    const typename TsContext::Float4 w = ts_ctx.lds4(Nds[1], 0);");
    EXPECT_EQ(lines[6], "    ts_ctx.stg4(P, (j + 1)*4 ,");
    EXPECT_EQ(lines[7], "        ts_ctx.ldg4(N, 0));");
    EXPECT_EQ(lines[8], "    P[0] = v.x + w.w;");
    EXPECT_EQ(lines[9], "    ts_ctx.sts4(Nds[0], 0 , typename TsContext::Float4(v.x, 1.0f, w.y, 0));");
    // A helper takes a 2D shared array (or a local one) as rows of floats; 2D is shared memory.
    const std::string helper = "__device__ void put(float Nds[][8], float regs[][4])\n"
                               "{\n"
                               "    *reinterpret_cast<float4*>(&Nds[1][4]) = make_float4(regs[0][0], 0, 0, regs[1][3]);\n"
                               "}\n"
                               "__global__ void k(const float* M, const float* N, float* P, int j, int k, int l)\n"
                               "{\n"
                               "    __shared__ float Nds[4][8];\n"
                               "    float regs[2][4];\n"
                               "    put(Nds, regs);\n"
                               "}\n";
    const student::Translation h = student::translateCuda(helper, "k.cu");
    ASSERT_TRUE(h.ok()) << errorsOf(h.errors);
    EXPECT_NE(h.code.find("template <class TsContext> __device__ void put(TsContext& ts_ctx, auto Nds, auto regs)\n"), std::string::npos) << h.code;
    EXPECT_NE(h.code.find("    ts_ctx.sts4(Nds[1], 4 , typename TsContext::Float4(regs[0][0], 0, 0, regs[1][3]));\n"), std::string::npos)
        << h.code;
    EXPECT_NE(h.code.find("    put(ts_ctx, Nds, regs);\n"), std::string::npos) << h.code;
    const std::string head = "__global__ void k(const float* M, const float* N, float* P, int j, int k, int l)\n{\n";
    // Refused twice on its line: as a local pointer (which a kernel may not keep) and as a
    // reinterpret_cast that is not a 128-bit access.
    const student::Translation bad =
        student::translateCuda(head + "    const float4* p = reinterpret_cast<const float4*>(M + 4);\n}\n", "kernel.cu");
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(std::all_of(bad.errors.begin(), bad.errors.end(), [](const auto& e) { return e.line == 3; })) << errorsOf(bad.errors);
    EXPECT_NE(errorsOf(bad.errors).find("reinterpret_cast is supported only as a 128-bit access"), std::string::npos)
        << errorsOf(bad.errors);
    EXPECT_NE(errorsOf(bad.errors).find("the local pointer p is refused"), std::string::npos) << errorsOf(bad.errors);
}

/// A loop under `#pragma unroll` numbers its iterations for the warp memory model, as the
/// built-in kernels' x.unrolled() does: (v - first) / step, and outer * trips + inner for a
/// nested one; `#pragma unroll 1`, a loop without braces or with a side effect in its first
/// value is left alone.
TEST(StudentTranslate, UnrolledLoopsTagTheirIterations)
{
    const std::string src = "#define THREADS 64\n"
                            "__global__ void k(const float* M, const float* N, float* P, int j, int k, int l)\n"
                            "{\n"
                            "    int t = threadIdx.x;\n"
                            "#pragma unroll\n"
                            "    for (int e = t; e < 128; e += THREADS) {\n"
                            "#pragma unroll\n"
                            "        for (int q = 0; q < 4; ++q) {\n"
                            "            P[e + q] = 0;\n"
                            "        }\n"
                            "    }\n"
                            "#pragma unroll 1\n"
                            "    for (int q = 0; q < 4; ++q) { P[q] = 0; }\n"
                            "#pragma unroll\n"
                            "    for (int q = 0; q < 4; ++q) P[q] = 1;\n"
                            "#pragma unroll\n"
                            "    for (int q = t++; q < 4; ++q) { P[q] = 2; }\n"
                            "}\n";
    const student::Translation t = student::translateCuda(src, "k.cu");
    ASSERT_TRUE(t.ok()) << errorsOf(t.errors);
    std::vector<std::string> lines;
    std::istringstream in(t.code);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 18u) << t.code;
    EXPECT_EQ(lines[5], "    for (int e = t; e < 128; e += THREADS) { const auto ts_unrolled = "
                        "ts_ctx.unrolled(static_cast<unsigned>(((e) - (t)) / (THREADS)));");
    EXPECT_EQ(lines[7], "        for (int q = 0; q < 4; ++q) { const auto ts_unrolled = "
                        "ts_ctx.unrolled(static_cast<unsigned>((((e) - (t)) / (THREADS)) * 4 + ((q) - (0)) / (1)));");
    // The loops left untagged keep their condition, counted as a branch (x.branch): `#pragma
    // unroll 1` keeps the loop on the GPU too; the two the front end does not tag (no braces, a
    // side effect in the first value) are counted at source level, though nvcc may unroll them.
    EXPECT_EQ(lines[12], "    for (int q = 0; ts_ctx.branch(q < 4); ++q) { P[q] = 0; }");
    EXPECT_EQ(lines[14], "    for (int q = 0; ts_ctx.branch(q < 4); ++q) P[q] = 1;");
    EXPECT_EQ(lines[16], "    for (int q = t++; ts_ctx.branch(q < 4); ++q) { P[q] = 2; }");
}

/// The launch header: its expressions are the host code's, evaluated for each problem; a name
/// that is neither a size nor a #define is an error on its line when the file is loaded, and
/// a block over 1024 threads a validation sentence naming the expression.
TEST(StudentModule, TheLaunchHeaderGivesTheGridAndBlockOrSaysWhyNot)
{
    const std::string kernel = "#define MAX_MASK_WIDTH 9\n"
                               "#define TILE_SIZE 8\n"
                               "__constant__ float M[MAX_MASK_WIDTH];\n"
                               "__global__ void conv1dLaunch(const float* N, float* P, int Mask_Width, int Width)\n"
                               "{\n"
                               "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                               "    if (i < Width) P[i] = N[i]*M[0];\n"
                               "}\n";
    // Two blocks of threads a side of each tile: a launch no family default gives.
    const student::LoadResult ok = student::loadKernelSource(
        "// tilescope: grid = (Width + 2*TILE_SIZE - 1)/(2*TILE_SIZE)\n// tilescope: block = 2*TILE_SIZE\n" + kernel,
        "launch.cu", options());
    ASSERT_TRUE(ok.ok()) << errorsOf(ok.errors);
    EXPECT_EQ(ok.info->family, sim::Family::Conv1D);
    sim::Scenario s = sim::convScenario(ok.info->name, 1, 100, 8, 5, sim::Uint3{1, 0, 0}, 3);
    EXPECT_EQ(sim::validate(s), "");
    EXPECT_EQ(sim::launchShape(s).grid.x, 7u);    // ceil(100 / 16)
    EXPECT_EQ(sim::launchShape(s).block.x, 16u);

    const student::LoadResult unknown = student::loadKernelSource(
        "// tilescope: grid = (Width + 7)/TILE\n// tilescope: block = TILE_SIZE\n" + kernel, "launch.cu", options());
    ASSERT_EQ(unknown.errors.size(), 1u);
    EXPECT_EQ(unknown.errors[0].line, 1u);
    EXPECT_NE(unknown.errors[0].message.find("it uses TILE, which is neither a size of the problem nor a #define"),
              std::string::npos);

    const student::LoadResult field = student::loadKernelSource("// tilescope: famly = conv1d\n" + kernel, "launch.cu", options());
    ASSERT_EQ(field.errors.size(), 1u);
    EXPECT_NE(field.errors[0].message.find("unknown header field 'famly'"), std::string::npos);

    const student::LoadResult big = student::loadKernelSource(
        "// tilescope: grid = 1\n// tilescope: block = TILE_SIZE*256\n" + kernel, "launch.cu", options());
    ASSERT_TRUE(big.ok()) << errorsOf(big.errors);
    sim::Scenario b = sim::convScenario(big.info->name, 1, 100, 8, 5, sim::Uint3{0, 0, 0}, 3);
    EXPECT_NE(sim::validate(b).find("TILE_SIZE*256, is 2048 for this problem; it must be between 1 and 1024"), std::string::npos);
}

TEST(StudentModule, ErrorsComeBackAsTheStudentsFileAndLine)
{
    // A missing parameter role, a const output and sizes that are neither PMPP's names nor
    // three (j, k, l) or one (Width) to take by position: found before compiling.
    student::LoadResult r = student::loadKernelSource(
        "__global__ void k(const float* M, const float* N, const float* P, int rows, int cols)\n{\n}\n", "kernel.cu", options());
    EXPECT_FALSE(r.ok());
    const std::string all = errorsOf(r.errors);
    EXPECT_NE(all.find("kernel.cu:1: error: parameter P is the output P"), std::string::npos) << all;
    EXPECT_NE(all.find("kernel.cu:1: error: int parameter rows is not a size"), std::string::npos) << all;
    // Three sizes under a student's names are j, k and l by position, as a launch passes them.
    r = student::loadKernelSource("__global__ void k(const float* A, const float* B, float* C, int rowsA, int inner, int colsB)\n{\n"
                                  "    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "    if (r < rowsA && c < colsB) {\n        float v = 0;\n"
                                  "        for (int i = 0; i < inner; ++i) v += A[r * inner + i] * B[i * colsB + c];\n"
                                  "        C[r * colsB + c] = v;\n    }\n}\n",
                                  "own_names.cu", options());
    ASSERT_TRUE(r.ok()) << errorsOf(r.errors);
    {
        const sim::Simulation run = sim::simulate(sim::matmulScenario(r.info->name, 9, 5, 7, 4, {}, 3));
        EXPECT_TRUE(run.error.empty()) << run.error;
        EXPECT_TRUE(run.matchesReference);
    }
    r = student::loadKernelFile(kernelPath("no-such-file.cu"), options());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].message.find("cannot read the kernel file"), std::string::npos);
}

/// Simulates `kernel` at the given size with the full trace of block (1, 1).
sim::Simulation run(const std::string& kernel, int j, int k, int l, int tile)
{
    sim::Scenario s = sim::matmulScenario(kernel, j, k, l, tile, sim::Uint3{1, 1, 0}, 7);
    const std::string why = sim::validate(s);
    EXPECT_EQ(why, "") << kernel;
    return sim::simulate(s, sim::SimOptions{});
}

/// The scenario of one comparison: a matmul j x k x l, or a convolution of height x width
/// with Mask_Width mask (height 1 in 1D), at `tile`.
sim::Scenario scenarioFor(const std::string& kernel, sim::Family family, int a, int b, int c, int tile)
{
    sim::Scenario s = family == sim::Family::Matmul
                          ? sim::matmulScenario(kernel, a, b, c, tile, sim::Uint3{1, 1, 0}, 7)
                          : sim::convScenario(kernel, family == sim::Family::Conv1D ? 1 : a, b, tile, c, sim::Uint3{1, 0, 0}, 7);
    return s;
}

/// Every registry kernel with a plain CUDA twin in tests/student/kernels/ gives, loaded from
/// that file, the same P, counters and trace as built in, at a size the blocks tile exactly
/// (square where the traced block (1, 1) exists) and a ragged one.
/// The trace's events other than branch evaluations (Op::Branch), in order.
std::vector<sim::Event> withoutBranches(const sim::Trace& t)
{
    std::vector<sim::Event> out;
    for (const sim::Event& e : t.events)
        if (e.op != sim::Op::Branch) out.push_back(e);
    return out;
}

/// The trace's steps other than those of threads that only evaluated a branch ("branch not
/// taken, line 12", sim/engine/trace.cpp).
size_t stepsBesideBranches(const sim::Trace& t)
{
    return static_cast<size_t>(std::count_if(t.steps.begin(), t.steps.end(),
                                             [](const sim::Step& s) { return s.label.rfind("branch ", 0) != 0; }));
}

TEST(StudentModule, PlainCudaRewritesSimulateLikeTheBuiltInKernels)
{
    struct Size {
        int a, b, c;   ///< matmul: j, k, l; convolution: height, width, Mask_Width
    };
    struct Case {
        const char* file;
        const char* builtIn;
        int tile;
        Size square, ragged;   ///< `square`: a multiple of the block's tile of P
    };
    const Size mm = {64, 64, 64}, mmRagged = {50, 37, 45};
    const Case cases[] = {{"matmul_naive.cu", "matmul-naive", 16, mm, mmRagged},
                          {"matmul_tiled.cu", "matmul-tiled", 16, mm, mmRagged},
                          {"matmul_tiled_nds_transposed.cu", "matmul-tiled-nds-transposed", 16, mm, mmRagged},
                          {"matmul_tiled_nds_padded.cu", "matmul-tiled-nds-padded", 16, mm, mmRagged},
                          {"matmul_naive_uncoalesced.cu", "matmul-naive-uncoalesced", 16, mm, mmRagged},
                          {"matmul_corner_turning.cu", "matmul-corner-turning", 16, mm, mmRagged},
                          {"matmul_coarsened.cu", "matmul-coarsened", 32, {64, 64, 256}, {100, 70, 300}},
                          {"matmul_regtile_1d.cu", "matmul-regtile-1d", 64, {128, 64, 128}, {100, 37, 150}},
                          {"matmul_regtile_2d.cu", "matmul-regtile-2d", 64, {128, 64, 128}, {100, 37, 150}},
                          // Ragged with k and l not multiples of 4: lanes take the four scalar loads in
                          // different iterations, which the files' `#pragma unroll` tags as the
                          // built-ins' x.unrolled() does (without it: 14600 global load sectors
                          // against 14510 for matmul-vectorized at this size)
                          {"matmul_vectorized.cu", "matmul-vectorized", 64, {128, 64, 128}, {100, 37, 150}},
                          {"matmul_double_buffered.cu", "matmul-double-buffered", 64, {128, 64, 128}, {100, 37, 150}},
                          {"matmul_conflict_free.cu", "matmul-conflict-free", 64, {128, 64, 128}, {100, 37, 150}},
                          {"matmul_tuned.cu", "matmul-tuned", 64, {128, 64, 128}, {100, 37, 150}},
                          {"matmul_warptiled.cu", "matmul-warptiled", 64, {256, 64, 128}, {200, 37, 150}},
                          {"conv1d_basic.cu", "conv1d-basic", 8, {1, 64, 5}, {1, 37, 7}},
                          {"conv1d_tiled.cu", "conv1d-tiled", 8, {1, 64, 5}, {1, 37, 7}},
                          {"conv1d_tiled_cache.cu", "conv1d-tiled-cache", 8, {1, 64, 5}, {1, 37, 7}},
                          {"conv2d_basic.cu", "conv2d-basic", 8, {32, 32, 5}, {29, 37, 3}},
                          {"conv2d_tiled.cu", "conv2d-tiled", 8, {32, 32, 5}, {29, 37, 3}}};
    for (const Case& c : cases) {
        const student::LoadResult loaded = student::loadKernelFile(kernelPath(c.file), options());
        ASSERT_TRUE(loaded.ok()) << c.file << "\n" << errorsOf(loaded.errors);
        const sim::KernelInfo* builtIn = sim::findKernel(c.builtIn);
        ASSERT_NE(builtIn, nullptr) << c.builtIn;
        EXPECT_EQ(loaded.info->family, builtIn->family) << c.file;
        for (const Size z : {c.square, c.ragged}) {
            SCOPED_TRACE(std::string(c.file) + " at " + std::to_string(z.a) + ", " + std::to_string(z.b) + ", " +
                         std::to_string(z.c));
            sim::Scenario sa = scenarioFor(loaded.info->name, builtIn->family, z.a, z.b, z.c, c.tile);
            sim::Scenario sb = scenarioFor(c.builtIn, builtIn->family, z.a, z.b, z.c, c.tile);
            ASSERT_EQ(sim::validate(sa), "");
            ASSERT_EQ(sim::validate(sb), "");
            EXPECT_EQ(sim::launchShape(sa).grid.count(), sim::launchShape(sb).grid.count());
            EXPECT_EQ(sim::launchShape(sa).block.count(), sim::launchShape(sb).block.count());
            const sim::Simulation a = sim::simulate(sa, sim::SimOptions{});
            const sim::Simulation b = sim::simulate(sb, sim::SimOptions{});
            ASSERT_EQ(a.error, "");
            EXPECT_TRUE(a.matchesReference);
            ASSERT_EQ(a.P.size(), b.P.size());
            EXPECT_EQ(std::memcmp(a.P.data(), b.P.data(), a.P.size() * sizeof(float)), 0);
            EXPECT_EQ(a.counters.totals.global_loads, b.counters.totals.global_loads);
            EXPECT_EQ(a.counters.totals.global_stores, b.counters.totals.global_stores);
            EXPECT_EQ(a.counters.totals.shared_loads, b.counters.totals.shared_loads);
            EXPECT_EQ(a.counters.totals.shared_stores, b.counters.totals.shared_stores);
            EXPECT_EQ(a.counters.totals.constant_loads, b.counters.totals.constant_loads);
            EXPECT_EQ(a.counters.totals.barriers, b.counters.totals.barriers);
            EXPECT_EQ(a.counters.totals.flops, b.counters.totals.flops);
            EXPECT_EQ(a.counters.totals.zero_fills, b.counters.totals.zero_fills);
            // The warp memory model: requests, sectors, wavefronts and conflicts of each space.
            EXPECT_EQ(a.counters.totals.global_ld_requests, b.counters.totals.global_ld_requests);
            EXPECT_EQ(a.counters.totals.global_ld_sectors, b.counters.totals.global_ld_sectors);
            EXPECT_EQ(a.counters.totals.global_st_requests, b.counters.totals.global_st_requests);
            EXPECT_EQ(a.counters.totals.global_st_sectors, b.counters.totals.global_st_sectors);
            EXPECT_EQ(a.counters.totals.shared_ld_requests, b.counters.totals.shared_ld_requests);
            EXPECT_EQ(a.counters.totals.shared_ld_wavefronts, b.counters.totals.shared_ld_wavefronts);
            EXPECT_EQ(a.counters.totals.shared_st_requests, b.counters.totals.shared_st_requests);
            EXPECT_EQ(a.counters.totals.shared_st_wavefronts, b.counters.totals.shared_st_wavefronts);
            EXPECT_EQ(a.counters.totals.shared_ld_conflicts, b.counters.totals.shared_ld_conflicts);
            EXPECT_EQ(a.counters.totals.shared_st_conflicts, b.counters.totals.shared_st_conflicts);
            EXPECT_EQ(a.counters.totals.constant_ld_requests, b.counters.totals.constant_ld_requests);
            EXPECT_EQ(a.counters.totals.constant_ld_passes, b.counters.totals.constant_ld_passes);
            EXPECT_EQ(a.counters.elementLoads, b.counters.elementLoads);
            EXPECT_EQ(a.counters.elementStores, b.counters.elementStores);
            EXPECT_EQ(a.counters.elementWriters, b.counters.elementWriters);
            // The trace, event for event; lines map one to one from the built-in file to the student's.
            // The student's file has each condition marked as a branch (the front end wraps it
            // in x.branch); the built-in kernels mark none of these, which nvcc predicates: the
            // other events match one for one (their sequence numbers shift by the branches).
            const std::vector<sim::Event> ea = withoutBranches(a.trace), eb = withoutBranches(b.trace);
            ASSERT_EQ(ea.size(), eb.size());
            ASSERT_GT(ea.size(), 0u);
            std::map<unsigned, unsigned> line, back;
            size_t differing = 0;
            for (size_t i = 0; i < ea.size(); ++i) {
                const sim::Event& x = ea[i];
                const sim::Event& y = eb[i];
                const bool same = x.op == y.op && x.thread == y.thread && x.index == y.index &&
                                  std::memcmp(&x.value, &y.value, sizeof(float)) == 0 &&
                                  x.flags == y.flags && x.origin == y.origin && x.originArray == y.originArray &&
                                  (x.array == y.array ||
                                   a.trace.arrays.at(x.array).name == b.trace.arrays.at(y.array).name);
                differing += !same;
                if (y.line == 0) continue;
                auto [it, fresh] = line.emplace(y.line, x.line);
                auto [jt, fresh2] = back.emplace(x.line, y.line);
                EXPECT_EQ(it->second, x.line) << "built-in line " << y.line << " went to two lines";
                EXPECT_EQ(jt->second, y.line) << "student line " << x.line << " came from two lines";
            }
            EXPECT_EQ(differing, 0u);
            EXPECT_EQ(stepsBesideBranches(a.trace), stepsBesideBranches(b.trace));
            EXPECT_EQ(a.hazards.raw + a.hazards.war + a.hazards.waw, b.hazards.raw + b.hazards.war + b.hazards.waw);
        }
    }
}

/// PMPP Fig. 5.9 as printed: float* inputs (not const), one Width, no boundary checks. On a
/// multiple of TILE_WIDTH it is matmul-tiled; on another size validation asks for a square.
TEST(StudentModule, TheTextbooksSquareSignatureRunsAsMatmulTiled)
{
    const student::LoadResult loaded = student::loadKernelFile(kernelPath("pmpp_fig5_9.cu"), options());
    ASSERT_TRUE(loaded.ok()) << errorsOf(loaded.errors);
    EXPECT_TRUE(loaded.info->squareOnly);
    const sim::Simulation a = run(loaded.info->name, 64, 64, 64, 16);
    const sim::Simulation b = run("matmul-tiled", 64, 64, 64, 16);
    EXPECT_TRUE(a.matchesReference);
    EXPECT_EQ(a.counters.elementLoads, b.counters.elementLoads);
    EXPECT_EQ(withoutBranches(a.trace).size(), withoutBranches(b.trace).size());
    sim::Scenario ragged = sim::matmulScenario(loaded.info->name, 64, 32, 64, 16);
    EXPECT_NE(sim::validate(ragged).find("must be square"), std::string::npos) << sim::validate(ragged);
    sim::Scenario wrongTile = sim::matmulScenario(loaded.info->name, 64, 64, 64, 8);
    EXPECT_NE(sim::validate(wrongTile).find("is 16 (its file defines it)"), std::string::npos) << sim::validate(wrongTile);
}

/// Runs tilescope-cli with `args`; its exit status and what it printed on both streams.
int cli(const std::string& args, std::string& out)
{
    const std::string cmd = "TILESCOPE_CACHE_DIR='" TILESCOPE_STUDENT_CACHE "' '" TILESCOPE_CLI "' " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::array<char, 4096> buf{};
    out.clear();
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The command line prints a refused file like a compiler, exits 2 (bad input), and names a
/// wrong kernel's race with the student's own lines.
TEST(StudentCli, RefusalsReadLikeACompilerAndRacesNameTheStudentsLines)
{
    std::string out;
    const std::string atomic = std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/wrong/atomic_sum.cu";
    EXPECT_EQ(cli("simulate --kernel-file '" + atomic + "' --width 8 --tile 4", out), 2) << out;
    EXPECT_NE(out.find(atomic + ":13:13: error: atomicAdd here takes an element of a global array"), std::string::npos) << out;

    const std::string race = std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/wrong/missing_barrier_after_load.cu";
    EXPECT_EQ(cli("simulate --kernel-file '" + race + "' --kernel matmul-tiled --width 8", out), 2) << out;
    EXPECT_EQ(cli("simulate --width 8", out), 2) << out;
    EXPECT_NE(out.find("--kernel NAME or --kernel-file FILE"), std::string::npos) << out;
}

/// The corpus of wrong student kernels (tests/student/wrong/): each file says how to run it
/// (`// run: OPTIONS`) and what the diagnosis must say (`// expect: TEXT`, with the file's
/// own lines). A refused file exits 2 and prints compiler-style lines; a kernel that runs
/// exits 0, or 1 when it faults or its P is wrong, with its fault, race or wrong P (the
/// first wrong element named) in the output. None may
/// crash or hang the CLI.
TEST(StudentCli, EveryWrongKernelGetsItsOwnDiagnosisWithItsLine)
{
    namespace fs = std::filesystem;
    size_t files = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/wrong")) {
        if (e.path().extension() != ".cu") continue;
        ++files;
        SCOPED_TRACE(e.path().filename().string());
        std::ifstream in(e.path());
        std::string line, run, expect;
        while (std::getline(in, line)) {
            if (line.rfind("// run: ", 0) == 0) run = line.substr(8);
            if (line.rfind("// expect: ", 0) == 0) expect = line.substr(11);
        }
        ASSERT_FALSE(run.empty()) << "no // run: line";
        ASSERT_FALSE(expect.empty()) << "no // expect: line";
        std::string out;
        const int status = cli("simulate --kernel-file '" + e.path().string() + "' " + run + " --quiet", out);
        const bool refused = expect.find(": error: ") != std::string::npos;
        // 2: refused; a kernel that ran: 0, or 1 when it faulted (tilescope-cli's exit statuses).
        if (refused)
            EXPECT_EQ(status, 2) << out;
        else if (expect.find("DIFFERS") != std::string::npos)
            // A wrong P fails simulate, naming the first wrong element.
            EXPECT_TRUE(status == 1 && out.find("  first wrong     P[") != std::string::npos) << status << "\n" << out;
        else
            EXPECT_TRUE(status == 0 || status == 1) << status << "\n" << out;
        EXPECT_NE(out.find(expect), std::string::npos) << out;
    }
    EXPECT_GE(files, 14u);
}

}  // namespace
