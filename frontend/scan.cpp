// The lexer scan of a student's kernel file (frontend/scan.hpp).
//
// How the tokens are had without preprocessing: clang_tokenize needs a translation unit, so
// the scan parses an in-memory file whose text is `#if 0`, the student's text, `#endif`. The
// preprocessor skips everything between, so no #include is followed and no macro expanded.
// No directive of the student's may close the `#if 0`: every `#` of the text (and the
// digraph `%:`) is replaced by `@`, a character the C++ lexer makes a token of its own, and
// the `@` tokens at those offsets are read back as `#`. clang_tokenize then lexes the
// student's range raw, at the original offsets, lines and columns.
//
// The passes over the tokens, in order: the directives (only #define and #pragma unroll are
// kept), the size of every #define's expansion as a linear function of its arguments' sizes
// (counted, never expanded), the limits over the code as it would be after expansion, the
// declarations at file scope, and then each token: keywords, names, literals and calls.
#include "frontend/scan.hpp"
#include "frontend/scan_internal.hpp"

#include <clang-c/Index.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace ts::student {

using namespace scan_detail;

namespace {

/// The path the scan's in-memory file has; nothing of that name is read from disk.
constexpr const char* kScanPath = "/tilescope/scan.cu";
constexpr const char kHead[] = "#if 0\n";
constexpr size_t kHeadSize = sizeof kHead - 1;

/// At most this many refusals (one per line) are returned; the rest say nothing new.
constexpr size_t kMaxDiagnostics = 40;

std::string str(CXString s)
{
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

/// The length of the line splice (a backslash, spaces, a line break) at `i`, or 0.
size_t spliceAt(const std::string& s, size_t i)
{
    if (i >= s.size() || s[i] != '\\') return 0;
    size_t j = i + 1;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f' || s[j] == '\v')) ++j;
    if (j < s.size() && s[j] == '\r') return (j + 1 < s.size() && s[j + 1] == '\n' ? j + 2 : j + 1) - i;
    if (j < s.size() && s[j] == '\n') return j + 1 - i;
    return 0;
}
std::string withoutSplices(const std::string& s)
{
    if (s.find('\\') == std::string::npos) return s;
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (const size_t n = spliceAt(s, i)) {
            i += n;
            continue;
        }
        out += s[i++];
    }
    return out;
}
/// Whether [from, to) of `s`, the space between two tokens, breaks the line (a line break
/// that is not part of a splice).
bool breaksLine(const std::string& s, size_t from, size_t to)
{
    for (size_t i = from; i < to && i < s.size();) {
        if (const size_t n = spliceAt(s, i)) {
            i += n;
            continue;
        }
        if (s[i] == '\n' || s[i] == '\r') return true;
        ++i;
    }
    return false;
}

}  // namespace

namespace scan_detail {

/// Sizes saturate here, far above every limit, so that counting never overflows.
constexpr uint64_t kHuge = uint64_t(1) << 60;
uint64_t add(uint64_t a, uint64_t b) { return std::min(kHuge, a + b); }
uint64_t mul(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0) return 0;
    return a > kHuge / b ? kHuge : std::min(kHuge, a * b);
}

/// Whether [from, to) holds nothing but line splices (two tokens written as one would be).
bool onlySplices(const std::string& s, size_t from, size_t to)
{
    for (size_t i = from; i < to && i < s.size();) {
        const size_t n = spliceAt(s, i);
        if (!n) return false;
        i += n;
    }
    return true;
}

const std::unordered_set<std::string>& cxxKeywords()
{
    static const std::unordered_set<std::string> k = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
        "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr", "const_cast", "continue",
        "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
        "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
        "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
        "protected", "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
        "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
        "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
        "wchar_t", "while", "xor", "xor_eq"};
    return k;
}
bool isKeyword(const std::string& s) { return cxxKeywords().count(s) != 0; }

