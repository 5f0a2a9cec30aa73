// The plain-CUDA front end (frontend/translate.hpp): libclang parses the student's file and
// the edits that make it single-source are placed from its syntax tree.
#include "frontend/translate.hpp"

#include <clang-c/Index.h>

#include "frontend/scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ts::student {
namespace {

/// Paths the parser sees; no file of that name is read from disk.
constexpr const char* kMainPath = "/tilescope/student.cu";
constexpr const char* kPreludePath = "/tilescope/cuda_prelude.h";

/// What a CUDA file may use without including anything: the qualifiers (as annotations the
/// tree keeps), the built-in index variables, __syncthreads(), float4 and the math functions
/// of allowedFunctions() with CUDA's overloads (student/cuda_math.hpp defines the same set
/// for the module). Everything else CUDA has is left undeclared, so using it is a C++ error
/// that unsupportedName() turns into a sentence (the scan refuses most of it before).
constexpr const char* kPrelude = R"(#define __global__ __attribute__((annotate("ts:global")))
#define __device__ __attribute__((annotate("ts:device")))
#define __host__ __attribute__((annotate("ts:host")))
#define __shared__ __attribute__((annotate("ts:shared")))
#define __constant__ __attribute__((annotate("ts:constant")))
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((annotate("ts:launch_bounds")))
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
void __syncthreads();
struct float4 { float x, y, z, w; };
float4 make_float4(float x, float y, float z, float w);
float ceilf(float); float floorf(float); float truncf(float); float roundf(float); float fabsf(float);
float ceil(float); double ceil(double); float floor(float); double floor(double);
float trunc(float); double trunc(double); float round(float); double round(double);
float fabs(float); double fabs(double);
int abs(int); long abs(long); long long abs(long long); float abs(float); double abs(double);
float fminf(float, float); float fmaxf(float, float);
float fmin(float, float); double fmin(double, double); float fmax(float, float); double fmax(double, double);
float sqrtf(float); float sqrt(float); double sqrt(double);
float fmaf(float, float, float); float fma(float, float, float); double fma(double, double, double);
int min(int, int); unsigned int min(unsigned int, unsigned int); unsigned int min(int, unsigned int);
unsigned int min(unsigned int, int); long long min(long long, long long);
unsigned long long min(unsigned long long, unsigned long long); float min(float, float);
double min(double, double); double min(float, double); double min(double, float);
int max(int, int); unsigned int max(unsigned int, unsigned int); unsigned int max(int, unsigned int);
unsigned int max(unsigned int, int); long long max(long long, long long);
unsigned long long max(unsigned long long, unsigned long long); float max(float, float);
double max(double, double); double max(float, double); double max(double, float);
)";

std::string str(CXString s)
{
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

/// Offset and line of a location in the main file; false when it lies elsewhere (the
/// prelude, or inside a macro's definition).
struct Pos {
    unsigned offset = 0, line = 0, column = 0;
    bool inMain = false;
};
/// A location through one of libclang's decoders: where it is spelled
/// (clang_getSpellingLocation) or where its macro was expanded (clang_getExpansionLocation).
Pos decode(CXSourceLocation l, void (*how)(CXSourceLocation, CXFile*, unsigned*, unsigned*, unsigned*))
{
    CXFile f = nullptr;
    Pos p;
    how(l, &f, &p.line, &p.column, &p.offset);
    p.inMain = f && str(clang_getFileName(f)) == kMainPath;
    return p;
}
Pos spelling(CXSourceLocation l) { return decode(l, clang_getSpellingLocation); }
Pos expansion(CXSourceLocation l) { return decode(l, clang_getExpansionLocation); }

/// Why a statement or expression of kind `k` is refused inside a kernel, or nullptr.
const char* refusedStatement(CXCursorKind k)
{
    struct Refused {
        CXCursorKind kind;
        const char* why;
    };
    static constexpr Refused kRefused[] = {
        {CXCursor_CXXNewExpr, "new and delete are not supported: a kernel uses its parameters, registers and __shared__ arrays"},
        {CXCursor_CXXDeleteExpr, "new and delete are not supported: a kernel uses its parameters, registers and __shared__ arrays"},
        {CXCursor_CXXThrowExpr, "exceptions are not supported in a kernel (nor does CUDA have them)"},
        {CXCursor_CXXTryStmt, "exceptions are not supported in a kernel (nor does CUDA have them)"},
        {CXCursor_GotoStmt, "goto is not supported: use a loop or a branch"},
        {CXCursor_LambdaExpr, "lambdas are not supported in a kernel file here: write the code in the kernel"},
        {CXCursor_AsmStmt, "inline assembly is not supported"},
    };
    for (const Refused& r : kRefused)
        if (r.kind == k) return r.why;
    return nullptr;
}

/// One replacement of the student's text: [begin, end) becomes `text`. Of two insertions
/// at one offset, the one of higher `outer` ends up first (it encloses the other).
struct Edit {
    unsigned begin, end;
    std::string text;
    int outer = 0;
};

/// The type of expression `e` before the implicit conversions libclang shows as unexposed
/// expressions: `0` in `c ? 0 : x` is int even where it is converted to float.
CXType typeBeforeConversion(CXCursor e)
{
    struct Children {
        CXCursor last = clang_getNullCursor();
        int count = 0;
    };
    while (clang_getCursorKind(e) == CXCursor_UnexposedExpr) {
        Children c;
        clang_visitChildren(
            e,
            [](CXCursor child, CXCursor, CXClientData d) {
                auto* c = static_cast<Children*>(d);
                c->last = child;
                ++c->count;
                return CXChildVisit_Continue;
            },
            &c);
        if (c.count != 1) break;
        e = c.last;
    }
    return clang_getCanonicalType(clang_getCursorType(e));
}

/// The annotations ("ts:global", "ts:shared", ...) a declaration carries, in order.
std::vector<std::string> annotations(CXCursor c)
{
    std::vector<std::string> found;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData d) {
            if (clang_getCursorKind(child) == CXCursor_AnnotateAttr)
                static_cast<std::vector<std::string>*>(d)->push_back(str(clang_getCursorSpelling(child)));
            return CXChildVisit_Continue;
        },
        &found);
    return found;
}
/// The CUDA qualifier a declaration carries: "ts:global" before "ts:device" before the
/// others (`__host__ __device__` is a device function), or "".
std::string annotation(CXCursor c)
{
    const std::vector<std::string> all = annotations(c);
    for (const char* q : {"ts:global", "ts:device", "ts:shared", "ts:constant", "ts:host"})
        if (std::find(all.begin(), all.end(), q) != all.end()) return q;
    return "";
}

/// Does variable `v` have a brace initialiser (`= {1, 2, 3}`)?
bool hasInitialiser(CXCursor v)
{
    bool init = false;
    clang_visitChildren(
        v,
        [](CXCursor child, CXCursor, CXClientData d) {
            if (clang_getCursorKind(child) == CXCursor_InitListExpr) *static_cast<bool*>(d) = true;
            return CXChildVisit_Continue;
        },
        &init);
    return init;
}

/// The body (compound statement) of function `fn`, or a null cursor.
CXCursor bodyOf(CXCursor fn)
{
    CXCursor found = clang_getNullCursor();
    clang_visitChildren(
        fn,
        [](CXCursor child, CXCursor, CXClientData d) {
            if (clang_getCursorKind(child) == CXCursor_CompoundStmt) {
                *static_cast<CXCursor*>(d) = child;
                return CXChildVisit_Break;
            }
            return CXChildVisit_Continue;
        },
        &found);
    return found;
}

class Translator {
public:
    Translator(const std::string& source, Translation& out) : src_(source), out_(out) {}

    void error(unsigned line, unsigned column, std::string message)
    {
        for (const Diagnostic& d : out_.errors)
            if (d.line == line && d.message == message) return;
        out_.errors.push_back(Diagnostic{line, column, std::move(message)});
    }
    void error(const Pos& p, std::string message) { error(p.line, p.column, std::move(message)); }

