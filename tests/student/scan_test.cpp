// The lexer scan of a student's kernel file (frontend/scan.hpp): each class of refusal with
// its line, each limit at its exact edge (the sizes counted a second way here: the test's
// own small macro expander, or the tokens split at spaces), every kernel of the corpus and
// the exercises' starters still passing, and what the scan lets through still translating
// and running: PMPP Fig. 5.13's `ceil(Width/(float)TILE_WIDTH)` through tilescope-cli, and
// the math functions, whose module versions (student/cuda_math.hpp) give CUDA's bits.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>

#include "student/cuda_math.hpp"
#include "frontend/scan.hpp"
#include "frontend/translate.hpp"

namespace {

using ts::student::Diagnostic;
using ts::student::ScanLimits;
using ts::student::scanKernelFile;

std::string listed(const std::vector<Diagnostic>& ds)
{
    std::string s;
    for (const Diagnostic& d : ds) s += ts::student::formatDiagnostic("kernel.cu", d) + "\n";
    return s;
}

/// The head of a legal kernel: the line after it is line 3.
const std::string kHead = "__global__ void k(float* M, float* N, float* P, int Width)\n{\n";

/// What the scan refuses in `source`: exactly one refusal, on `line`, whose text contains
/// `words`.
void refusedOnce(const std::string& source, unsigned line, const std::string& words)
{
    SCOPED_TRACE(source);
    const std::vector<Diagnostic> d = scanKernelFile(source);
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, line) << listed(d);
    EXPECT_NE(d[0].message.find(words), std::string::npos) << listed(d);
    EXPECT_EQ(d[0].message.find('\n'), std::string::npos) << "one sentence on one line";
}

void passes(const std::string& source)
{
    const std::vector<Diagnostic> d = scanKernelFile(source);
    EXPECT_TRUE(d.empty()) << source << "\n" << listed(d);
}

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(StudentScan, DirectivesButDefineAndPragmaUnrollAreRefused)
{
    refusedOnce("#include \"/etc/passwd\"\n" + kHead + "}\n", 1, "#include is refused: a kernel file includes nothing");
    refusedOnce(kHead + "}\n#include </dev/stdin>\n", 4, "#include is refused");
    refusedOnce("%:include </dev/zero>\n" + kHead + "}\n", 1, "#include is refused");          // the digraph of #
    refusedOnce("#\\\ninclude \"/etc/passwd\"\n" + kHead + "}\n", 1, "#include is refused");  // a line splice
    refusedOnce("  #  include_next <x.h>\n" + kHead + "}\n", 1, "#include_next is refused");
    refusedOnce("#import <x.h>\n" + kHead + "}\n", 1, "#import is refused");
    refusedOnce("#embed \"/dev/zero\"\n" + kHead + "}\n", 1, "#embed is refused");
    // No directive of the file may end the scan's `#if 0`.
    refusedOnce("#endif\n" + kHead + "}\n", 1, "#endif is refused");
    refusedOnce("#if 1\n" + kHead + "}\n", 1, "#if is refused");
    refusedOnce("#define T 4\n#undef T\n" + kHead + "}\n", 2, "#undef is refused");
    refusedOnce("#line 100\n" + kHead + "}\n", 1, "#line is refused");
    refusedOnce("#error stop\n" + kHead + "}\n", 1, "#error is refused");
    refusedOnce("#warning x\n" + kHead + "}\n", 1, "#warning is refused");
    refusedOnce("#pragma once\n" + kHead + "}\n", 1, "#pragma once is refused");
    refusedOnce(kHead + "#pragma GCC optimize(\"O0\")\n}\n", 3, "#pragma GCC is refused");
    refusedOnce(kHead + "    _Pragma(\"unroll\") for (int i = 0; i < 4; ++i) {}\n}\n", 3, "_Pragma is refused");
    refusedOnce(kHead + "    int x = __has_include(\"/etc/passwd\");\n}\n", 3, "__has_include is refused");
    refusedOnce(kHead + "    int x = 1; # define Y 2\n}\n", 3, "a # that does not begin a line");
    refusedOnce("#define CAT(a, b) a ## b\n" + kHead + "}\n", 1, "# and ## in a #define are refused");
    refusedOnce("#define STR(a) #a\n" + kHead + "}\n", 1, "# and ## in a #define are refused");
    refusedOnce("#define OPEN (1\n" + kHead + "}\n", 1, "do not balance");
    refusedOnce("#define T 4\n#define T 4\n" + kHead + "}\n", 2, "already defined on line 1");
    refusedOnce("#define float double\n" + kHead + "}\n", 1, "#define float is refused");
    refusedOnce("#define sqrtf system\n" + kHead + "}\n", 1, "#define sqrtf is refused");
    // #pragma unroll with or without its count, and a multi-line #define, are fine.
    passes("#define TM 4\n#define SUM (1 + \\\n 2)\n" + kHead +
           "#pragma unroll\n    for (int i = 0; i < 4; ++i) {}\n#pragma unroll 4\n    for (int i = 0; i < 4; ++i) {}\n"
           "#pragma unroll (TM)\n    for (int i = 0; i < SUM; ++i) {}\n}\n");
    refusedOnce(kHead + "#pragma unroll \"4\"\n    for (int i = 0; i < 4; ++i) {}\n}\n", 3, "#pragma unroll takes an optional count");
}