/// Built-in type names: a declaration starts with one, and `float(i)` is a cast, not a call.
bool isTypeWord(const std::string& s)
{
    static const std::unordered_set<std::string> t = {"bool", "char", "char16_t", "char32_t", "wchar_t", "double",
                                                      "float", "int", "long", "short", "signed", "unsigned",
                                                      "void", "auto", "float4", "uint3", "dim3"};
    return t.count(s) != 0;
}
/// What may stand between a type and the name it declares, or before the type.
bool isQualifier(const std::string& s)
{
    static const std::unordered_set<std::string> q = {"const", "volatile", "__restrict__", "__shared__",
                                                      "__constant__", "__device__", "__host__", "__global__",
                                                      "__forceinline__", "__noinline__", "inline", "constexpr",
                                                      "register", "static", "extern"};
    return q.count(s) != 0;
}
/// CUDA's names that begin with __ which a kernel file may use.
bool isCudaName(const std::string& s)
{
    static const std::unordered_set<std::string> c = {"__global__", "__device__", "__host__", "__shared__",
                                                      "__constant__", "__forceinline__", "__noinline__",
                                                      "__restrict__", "__launch_bounds__", "__syncthreads"};
    return c.count(s) != 0;
}
/// The names the prelude declares besides the functions (a #define may not take them).
bool isBuiltinVariable(const std::string& s)
{
    return s == "threadIdx" || s == "blockIdx" || s == "blockDim" || s == "gridDim" || s == "float4" ||
           s == "uint3" || s == "dim3";
}
bool isAllowedFunction(const std::string& s)
{
    const std::vector<std::string>& a = allowedFunctions();
    return std::find(a.begin(), a.end(), s) != a.end();
}
bool isOpener(const std::string& s) { return s == "(" || s == "[" || s == "{"; }
bool isCloser(const std::string& s) { return s == ")" || s == "]" || s == "}"; }
char closerOf(const std::string& s) { return s == "(" ? ')' : s == "[" ? ']' : '}'; }

/// Why keyword `k` is refused anywhere in a kernel file, or nullptr.
const char* refusedKeyword(const std::string& k)
{
    static const std::map<std::string, const char*> r = {
        {"asm", "inline assembly is refused: it would run on the CPU as written, outside the simulator"},
        {"extern", "extern is refused: a kernel file declares nothing that lives outside it"},
        {"static", "static is refused here: a thread's variables are its own registers, and a kernel file keeps no state of its own (only a __device__ function may be static)"},
        {"thread_local", "thread_local is refused: a thread's variables are its own registers already"},
        {"template", "templates are refused: the kernel and its helpers are plain functions (TileScope makes them templates itself)"},
        {"typename", "typename is refused: a kernel file has no templates"},
        {"namespace", "namespaces are refused: a kernel file holds its #defines, mask, helpers and kernel at file scope"},
        {"using", "using is refused: there is no namespace or type to bring in, so write the names themselves"},
        {"typedef", "typedef is refused: write the type itself (float, int, unsigned int, float4)"},
        {"struct", "struct is refused: a kernel's data are its float arrays, ints and floats"},
        {"class", "class is refused: a kernel's data are its float arrays, ints and floats"},
        {"union", "union is refused: a kernel's data are its float arrays, ints and floats"},
        {"enum", "enum is refused: write a constant as a #define"},
        {"operator", "operator functions are refused: a kernel file defines no types to give operators"},
        {"new", "new and delete are not supported: a kernel uses its parameters, registers and __shared__ arrays"},
        {"delete", "new and delete are not supported: a kernel uses its parameters, registers and __shared__ arrays"},
        {"goto", "goto is not supported: use a loop or a branch"},
        {"throw", "exceptions are not supported in a kernel (nor does CUDA have them)"},
        {"try", "exceptions are not supported in a kernel (nor does CUDA have them)"},
        {"catch", "exceptions are not supported in a kernel (nor does CUDA have them)"},
        {"this", "this is refused: a kernel file defines no classes"},
        {"virtual", "virtual is refused: a kernel file defines no classes"},
        {"friend", "friend is refused: a kernel file defines no classes"},
        {"public", "public is refused: a kernel file defines no classes"},
        {"private", "private is refused: a kernel file defines no classes"},
        {"protected", "protected is refused: a kernel file defines no classes"},
        {"explicit", "explicit is refused: a kernel file defines no classes"},
        {"mutable", "mutable is refused: a kernel file defines no classes"},
        {"export", "export is refused: a kernel file has no modules or templates"},
        {"decltype", "decltype is refused: write the type itself"},
        {"alignas", "alignas is refused: a kernel's variables take the alignment of their type, and a large one "
                    "(alignas(268435456)) would put a thread's local array far past its stack"},
        {"typeid", "typeid is refused: a kernel has no run-time type information"},
        {"dynamic_cast", "dynamic_cast is refused: a kernel has no run-time type information"},
    };
    const auto it = r.find(k);
    return it == r.end() ? nullptr : it->second;
}