    /// The top level of the file: one __global__ kernel, integer macros.
    void topLevel(CXCursor c)
    {
        const CXCursorKind kind = clang_getCursorKind(c);
        const Pos at = expansion(clang_getCursorLocation(c));
        if (!at.inMain) return;
        if (kind == CXCursor_MacroDefinition) {
            macro(c);
            return;
        }
        if (kind == CXCursor_MacroExpansion || kind == CXCursor_InclusionDirective) return;
        if (kind == CXCursor_FunctionDecl) {
            const std::string a = annotation(c);
            const std::string name = str(clang_getCursorSpelling(c));
            if (a == "ts:global") {
                if (!clang_isCursorDefinition(c)) return;
                if (!out_.kernelName.empty()) {
                    error(at, "a second __global__ kernel, " + name + ": a kernel file holds one kernel (the first is " +
                                  out_.kernelName + ")");
                    return;
                }
                kernel(c);
            } else if (a == "ts:device") {
                if (!clang_isCursorDefinition(c)) {
                    if (!clang_Cursor_isNull(clang_getCursorDefinition(c)))
                        error(at, "__device__ function " + name + " is declared before it is defined: define it once, "
                                  "with its body, before the kernel");
                    return;
                }
                helper(c);
            } else {
                error(at, name + " is host code: a kernel file holds the __global__ kernel only (the launch comes "
                                 "from the scenario)");
            }
            return;
        }
        if (kind == CXCursor_VarDecl) {
            const std::string a = annotation(c);
            const std::string name = str(clang_getCursorSpelling(c));
            if (a == "ts:constant")
                constant(c, at);
            else if (a == "ts:shared")
                error(at, "__shared__ array " + name + " is declared outside the kernel: declare it inside, as PMPP does");
            else
                error(at, "global variable " + name + " is not supported: a kernel uses its parameters, registers "
                                                    "and __shared__ arrays");
            return;
        }
        if (kind == CXCursor_StructDecl || kind == CXCursor_ClassDecl || kind == CXCursor_TypedefDecl ||
            kind == CXCursor_TypeAliasDecl || kind == CXCursor_EnumDecl || kind == CXCursor_Namespace ||
            kind == CXCursor_FunctionTemplate || kind == CXCursor_ClassTemplate) {
            error(at, "this declaration is not supported: a kernel file holds #defines and one __global__ kernel");
        }
    }

    std::vector<Edit> edits;
    /// Offsets of the local arrays' names that are the base of a subscript: the only use of
    /// a local array the translation lets through (see localSubscript()).
    std::set<unsigned> localBases_;

