// The plain-CUDA front end's walk of a kernel's or helper's body (frontend/translate.hpp):
// each statement checked, local and __shared__ arrays declared through the context, and
// the context's names put in.
#include "frontend/translate_internal.hpp"

#include "frontend/scan.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace ts::student::translate_detail {

CXChildVisitResult Translator::body(CXCursor c)
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
        if (inPrelude(ref) && intrinsicCall(c, at, str(clang_getCursorSpelling(ref)))) break;
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
        branchCondition(c, kind, at);
        break;
    case CXCursor_IfStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_ForStmt:
        branchCondition(c, kind, at);
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

bool Translator::calleeAllowed(CXCursor ref)
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

bool Translator::inPrelude(CXCursor c)
{
    CXFile f = nullptr;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, nullptr, nullptr, nullptr);
    return f && str(clang_getFileName(f)) == kPreludePath;
}

void Translator::local(CXCursor v, const Pos& at)
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

bool Translator::isLocalArray(CXCursor v)
{
    if (clang_getCursorKind(v) != CXCursor_VarDecl || !annotation(v).empty()) return false;
    if (!spelling(clang_getCursorLocation(v)).inMain) return false;
    const CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(v));
    if (parent != CXCursor_FunctionDecl && parent != CXCursor_FunctionTemplate) return false;
    return clang_getCanonicalType(clang_getCursorType(v)).kind == CXType_ConstantArray;
}

CXCursor Translator::stripped(CXCursor e)
{
    for (;;) {
        const CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return e;
        const std::vector<CXCursor> kids = childrenOf(e);
        if (kids.size() != 1) return e;
        e = kids.front();
    }
}

void Translator::localSubscript(CXCursor sub, const Pos& at)
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

void Translator::shared(CXCursor v, const Pos& at)
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
    // float, or int and unsigned int (a privatized histogram's bins, PMPP Fig. 9.10).
    const char* element = t.kind == CXType_Float ? "float" : t.kind == CXType_Int ? "int" : t.kind == CXType_UInt ? "unsigned int" : nullptr;
    if (!element) {
        error(at, "__shared__ " + a.name + " holds " + str(clang_getTypeSpelling(t)) +
                      ": the simulator models arrays of float, int and unsigned int");
        return;
    }
    if (a.extents.empty() || a.extents.size() > 2) {
        error(at, "__shared__ " + a.name + " must be a 1D or 2D array of float, int or unsigned int");
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
                       "<" + element + ", ";
    for (const std::string& d : dims) text += "(" + d + "), ";
    text += "__LINE__>(\"" + a.name + "\")";
    // Keep the line count: the declaration's own line breaks follow it.
    text += std::string(static_cast<size_t>(std::count(src_.begin() + b.offset, src_.begin() + e.offset, '\n')), '\n');
    edits.push_back(Edit{b.offset, e.offset, text});
    out_.shared.push_back(a);
}

void Translator::floatConditional(CXCursor c)
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
}  // namespace ts::student::translate_detail