TEST(StudentScan, AssemblyLinkageAttributesAndBuiltinsAreRefused)
{
    refusedOnce("asm(\".section .init_array\");\n" + kHead + "}\n", 1, "inline assembly is refused");
    refusedOnce("__asm__(\"nop\");\n" + kHead + "}\n", 1, "inline assembly is refused");
    refusedOnce(kHead + "    asm volatile(\"nop\");\n}\n", 3, "inline assembly is refused");
    refusedOnce(kHead + "    __asm(\"nop\");\n}\n", 3, "inline assembly is refused");
    refusedOnce("extern \"C\" int system(const char*);\n" + kHead + "}\n", 1, "extern is refused");
    refusedOnce("extern \"C\" {\n}\n" + kHead + "}\n", 1, "extern is refused");
    refusedOnce(kHead + "    extern int errno;\n}\n", 3, "extern is refused");
    refusedOnce(kHead + "    extern __shared__ float tile[];\n}\n", 3, "extern __shared__ tile (dynamic shared memory) is not supported");
    refusedOnce("__attribute__((constructor)) __device__ void f() {}\n" + kHead + "}\n", 1, "__attribute__ is refused");
    refusedOnce(kHead + "    [[maybe_unused]] int x = 0;\n}\n", 3, "attributes [[...]] are refused");
    refusedOnce(kHead + "    __declspec(noinline) int x = 0;\n}\n", 3, "__declspec is refused");
    refusedOnce(kHead + "    float* q = (float*)__builtin_malloc(4);\n}\n", 3, "__builtin_malloc is refused");
    refusedOnce(kHead + "    __builtin_trap();\n}\n", 3, "__builtin_trap is refused");
    refusedOnce(kHead + "    int a = __COUNTER__;\n}\n", 3, "__COUNTER__ is refused");
    refusedOnce(kHead + "    _Static_assert(1, \"\");\n}\n", 3, "_Static_assert is refused");
    // CUDA's qualifiers are fine, and __launch_bounds__ in the kernel's head.
    passes("__device__ __forceinline__ float twice(float v) { return 2 * v; }\n"
           "__host__ __device__ __noinline__ float half(float v) { return v / 2; }\n"
           "__global__ void __launch_bounds__(256) k(const float* __restrict__ M, float* P) { P[0] = twice(half(M[0])); }\n");
    refusedOnce("__device__ void __launch_bounds__(4) h() {}\n" + kHead + "}\n", 1, "__launch_bounds__ is refused here");
}

TEST(StudentScan, DeclarationsAtFileScopeAreTheKernelsOnly)
{
    refusedOnce("int counter;\n" + kHead + "}\n", 1, "global variable counter is not supported");
    refusedOnce("int main() { return 0; }\n" + kHead + "}\n", 1, "main is host code");
    refusedOnce("void setup() {}\n" + kHead + "}\n", 1, "setup is host code");
    refusedOnce("int system(const char*);\n" + kHead + "}\n", 1, "function system is declared without a body");
    refusedOnce("__device__ float h(float);\n" + kHead + "}\n", 1, "__device__ function h is declared without a body");
    refusedOnce("__device__ int dv;\n" + kHead + "}\n", 1, "__device__ variable dv is refused");
    refusedOnce("__shared__ float s[4];\n" + kHead + "}\n", 1, "declared outside the kernel");
    refusedOnce("__constant__ float c;\n" + kHead + "}\n", 1, "__constant__ c must be an array");
    refusedOnce(kHead + "}\n__global__ void k2(float* P) {}\n", 4, "a second __global__ kernel, k2");
    refusedOnce(kHead + "}\n__global__ void k3(float* P);\n", 4, "kernel k3 is declared without a body");
    refusedOnce("#define DEV __device__\nDEV float f() { return 1; }\n" + kHead + "}\n", 2, "takes part of its head from #define DEV");
    refusedOnce(kHead + "    int system(const char*);\n}\n", 3, "a function declared inside a function (system)");
    refusedOnce(kHead + "    float f();\n}\n", 3, "a function declared inside a function (f)");
    // What they may hold.
    passes("#define MAX_MASK_WIDTH 9\n__constant__ float M[MAX_MASK_WIDTH];\n"
           "__device__ int clampIndex(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }\n"
           "__global__ void conv(const float* N, float* P, int Mask_Width, int Width) { P[0] = M[clampIndex(0, Width)] * N[0]; }\n");
}