    /// The line breaks of the student's text in [begin, end): what replaces a span so that no
    /// line moves.
    std::string lineBreaksOf(unsigned begin, unsigned end) const
    {
        return std::string(static_cast<size_t>(std::count(src_.begin() + begin, src_.begin() + end, '\n')), '\n');
    }

private:
    void macro(CXCursor c)
    {
        if (clang_Cursor_isMacroFunctionLike(c)) return;
        const std::string name = str(clang_getCursorSpelling(c));
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
        CXToken* tokens = nullptr;
        unsigned n = 0;
        clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
        // name, then the value: one integer literal, maybe in parentheses
        std::vector<std::string> value;
        for (unsigned i = 1; i < n; ++i) value.push_back(str(clang_getTokenSpelling(tu, tokens[i])));
        clang_disposeTokens(tu, tokens, n);
        if (value.size() == 3 && value[0] == "(" && value[2] == ")") value = {value[1]};
        if (value.size() != 1) return;
        const std::string& v = value[0];
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 15) return;
        out_.defines.emplace_back(name, std::stoll(v));
    }

    void kernel(CXCursor fn)
    {
        out_.kernelName = str(clang_getCursorSpelling(fn));
        const Pos at = expansion(clang_getCursorLocation(fn));
        if (clang_getCursorResultType(fn).kind != CXType_Void)
            error(at, "kernel " + out_.kernelName + " must return void, as every __global__ function does");
        // `__global__` (a macro expansion at the start of the declaration) becomes the
        // template head; it is the annotation's extent. `__launch_bounds__(...)` says nothing
        // to the simulator and leaves the text (its line breaks stay).
        clang_visitChildren(
            fn,
            [](CXCursor child, CXCursor, CXClientData d) {
                auto* self = static_cast<Translator*>(d);
                if (clang_getCursorKind(child) == CXCursor_AnnotateAttr) {
                    const std::string what = str(clang_getCursorSpelling(child));
                    const CXSourceRange r = clang_getCursorExtent(child);
                    const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
                    if (!b.inMain || !e.inMain || e.offset <= b.offset) return CXChildVisit_Continue;
                    if (what == "ts:global")
                        self->edits.push_back(Edit{b.offset, e.offset, "template <class TsContext> TS_DEVICE"});
                    else if (what == "ts:launch_bounds")
                        self->edits.push_back(Edit{b.offset, e.offset, self->lineBreaksOf(b.offset, e.offset)});
                }
                return CXChildVisit_Continue;
            },
            this);
        // The context goes first in the parameter list.
        const int params = clang_Cursor_getNumArguments(fn);
        const size_t open = src_.find('(', at.offset);
        if (open == std::string::npos) {
            error(at, "cannot find the parameter list of " + out_.kernelName);
            return;
        }
        edits.push_back(Edit{static_cast<unsigned>(open + 1), static_cast<unsigned>(open + 1),
                             params > 0 ? "TsContext& ts_ctx, " : "TsContext& ts_ctx"});
        for (int i = 0; i < params; ++i) param(clang_Cursor_getArgument(fn, static_cast<unsigned>(i)));
        kernelCursor_ = fn;
        functionBody(fn, "kernel " + out_.kernelName);
    }

    /// The body of the kernel or of a helper: the __constant__ arrays declared before it
    /// made the context's, then every statement.
    void functionBody(CXCursor fn, std::string what)
    {
        const CXCursor body = bodyOf(fn);
        if (!clang_Cursor_isNull(body)) {
            const Pos open = expansion(clang_getRangeStart(clang_getCursorExtent(body)));
            std::string aliases;
            for (const SharedArray& c : out_.constants)
                aliases += " auto&& " + c.name + " = ts_ctx." + (c.extents.size() == 2 ? "mask2d" : "mask1d") + "();";
            if (open.inMain && !aliases.empty()) edits.push_back(Edit{open.offset + 1, open.offset + 1, aliases});
        }
        function_ = fn;
        functionName_ = std::move(what);
        clang_visitChildren(
            fn,
            [](CXCursor child, CXCursor, CXClientData d) { return static_cast<Translator*>(d)->body(child); },
            this);
        function_ = clang_getNullCursor();
    }

    /// A __device__ helper: a template over the context like the kernel, which its callers
    /// pass on. Its float pointer parameters take whatever array the caller passes.
    void helper(CXCursor fn)
    {
        const std::string name = str(clang_getCursorSpelling(fn));
        const Pos at = expansion(clang_getCursorLocation(fn));
        const CXTypeKind result = clang_getCanonicalType(clang_getCursorResultType(fn)).kind;
        if (result != CXType_Void && result != CXType_Float && result != CXType_Int && result != CXType_UInt &&
            result != CXType_Bool) {
            error(at, "__device__ function " + name + " returns " +
                          str(clang_getTypeSpelling(clang_getCursorResultType(fn))) +
                          ": a helper here returns void, float, int, unsigned int or bool");
            return;
        }
        const Pos begin = expansion(clang_getRangeStart(clang_getCursorExtent(fn)));
        const size_t open = src_.find('(', at.offset);
        if (!begin.inMain || open == std::string::npos) {
            error(at, "cannot place __device__ function " + name + " in the file");
            return;
        }
        edits.push_back(Edit{begin.offset, begin.offset, "template <class TsContext> "});
        const int params = clang_Cursor_getNumArguments(fn);
        edits.push_back(Edit{static_cast<unsigned>(open + 1), static_cast<unsigned>(open + 1),
                             params > 0 ? "TsContext& ts_ctx, " : "TsContext& ts_ctx"});
        for (int i = 0; i < params; ++i) {
            const CXCursor p = clang_Cursor_getArgument(fn, static_cast<unsigned>(i));
            const std::string pname = str(clang_getCursorSpelling(p));
            const Pos pat = expansion(clang_getCursorLocation(p));
            const CXType t = clang_getCanonicalType(clang_getCursorType(p));
            if (t.kind == CXType_Pointer || t.kind == CXType_IncompleteArray || t.kind == CXType_ConstantArray) {
                // float*, or a pointer to rows of floats (`float Mds[][TILE_WIDTH]`, a 2D
                // __shared__ array or a local array of registers passed on)
                CXType pointee = clang_getCanonicalType(t.kind == CXType_Pointer ? clang_getPointeeType(t)
                                                                                  : clang_getArrayElementType(t));
                if (pointee.kind == CXType_ConstantArray) pointee = clang_getCanonicalType(clang_getArrayElementType(pointee));
                if (pointee.kind != CXType_Float) {
                    error(pat, "parameter " + pname + " of " + name + " has type " +
                                   str(clang_getTypeSpelling(clang_getCursorType(p))) +
                                   ": the simulator models float arrays");
                    continue;
                }
                // The caller's GlobalPtr or shared array, whichever it passes.
                const Pos pb = expansion(clang_getRangeStart(clang_getCursorExtent(p)));
                const Pos pe = expansion(clang_getRangeEnd(clang_getCursorExtent(p)));
                if (pb.inMain && pat.inMain && pat.offset > pb.offset) edits.push_back(Edit{pb.offset, pat.offset, "auto "});
                // The rows' extent after the name (`[][TILE_WIDTH]`) goes with the type.
                const unsigned nameEnd = pat.offset + static_cast<unsigned>(pname.size());
                if (pe.inMain && pe.offset > nameEnd)
                    edits.push_back(Edit{nameEnd, pe.offset,
                                         std::string(static_cast<size_t>(std::count(src_.begin() + nameEnd, src_.begin() + pe.offset, '\n')), '\n')});
                continue;
            }
            const CXTypeKind k = (t.kind == CXType_LValueReference ? clang_getCanonicalType(clang_getPointeeType(t)) : t).kind;
            if (k != CXType_Int && k != CXType_UInt && k != CXType_Float && k != CXType_Bool)
                error(pat, "parameter " + pname + " of " + name + " has type " +
                               str(clang_getTypeSpelling(clang_getCursorType(p))) +
                               ": a helper here takes int, unsigned int, float or bool values (or references to "
                               "them) and float pointers");
        }
        helpers_.push_back(fn);
        out_.helpers.push_back(name);
        functionBody(fn, "__device__ function " + name);
    }

    /// A __constant__ array at file scope: the convolution mask (PMPP sec. 7.3), which the
    /// simulator keeps in its constant memory. The declaration leaves the file (its lines
    /// stay) and each function after it reads the context's mask under the same name.
    void constant(CXCursor v, const Pos& at)
    {
        SharedArray a;
        a.name = str(clang_getCursorSpelling(v));
        a.line = at.line;
        CXType t = clang_getCanonicalType(clang_getCursorType(v));
        while (t.kind == CXType_ConstantArray) {
            a.extents.push_back(clang_getArraySize(t));
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        }
        if (!out_.constants.empty()) {
            error(at, "a second __constant__ array, " + a.name + ": TileScope keeps one in constant memory, the "
                      "convolution mask (the first is " + out_.constants.front().name + ")");
            return;
        }
        if (t.kind != CXType_Float || a.extents.empty() || a.extents.size() > 2) {
            error(at, "__constant__ " + a.name + " must be a 1D or 2D array of float: the convolution mask");
            return;
        }
        if (a.extents.size() == 2 && a.extents[0] != a.extents[1]) {
            error(at, "__constant__ " + a.name + " must be square: the 2D mask is Mask_Width x Mask_Width");
            return;
        }
        if (hasInitialiser(v)) {
            error(at, "__constant__ " + a.name + " has an initialiser: the mask's values come from the problem, as "
                      "PMPP's host code copies them with cudaMemcpyToSymbol");
            return;
        }
        const CXSourceRange r = clang_getCursorExtent(v);
        const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
        if (!b.inMain || !e.inMain || e.offset <= b.offset) {
            error(at, "cannot place __constant__ " + a.name + " in the file");
            return;
        }
        edits.push_back(Edit{b.offset, e.offset,
                             std::string(static_cast<size_t>(std::count(src_.begin() + b.offset, src_.begin() + e.offset, '\n')), '\n')});
        out_.constants.push_back(a);
    }

    void param(CXCursor p)
    {
        KernelParam kp;
        kp.name = str(clang_getCursorSpelling(p));
        const Pos name = expansion(clang_getCursorLocation(p));
        kp.line = name.line;
        const CXType t = clang_getCanonicalType(clang_getCursorType(p));
        const Pos begin = expansion(clang_getRangeStart(clang_getCursorExtent(p)));
        if (t.kind == CXType_Pointer) {
            const CXType pointee = clang_getPointeeType(t);
            if (clang_getCanonicalType(pointee).kind != CXType_Float) {
                error(name, "parameter " + kp.name + " points to " + str(clang_getTypeSpelling(pointee)) +
                                ": the simulator models float arrays (float* or const float*)");
                return;
            }
            kp.kind = clang_isConstQualifiedType(pointee) ? KernelParam::Kind::ConstFloatPointer
                                                          : KernelParam::Kind::FloatPointer;
            const char* type = kp.kind == KernelParam::Kind::ConstFloatPointer
                                   ? "typename TsContext::template GlobalPtr<const float> "
                                   : "typename TsContext::template GlobalPtr<float> ";
            if (begin.inMain && name.inMain && name.offset > begin.offset)
                edits.push_back(Edit{begin.offset, name.offset, type});
        } else if (t.kind == CXType_Int || t.kind == CXType_UInt) {
            kp.kind = KernelParam::Kind::Int;
        } else {
            error(name, "parameter " + kp.name + " has type " + str(clang_getTypeSpelling(clang_getCursorType(p))) +
                            ": a kernel here takes float pointers and int sizes");
            return;
        }
        out_.params.push_back(kp);
    }

    CXChildVisitResult body(CXCursor c)
    {
        const CXCursorKind kind = clang_getCursorKind(c);
        const Pos at = expansion(clang_getCursorLocation(c));
        switch (kind) {
        case CXCursor_VarDecl: {
            if (annotation(c) == "ts:shared") {
                if (!clang_equalCursors(function_, kernelCursor_)) {
                    error(at, "__shared__ " + str(clang_getCursorSpelling(c)) + " is declared in " + functionName_ +
                                  ": declare shared arrays in the kernel and pass them to the helper");
                    return CXChildVisit_Continue;
                }
                shared(c, at);
                return CXChildVisit_Continue;
            }
            if (annotation(c) == "ts:constant")
                error(at, "__constant__ " + str(clang_getCursorSpelling(c)) +
                              " is declared inside a function: declare it at file scope, as PMPP does");
            if (clang_Cursor_getStorageClass(c) == CX_SC_Static)
                error(at, "static variable " + str(clang_getCursorSpelling(c)) +
                              " is not supported: each thread's variables are its own registers");
            else if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
                error(at, "extern variable " + str(clang_getCursorSpelling(c)) +
                              " is not supported: a kernel file declares nothing that lives outside it");
            else
                local(c, at);
            break;
        }
        case CXCursor_FunctionDecl:
            // `int system(const char*);` inside a function: nothing it could name may be called.
            error(at, "a function declared inside " + functionName_ + " (" + str(clang_getCursorSpelling(c)) +
                          ") is refused: a kernel calls only the __device__ functions its file defines and the "
                          "allowed functions");
            return CXChildVisit_Continue;
        case CXCursor_ArraySubscriptExpr:
            localSubscript(c, at);
            break;
        case CXCursor_DeclRefExpr: {
            const CXCursor ref = clang_getCursorReferenced(c);
            const std::string name = str(clang_getCursorSpelling(ref));
            const Pos defined = spelling(clang_getCursorLocation(ref));
            if (isLocalArray(ref) && !localBases_.count(at.offset)) {
                error(at, "the local array " + name + " is used here as a pointer: a thread's local array may only be "
                                                      "indexed (" + name + "[i]), so that TileScope can check every access");
                break;
            }
            if (!defined.inMain && (name == "threadIdx" || name == "blockIdx" || name == "blockDim" ||
                                    name == "gridDim" || name == "__syncthreads")) {
                const Pos sp = spelling(clang_getCursorLocation(c));
                if (!sp.inMain || sp.offset != at.offset) {
                    error(at, name + " inside a macro is not supported: write it in the kernel's text");
                    break;
                }
                if (name == "__syncthreads") {
                    edits.push_back(Edit{at.offset, at.offset + static_cast<unsigned>(name.size()), "ts_ctx.syncthreads"});
                    out_.barrierLines.push_back(at.line);
                } else {
                    edits.push_back(Edit{at.offset, at.offset, "ts_ctx."});
                }
            }
            break;
        }
        case CXCursor_CallExpr: {
            if (vectorStore(c)) break;   // a float4 assigned: the copy-assignment operator's call
            const CXCursor ref = clang_getCursorReferenced(c);
            if (clang_Cursor_isNull(ref)) {
                // The scan's second line: what is called is not a named function.
                error(at, "a call through a pointer or an expression is refused: call a __device__ function of this "
                          "file, or an allowed function, by its name");
                break;
            }
            if (str(clang_getCursorSpelling(ref)) == "make_float4" && !spelling(clang_getCursorLocation(ref)).inMain) {
                makeFloat4(c, at);
                break;
            }
            if (clang_equalCursors(ref, function_)) {
                error(at, functionName_ + " calls itself: recursion is not supported");
                break;
            }
            if (clang_equalCursors(ref, kernelCursor_)) {
                error(at, functionName_ + " calls the kernel " + out_.kernelName + ": a kernel is launched, not called");
                break;
            }
            for (const CXCursor& h : helpers_)
                if (clang_equalCursors(clang_getCanonicalCursor(ref), clang_getCanonicalCursor(h))) {
                    // A local array handed whole to a helper of the file (a register tile's
                    // buffers): the one use besides a subscript that is let through.
                    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; ++i) {
                        const CXCursor arg = stripped(clang_Cursor_getArgument(c, static_cast<unsigned>(i)));
                        if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr && isLocalArray(clang_getCursorReferenced(arg)))
                            localBases_.insert(expansion(clang_getCursorLocation(arg)).offset);
                    }
                    call(c, at, str(clang_getCursorSpelling(ref)));
                    break;
                }
            if (!calleeAllowed(ref)) {
                const std::string name = str(clang_getCursorSpelling(ref));
                const std::string why = unsupportedName(name);
                error(at, !why.empty() ? why
                                       : name + " is neither a __device__ function of this file nor one of the functions a "
                                                "kernel may call (docs/student-kernels.md lists them)");
            }
            break;
        }
        case CXCursor_ConditionalOperator:
            floatConditional(c);
            break;
        case CXCursor_CompoundAssignOperator:
        case CXCursor_BinaryOperator:
            if (!vectorStore(c)) registerFma(c);
            break;
        case CXCursor_UnaryOperator:
            vectorLoad(c);
            break;
        case CXCursor_UnexposedStmt:
            unrolledLoop(c);
            break;
        case CXCursor_CXXReinterpretCastExpr:
            if (!insideVectorAccess(at.offset))
                error(at, "reinterpret_cast is supported only as a 128-bit access, `*reinterpret_cast<const float4*>(&M[i])` "
                          "(a load) or `*reinterpret_cast<float4*>(&Nds[r][c]) = v` (a store), of a global or __shared__ array");
            break;
        case CXCursor_TypeRef:
            if (str(clang_getCursorSpelling(clang_getCursorReferenced(c))) == "float4" &&
                !spelling(clang_getCursorLocation(clang_getCursorReferenced(c))).inMain && !insideVectorAccess(at.offset)) {
                const std::vector<Token> t = tokensOf(c);
                if (t.size() == 1 && t[0].text == "float4") edits.push_back(Edit{t[0].begin, t[0].end, "typename TsContext::Float4"});
            }
            break;
        default:
            if (const char* why = refusedStatement(kind)) error(at, why);
            break;
        }
        return CXChildVisit_Recurse;
    }

    /// Whether a kernel may call `ref` (the scan refuses the rest before the parse; this is
    /// its second line): a function of allowedFunctions() declared by the prelude, a member
    /// of the prelude's structs (float4's copy), or a __device__ function of the file
    /// defined with its body.
    static bool calleeAllowed(CXCursor ref)
    {
        const CXCursorKind k = clang_getCursorKind(ref);
        const Pos where = spelling(clang_getCursorLocation(ref));
        if (k == CXCursor_FunctionDecl) {
            const std::string name = str(clang_getCursorSpelling(ref));
            if (!where.inMain) {
                const std::vector<std::string>& allowed = allowedFunctions();
                return inPrelude(ref) && std::find(allowed.begin(), allowed.end(), name) != allowed.end();
            }
            return annotation(ref) == "ts:device" && !clang_Cursor_isNull(clang_getCursorDefinition(ref));
        }
        if (k == CXCursor_Constructor || k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction ||
            k == CXCursor_Destructor)
            return inPrelude(clang_getCursorSemanticParent(ref));
        return false;
    }
    static bool inPrelude(CXCursor c)
    {
        CXFile f = nullptr;
        clang_getSpellingLocation(clang_getCursorLocation(c), &f, nullptr, nullptr, nullptr);
        return f && str(clang_getFileName(f)) == kPreludePath;
    }

    /// A local variable of the kernel or a helper: an array of registers is one of the
    /// thread's local arrays (Translation::locals), its size from the front end.
    void local(CXCursor v, const Pos& at)
    {
        const CXType t = clang_getCanonicalType(clang_getCursorType(v));
        const std::string name = str(clang_getCursorSpelling(v));
        if (t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray || t.kind == CXType_IncompleteArray) {
            error(at, "local array " + name + " has no constant size: a thread's arrays are sized when the kernel is "
                                              "compiled, as CUDA's are");
            return;
        }
        if (t.kind == CXType_Pointer) {
            error(at, "the local pointer " + name + " is refused: index the arrays themselves (M[i], Mds[r][c], a[i]), "
                                                    "so that TileScope can check every access");
            return;
        }
        if (t.kind != CXType_ConstantArray) return;
        const long long bytes = clang_Type_getSizeOf(t);
        if (bytes < 0) {
            error(at, "the size of local array " + name + " cannot be known");
            return;
        }
        out_.locals.push_back(LocalArray{name, static_cast<uint64_t>(bytes), at.line});
        out_.localBytes += static_cast<uint64_t>(bytes);
    }

    /// Is `v` a local array of the kernel or a helper (not __shared__, not the mask)?
    static bool isLocalArray(CXCursor v)
    {
        if (clang_getCursorKind(v) != CXCursor_VarDecl || !annotation(v).empty()) return false;
        if (!spelling(clang_getCursorLocation(v)).inMain) return false;
        const CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(v));
        if (parent != CXCursor_FunctionDecl && parent != CXCursor_FunctionTemplate) return false;
        return clang_getCanonicalType(clang_getCursorType(v)).kind == CXType_ConstantArray;
    }
    /// `e` without the implicit conversions and parentheses around it.
    static CXCursor stripped(CXCursor e)
    {
        for (;;) {
            const CXCursorKind k = clang_getCursorKind(e);
            if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return e;
            const std::vector<CXCursor> kids = childrenOf(e);
            if (kids.size() != 1) return e;
            e = kids.front();
        }
    }
    /// `a[i]` (or one subscript of `a[i][j]`) on a thread's local array: the index becomes
    /// `ts_ctx.localIndex(i, EXTENT, "a")`, which faults with the thread, the array and the
    /// line when i is outside the dimension. A local array is registers on the GPU and
    /// memory of the simulated thread's own stack here: unchecked, an index far outside it
    /// would write into the simulator's memory.
    void localSubscript(CXCursor sub, const Pos& at)
    {
        const std::vector<CXCursor> kids = childrenOf(sub);
        if (kids.size() != 2) return;
        // The array indexed: the innermost base of a chain of subscripts.
        CXCursor root = stripped(kids[0]);
        while (clang_getCursorKind(root) == CXCursor_ArraySubscriptExpr) {
            const std::vector<CXCursor> inner = childrenOf(root);
            if (inner.size() != 2) return;
            root = stripped(inner[0]);
        }
        if (clang_getCursorKind(root) != CXCursor_DeclRefExpr) return;
        const CXCursor array = clang_getCursorReferenced(root);
        if (!isLocalArray(array)) return;
        const CXType indexed = clang_getCanonicalType(typeBeforeConversion(kids[0]));
        if (indexed.kind != CXType_ConstantArray) return;
        const long long extent = clang_getArraySize(indexed);
        const CXCursor base = stripped(kids[0]);
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) localBases_.insert(expansion(clang_getCursorLocation(base)).offset);
        const CXSourceRange indexRange = clang_getCursorExtent(kids[1]);
        const Pos first = expansion(clang_getRangeStart(indexRange));
        const Pos close = expansion(clang_getRangeEnd(clang_getCursorExtent(sub)));
        if (!first.inMain || !close.inMain || close.offset == 0 || close.offset <= first.offset || src_[close.offset - 1] != ']') {
            error(at, "the index of local array " + str(clang_getCursorSpelling(array)) +
                          " cannot be checked as written here: write the subscript in the kernel's text, not in a #define");
            return;
        }
        edits.push_back(Edit{first.offset, first.offset, "ts_ctx.localIndex(", 1});
        edits.push_back(Edit{close.offset - 1, close.offset - 1,
                             ", " + std::to_string(extent) + ", \"" + str(clang_getCursorSpelling(array)) + "\")", -1});
    }

    void shared(CXCursor v, const Pos& at)
    {
        SharedArray a;
        a.name = str(clang_getCursorSpelling(v));
        a.line = at.line;
        if (clang_Cursor_getStorageClass(v) == CX_SC_Extern) {
            error(at, "extern __shared__ " + a.name +
                          " (dynamic shared memory) is not supported: declare the array with a constant size, "
                          "as PMPP Fig. 5.9 does");
            return;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(v));
        while (t.kind == CXType_ConstantArray) {
            a.extents.push_back(clang_getArraySize(t));
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        }
        if (clang_getCanonicalType(clang_getCursorType(v)).kind == CXType_IncompleteArray) {
            error(at, "__shared__ " + a.name + " has no size: declare it with a constant size");
            return;
        }
        if (t.kind != CXType_Float) {
            error(at, "__shared__ " + a.name + " holds " + str(clang_getTypeSpelling(t)) +
                          ": the simulator models float arrays");
            return;
        }
        if (a.extents.empty() || a.extents.size() > 2) {
            error(at, "__shared__ " + a.name + " must be a 1D or 2D array of float");
            return;
        }
        // An initialiser would run once per thread here but is not allowed for __shared__.
        if (hasInitialiser(v)) {
            error(at, "__shared__ " + a.name + " has an initialiser: CUDA does not allow one; store the values in the kernel");
            return;
        }
        // The declaration `__shared__ float Mds[A][B]` (without its semicolon) becomes the
        // context's array of the same name and extents, written as in the student's text.
        const CXSourceRange r = clang_getCursorExtent(v);
        const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
        if (!b.inMain || !e.inMain || e.offset <= at.offset) {
            error(at, "cannot place __shared__ " + a.name + " in the file");
            return;
        }
        std::vector<std::string> dims;
        size_t p = at.offset + a.name.size();
        while (dims.size() < a.extents.size()) {
            const size_t open = src_.find('[', p);
            if (open == std::string::npos || open >= e.offset) break;
            int depth = 0;
            size_t close = open;
            for (; close < e.offset; ++close) {
                if (src_[close] == '[') ++depth;
                if (src_[close] == ']' && --depth == 0) break;
            }
            dims.push_back(src_.substr(open + 1, close - open - 1));
            p = close + 1;
        }
        if (dims.size() != a.extents.size()) {
            // Extents written through a typedef or similar: use the values.
            dims.clear();
            for (long long x : a.extents) dims.push_back(std::to_string(x));
        }
        std::string text = "auto&& " + a.name + " = ts_ctx.template " + (dims.size() == 2 ? "shared2d" : "shared1d") +
                           "<float, ";
        for (const std::string& d : dims) text += "(" + d + "), ";
        text += "__LINE__>(\"" + a.name + "\")";
        // Keep the line count: the declaration's own line breaks follow it.
        text += std::string(static_cast<size_t>(std::count(src_.begin() + b.offset, src_.begin() + e.offset, '\n')), '\n');
        edits.push_back(Edit{b.offset, e.offset, text});
        out_.shared.push_back(a);
    }

    /// `c ? 0 : N[i]` is a float in CUDA; with N[i] the simulator's recording reference, C++
    /// would convert the reference to the int instead. An operand that is not a float in the
    /// student's text is made one, so the simulator computes what the GPU does.
    void floatConditional(CXCursor c)
    {
        if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Float) return;
        std::vector<CXCursor> operands;
        clang_visitChildren(
            c,
            [](CXCursor child, CXCursor, CXClientData d) {
                static_cast<std::vector<CXCursor>*>(d)->push_back(child);
                return CXChildVisit_Continue;
            },
            &operands);
        if (operands.size() != 3) return;
        for (int i = 1; i < 3; ++i) {
            if (typeBeforeConversion(operands[i]).kind == CXType_Float) continue;
            const CXSourceRange r = clang_getCursorExtent(operands[i]);
            const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
            if (!b.inMain || !e.inMain || e.offset <= b.offset) continue;
            edits.push_back(Edit{b.offset, b.offset, "float(", 1});
            edits.push_back(Edit{e.offset, e.offset, ")", 1});
        }
    }

    /// A token of the file: its spelling and its offsets.
    struct Token {
        std::string text;
        unsigned begin = 0, end = 0;
    };
    /// The tokens of `c`'s extent; empty unless the whole extent is written in the file itself
    /// (not inside a macro's definition).
    static std::vector<Token> tokensOf(CXCursor c)
    {
        std::vector<Token> out;
        const CXSourceRange r = clang_getCursorExtent(c);
        const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
        const Pos sb = spelling(clang_getRangeStart(r)), se = spelling(clang_getRangeEnd(r));
        if (!b.inMain || !e.inMain || !sb.inMain || !se.inMain || sb.offset != b.offset || se.offset != e.offset)
            return out;
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
        CXToken* tokens = nullptr;
        unsigned n = 0;
        clang_tokenize(tu, r, &tokens, &n);
        for (unsigned i = 0; i < n; ++i) {
            const CXSourceRange tr = clang_getTokenExtent(tu, tokens[i]);
            const Pos tb = expansion(clang_getRangeStart(tr)), te = expansion(clang_getRangeEnd(tr));
            if (tb.offset >= e.offset) break;
            out.push_back(Token{str(clang_getTokenSpelling(tu, tokens[i])), tb.offset, te.offset});
        }
        clang_disposeTokens(tu, tokens, n);
        return out;
    }
    static std::vector<CXCursor> childrenOf(CXCursor c)
    {
        std::vector<CXCursor> out;
        clang_visitChildren(
            c,
            [](CXCursor child, CXCursor, CXClientData d) {
                static_cast<std::vector<CXCursor>*>(d)->push_back(child);
                return CXChildVisit_Continue;
            },
            &out);
        return out;
    }
    /// The binary operator `c` (a BinaryOperator or CompoundAssignOperator with two children,
    /// all in the file): its operands and its operator token, the first token after its left
    /// operand (libclang 14 has no function that names the operator).
    struct Binary {
        CXCursor lhs, rhs;
        Token op;
        std::vector<Token> tokens;   ///< of the whole expression
    };
    static bool binary(CXCursor c, Binary& out)
    {
        const CXCursorKind k = clang_getCursorKind(c);
        std::vector<CXCursor> kids = childrenOf(c);
        // A struct's assignment (float4) is a call of its operator=: the left operand, the
        // operator's name, the right operand.
        if (k == CXCursor_CallExpr && str(clang_getCursorSpelling(c)) == "operator=" && kids.size() == 3)
            kids = {kids[0], kids[2]};
        else if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
            return false;
        if (kids.size() != 2) return false;
        out.tokens = tokensOf(c);
        const std::vector<Token> left = tokensOf(kids[0]);
        if (out.tokens.empty() || left.empty()) return false;
        for (const Token& t : out.tokens)
            if (t.begin >= left.back().end) {
                out.lhs = kids[0];
                out.rhs = kids[1];
                out.op = t;
                return true;
            }
        return false;
    }
    /// Whether expression `e` is a float in registers only: built from the kernel's own local
    /// variables (float and int values, local arrays of them), literals and arithmetic, with
    /// no __shared__, __constant__ or global array, no built-in index variable, no call and
    /// no side effect, so that its text may be written a second time.
    static bool registersOnly(CXCursor e)
    {
        for (const Token& t : tokensOf(e))
            if (t.text == "++" || t.text == "--" || (t.text.size() >= 1 && t.text.back() == '=' && t.text != "==" &&
                                                      t.text != "!=" && t.text != "<=" && t.text != ">="))
                return false;
        if (tokensOf(e).empty()) return false;
        bool ok = true;
        clang_visitChildren(
            e,
            [](CXCursor child, CXCursor, CXClientData d) {
                bool& ok = *static_cast<bool*>(d);
                const CXCursorKind k = clang_getCursorKind(child);
                if (k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr || clang_isStatement(k)) {
                    ok = false;
                    return CXChildVisit_Break;
                }
                if (k == CXCursor_DeclRefExpr) {
                    const CXCursor ref = clang_getCursorReferenced(child);
                    const CXCursorKind rk = clang_getCursorKind(ref);
                    const CXTypeKind t = clang_getCanonicalType(clang_getCursorType(ref)).kind;
                    const std::string a = annotation(ref);
                    if ((rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl) || !spelling(clang_getCursorLocation(ref)).inMain ||
                        a == "ts:shared" || a == "ts:constant" || t == CXType_Pointer) {
                        ok = false;
                        return CXChildVisit_Break;
                    }
                }
                return CXChildVisit_Recurse;
            },
            &ok);
        if (!ok) return false;
        // The cursor itself, when it is a lone reference (the visit above sees only children).
        if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
            const CXCursor ref = clang_getCursorReferenced(e);
            const std::string a = annotation(ref);
            if (!spelling(clang_getCursorLocation(ref)).inMain || a == "ts:shared" || a == "ts:constant" ||
                clang_getCanonicalType(clang_getCursorType(ref)).kind == CXType_Pointer)
                return false;
        }
        return true;
    }
    static bool isFloat(CXCursor e) { return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Float; }
    /// The text of `e` as the file writes it (empty inside a macro's definition).
    std::string textOf(CXCursor e) const
    {
        const std::vector<Token> t = tokensOf(e);
        return t.empty() ? "" : src_.substr(t.front().begin, t.back().end - t.front().begin);
    }
    static bool sameTokens(CXCursor a, CXCursor b)
    {
        const std::vector<Token> x = tokensOf(a), y = tokensOf(b);
        if (x.size() != y.size() || x.empty()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i].text != y[i].text) return false;
        return true;
    }

    /// A multiply-add on registers, `x += a * b`, `x = x + a * b` or `x = a * b + x` with x, a
    /// and b floats held in registers (a register-tiled kernel's outer product), becomes
    /// `x = ts_ctx.fmaf(a, b, x)`: one rounding, as the GPU's FFMA (nvcc contracts the
    /// product into the addition), counted in flops and recorded as an Fma like the built-in
    /// kernels' x.fmaf(). Where a or b reads shared, global or constant memory the
    /// simulator's recording reference already does this, and nothing is changed.
    void registerFma(CXCursor c)
    {
        Binary outer;
        if (!binary(c, outer) || !isFloat(c) || !isFloat(outer.lhs) || !registersOnly(outer.lhs)) return;
        Binary sum, product;
        CXCursor acc = clang_getNullCursor();   // the accumulator read on the right, if written there
        bool productFirst = false;
        if (outer.op.text == "+=") {
            if (!binary(outer.rhs, product)) return;
        } else if (outer.op.text == "=") {
            if (!binary(outer.rhs, sum) || sum.op.text != "+" || !isFloat(outer.rhs)) return;
            if (binary(sum.rhs, product) && sameTokens(sum.lhs, outer.lhs)) {
                acc = sum.lhs;
            } else if (binary(sum.lhs, product) && sameTokens(sum.rhs, outer.lhs)) {
                acc = sum.rhs;
                productFirst = true;
            } else {
                return;
            }
        } else {
            return;
        }
        if (product.op.text != "*" || !isFloat(product.lhs) || !isFloat(product.rhs) || !registersOnly(product.lhs) ||
            !registersOnly(product.rhs))
            return;
        const std::vector<Token> a = tokensOf(product.lhs), b = tokensOf(product.rhs);
        const std::string x = textOf(outer.lhs);
        if (a.empty() || b.empty() || x.empty() || x.find('\n') != std::string::npos) return;
        // Insertions and operator tokens only, so that no line moves.
        if (outer.op.text == "+=") {
            edits.push_back(Edit{outer.op.begin, outer.op.end, "="});
            edits.push_back(Edit{a.front().begin, a.front().begin, "ts_ctx.fmaf(", 3});
            edits.push_back(Edit{product.op.begin, product.op.end, ","});
            edits.push_back(Edit{b.back().end, b.back().end, ", " + x + ")", -3});
        } else if (!productFirst) {
            // `x + ` goes (x has no side effect) and comes back as the third argument.
            const std::vector<Token> r = tokensOf(acc);
            const unsigned from = r.front().begin, to = a.front().begin;
            const std::string gone = src_.substr(from, to - from);
            edits.push_back(Edit{from, to, "ts_ctx.fmaf(" + std::string(static_cast<size_t>(std::count(gone.begin(), gone.end(), '\n')), '\n')});
            edits.push_back(Edit{product.op.begin, product.op.end, ","});
            edits.push_back(Edit{b.back().end, b.back().end, ", " + x + ")", -3});
        } else {
            const std::vector<Token> r = tokensOf(acc);
            edits.push_back(Edit{a.front().begin, a.front().begin, "ts_ctx.fmaf(", 3});
            edits.push_back(Edit{product.op.begin, product.op.end, ","});
            edits.push_back(Edit{sum.op.begin, sum.op.end, ","});
            edits.push_back(Edit{r.back().end, r.back().end, ")", -3});
        }
    }

    /// The first child of `e` under the implicit conversions and parentheses libclang shows.
    static CXCursor unwrap(CXCursor e)
    {
        while (clang_getCursorKind(e) == CXCursor_UnexposedExpr || clang_getCursorKind(e) == CXCursor_ParenExpr) {
            const std::vector<CXCursor> kids = childrenOf(e);
            if (kids.size() != 1) break;
            e = kids[0];
        }
        return e;
    }
    /// `*reinterpret_cast<const float4*>(&A[..][i])`, a 128-bit access of array A (CUDA's
    /// float4): the subscript `A[..][i]` inside it, or a null cursor.
    CXCursor vectorSubscript(CXCursor deref)
    {
        const std::vector<Token> t = tokensOf(deref);
        if (clang_getCursorKind(deref) != CXCursor_UnaryOperator || t.size() < 2 || t[0].text != "*" ||
            t[1].text != "reinterpret_cast")
            return clang_getNullCursor();
        const std::vector<CXCursor> kids = childrenOf(deref);
        if (kids.size() != 1) return clang_getNullCursor();
        const CXCursor cast = unwrap(kids[0]);
        const CXType to = clang_getCanonicalType(clang_getCursorType(cast));
        if (clang_getCursorKind(cast) != CXCursor_CXXReinterpretCastExpr || to.kind != CXType_Pointer ||
            str(clang_getCursorSpelling(clang_getTypeDeclaration(clang_getPointeeType(to)))) != "float4")
            return clang_getNullCursor();
        CXCursor address = clang_getNullCursor();
        for (const CXCursor& k : childrenOf(cast))
            if (clang_getCursorKind(k) != CXCursor_TypeRef) address = unwrap(k);
        const std::vector<Token> a = tokensOf(address);
        if (a.size() < 2 || a[0].text != "&") return clang_getNullCursor();
        const std::vector<CXCursor> inner = childrenOf(address);
        if (inner.size() != 1) return clang_getNullCursor();
        const CXCursor sub = unwrap(inner[0]);
        if (clang_getCursorKind(sub) != CXCursor_ArraySubscriptExpr || childrenOf(sub).size() != 2) return clang_getNullCursor();
        return sub;
    }
    /// Whether the array a subscript reads is __shared__, else a global pointer: a 2D array
    /// (`&Nds[r][c]`, also a helper's `float Nds[][BN]`) is shared, since global arrays are
    /// flat pointers, and a 1D one is shared where it is declared __shared__.
    static bool sharedArray(CXCursor sub)
    {
        CXCursor base = unwrap(childrenOf(sub)[0]);
        if (clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr) return true;
        return clang_getCursorKind(base) == CXCursor_DeclRefExpr && annotation(clang_getCursorReferenced(base)) == "ts:shared";
    }
    bool insideVectorAccess(unsigned offset) const
    {
        for (const auto& [b, e] : vectorAccesses_)
            if (offset >= b && offset < e) return true;
        return false;
    }
    /// The subscript `A[..][i]` of a 128-bit access becomes the arguments `A[..], i` of the
    /// context's call that replaces the text before it (`*reinterpret_cast<...>(&`).
    bool vectorCall(CXCursor deref, CXCursor sub, const char* global, const char* shared)
    {
        const std::vector<Token> d = tokensOf(deref), s = tokensOf(sub);
        const std::vector<CXCursor> parts = childrenOf(sub);
        const std::vector<Token> base = tokensOf(parts[0]);
        if (d.empty() || s.empty() || base.empty() || s.back().text != "]") return false;
        const Token* open = nullptr;
        for (const Token& t : s)
            if (t.begin >= base.back().end) {
                open = &t;
                break;
            }
        if (!open || open->text != "[") return false;
        edits.push_back(Edit{d.front().begin, s.front().begin, std::string("ts_ctx.") + (sharedArray(sub) ? shared : global) + "("});
        edits.push_back(Edit{open->begin, open->end, ", "});
        edits.push_back(Edit{s.back().begin, s.back().end, ""});
        vectorAccesses_.emplace_back(d.front().begin, d.back().end);
        return true;
    }
    /// `*reinterpret_cast<const float4*>(&M[i])` becomes `ts_ctx.ldg4(M, i)` (a __shared__
    /// row, `&Mds[r][c]`: `ts_ctx.lds4(Mds[r], c)`): one 128-bit load, recorded as four loads
    /// of its line, as the built-in kernels' x.ldg4 and x.lds4.
    void vectorLoad(CXCursor c)
    {
        const std::vector<Token> t = tokensOf(c);
        if (t.empty() || insideVectorAccess(t.front().begin)) return;
        const CXCursor sub = vectorSubscript(c);
        if (!clang_Cursor_isNull(sub)) vectorCall(c, sub, "ldg4", "lds4");
    }
    /// `*reinterpret_cast<float4*>(&Nds[r][c]) = v` becomes `ts_ctx.sts4(Nds[r], c , v)`
    /// (global: `ts_ctx.stg4(P, i , v)`): one 128-bit store. Only tokens change: the cast's
    /// `)` goes, `=` becomes a comma, and the call closes after v.
    bool vectorStore(CXCursor c)
    {
        Binary as;
        if (!binary(c, as) || as.op.text != "=") return false;
        const CXCursor lhs = unwrap(as.lhs);
        const CXCursor sub = vectorSubscript(lhs);
        if (clang_Cursor_isNull(sub)) return false;
        const std::vector<Token> d = tokensOf(lhs), v = tokensOf(as.rhs);
        if (d.empty() || v.empty() || d.back().text != ")") return false;
        if (!vectorCall(lhs, sub, "stg4", "sts4")) return false;
        edits.push_back(Edit{d.back().begin, d.back().end, ""});
        edits.push_back(Edit{as.op.begin, as.op.end, ","});
        edits.push_back(Edit{v.back().end, v.back().end, ")", -3});
        return true;
    }

    /// `make_float4(a, b, c, d)` becomes `typename TsContext::Float4(a, b, c, d)`, the context's four
    /// floats (C++20 initialises an aggregate from parentheses, converting ints as CUDA does).
    void makeFloat4(CXCursor c, const Pos& at)
    {
        const std::vector<Token> t = tokensOf(c);
        if (t.size() < 3 || t[0].text != "make_float4" || t[1].text != "(") {
            error(at, "make_float4 inside a macro is not supported: write it in the kernel's text");
            return;
        }
        edits.push_back(Edit{t[0].begin, t[0].end, "typename TsContext::Float4"});
    }

    /// The text of expression `e` as the file writes it, macros unexpanded, if it can be
    /// written a second time: no side effect, no call, no built-in index variable (whose
    /// copy would miss its `ts_ctx.`). Empty otherwise.
    std::string copyableText(CXCursor e) const
    {
        const CXSourceRange r = clang_getCursorExtent(e);
        const Pos b = expansion(clang_getRangeStart(r));
        Pos en = expansion(clang_getRangeEnd(r));
        // An expression that ends in a macro (`e += THREADS`) ends where the macro's name
        // starts, as far as its expansion goes: the name belongs to it.
        auto ident = [&](unsigned i) { return i < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[i])) || src_[i] == '_'); };
        if (!en.inMain || en.offset < b.offset) en = b;   // a lone macro: its end is in its definition
        if (ident(en.offset) && (en.offset == b.offset || !ident(en.offset - 1)))
            while (ident(en.offset)) ++en.offset;
        if (!b.inMain || !en.inMain || en.offset <= b.offset) return "";
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
        CXToken* tokens = nullptr;
        unsigned n = 0;
        // The tokens as the file writes them (a macro's name, not its expansion).
        const CXFile file = clang_getFile(tu, kMainPath);
        clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, file, b.offset), clang_getLocationForOffset(tu, file, en.offset)),
                       &tokens, &n);
        bool ok = true;
        for (unsigned i = 0; i < n; ++i) {
            const std::string t = str(clang_getTokenSpelling(tu, tokens[i]));
            if (t == "++" || t == "--" || t == "(" || (t.back() == '=' && t != "==" && t != "!=" && t != "<=" && t != ">="))
                ok = ok && t == "(";   // parentheses are fine; a call shows in the tree below
        }
        clang_disposeTokens(tu, tokens, n);
        clang_visitChildren(
            e,
            [](CXCursor child, CXCursor, CXClientData d) {
                const CXCursorKind k = clang_getCursorKind(child);
                bool bad = k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr;
                if (k == CXCursor_DeclRefExpr) bad = !spelling(clang_getCursorLocation(clang_getCursorReferenced(child))).inMain;
                if (bad) *static_cast<bool*>(d) = false;
                return bad ? CXChildVisit_Break : CXChildVisit_Recurse;
            },
            &ok);
        if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && !spelling(clang_getCursorLocation(clang_getCursorReferenced(e))).inMain)
            ok = false;
        return ok ? src_.substr(b.offset, en.offset - b.offset) : "";
    }
    /// The value of a constant integer expression, if it is one.
    static bool constantOf(CXCursor e, long long& value)
    {
        CXEvalResult r = clang_Cursor_Evaluate(e);
        if (!r) return false;
        const bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
        if (ok) value = clang_EvalResult_getAsLongLong(r);
        clang_EvalResult_dispose(r);
        return ok;
    }

    /// A loop under `#pragma unroll` (libclang shows the attributed statement unexposed):
    /// nvcc makes every iteration instructions of their own, so a lane that skips a guarded
    /// access in one iteration does not shift its later ones onto other instructions. The
    /// built-in kernels say so with `x.unrolled(i)` (docs/design.md); here the top of the
    /// loop's body gets `const auto ts_unrolled = ts_ctx.unrolled(i);`, i the iteration's
    /// number, (v - first) / step for `for (int v = first; v < last; v += step)`, and for a
    /// loop nested in another so marked, outer * (its trip count) + i, as the built-in
    /// kernels number them. A loop of another form, or whose body has no braces, is left as
    /// it is (`#pragma unroll 1` asks for no unrolling).
    void unrolledLoop(CXCursor c)
    {
        const std::vector<CXCursor> kids = childrenOf(c);
        if (kids.size() != 1 || clang_getCursorKind(kids[0]) != CXCursor_ForStmt) return;
        const CXCursor loop = kids[0];
        // The pragma's tokens lie before the loop's own: `#pragma unroll [N]`.
        const Pos start = expansion(clang_getRangeStart(clang_getCursorExtent(c)));
        const Pos forAt = expansion(clang_getRangeStart(clang_getCursorExtent(loop)));
        if (!start.inMain || !forAt.inMain || forAt.offset <= start.offset) return;
        std::vector<std::string> pragma;
        {
            CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
            CXToken* tokens = nullptr;
            unsigned n = 0;
            clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
            for (unsigned i = 0; i < n; ++i) {
                if (expansion(clang_getTokenLocation(tu, tokens[i])).offset >= forAt.offset) break;
                pragma.push_back(str(clang_getTokenSpelling(tu, tokens[i])));
            }
            clang_disposeTokens(tu, tokens, n);
        }
        if (std::find(pragma.begin(), pragma.end(), "unroll") == pragma.end() || pragma.back() == "1") return;
        const std::vector<CXCursor> parts = childrenOf(loop);   // init, condition, increment, body
        if (parts.size() != 4 || clang_getCursorKind(parts[0]) != CXCursor_DeclStmt ||
            clang_getCursorKind(parts[3]) != CXCursor_CompoundStmt)
            return;
        const std::vector<CXCursor> decls = childrenOf(parts[0]);
        if (decls.size() != 1 || clang_getCursorKind(decls[0]) != CXCursor_VarDecl) return;
        const std::string v = str(clang_getCursorSpelling(decls[0]));
        const std::vector<CXCursor> init = childrenOf(decls[0]);
        if (init.empty()) return;
        const std::string first = copyableText(init.back());
        // The step: ++v, v++ or v += step.
        std::string step;
        long long stepValue = 0;
        const std::vector<Token> inc = tokensOf(parts[2]);
        if (inc.size() == 2 && (inc[0].text == "++" || inc[1].text == "++")) {
            step = "1";
            stepValue = 1;
        } else {
            // v += step, where step may be a macro: the operator is the text between the two
            const std::vector<CXCursor> sides = childrenOf(parts[2]);
            if (clang_getCursorKind(parts[2]) != CXCursor_CompoundAssignOperator || sides.size() != 2) return;
            const Pos lhsEnd = expansion(clang_getRangeEnd(clang_getCursorExtent(sides[0])));
            const Pos rhsBegin = expansion(clang_getRangeStart(clang_getCursorExtent(sides[1])));
            if (!lhsEnd.inMain || !rhsBegin.inMain || rhsBegin.offset <= lhsEnd.offset ||
                str(clang_getCursorSpelling(clang_getCursorReferenced(unwrap(sides[0])))) != v)
                return;
            std::string op = src_.substr(lhsEnd.offset, rhsBegin.offset - lhsEnd.offset);
            op.erase(std::remove_if(op.begin(), op.end(), [](unsigned char ch) { return std::isspace(ch); }), op.end());
            if (op != "+=") return;
            step = copyableText(sides[1]);
            if (!constantOf(sides[1], stepValue)) stepValue = 0;
        }
        if (first.empty() || step.empty()) return;
        std::string tag = "((" + v + ") - (" + first + ")) / (" + step + ")";
        // Nested in another unrolled loop: number the pair, outer * trips + this.
        const Pos bodyOpen = expansion(clang_getRangeStart(clang_getCursorExtent(parts[3])));
        const UnrolledLoop* outer = nullptr;
        for (const UnrolledLoop& u : unrolled_)
            if (u.begin < forAt.offset && forAt.offset < u.end && (!outer || u.begin > outer->begin)) outer = &u;
        if (outer) {
            Binary cond;
            long long a = 0, b = 0;
            if (!binary(parts[1], cond) || cond.op.text != "<" || !constantOf(init.back(), a) || !constantOf(cond.rhs, b) ||
                stepValue <= 0 || b <= a)
                return;   // no constant trip count: the pair cannot be numbered
            tag = "(" + outer->tag + ") * " + std::to_string((b - a + stepValue - 1) / stepValue) + " + " + tag;
        }
        const Pos loopEnd = expansion(clang_getRangeEnd(clang_getCursorExtent(loop)));
        unrolled_.push_back(UnrolledLoop{forAt.offset, loopEnd.offset, tag});
        edits.push_back(Edit{bodyOpen.offset + 1, bodyOpen.offset + 1,
                             " const auto ts_unrolled = ts_ctx.unrolled(static_cast<unsigned>(" + tag + "));"});
    }

    /// A call of a __device__ helper: the context goes in front of its arguments.
    void call(CXCursor c, const Pos& at, const std::string& name)
    {
        const Pos sp = spelling(clang_getCursorLocation(c));
        if (!sp.inMain || sp.offset != at.offset) {
            error(at, "a call of " + name + " inside a macro is not supported: write it in the kernel's text");
            return;
        }
        const size_t open = src_.find('(', at.offset + name.size());
        if (open == std::string::npos) {
            error(at, "cannot find the arguments of the call of " + name);
            return;
        }
        const bool args = clang_Cursor_getNumArguments(c) > 0;
        edits.push_back(Edit{static_cast<unsigned>(open + 1), static_cast<unsigned>(open + 1), args ? "ts_ctx, " : "ts_ctx", 2});
    }

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

}  // namespace