/// Why a name that begins with _ is refused, or "" when it may be used.
std::string refusedReservedName(const std::string& n)
{
    if (n.size() < 2 || n[0] != '_') return "";
    if (n[1] == '_') {
        if (isCudaName(n) || isAllowedFunction(n)) return "";   // __shfl_*_sync, __syncwarp
        if (n == "__asm__" || n == "__asm") return "inline assembly is refused: it would run on the CPU as written, outside the simulator";
        if (n == "__attribute__" || n == "__attribute" || n == "__declspec")
            return n + " is refused: attributes change what the compiler does with the code, and CUDA's qualifiers "
                       "(__global__, __device__, __shared__, ...) are the only ones a kernel needs";
        if (n.rfind("__builtin", 0) == 0)
            return n + " is refused: the compiler's built-in functions are not among what a kernel may call "
                       "(docs/student-kernels.md lists what it may)";
        if (n.rfind("__has_include", 0) == 0)
            return n + " is refused: a kernel file includes nothing, and TileScope never opens a file a kernel names";
        if (const std::string why = unsupportedName(n); !why.empty()) return why;
        return n + " is refused: of the names that begin with __, a kernel file may use CUDA's qualifiers "
                   "(__global__, __device__, __host__, __shared__, __constant__, __forceinline__, __noinline__, "
                   "__restrict__, __launch_bounds__), __syncthreads(), __syncwarp() and the shuffles __shfl_sync, "
                   "__shfl_up_sync, __shfl_down_sync and __shfl_xor_sync";
    }
    if (n == "_Pragma") return "_Pragma is refused: of the pragmas only #pragma unroll is allowed, written as a directive";
    if (n[1] >= 'A' && n[1] <= 'Z') return n + " is refused: names that begin with _ and a capital letter belong to the compiler";
    return "";
}

