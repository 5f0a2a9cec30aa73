// Internal to the plain-CUDA front end (frontend/translate.hpp); not for other callers. What
// the files of the translation share: the Translator class, the edits it places and the
// libclang helpers its passes use. translate.cpp holds the file's top level and
// translateCuda(), translate_body.cpp the statements of a body, translate_edits.cpp the
// rewrites of multiply-adds, 128-bit accesses, unrolled loops and helper calls.
#pragma once
#include <clang-c/Index.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontend/translate.hpp"

namespace ts::student::translate_detail {

/// Paths the parser sees; no file of that name is read from disk.
constexpr const char* kMainPath = "/tilescope/student.cu";
constexpr const char* kPreludePath = "/tilescope/cuda_prelude.h";

/// The text of a libclang string, which is disposed of.
std::string str(CXString s);

/// Offset and line of a location in the main file; false when it lies elsewhere (the
/// prelude, or inside a macro's definition).
struct Pos {
    unsigned offset = 0, line = 0, column = 0;
    bool inMain = false;
};
/// Where `l` is spelled (clang_getSpellingLocation).
Pos spelling(CXSourceLocation l);
/// Where `l` is, or where the macro it lies in was expanded (clang_getExpansionLocation).
Pos expansion(CXSourceLocation l);
/// Why a statement or expression of kind `k` is refused inside a kernel, or nullptr.
const char* refusedStatement(CXCursorKind k);

/// One replacement of the student's text: [begin, end) becomes `text`. Of two insertions
/// at one offset, the one of higher `outer` ends up first (it encloses the other).
struct Edit {
    unsigned begin, end;
    std::string text;
    int outer = 0;
};

/// The type of expression `e` before the implicit conversions libclang shows.
CXType typeBeforeConversion(CXCursor e);
/// The CUDA qualifier a declaration carries ("ts:global", "ts:device", ...), or "".
std::string annotation(CXCursor c);
/// Does variable `v` have a brace initialiser (`= {1, 2, 3}`)?
bool hasInitialiser(CXCursor v);

/// One translation of one file: the syntax tree walked, its errors and its edits collected.
class Translator {
public:
    Translator(const std::string& source, Translation& out) : src_(source), out_(out) {}

    void error(unsigned line, unsigned column, std::string message);
    void error(const Pos& p, std::string message) { error(p.line, p.column, std::move(message)); }

    /// The top level of the file: one __global__ kernel, integer macros.
    void topLevel(CXCursor c);

    std::vector<Edit> edits;
    /// Offsets of the local arrays' names that are the base of a subscript: the only use of
    /// a local array the translation lets through (see localSubscript()).
    std::set<unsigned> localBases_;

    /// The line breaks of the student's text in [begin, end): what replaces a span so that no
    /// line moves.
    std::string lineBreaksOf(unsigned begin, unsigned end) const;

private:
    void macro(CXCursor c);

    void kernel(CXCursor fn);

    /// The body of the kernel or of a helper: the __constant__ arrays declared before it
    /// made the context's, then every statement.
    void functionBody(CXCursor fn, std::string what);

    /// A __device__ helper: a template over the context like the kernel, which its callers
    /// pass on. Its float pointer parameters take whatever array the caller passes.
    void helper(CXCursor fn);

    /// A __constant__ array at file scope: the convolution mask (PMPP sec. 7.3), which the
    /// simulator keeps in its constant memory. The declaration leaves the file (its lines
    /// stay) and each function after it reads the context's mask under the same name.
    void constant(CXCursor v, const Pos& at);

    void param(CXCursor p);

    CXChildVisitResult body(CXCursor c);

    /// Whether a kernel may call `ref` (the scan refuses the rest before the parse; this is
    /// its second line): a function of allowedFunctions() declared by the prelude, a member
    /// of the prelude's structs (float4's copy), or a __device__ function of the file
    /// defined with its body.
    static bool calleeAllowed(CXCursor ref);
    static bool inPrelude(CXCursor c);

    /// A local variable of the kernel or a helper: an array of registers is one of the
    /// thread's local arrays (Translation::locals), its size from the front end.
    void local(CXCursor v, const Pos& at);