TEST(StudentScan, KeywordsAKernelHasNoUseForAreRefusedWithWhy)
{
    const std::map<std::string, std::string> cases = {
        {"    static int s = 0;\n", "static is refused"},
        {"    thread_local int t;\n", "thread_local is refused"},
        {"    goto done;\n", "goto is not supported"},
        {"    float* q = new float[4];\n", "new and delete are not supported"},
        {"    delete P;\n", "new and delete are not supported"},
        {"    throw 1;\n", "exceptions are not supported"},
        {"    try { } catch (...) { }\n", "exceptions are not supported"},
        {"    typedef float real;\n", "typedef is refused"},
        {"    using real = float;\n", "using is refused"},
        {"    struct S { int a; };\n", "struct is refused"},
        {"    union U { int a; float b; };\n", "union is refused"},
        {"    enum E { A };\n", "enum is refused"},
        {"    decltype(Width) w = 0;\n", "decltype is refused"},
    };
    for (const auto& [line, words] : cases) refusedOnce(kHead + line + "}\n", 3, words);
    refusedOnce("template <class T> __device__ T id(T v) { return v; }\n" + kHead + "}\n", 1, "templates are refused");
    refusedOnce("namespace a { }\n" + kHead + "}\n", 1, "namespaces are refused");
    refusedOnce("class C { };\n" + kHead + "}\n", 1, "class is refused");
    refusedOnce("__device__ float operator+(float4 a, float4 b) { return a.x; }\n" + kHead + "}\n", 1, "operator functions are refused");
    // static only on a __device__ function, where it gives the helper nothing to keep.
    passes("static __device__ __forceinline__ float twice(float v) { return 2 * v; }\n" + kHead + "    P[0] = twice(1);\n}\n");
    refusedOnce("static __global__ void k(float* P) {}\n", 1, "static is refused here");
}

TEST(StudentScan, LiteralsNamesAndCharactersOutsideAKernelAreRefused)
{
    refusedOnce(kHead + "    const char* s = \"/etc/passwd\";\n}\n", 3, "string literals are refused");
    refusedOnce(kHead + "    auto s = R\"x(raw)x\";\n}\n", 3, "string literals are refused");
    refusedOnce(kHead + "    auto s = u8\"text\";\n}\n", 3, "string literals are refused");
    refusedOnce(kHead + "    float x = ::sqrtf(2.0f);\n}\n", 3, "the scope operator :: is refused");
    refusedOnce(kHead + "    int a = 1; @\n}\n", 3, "this character is not part of a kernel's C++");
    refusedOnce(kHead + "    int $a = 1;\n}\n", 3, "this name is refused");
    refusedOnce(kHead + "    int \xc3\xa9 = 1;\n}\n", 3, "this name is refused");
    passes(kHead + "    int c = 'a';\n    float f = 1e-3f + 0x1p2f + .5;\n}\n");
}

TEST(StudentScan, LineSplicesOnlyInsideADefineOrABlockComment)
{
    // kernel_file_fuzz's finding: a splice inside a name the translation rewrites joined two
    // lines, and the translation came out one line short.
    refusedOnce(kHead + "    __s\\\nyncthreads();\n}\n", 3, "a backslash at the end of a line joins the next line");
    refusedOnce(kHead + "    int a = 1 + \\\n        2;\n}\n", 3, "write the statement without it");
    refusedOnce(kHead + "    int a = 1; \\  \r\n    a += 2;\n}\n", 3, "joins the next line");
    refusedOnce(kHead + "    int a = 1; // then \\\n    a += 2;\n}\n", 3, "part of the comment");
    // A #define may go on over lines; a block comment may hold a backslash at a line's end.
    passes("#define TILE_WIDTH \\\n    16\n" + kHead + "    int a = TILE_WIDTH;\n}\n");
    passes(kHead + "    /* a \\\n       b */ int a = 1;\n}\n");
}

TEST(StudentScan, OnlyTheFilesOwnAndTheAllowedFunctionsMayBeCalled)
{
    refusedOnce(kHead + "    system(0);\n}\n", 3, "system is neither a __device__ function of this file nor one of the functions");
    refusedOnce(kHead + "    P[0] = expf(1.0f);\n}\n", 3, "expf is not supported: the CPU and the GPU round it differently");
    refusedOnce(kHead + "    atomicCAS(P, 1.0f, 2.0f);\n}\n", 3, "atomicCAS is not supported");
    refusedOnce(kHead + "    printf(\"%d\", 1);\n}\n", 3, "printf is not supported");
    refusedOnce(kHead + "    unsigned v = __ballot_sync(0xffffffff, 1);\n}\n", 3, "warp intrinsics");
    refusedOnce(kHead + "    float4 v; v.norm();\n}\n", 3, "norm(...) calls a member function");
    refusedOnce("__device__ float h(float v) { return v; }\n" + kHead + "    P[0] = (h)(1.0f);\n}\n", 4,
                "a call through a pointer or an expression is refused");
    refusedOnce(kHead + "    int (*fp)(int) = 0;\n}\n", 3, "a call through a pointer or an expression is refused");
    refusedOnce("#define F sqrtf\n" + kHead + "    P[0] = F(2.0f);\n}\n", 4, "F is a #define used as a function");
    refusedOnce("#define CALL(f) f(1.0f)\n" + kHead + "}\n", 1, "#define CALL calls its parameter f");
    refusedOnce("#define ID(x) x\n" + kHead + "    P[0] = ID(sqrtf)(2.0f);\n}\n", 4, "the expansion of a #define is called");
    refusedOnce("#define TWICE(x) ((x) + (x))\n" + kHead + "    P[0] = TWICE;\n}\n", 4, "named here without its arguments");
    refusedOnce("#define BAD(x) system(x)\n" + kHead + "}\n", 1, "system is neither");
    // What looks like a call and is not, and the calls a kernel may make.
    passes("#define TILE_WIDTH 16\n#define IDX(r, c) ((r) * Width + (c))\n"
           "__device__ float twice(float v) { return 2.0f * v; }\n" + kHead +
           "    float x(1.0f), y(2), z = float(Width) + static_cast<float>(Width) + sizeof(float) + (float)(Width);\n"
           "    const float4* v = reinterpret_cast<const float4*>(&M[0]);\n"
           "    for (int i = 0; i < ceil(Width / (float)TILE_WIDTH); ++i) { if (i) { } while (0) { } switch (i) { } }\n"
           "    P[IDX(0, 1)] = sqrtf(x) + fminf(y, z) + fmaxf(y, z) + min(x, y) + max(1, Width) + floorf(y) +\n"
           "                   fabsf(-x) + fmaf(x, y, z) + twice(x) + v->x + make_float4(1, 2, 3, 4).w;\n"
           "    __syncthreads();\n    if (Width) return (void)(0);\n}\n");
}

