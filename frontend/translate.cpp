// The plain-CUDA front end (frontend/translate.hpp): libclang parses the student's file and
// the edits that make it single-source are placed from its syntax tree.
#include "frontend/translate.hpp"
#include "frontend/translate_internal.hpp"

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

using namespace translate_detail;

namespace {

/// What a CUDA file may use without including anything: the qualifiers (as annotations the
/// tree keeps), the built-in index variables, __syncthreads(), float4, the math functions
/// of allowedFunctions() with CUDA's overloads, atomicAdd and atomicExch on floats, ints and unsigned
/// ints, atomicSub, atomicMax and atomicMin on ints and unsigned ints, and the
/// warp shuffles on float, int and unsigned int with __syncwarp (student/cuda_math.hpp defines the same set
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
float atomicAdd(float*, float); float atomicExch(float*, float);
int atomicAdd(int*, int); unsigned int atomicAdd(unsigned int*, unsigned int);
int atomicExch(int*, int); unsigned int atomicExch(unsigned int*, unsigned int);
int atomicSub(int*, int); unsigned int atomicSub(unsigned int*, unsigned int);
int atomicMax(int*, int); unsigned int atomicMax(unsigned int*, unsigned int);
int atomicMin(int*, int); unsigned int atomicMin(unsigned int*, unsigned int);
float __shfl_sync(unsigned int, float, int, int = 32); int __shfl_sync(unsigned int, int, int, int = 32);
unsigned int __shfl_sync(unsigned int, unsigned int, int, int = 32);
float __shfl_up_sync(unsigned int, float, unsigned int, int = 32); int __shfl_up_sync(unsigned int, int, unsigned int, int = 32);
unsigned int __shfl_up_sync(unsigned int, unsigned int, unsigned int, int = 32);
float __shfl_down_sync(unsigned int, float, unsigned int, int = 32); int __shfl_down_sync(unsigned int, int, unsigned int, int = 32);
unsigned int __shfl_down_sync(unsigned int, unsigned int, unsigned int, int = 32);
float __shfl_xor_sync(unsigned int, float, int, int = 32); int __shfl_xor_sync(unsigned int, int, int, int = 32);
unsigned int __shfl_xor_sync(unsigned int, unsigned int, int, int = 32);
void __syncwarp(unsigned int = 0xffffffffu);
)";

}  // namespace

namespace translate_detail {

std::string str(CXString s)
{
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

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

void Translator::error(unsigned line, unsigned column, std::string message)
{
    for (const Diagnostic& d : out_.errors)
        if (d.line == line && d.message == message) return;
    out_.errors.push_back(Diagnostic{line, column, std::move(message)});
}

void Translator::topLevel(CXCursor c)
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

std::string Translator::lineBreaksOf(unsigned begin, unsigned end) const
{
    return std::string(static_cast<size_t>(std::count(src_.begin() + begin, src_.begin() + end, '\n')), '\n');
}

void Translator::macro(CXCursor c)
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

void Translator::kernel(CXCursor fn)
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

void Translator::functionBody(CXCursor fn, std::string what)
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

void Translator::helper(CXCursor fn)
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

void Translator::constant(CXCursor v, const Pos& at)
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

void Translator::param(CXCursor p)
{
    KernelParam kp;
    kp.name = str(clang_getCursorSpelling(p));
    const Pos name = expansion(clang_getCursorLocation(p));
    kp.line = name.line;
    const CXType t = clang_getCanonicalType(clang_getCursorType(p));
    const Pos begin = expansion(clang_getRangeStart(clang_getCursorExtent(p)));
    if (t.kind == CXType_Pointer) {
        const CXType pointee = clang_getPointeeType(t);
        const CXTypeKind element = clang_getCanonicalType(pointee).kind;
        kp.element = element == CXType_Float  ? "float"
                     : element == CXType_Int  ? "int"
                     : element == CXType_UInt ? "unsigned int"
                     : element == CXType_Char_S || element == CXType_SChar ? "char"
                                                                            : "";
        if (kp.element.empty()) {
            error(name, "parameter " + kp.name + " points to " + str(clang_getTypeSpelling(pointee)) +
                            ": the simulator models arrays of float, int, unsigned int and (read only) char");
            return;
        }
        // A char array is text the kernel reads (PMPP Fig. 9.6 declares it `char *data`).
        kp.kind = clang_isConstQualifiedType(pointee) || kp.element == "char" ? KernelParam::Kind::ConstFloatPointer
                                                                               : KernelParam::Kind::FloatPointer;
        const std::string type = "typename TsContext::template GlobalPtr<" +
                                 std::string(kp.kind == KernelParam::Kind::ConstFloatPointer ? "const " : "") + kp.element + "> ";
        if (begin.inMain && name.inMain && name.offset > begin.offset)
            edits.push_back(Edit{begin.offset, name.offset, type});
    } else if (t.kind == CXType_Int || t.kind == CXType_UInt) {
        kp.kind = KernelParam::Kind::Int;
    } else {
        error(name, "parameter " + kp.name + " has type " + str(clang_getTypeSpelling(clang_getCursorType(p))) +
                        ": a kernel here takes pointers to its arrays and int sizes");
        return;
    }
    out_.params.push_back(kp);
}
}  // namespace translate_detail

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