    /// Is `v` a local array of the kernel or a helper (not __shared__, not the mask)?
    static bool isLocalArray(CXCursor v);
    /// `e` without the implicit conversions and parentheses around it.
    static CXCursor stripped(CXCursor e);
    /// `a[i]` (or one subscript of `a[i][j]`) on a thread's local array: the index becomes
    /// `ts_ctx.localIndex(i, EXTENT, "a")`, which faults with the thread, the array and the
    /// line when i is outside the dimension. A local array is registers on the GPU and
    /// memory of the simulated thread's own stack here: unchecked, an index far outside it
    /// would write into the simulator's memory.
    void localSubscript(CXCursor sub, const Pos& at);

    void shared(CXCursor v, const Pos& at);

    /// `c ? 0 : N[i]` is a float in CUDA; with N[i] the simulator's recording reference, C++
    /// would convert the reference to the int instead. An operand that is not a float in the
    /// student's text is made one, so the simulator computes what the GPU does.
    void floatConditional(CXCursor c);

    /// A token of the file: its spelling and its offsets.
    struct Token {
        std::string text;
        unsigned begin = 0, end = 0;
    };
    /// The tokens of `c`'s extent; empty unless the whole extent is written in the file itself
    /// (not inside a macro's definition).
    static std::vector<Token> tokensOf(CXCursor c);
    static std::vector<CXCursor> childrenOf(CXCursor c);
    /// The binary operator `c` (a BinaryOperator or CompoundAssignOperator with two children,
    /// all in the file): its operands and its operator token, the first token after its left
    /// operand (libclang 14 has no function that names the operator).
    struct Binary {
        CXCursor lhs, rhs;
        Token op;
        std::vector<Token> tokens;   ///< of the whole expression
    };
    static bool binary(CXCursor c, Binary& out);
    /// Whether expression `e` is a float in registers only: built from the kernel's own local
    /// variables (float and int values, local arrays of them), literals and arithmetic, with
    /// no __shared__, __constant__ or global array, no built-in index variable, no call and
    /// no side effect, so that its text may be written a second time.
    static bool registersOnly(CXCursor e);
    static bool isFloat(CXCursor e) { return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Float; }
    /// The text of `e` as the file writes it (empty inside a macro's definition).
    std::string textOf(CXCursor e) const;
    static bool sameTokens(CXCursor a, CXCursor b);

    /// A multiply-add on registers, `x += a * b`, `x = x + a * b` or `x = a * b + x` with x, a
    /// and b floats held in registers (a register-tiled kernel's outer product), becomes
    /// `x = ts_ctx.fmaf(a, b, x)`: one rounding, as the GPU's FFMA (nvcc contracts the
    /// product into the addition), counted in flops and recorded as an Fma like the built-in
    /// kernels' x.fmaf(). Where a or b reads shared, global or constant memory the
    /// simulator's recording reference already does this, and nothing is changed.
    void registerFma(CXCursor c);

    /// The first child of `e` under the implicit conversions and parentheses libclang shows.
    static CXCursor unwrap(CXCursor e);
    /// `*reinterpret_cast<const float4*>(&A[..][i])`, a 128-bit access of array A (CUDA's
    /// float4): the subscript `A[..][i]` inside it, or a null cursor.
    CXCursor vectorSubscript(CXCursor deref);
    /// Whether the array a subscript reads is __shared__, else a global pointer: a 2D array
    /// (`&Nds[r][c]`, also a helper's `float Nds[][BN]`) is shared, since global arrays are
    /// flat pointers, and a 1D one is shared where it is declared __shared__.
    static bool sharedArray(CXCursor sub);
    bool insideVectorAccess(unsigned offset) const;
    /// The subscript `A[..][i]` of a 128-bit access becomes the arguments `A[..], i` of the
    /// context's call that replaces the text before it (`*reinterpret_cast<...>(&`).
    bool vectorCall(CXCursor deref, CXCursor sub, const char* global, const char* shared);
    /// `*reinterpret_cast<const float4*>(&M[i])` becomes `ts_ctx.ldg4(M, i)` (a __shared__
    /// row, `&Mds[r][c]`: `ts_ctx.lds4(Mds[r], c)`): one 128-bit load, recorded as four loads
    /// of its line, as the built-in kernels' x.ldg4 and x.lds4.
    void vectorLoad(CXCursor c);
    /// `*reinterpret_cast<float4*>(&Nds[r][c]) = v` becomes `ts_ctx.sts4(Nds[r], c , v)`
    /// (global: `ts_ctx.stg4(P, i , v)`): one 128-bit store. Only tokens change: the cast's
    /// `)` goes, `=` becomes a comma, and the call closes after v.
    bool vectorStore(CXCursor c);