TEST(StudentScan, MacrosThatExpandIntoThemselvesOrNestTooDeepAreRefused)
{
    refusedOnce("#define A A\n" + kHead + "    int x = A;\n}\n", 1, "it expands into itself");
    const std::vector<Diagnostic> cycle = scanKernelFile("#define A B\n#define B A\n" + kHead + "    int x = A;\n}\n");
    ASSERT_FALSE(cycle.empty());
    EXPECT_NE(cycle[0].message.find("expands into itself"), std::string::npos) << listed(cycle);
    // A chain of 80 #defines, each the next's body: refused at the 65th (64 may nest).
    std::string chain = "#define M0(x) (x)\n";
    for (int i = 1; i < 80; ++i) chain += "#define M" + std::to_string(i) + "(x) M" + std::to_string(i - 1) + "(x)\n";
    const std::vector<Diagnostic> d = scanKernelFile(chain + kHead + "    P[0] = M79(1);\n}\n");
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 65u);
    EXPECT_NE(d[0].message.find("nested more than 64 deep"), std::string::npos) << listed(d);
}

// ---- limits -----------------------------------------------------------------------------------

/// The words of `text` split at white space: the test's own count of tokens, for sources
/// written with a space between every two tokens.
std::vector<std::string> words(const std::string& text)
{
    std::istringstream in(text);
    std::vector<std::string> w;
    for (std::string s; in >> s;) w.push_back(s);
    return w;
}

/// A small C preprocessor for the test's sources (one token per word, `#define NAME body`
/// and `#define NAME(a,b) body` lines): the code with every macro expanded, to count what
/// the scan only counts.
class Expander {
public:
    explicit Expander(const std::string& source)
    {
        std::istringstream in(source);
        for (std::string line; std::getline(in, line);) {
            std::vector<std::string> w = words(line);
            if (w.empty()) continue;
            if (w[0] != "#define") {
                code_.insert(code_.end(), w.begin(), w.end());
                continue;
            }
            Macro m;
            std::string name = w[1];
            if (const size_t open = name.find('('); open != std::string::npos) {
                m.functionLike = true;
                std::string list = name.substr(open + 1, name.size() - open - 2);
                name = name.substr(0, open);
                for (size_t at = 0; !list.empty();) {
                    const size_t comma = list.find(',', at);
                    m.params.push_back(list.substr(at, comma - at));
                    if (comma == std::string::npos) break;
                    at = comma + 1;
                }
            }
            m.body.assign(w.begin() + 2, w.end());
            macros_[name] = m;
        }
    }
    size_t expandedSize() const { return expand(code_, {}).size(); }

private:
    struct Macro {
        bool functionLike = false;
        std::vector<std::string> params, body;
    };
    std::vector<std::string> expand(const std::vector<std::string>& in, std::vector<std::string> busy) const
    {
        std::vector<std::string> out;
        for (size_t i = 0; i < in.size(); ++i) {
            const auto it = macros_.find(in[i]);
            if (it == macros_.end() || std::find(busy.begin(), busy.end(), in[i]) != busy.end()) {
                out.push_back(in[i]);
                continue;
            }
            const Macro& m = it->second;
            std::vector<std::string> body = m.body;
            if (m.functionLike) {
                std::vector<std::vector<std::string>> args(1);
                int depth = 0;
                size_t j = i + 2;
                for (; j < in.size(); ++j) {
                    if (in[j] == "(") ++depth;
                    if (in[j] == ")" && depth-- == 0) break;
                    if (in[j] == "," && depth == 0) args.emplace_back();
                    else args.back().push_back(in[j]);
                }
                body.clear();
                for (const std::string& t : m.body) {
                    const auto p = std::find(m.params.begin(), m.params.end(), t);
                    if (p == m.params.end()) {
                        body.push_back(t);
                        continue;
                    }
                    const std::vector<std::string> a = expand(args[p - m.params.begin()], busy);
                    body.insert(body.end(), a.begin(), a.end());
                }
                i = j;
            }
            busy.push_back(it->first);   // not expanded again inside its own expansion
            const std::vector<std::string> e = expand(body, busy);
            busy.pop_back();
            out.insert(out.end(), e.begin(), e.end());
        }
        return out;
    }
    std::map<std::string, Macro> macros_;
    std::vector<std::string> code_;
};

