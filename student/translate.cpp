// The plain-CUDA front end (student/translate.hpp): libclang parses the student's file and
// the edits that make it single-source are placed from its syntax tree.
#include "student/translate.hpp"

#include <clang-c/Index.h>

#include <algorithm>
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
/// tree keeps), the built-in index variables and __syncthreads(). Everything else CUDA has is
/// left undeclared, so using it is a C++ error that unsupported() turns into a sentence.
constexpr const char* kPrelude = R"(#define __global__ __attribute__((annotate("ts:global")))
#define __device__ __attribute__((annotate("ts:device")))
#define __host__ __attribute__((annotate("ts:host")))
#define __shared__ __attribute__((annotate("ts:shared")))
#define __constant__ __attribute__((annotate("ts:constant")))
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
void __syncthreads();
)";

/// The CUDA names a student may reach for that TileScope does not model, and why.
std::string unsupported(const std::string& name)
{
    if (name.rfind("atomic", 0) == 0)
        return name + " is not supported: atomic operations are outside what TileScope simulates (PMPP ch. 3-7 kernels need none)";
    if (name.rfind("__shfl", 0) == 0 || name.rfind("__ballot", 0) == 0 || name == "__any_sync" ||
        name == "__all_sync" || name == "__syncwarp" || name == "__activemask")
        return name + " is not supported: warp intrinsics are outside what TileScope simulates";
    if (name == "printf")
        return "printf is not supported: the Threads and Code panels show every value a thread loads, stores and computes";
    if (name == "malloc" || name == "free")
        return name + " is not supported: a kernel here uses only its parameters, registers and __shared__ arrays";
    if (name == "__syncthreads_count" || name == "__syncthreads_and" || name == "__syncthreads_or")
        return name + " is not supported: use __syncthreads()";
    return "";
}

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
        // template head; it is the annotation's extent.
        clang_visitChildren(
            fn,
            [](CXCursor child, CXCursor, CXClientData d) {
                auto* self = static_cast<Translator*>(d);
                if (clang_getCursorKind(child) == CXCursor_AnnotateAttr) {
                    const CXSourceRange r = clang_getCursorExtent(child);
                    const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
                    if (b.inMain && e.inMain && e.offset > b.offset)
                        self->edits.push_back(Edit{b.offset, e.offset, "template <class X> TS_DEVICE"});
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
                             params > 0 ? "X& ts_ctx, " : "X& ts_ctx"});
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
        edits.push_back(Edit{begin.offset, begin.offset, "template <class X> "});
        const int params = clang_Cursor_getNumArguments(fn);
        edits.push_back(Edit{static_cast<unsigned>(open + 1), static_cast<unsigned>(open + 1),
                             params > 0 ? "X& ts_ctx, " : "X& ts_ctx"});
        for (int i = 0; i < params; ++i) {
            const CXCursor p = clang_Cursor_getArgument(fn, static_cast<unsigned>(i));
            const std::string pname = str(clang_getCursorSpelling(p));
            const Pos pat = expansion(clang_getCursorLocation(p));
            const CXType t = clang_getCanonicalType(clang_getCursorType(p));
            if (t.kind == CXType_Pointer) {
                if (clang_getCanonicalType(clang_getPointeeType(t)).kind != CXType_Float) {
                    error(pat, "parameter " + pname + " of " + name + " points to " +
                                   str(clang_getTypeSpelling(clang_getPointeeType(t))) +
                                   ": the simulator models float arrays");
                    continue;
                }
                // The caller's GlobalPtr or shared array, whichever it passes.
                const Pos pb = expansion(clang_getRangeStart(clang_getCursorExtent(p)));
                if (pb.inMain && pat.inMain && pat.offset > pb.offset) edits.push_back(Edit{pb.offset, pat.offset, "auto "});
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
        bool init = false;
        clang_visitChildren(
            v,
            [](CXCursor child, CXCursor, CXClientData d) {
                if (clang_getCursorKind(child) == CXCursor_InitListExpr) *static_cast<bool*>(d) = true;
                return CXChildVisit_Continue;
            },
            &init);
        if (init) {
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
                                   ? "typename X::template GlobalPtr<const float> "
                                   : "typename X::template GlobalPtr<float> ";
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
            break;
        }
        case CXCursor_DeclRefExpr: {
            const CXCursor ref = clang_getCursorReferenced(c);
            const std::string name = str(clang_getCursorSpelling(ref));
            const Pos defined = spelling(clang_getCursorLocation(ref));
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
            const CXCursor ref = clang_getCursorReferenced(c);
            if (clang_Cursor_isNull(ref)) break;
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
                    call(c, at, str(clang_getCursorSpelling(ref)));
                    break;
                }
            break;
        }
        case CXCursor_ConditionalOperator:
            floatConditional(c);
            break;
        default:
            if (const char* why = refusedStatement(kind)) error(at, why);
            break;
        }
        return CXChildVisit_Recurse;
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
        bool init = false;
        clang_visitChildren(
            v,
            [](CXCursor child, CXCursor, CXClientData d) {
                if (clang_getCursorKind(child) == CXCursor_InitListExpr) *static_cast<bool*>(d) = true;
                return CXChildVisit_Continue;
            },
            &init);
        if (init) {
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
};

}  // namespace

Translation translateCuda(const std::string& source, const std::string& /*fileName: messages carry lines only*/)
{
    Translation out;
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
                const std::string why = unsupported(name);
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