    /// `make_float4(a, b, c, d)` becomes `typename TsContext::Float4(a, b, c, d)`, the context's four
    /// floats (C++20 initialises an aggregate from parentheses, converting ints as CUDA does).
    void makeFloat4(CXCursor c, const Pos& at);

    /// The text of expression `e` as the file writes it, macros unexpanded, if it can be
    /// written a second time: no side effect, no call, no built-in index variable (whose
    /// copy would miss its `ts_ctx.`). Empty otherwise.
    std::string copyableText(CXCursor e) const;
    /// The value of a constant integer expression, if it is one.
    static bool constantOf(CXCursor e, long long& value);

    /// A loop under `#pragma unroll` (libclang shows the attributed statement unexposed):
    /// nvcc makes every iteration instructions of their own, so a lane that skips a guarded
    /// access in one iteration does not shift its later ones onto other instructions. The
    /// built-in kernels say so with `x.unrolled(i)` (docs/design.md); here the top of the
    /// loop's body gets `const auto ts_unrolled = ts_ctx.unrolled(i);`, i the iteration's
    /// number, (v - first) / step for `for (int v = first; v < last; v += step)`, and for a
    /// loop nested in another so marked, outer * (its trip count) + i, as the built-in
    /// kernels number them. A loop of another form, or whose body has no braces, is left as
    /// it is (`#pragma unroll 1` asks for no unrolling).
    void unrolledLoop(CXCursor c);

    /// A call of a __device__ helper: the context goes in front of its arguments.
    void call(CXCursor c, const Pos& at, const std::string& name);

    /// The condition of an `if`, `while`, `do ... while`, `for` or `?:` (statement or
    /// expression `c` of kind `kind`) becomes `ts_ctx.branch(COND)`, so that the simulator
    /// counts it per warp, uniform or divergent (PMPP sec. 4.5 and 10.4), as the built-in
    /// reduction kernels' `x.branch(...)`. Left as written: a condition spelled inside a
    /// #define, one that is a constant (`for (;;)`, `while (1)`: no branch), and the
    /// condition of a `#pragma unroll` loop with a constant trip count (nvcc unrolls it).
    /// A declaration in a condition or an `if (init; cond)` is refused with its line.
    void branchCondition(CXCursor c, CXCursorKind kind, const Pos& at);
    /// CUDA's atomicAdd/atomicExch on a global float array and its warp intrinsics
    /// (__shfl_sync and kin, __syncwarp), called as the prelude declares them: the call
    /// becomes the context's (`ts_ctx.atomicAdd(&p[i], v)`, `ts_ctx.template
    /// shfl_down_sync<float>(mask, v, d)`, `ts_ctx.syncwarp()`), arguments unchanged. False
    /// when `name` is none of them.
    bool intrinsicCall(CXCursor c, const Pos& at, const std::string& name);
    int branchOrder_ = 0;   ///< conditions marked so far: the enclosing one's edits go outside

    const std::string& src_;
    Translation& out_;
    CXCursor kernelCursor_ = clang_getNullCursor();
    CXCursor function_ = clang_getNullCursor();   ///< the function whose body is visited
    std::string functionName_;                    ///< "kernel NAME" or "__device__ function NAME"
    std::vector<CXCursor> helpers_;
    /// The extents of the 128-bit accesses rewritten (their float4 and cast are handled).
    std::vector<std::pair<unsigned, unsigned>> vectorAccesses_;
    /// The loops under `#pragma unroll` whose iterations are tagged: their extents and the
    /// expression of an iteration's number.
    struct UnrolledLoop {
        unsigned begin, end;
        std::string tag;
    };
    std::vector<UnrolledLoop> unrolled_;
};

}  // namespace ts::student::translate_detail