ScanLimits roomy()
{
    ScanLimits l;
    l.maxTokens = 1u << 30;
    l.maxExpandedTokens = 1u << 30;
    l.maxStatementTokens = 1u << 30;
    l.maxNesting = 1 << 20;
    return l;
}

TEST(StudentScanLimits, FileSizeAtItsEdge)
{
    const std::string src = kHead + "    P[0] = 1;\n}\n";
    ScanLimits l = roomy();
    l.maxBytes = src.size();
    EXPECT_TRUE(scanKernelFile(src, l).empty());
    l.maxBytes = src.size() - 1;
    const std::vector<Diagnostic> d = scanKernelFile(src, l);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 0u);
    EXPECT_NE(d[0].message.find("the file is " + std::to_string(src.size()) + " bytes, more than the " +
                                std::to_string(src.size() - 1) + " bytes"),
              std::string::npos)
        << d[0].message;
    // The default limit, 256 KiB, by a comment: nothing else of the file is looked at.
    const std::vector<Diagnostic> big = scanKernelFile(kHead + "}\n//" + std::string(256 * 1024, 'x') + "\n");
    ASSERT_EQ(big.size(), 1u);
    EXPECT_NE(big[0].message.find("262144 bytes"), std::string::npos) << big[0].message;
}

TEST(StudentScanLimits, TokensAsWrittenAtTheirEdge)
{
    // One token per word; comments are not tokens. The last token is on line 4.
    const std::string src = "# define T 4 // a comment of several words\n__global__ void k ( float * P )\n{ P [ 0 ] = T ;\n}\n";
    size_t n = 0;
    for (const std::string& w : words(src)) {
        if (w == "//") break;   // the rest of line 1 is the comment
        ++n;
    }
    n += words(src.substr(src.find('\n') + 1)).size();
    ScanLimits l = roomy();
    l.maxTokens = n;
    EXPECT_TRUE(scanKernelFile(src, l).empty()) << listed(scanKernelFile(src, l));
    l.maxTokens = n - 1;
    const std::vector<Diagnostic> d = scanKernelFile(src, l);
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 4u);
    EXPECT_NE(d[0].message.find("more than " + std::to_string(n - 1) + " tokens"), std::string::npos) << d[0].message;
}

TEST(StudentScanLimits, ExpandedTokensCountedAsThePreprocessorWouldMakeThem)
{
    // Object-like macros five deep, a function-like one nested at the use site, and one
    // whose argument appears twice.
    const std::string src =
        "#define A0 x + x + x\n#define A1 A0 - A0\n#define A2 ( A1 ) * ( A1 )\n#define A3 A2 A2 A2\n#define A4 A3 , A3\n"
        "#define D(a) a a\n#define SQ(a,b) ( a * b + a )\n"
        "__global__ void k ( float * P , int x )\n"
        "{\n"
        "P [ 0 ] = A4 ;\n"
        "P [ 1 ] = D ( D ( D ( D ( x + 1 ) ) ) ) ;\n"
        "P [ 2 ] = SQ ( D ( A1 ) , SQ ( x , A0 ) ) ;\n"
        "}\n";
    const size_t n = Expander(src).expandedSize();
    ASSERT_GT(n, 250u);   // the second count is not empty
    ScanLimits l = roomy();
    l.maxExpandedTokens = n;
    EXPECT_TRUE(scanKernelFile(src, l).empty()) << listed(scanKernelFile(src, l));
    l.maxExpandedTokens = n - 1;
    const std::vector<Diagnostic> d = scanKernelFile(src, l);
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 13u);   // the kernel's closing brace is the token past the limit
    EXPECT_NE(d[0].message.find("grows past " + std::to_string(n - 1) + " tokens"), std::string::npos) << d[0].message;
}