bool plainName(const std::string& s)
{
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (const char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

std::vector<Diagnostic> Scanner::run()
{
    if (src_.size() > lim_.maxBytes) {
        refuse(0, 0, "the file is " + std::to_string(src_.size()) + " bytes, more than the " +
                         std::to_string(lim_.maxBytes) + " bytes a kernel file may have");
        return finish();
    }
    splices();
    if (!lex()) return finish();
    if (!directives()) return finish();
    matchBrackets();
    for (Macro& m : macros_) macroForm(m);
    if (!structure()) return finish();
    fileScope();
    checkStream(code_, nullptr);
    for (const Macro& m : macros_) checkStream(m.body, &m);
    for (const std::vector<size_t>& p : pragmaCounts_) checkStream(p, nullptr);
    // A declaration's refusal says less than a refused word on its line (extern, asm, ...).
    for (Diagnostic& d : declarations_)
        if (!found_.count(d.line)) refuse(d.line, d.column, std::move(d.message));
    return finish();
}

// ---- refusals -------------------------------------------------------------------------------

void Scanner::refuse(unsigned line, unsigned column, std::string why)
{
    auto it = found_.find(line);
    if (it != found_.end()) {
        if (column < it->second.column) it->second = Diagnostic{line, column, std::move(why)};
        return;
    }
    if (found_.size() >= kMaxDiagnostics) return;
    found_.emplace(line, Diagnostic{line, column, std::move(why)});
}

std::vector<Diagnostic> Scanner::finish()
{
    std::vector<Diagnostic> out;
    for (auto& [line, d] : found_) out.push_back(std::move(d));
    return out;   // by line: the map's order
}

// ---- line splices ----------------------------------------------------------------------------

void Scanner::splices()
{
    const std::string& s = src_;
    bool lineStart = true, directive = false, block = false, lineComment = false;
    unsigned line = 1;
    size_t lineBegin = 0;
    auto next = [&](size_t i) { return i + 1 < s.size() ? s[i + 1] : '\0'; };
    for (size_t i = 0; i < s.size();) {
        if (const size_t n = spliceAt(s, i)) {
            if (!block && !directive)
                refuse(line, static_cast<unsigned>(i - lineBegin + 1),
                       lineComment ? "a backslash at the end of a // comment makes the next line part of the "
                                     "comment, so that line's code would vanish; remove the backslash"
                                   : "a backslash at the end of a line joins the next line to it, which a kernel "
                                     "needs only inside a #define; write the statement without it");
            ++line;   // the splice ends with one line break (\n, \r\n or \r)
            i += n;
            lineBegin = i;
            continue;
        }
        const char c = s[i];
        if (c == '\n' || c == '\r') {
            i += c == '\r' && next(i) == '\n' ? 2 : 1;
            ++line;
            lineBegin = i;
            lineStart = true;
            directive = lineComment = false;
            continue;
        }
        if (block) {
            if (c == '*' && next(i) == '/') {
                block = false;
                i += 2;
            } else {
                ++i;
            }
            continue;
        }
        if (lineComment) {
            ++i;
            continue;
        }
        if (c == '/' && next(i) == '*') {
            block = true;
            i += 2;
            continue;
        }
        if (c == '/' && next(i) == '/') {
            lineComment = true;
            lineStart = false;
            i += 2;
            continue;
        }
        if (lineStart && !(c == ' ' || c == '\t' || c == '\f' || c == '\v')) {
            directive = c == '#' || (c == '%' && next(i) == ':');
            lineStart = false;
        }
        ++i;
    }
}

// ---- lexing ---------------------------------------------------------------------------------

bool Scanner::lex()
{
    std::string text = src_;
    // 1: a '#' (or the '%' of "%:") replaced; 2: the ':' of "%:" replaced.
    std::vector<uint8_t> replaced(text.size(), 0);
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text[0] = text[1] = text[2] = ' ';   // a UTF-8 mark, as clang skips it
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '#') {
            text[i] = '@';
            replaced[i] = 1;
        } else if (text[i] == '%') {
            size_t j = i + 1;
            while (const size_t n = spliceAt(text, j)) j += n;
            if (j < text.size() && text[j] == ':') {
                text[i] = text[j] = '@';
                replaced[i] = 1;
                replaced[j] = 2;
            }
        }
    }
    // Two line breaks: a splice at the end of the text cannot join the #endif to it.
    const std::string buffer = kHead + text + "\n\n#endif\n";
    std::unique_ptr<void, void (*)(CXIndex)> index(clang_createIndex(0, 0), clang_disposeIndex);
    if (!index) {
        refuse(0, 0, "the C++ front end (libclang) could not start, so the file was not read");
        return false;
    }
    CXUnsavedFile file = {kScanPath, buffer.data(), static_cast<unsigned long>(buffer.size())};
    const char* args[] = {"-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++", "-w"};
    CXTranslationUnit tu = nullptr;
    if (clang_parseTranslationUnit2(index.get(), kScanPath, args, sizeof args / sizeof *args, &file, 1,
                                    CXTranslationUnit_None, &tu) != CXError_Success ||
        !tu) {
        refuse(0, 0, "the C++ front end (libclang) could not read the file's tokens");
        return false;
    }
    std::unique_ptr<CXTranslationUnitImpl, void (*)(CXTranslationUnit)> owner(tu, clang_disposeTranslationUnit);
    const CXFile f = clang_getFile(tu, kScanPath);
    if (!f) {
        refuse(0, 0, "the C++ front end (libclang) could not read the file's tokens");
        return false;
    }
    const unsigned from = static_cast<unsigned>(kHeadSize), to = static_cast<unsigned>(kHeadSize + text.size());
    CXToken* tokens = nullptr;
    unsigned n = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f, from), clang_getLocationForOffset(tu, f, to)),
                   &tokens, &n);
    std::unique_ptr<CXToken, std::function<void(CXToken*)>> release(tokens, [&](CXToken* t) { clang_disposeTokens(tu, t, n); });

    size_t lastEnd = 0;          // end of the last token, comments included
    bool brokeLine = true;       // a line break since the last token that is not a comment
    size_t count = 0;
    for (unsigned i = 0; i < n; ++i) {
        CXFile tf = nullptr;
        unsigned line = 0, column = 0, offset = 0;
        clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[i]), &tf, &line, &column, &offset);
        if (offset < from) continue;
        if (offset >= to) break;
        const CXSourceRange r = clang_getTokenExtent(tu, tokens[i]);
        unsigned endOffset = 0;
        clang_getSpellingLocation(clang_getRangeEnd(r), &tf, nullptr, nullptr, &endOffset);
        Tok t;
        t.begin = offset - from;
        t.end = std::min<size_t>(std::max(endOffset, offset) - from, src_.size());
        t.line = line > 1 ? line - 1 : 1;
        t.column = column;
        if (breaksLine(src_, lastEnd, t.begin)) brokeLine = true;
        lastEnd = std::max(lastEnd, t.end);
        const CXTokenKind kind = clang_getTokenKind(tokens[i]);
        if (kind == CXToken_Comment) continue;
        if (replaced[t.begin] == 2) continue;   // the ':' of a "%:" already read as '#'
        t.lineStart = brokeLine;
        brokeLine = false;
        const std::string spelling = str(clang_getTokenSpelling(tu, tokens[i]));
        switch (kind) {
        case CXToken_Keyword:
        case CXToken_Identifier:
            t.kind = Kind::Word;
            t.text = spelling;
            break;
        case CXToken_Literal: {
            t.text = withoutSplices(spelling);
            const char c = t.text.empty() ? '0' : t.text[0];
            if ((c >= '0' && c <= '9') || c == '.') {
                t.kind = Kind::Number;
            } else {
                const size_t q = t.text.find_first_of("\"'");
                t.kind = q != std::string::npos && t.text[q] == '\'' ? Kind::Char : Kind::String;
            }
            break;
        }
        default: {
            t.text = withoutSplices(spelling);
            if (t.text == "@" && replaced[t.begin] == 1) {
                t.kind = Kind::Hash;
                t.text = "#";
            } else if (t.text == "<:") {
                t.text = "[";
            } else if (t.text == ":>") {
                t.text = "]";
            } else if (t.text == "<%") {
                t.text = "{";
            } else if (t.text == "%>") {
                t.text = "}";
            }
            static const std::unordered_set<std::string> punct = {
                "(", ")", "[", "]", "{", "}", ";", ",", ".", "->", "...", "::", ":", "?", "+", "-", "*", "/",
                "%", "&", "|", "^", "~", "!", "=", "<", ">", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                "<<", ">>", "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", ".*", "->*", "#", "##"};
            if (t.kind != Kind::Hash && !punct.count(t.text)) t.kind = Kind::Unknown;
            break;
        }
        }
        if (++count > lim_.maxTokens) {
            refuse(t, "the file has more than " + std::to_string(lim_.maxTokens) +
                          " tokens (C++ words and symbols), the most a kernel file may have, by this line");
            return false;
        }
        tok_.push_back(std::move(t));
    }
    return true;
}
}  // namespace scan_detail