Translation translateCuda(const std::string& source, const std::string& /*fileName: messages carry lines only*/)
{
    Translation out;
    // Nothing of a file the scan refuses is preprocessed or parsed.
    out.errors = scanKernelFile(source);
    if (!out.errors.empty()) {
        std::stable_sort(out.errors.begin(), out.errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::tie(a.line, a.column) < std::tie(b.line, b.column);
        });
        return out;
    }
    std::unique_ptr<void, void (*)(CXIndex)> index(clang_createIndex(0, 0), clang_disposeIndex);
    if (!index) throw std::runtime_error("libclang could not start (clang_createIndex failed)");
    CXUnsavedFile files[2] = {{kMainPath, source.data(), static_cast<unsigned long>(source.size())},
                              {kPreludePath, kPrelude, static_cast<unsigned long>(std::strlen(kPrelude))}};
    const char* args[] = {"-x", "c++", "-std=c++17", "-include", kPreludePath, "-nostdinc", "-nostdinc++",
                          "-Wno-unused-value"};
    CXTranslationUnit tu = nullptr;
    const CXErrorCode rc = clang_parseTranslationUnit2(index.get(), kMainPath, args, sizeof args / sizeof *args, files, 2,
                                                       CXTranslationUnit_DetailedPreprocessingRecord, &tu);
    if (rc != CXError_Success || !tu) {
        out.errors.push_back(Diagnostic{0, 0, "the C++ front end (libclang) could not parse the file"});
        return out;
    }
    std::unique_ptr<CXTranslationUnitImpl, void (*)(CXTranslationUnit)> owner(tu, clang_disposeTranslationUnit);

    Translator t(source, out);
    // The front end's own errors, with CUDA's names that TileScope does not model explained.
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        const CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            const Pos p = expansion(clang_getDiagnosticLocation(d));
            std::string message = str(clang_getDiagnosticSpelling(d));
            const std::string undeclared = "use of undeclared identifier '";
            if (message.rfind(undeclared, 0) == 0) {
                const std::string name = message.substr(undeclared.size(), message.find('\'', undeclared.size()) - undeclared.size());
                const std::string why = unsupportedName(name);
                if (!why.empty()) message = why;
            }
            if (message.find("file not found") != std::string::npos)
                message += " (a kernel file includes nothing: the CUDA names it uses are known without headers)";
            t.error(p.inMain ? p.line : 0, p.inMain ? p.column : 0, message);
        }
        clang_disposeDiagnostic(d);
    }
    clang_visitChildren(
        clang_getTranslationUnitCursor(tu),
        [](CXCursor c, CXCursor, CXClientData d) {
            static_cast<Translator*>(d)->topLevel(c);
            return CXChildVisit_Continue;
        },
        &t);
    if (out.kernelName.empty() && out.errors.empty())
        out.errors.push_back(Diagnostic{0, 0, "the file has no __global__ kernel"});
    std::sort(out.errors.begin(), out.errors.end(),
              [](const Diagnostic& a, const Diagnostic& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
    if (!out.errors.empty()) return out;

    // Apply the edits from the end of the file back, so that earlier offsets stay valid.
    std::vector<Edit> edits = t.edits;
    // At one offset a replacement goes first and an insertion then lands in front of it.
    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        if (a.begin != b.begin) return a.begin > b.begin;
        if ((a.end > a.begin) != (b.end > b.begin)) return (a.end > a.begin) > (b.end > b.begin);
        return a.outer < b.outer;
    });
    std::string code = source;
    unsigned limit = static_cast<unsigned>(code.size());
    for (const Edit& e : edits) {
        if (e.end > limit) continue;   // overlaps an edit after it: cannot happen for the edits above
        code.replace(e.begin, e.end - e.begin, e.text);
        limit = e.begin;
    }
    out.code = std::move(code);
    return out;
}

}  // namespace ts::student