TEST(StudentScanLimits, ExpansionBombsAreRefusedByCountingFast)
{
    // 10^9 tokens from six lines, and 2^40 from one function-like #define nested at the
    // use: refused with the line of the use, without expanding either.
    std::string bomb = "#define B0 x x x x x x x x x x\n";
    for (int i = 1; i <= 8; ++i) {
        bomb += "#define B" + std::to_string(i);
        for (int r = 0; r < 10; ++r) bomb += " B" + std::to_string(i - 1);
        bomb += "\n";
    }
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Diagnostic> d = scanKernelFile(bomb + kHead + "    int x = 0;\n    P[0] = B8;\n}\n");
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 13u);
    EXPECT_NE(d[0].message.find("grows past 200000 tokens"), std::string::npos) << d[0].message;
    std::string nested = "x";
    for (int i = 0; i < 40; ++i) nested = "D(" + nested + ")";
    const std::vector<Diagnostic> e = scanKernelFile("#define D(a) a a\n" + kHead + "    int x = 0;\n    P[0] = " + nested + ";\n}\n");
    ASSERT_EQ(e.size(), 1u) << listed(e);
    EXPECT_EQ(e[0].line, 5u);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
    // 1 KB of macro invocations nested in one another.
    std::string deep = "1";
    for (int i = 0; i < 250; ++i) deep = "I(" + deep + ")";
    const std::vector<Diagnostic> f = scanKernelFile("#define I(a) a\n" + kHead + "    P[0] = " + deep + ";\n}\n");
    ASSERT_EQ(f.size(), 1u) << listed(f);
    EXPECT_EQ(f[0].line, 4u);
    EXPECT_NE(f[0].message.find("nest more than 64 deep"), std::string::npos) << f[0].message;
}

TEST(StudentScanLimits, OneStatementAtItsEdge)
{
    // A statement counts from the ; or brace before it to its own ; included.
    std::string stmt = "P [ 0 ] =";
    for (int i = 0; i < 300; ++i) stmt += " x +";
    stmt += " TWO ;";
    const std::string src = "#define TWO ( 2 )\n__global__ void k ( float * P , int x )\n{\nint y = 0 ;\n" + stmt + "\n}\n";
    const size_t n = words(stmt).size() + 2;   // TWO is three tokens
    ScanLimits l = roomy();
    l.maxStatementTokens = n;
    EXPECT_TRUE(scanKernelFile(src, l).empty()) << listed(scanKernelFile(src, l));
    l.maxStatementTokens = n - 1;
    const std::vector<Diagnostic> d = scanKernelFile(src, l);
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 5u);
    EXPECT_NE(d[0].message.find("more than " + std::to_string(n - 1) + " tokens"), std::string::npos) << d[0].message;
    // A 65 000-term expression with the default limits: one sentence, no crash.
    std::string huge = kHead + "    P[0] = 1";
    for (int i = 0; i < 65000; ++i) huge += "+1";
    const std::vector<Diagnostic> e = scanKernelFile(huge + ";\n}\n");
    ASSERT_EQ(e.size(), 1u) << listed(e);
    EXPECT_EQ(e[0].line, 3u);
}

TEST(StudentScanLimits, NestingAtItsEdgeAlsoThroughMacrosAndElseIfChains)
{
    // The kernel's brace is depth 1, P's [ is 2 but closed, so n parentheses reach 1 + n;
    // W adds two more where it is used.
    const int n = 20;
    std::string parens = std::string(n, '(') + "W ( x )" + std::string(n, ')');
    const std::string src = "#define W(a) ( ( a ) )\n__global__ void k ( float * P , float x )\n{\nP [ 0 ] = " + parens + " ;\n}\n";
    ScanLimits l = roomy();
    l.maxNesting = 1 + n + 2;
    EXPECT_TRUE(scanKernelFile(src, l).empty()) << listed(scanKernelFile(src, l));
    l.maxNesting = n + 2;
    const std::vector<Diagnostic> d = scanKernelFile(src, l);
    ASSERT_EQ(d.size(), 1u) << listed(d);
    EXPECT_EQ(d[0].line, 4u);
    EXPECT_NE(d[0].message.find("nest more than " + std::to_string(n + 2) + " deep"), std::string::npos) << d[0].message;
    // if ... else if ... nests one statement in another: 100 of them pass the default 64.
    std::string chain = kHead + "    if (Width) P[0] = 0;\n";
    for (int i = 0; i < 100; ++i) chain += "    else if (Width > " + std::to_string(i) + ") P[0] = 0;\n";
    const std::vector<Diagnostic> e = scanKernelFile(chain + "}\n");
    ASSERT_EQ(e.size(), 1u) << listed(e);
    EXPECT_NE(e[0].message.find("nest more than 64 deep"), std::string::npos) << e[0].message;
}

// ---- what passes -------------------------------------------------------------------------------

TEST(StudentScan, EveryKernelOfTheCorpusAndEveryStarterPasses)
{
    namespace fs = std::filesystem;
    const std::string root = TILESCOPE_SOURCE_DIR;
    size_t files = 0;
    for (const char* dir : {"/tests/student/kernels", "/tests/student/solutions", "/tests/student/wrong", "/assets/exercises"}) {
        for (const fs::directory_entry& e : fs::directory_iterator(root + dir)) {
            if (e.path().extension() != ".cu") continue;
            const std::string text = readFile(e.path());
            std::vector<Diagnostic> d = scanKernelFile(text);
            // A wrong kernel the front end refuses says so: `// expect: FILE:LINE:COL: error: ...`.
            std::string expect;
            std::istringstream in(text);
            for (std::string line; std::getline(in, line);)
                if (line.rfind("// expect: ", 0) == 0) expect = line.substr(11);
            const std::string name = e.path().filename().string();
            if (!d.empty() && expect.find(": error: ") != std::string::npos) {
                const std::string got = ts::student::formatDiagnostic(name, d[0]);
                EXPECT_NE(got.find(expect), std::string::npos) << got;
            } else {
                EXPECT_TRUE(d.empty()) << e.path() << "\n" << listed(d);
            }
            ++files;
        }
    }
    EXPECT_GE(files, 60u);
}