const std::vector<std::string>& allowedFunctions()
{
    static const std::vector<std::string> names = {
        "__syncthreads", "make_float4",                             // CUDA's built-ins
        "ceil", "ceilf", "floor", "floorf", "trunc", "truncf",     // exact: an integer value
        "round", "roundf",
        "fabs", "fabsf", "abs", "fmin", "fminf", "fmax", "fmaxf",  // exact
        "min", "max",                                               // int, unsigned and float overloads, as CUDA's
        "sqrt", "sqrtf", "fma", "fmaf",                             // correctly rounded on both
        "atomicAdd", "atomicExch",                                  // float, int, unsigned (PMPP sec. 9.3, 10.7)
        "atomicSub", "atomicMax", "atomicMin",                      // int, unsigned: global or __shared__
        "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",        // warp shuffles (CUDA's; a reduction's finish)
        "__shfl_xor_sync", "__syncwarp",
    };
    return names;
}

std::string unsupportedName(const std::string& name)
{
    if (name.rfind("atomic", 0) == 0)
        return name + " is not supported: of the atomic operations TileScope simulates atomicAdd, atomicExch, "
                      "atomicSub, atomicMax and atomicMin, on an element of a global array or a __shared__ array";
    if (name.rfind("__shfl", 0) == 0 || name.rfind("__ballot", 0) == 0 || name == "__any_sync" ||
        name == "__all_sync" || name == "__activemask" || name == "__match_any_sync" || name == "__match_all_sync" ||
        name.rfind("__reduce_", 0) == 0)
        return name + " is not supported: of the warp intrinsics TileScope simulates __shfl_sync, __shfl_up_sync, "
                      "__shfl_down_sync, __shfl_xor_sync and __syncwarp";
    if (name == "printf")
        return "printf is not supported: the Threads and Code panels show every value a thread loads, stores and computes";
    if (name == "malloc" || name == "free")
        return name + " is not supported: a kernel here uses only its parameters, registers and __shared__ arrays";
    if (name == "__syncthreads_count" || name == "__syncthreads_and" || name == "__syncthreads_or")
        return name + " is not supported: use __syncthreads()";
    static const std::unordered_set<std::string> inexact = {
        "exp", "expf", "exp2", "exp2f", "exp10", "exp10f", "expm1", "expm1f", "log", "logf", "log2", "log2f",
        "log10", "log10f", "log1p", "log1pf", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf",
        "sincos", "sincosf", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf",
        "cosh", "coshf", "tanh", "tanhf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "hypot", "hypotf", "erf", "erff",
        "__expf", "__logf", "__sinf", "__cosf", "__powf", "__fdividef", "__frsqrt_rn"};
    if (inexact.count(name))
        return name + " is not supported: the CPU and the GPU round it differently, so P could not be compared bit "
                      "for bit (docs/student-kernels.md lists the functions that round alike)";
    return "";
}

std::vector<Diagnostic> scanKernelFile(const std::string& source, const ScanLimits& limits)
{
    try {
        return Scanner(source, limits).run();
    } catch (const std::exception& e) {
        return {Diagnostic{0, 0, std::string("the file could not be scanned: ") + e.what()}};
    } catch (...) {
        return {Diagnostic{0, 0, "the file could not be scanned"}};
    }
}

}  // namespace ts::student