/// PMPP Fig. 5.13's tiled kernel with boundary checks: its loop runs to
/// `ceil(Width/(float)TILE_WIDTH)`, refused as an undeclared identifier before.
const char* const kFig513 = R"(#define TILE_WIDTH 16
__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < ceil(Width/(float)TILE_WIDTH); ++ph) {
        if ((Row < Width) && (ph*TILE_WIDTH + tx) < Width)
            Mds[ty][tx] = M[Row*Width + ph*TILE_WIDTH + tx];
        else Mds[ty][tx] = 0;
        if ((ph*TILE_WIDTH + ty) < Width && Col < Width)
            Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*Width + Col];
        else Nds[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if ((Row < Width) && (Col < Width))
        P[Row*Width + Col] = Pvalue;
}
)";

TEST(StudentScanTranslate, PmppFigure513sCeilTranslates)
{
    EXPECT_TRUE(scanKernelFile(kFig513).empty());
    const ts::student::Translation t = ts::student::translateCuda(kFig513, "fig5_13.cu");
    ASSERT_TRUE(t.ok()) << listed(t.errors);
    EXPECT_NE(t.code.find("ph < ceil(Width/(float)TILE_WIDTH)"), std::string::npos) << t.code;
    EXPECT_EQ(std::count(t.code.begin(), t.code.end(), '\n'), std::count(kFig513, kFig513 + std::strlen(kFig513), '\n'));
}

#ifdef TILESCOPE_CLI
/// Fig. 5.13 built into a module and run by tilescope-cli at Width 40, tile 16: three phases,
/// the last one ragged, so ceil() must round 2.5 up (an integer division would give two
/// phases and a P that differs from the reference).
TEST(StudentScanTranslate, PmppFigure513RunsAndMatchesTheReference)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("tilescope-scan-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / "fig5_13.cu";
    std::ofstream(file) << kFig513;
    const std::string cmd = "TILESCOPE_CACHE_DIR='" TILESCOPE_STUDENT_CACHE "' '" TILESCOPE_CLI "' simulate --kernel-file '" +
                            file.string() + "' --width 40 --tile 16 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    fs::remove_all(dir);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
    EXPECT_NE(out.find("P vs reference  bit-identical"), std::string::npos) << out;
}
#endif

TEST(StudentScanTranslate, RefusalsComeBackFromTheTranslationByLineWithoutParsing)
{
    // Two refusals, given in the file's order; an undeclared name on line 4 is not reported,
    // because the file was not parsed.
    const ts::student::Translation t = ts::student::translateCuda(
        kHead + "    P[0] = expf(1.0f);\n    P[1] = undeclared;\n    asm(\"nop\");\n}\n", "k.cu");
    ASSERT_EQ(t.errors.size(), 2u) << listed(t.errors);
    EXPECT_EQ(t.errors[0].line, 3u);
    EXPECT_EQ(t.errors[1].line, 5u);
    EXPECT_EQ(ts::student::formatDiagnostic("k.cu", t.errors[0]).rfind("k.cu:3:12: error: expf is not supported", 0), 0u);
}

TEST(StudentScanTranslate, TheParseRefusesAFunctionDeclaredInsideAndItsCall)
{
    // `float g(float(h));` declares a function (C++'s most vexing parse), which the scan
    // cannot tell from `float g(float(h) * 2)`: the front end's tree refuses it and its call.
    const ts::student::Translation t = ts::student::translateCuda(
        "#define ONE (1.0f)\n" + kHead + "    float g(float(h));\n    P[0] = g ONE;\n}\n", "k.cu");
    ASSERT_EQ(t.errors.size(), 2u) << listed(t.errors);
    EXPECT_EQ(t.errors[0].line, 4u);
    EXPECT_NE(t.errors[0].message.find("a function declared inside kernel k (g) is refused"), std::string::npos) << listed(t.errors);
    EXPECT_EQ(t.errors[1].line, 5u);
    EXPECT_NE(t.errors[1].message.find("g is neither a __device__ function of this file"), std::string::npos) << listed(t.errors);
}

TEST(StudentScanTranslate, LocalArraysAndTheirBytesAreListed)
{
    const ts::student::Translation t = ts::student::translateCuda(
        "#define TM 8\n"
        "__device__ float sum4(const float* v) { float part[4]; part[0] = v[0]; return part[0]; }\n"
        "__global__ void __launch_bounds__(64)\n"
        "k(float* P)\n"
        "{\n"
        "    float acc[TM][TM];\n"
        "    int idx[3];\n"
        "    float4 quad[2];\n"
        "    acc[0][0] = sum4(P); idx[0] = 0; quad[0].x = 0;\n"
        "    P[idx[0]] = acc[0][0] + quad[0].x;\n"
        "}\n",
        "k.cu");
    ASSERT_TRUE(t.ok()) << listed(t.errors);
    ASSERT_EQ(t.locals.size(), 4u);
    EXPECT_EQ(t.locals[0].name, "part");
    EXPECT_EQ(t.locals[0].bytes, 16u);
    EXPECT_EQ(t.locals[0].line, 2u);
    EXPECT_EQ(t.locals[1].name, "acc");
    EXPECT_EQ(t.locals[1].bytes, 8u * 8u * sizeof(float));
    EXPECT_EQ(t.locals[1].line, 6u);
    EXPECT_EQ(t.locals[2].bytes, 12u);
    EXPECT_EQ(t.locals[3].bytes, 32u);
    EXPECT_EQ(t.localBytes, 16u + 256u + 12u + 32u);
    // __launch_bounds__ leaves the text; the lines stay.
    EXPECT_EQ(t.code.find("__launch_bounds__"), std::string::npos) << t.code;
    EXPECT_NE(t.code.find("template <class TsContext> TS_DEVICE void \n"), std::string::npos) << t.code;
}

// ---- the module's math ---------------------------------------------------------------------

uint32_t bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

TEST(StudentCudaMath, OverloadsAndResultsAreCudas)
{
    namespace m = ts_student;
    // ceil of a float is a float (PMPP Fig. 5.13), of a double a double.
    static_assert(std::is_same_v<decltype(m::ceil(1.0f)), float>);
    static_assert(std::is_same_v<decltype(m::ceil(1.0)), double>);
    static_assert(std::is_same_v<decltype(m::sqrt(2.0f)), float>);
    static_assert(std::is_same_v<decltype(m::min(1.0f, 2.0f)), float>);
    static_assert(std::is_same_v<decltype(m::min(1, 2)), int>);
    static_assert(std::is_same_v<decltype(m::max(1, 2u)), unsigned int>);
    static_assert(std::is_same_v<decltype(m::min(1.0f, 2.0)), double>);
    EXPECT_EQ(m::ceil(100 / (float)16), 7.0f);
    EXPECT_EQ(m::floorf(-0.5f), -1.0f);
    EXPECT_EQ(m::truncf(-1.5f), -1.0f);
    EXPECT_EQ(m::roundf(2.5f), 3.0f);     // halfway away from zero, not to even
    EXPECT_EQ(m::roundf(-2.5f), -3.0f);
    EXPECT_EQ(bits(m::fabsf(-0.0f)), 0u);
    static_assert(std::is_same_v<decltype(m::abs(-2.5f)), float>);   // not the int abs
    EXPECT_EQ(m::abs(-2.5f), 2.5f);
    EXPECT_EQ(m::abs(-3), 3);
    EXPECT_EQ(m::abs(std::numeric_limits<int>::min()), std::numeric_limits<int>::min());   // as on the GPU
    // min and max of an int and an unsigned compare as unsigned, as CUDA's do.
    EXPECT_EQ(m::min(-1, 2u), 2u);
    EXPECT_EQ(m::max(-1, 2), 2);
    EXPECT_EQ(m::min(2.5f, -1.0f), -1.0f);
    EXPECT_EQ(m::max(std::nanf(""), 1.0f), 1.0f);   // fmaxf: a NaN gives the other
    // Where the CPU's library and the GPU part (tests/student/cuda_math_gpu_check.cu, run on
    // an H200): -0 is below +0 whatever the operands' order, and a NaN result is 0x7fffffff.
    EXPECT_EQ(bits(m::fminf(0.0f, -0.0f)), 0x80000000u);
    EXPECT_EQ(bits(m::fminf(-0.0f, 0.0f)), 0x80000000u);
    EXPECT_EQ(bits(m::fmaxf(-0.0f, 0.0f)), 0u);
    EXPECT_EQ(bits(m::min(0.0f, -0.0f)), 0x80000000u);
    EXPECT_EQ(bits(m::sqrtf(-1.0f)), 0x7fffffffu);
    EXPECT_EQ(bits(m::fabsf(-std::nanf("1"))), 0x7fffffffu);
    EXPECT_EQ(bits(m::ceil(std::nanf("5"))), 0x7fffffffu);
    EXPECT_EQ(bits(m::fminf(std::nanf("1"), std::nanf("2"))), 0x7fffffffu);
    float signalling;
    const uint32_t s = 0x7f800001u;
    std::memcpy(&signalling, &s, sizeof s);
    EXPECT_EQ(m::fminf(0.5f, signalling), 0.5f);
    // Correctly rounded: the same bits as the IEEE operations.
    for (float x : {2.0f, 3.0f, 1e-30f, 123456.7f, 0.1f}) EXPECT_EQ(bits(m::sqrtf(x)), bits(std::sqrt(x))) << x;
    const float a = 0.1f, b = 3.0f, c = -0.3f;
    EXPECT_EQ(bits(m::fmaf(a, b, c)), bits(std::fma(a, b, c)));
}

}  // namespace
