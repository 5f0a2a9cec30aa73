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
namespace {

/// The path the scan's in-memory file has; nothing of that name is read from disk.
constexpr const char* kScanPath = "/tilescope/scan.cu";
constexpr const char kHead[] = "#if 0\n";
constexpr size_t kHeadSize = sizeof kHead - 1;

/// At most this many refusals (one per line) are returned; the rest say nothing new.
constexpr size_t kMaxDiagnostics = 40;

/// Sizes saturate here, far above every limit, so that counting never overflows.
constexpr uint64_t kHuge = uint64_t(1) << 60;
uint64_t add(uint64_t a, uint64_t b) { return std::min(kHuge, a + b); }
uint64_t mul(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0) return 0;
    return a > kHuge / b ? kHuge : std::min(kHuge, a * b);
}
constexpr int kNoPeak = -1;   ///< paramPeak of a parameter that does not appear
constexpr int kPeakCap = 1 << 24;

enum class Kind { Punct, Word, Number, Char, String, Hash, Unknown };

/// One token of the student's text.
struct Tok {
    std::string text;   ///< its spelling: line splices removed, digraphs as the bracket they stand for
    Kind kind = Kind::Punct;
    unsigned line = 0, column = 0;
    size_t begin = 0, end = 0;   ///< offsets in the student's text
    bool lineStart = false;      ///< the first token of a line (a directive starts only there)
};

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
        if (isCudaName(n)) return "";
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
                   "__restrict__, __launch_bounds__) and __syncthreads()";
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

/// A #define of the file.
struct Macro {
    std::string name;
    size_t nameToken = 0;                ///< index of its name in the token list
    bool functionLike = false;
    std::vector<std::string> params;
    std::vector<size_t> body;            ///< token indices
    enum class State { Fresh, Busy, Done, Failed } state = State::Fresh;
    /// Its expansion, counted: a function of its arguments (see Form).
    struct Form {
        uint64_t size = 0;                ///< tokens besides the arguments'
        std::vector<uint64_t> per;        ///< times each parameter's argument appears
        int peak = 0;                     ///< deepest ( [ { nesting reached, relative to the use
        std::vector<int> paramPeak;       ///< nesting at which each argument appears (kNoPeak: never)
        int chain = 0;                    ///< #defines expanded one inside another, this one included
    } form;
};
using Form = Macro::Form;

/// One scan of one file: its tokens, its #defines and what it refuses, one refusal a line.
class Scanner {
public:
    Scanner(const std::string& source, const ScanLimits& limits) : src_(source), lim_(limits) {}

    std::vector<Diagnostic> run()
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

private:
    // ---- refusals -------------------------------------------------------------------------------

    void refuse(unsigned line, unsigned column, std::string why)
    {
        auto it = found_.find(line);
        if (it != found_.end()) {
            if (column < it->second.column) it->second = Diagnostic{line, column, std::move(why)};
            return;
        }
        if (found_.size() >= kMaxDiagnostics) return;
        found_.emplace(line, Diagnostic{line, column, std::move(why)});
    }
    void refuse(const Tok& t, std::string why) { refuse(t.line, t.column, std::move(why)); }
    /// A declaration at file scope refused: reported where no word of its line is.
    void decline(const Tok& t, std::string why) { declarations_.push_back(Diagnostic{t.line, t.column, std::move(why)}); }
    std::vector<Diagnostic> finish()
    {
        std::vector<Diagnostic> out;
        for (auto& [line, d] : found_) out.push_back(std::move(d));
        return out;   // by line: the map's order
    }

    // ---- line splices ----------------------------------------------------------------------------

    /// Refuses a line splice (a backslash at the end of a line) outside a directive and a
    /// block comment. In code the front end joins the two lines into one, and a rewritten
    /// call across the join (`__s\` then `yncthreads();` on the next line, which the fuzzer
    /// found) loses a line break, so the simulator's line numbers would no longer be the
    /// student's; no kernel needs one. At the end of a // comment it makes the next line part
    /// of the comment, a line of code that silently vanishes. A #define may go on over
    /// several lines as C++ allows.
    void splices()
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

    /// The student's tokens, comments left out; false when the scan cannot go on.
    bool lex()
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

    // ---- directives -----------------------------------------------------------------------------

    /// Splits the tokens into the code and the directives and reads the #defines; false when
    /// the scan cannot go on.
    bool directives()
    {
        for (size_t i = 0; i < tok_.size();) {
            if (tok_[i].kind != Kind::Hash) {
                code_.push_back(i++);
                continue;
            }
            if (!tok_[i].lineStart) {
                refuse(tok_[i], "a # that does not begin a line is refused: the only directives here are #define "
                                "and #pragma unroll, each on a line of its own");
                ++i;
                continue;
            }
            size_t end = i + 1;
            while (end < tok_.size() && !tok_[end].lineStart) ++end;
            directive(i, end);
            i = end;
        }
        return true;
    }

    void directive(size_t hash, size_t end)
    {
        const Tok& h = tok_[hash];
        if (hash + 1 == end) {
            refuse(h, "a # alone on its line is refused: the only directives here are #define and #pragma unroll");
            return;
        }
        const std::string& name = tok_[hash + 1].text;
        if (name == "define") {
            define(hash, hash + 2, end);
        } else if (name == "pragma") {
            pragma(hash, hash + 2, end);
        } else if (name == "include" || name == "include_next" || name == "import" || name == "embed") {
            refuse(h, "#" + name + " is refused: a kernel file includes nothing (the CUDA names it uses are known "
                                   "without headers), and TileScope never opens a file a kernel names");
        } else if (name == "line") {
            refuse(h, "#line is refused: TileScope reports the lines of the file as it is written");
        } else if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "else" ||
                   name == "endif" || name == "elifdef" || name == "elifndef") {
            refuse(h, "#" + name + " is refused: TileScope reads the whole file as one kernel, so write the "
                                   "#defines you mean without conditions");
        } else if (name == "undef") {
            refuse(h, "#undef is refused: each #define holds for the whole file");
        } else {
            refuse(h, "#" + (plainName(name) ? name : std::string("...")) +
                          " is refused: the only directives a kernel file may have are #define and #pragma unroll");
        }
    }

    void define(size_t hash, size_t at, size_t end)
    {
        if (at >= end || tok_[at].kind != Kind::Word) {
            refuse(tok_[hash], "#define needs the name of the macro it defines");
            return;
        }
        const Tok& n = tok_[at];
        if (!plainName(n.text) || isKeyword(n.text) || !refusedReservedName(n.text).empty() || isCudaName(n.text) || n.text == "defined" ||
            isAllowedFunction(n.text) || isBuiltinVariable(n.text)) {
            refuse(n, "#define " + (plainName(n.text) ? n.text : std::string("...")) +
                          " is refused: a #define may not take the name of a C++ keyword, of a name CUDA or the "
                          "compiler defines, or of a function a kernel may call");
            return;
        }
        if (const auto it = macroIndex_.find(n.text); it != macroIndex_.end()) {
            refuse(n, "#define " + n.text + " is refused: " + n.text + " is already defined on line " +
                          std::to_string(tok_[macros_[it->second].nameToken].line) + ", and each macro is defined once");
            return;
        }
        Macro m;
        m.name = n.text;
        m.nameToken = at;
        size_t b = at + 1;
        if (b < end && tok_[b].text == "(" && onlySplices(src_, n.end, tok_[b].begin)) {
            m.functionLike = true;
            size_t p = b + 1;
            bool ok = true;
            if (p < end && tok_[p].text == ")") {
                ++p;
            } else {
                for (;;) {
                    if (p >= end) { ok = false; break; }
                    const Tok& t = tok_[p];
                    if (t.text == "...") {
                        refuse(t, "#define " + m.name + " is refused: a macro with a variable number of arguments "
                                                         "has no use in a kernel");
                        return;
                    }
                    if (t.kind != Kind::Word || !plainName(t.text) || isKeyword(t.text) ||
                        std::find(m.params.begin(), m.params.end(), t.text) != m.params.end()) {
                        ok = false;
                        break;
                    }
                    m.params.push_back(t.text);
                    ++p;
                    if (p < end && tok_[p].text == ")") { ++p; break; }
                    if (p < end && tok_[p].text == ",") { ++p; continue; }
                    ok = false;
                    break;
                }
            }
            if (!ok) {
                refuse(n, "#define " + m.name + " has a parameter list that is not names between parentheses, "
                                                 "separated by commas");
                return;
            }
            b = p;
        }
        std::vector<char> open;
        for (size_t i = b; i < end; ++i) {
            const Tok& t = tok_[i];
            if (t.kind == Kind::Hash) {
                refuse(t, "# and ## in a #define are refused: a kernel's macros are constants and expressions, "
                          "not new names or text");
                return;
            }
            if (isOpener(t.text)) open.push_back(closerOf(t.text));
            if (isCloser(t.text)) {
                if (open.empty() || open.back() != t.text[0]) {
                    refuse(n, "#define " + m.name + " is refused: its brackets ( [ { do not balance within it");
                    return;
                }
                open.pop_back();
            }
            m.body.push_back(i);
        }
        if (!open.empty()) {
            refuse(n, "#define " + m.name + " is refused: its brackets ( [ { do not balance within it");
            return;
        }
        macroIndex_.emplace(m.name, macros_.size());
        macros_.push_back(std::move(m));
    }

    void pragma(size_t hash, size_t at, size_t end)
    {
        if (at >= end || tok_[at].text != "unroll") {
            const std::string what = at < end && plainName(tok_[at].text) ? " " + tok_[at].text : "";
            refuse(tok_[hash], "#pragma" + what + " is refused: of the pragmas only #pragma unroll, with an optional "
                                                  "count, has a meaning for a kernel here");
            return;
        }
        std::vector<size_t> count;
        int depth = 0;
        for (size_t i = at + 1; i < end; ++i) {
            const Tok& t = tok_[i];
            const bool ok = t.kind == Kind::Number || (t.kind == Kind::Word && plainName(t.text) && !isKeyword(t.text)) ||
                            t.text == "(" || t.text == ")" || t.text == "+" || t.text == "-" || t.text == "*" ||
                            t.text == "/" || t.text == "%";
            if (t.text == "(") ++depth;
            if (t.text == ")") --depth;
            if (!ok || depth < 0) {
                refuse(t, "#pragma unroll takes an optional count, a constant such as 4, (4) or TILE_WIDTH");
                return;
            }
            count.push_back(i);
        }
        if (depth != 0) {
            refuse(tok_[hash], "#pragma unroll takes an optional count, a constant such as 4, (4) or TILE_WIDTH");
            return;
        }
        if (!count.empty()) pragmaCounts_.push_back(std::move(count));
    }

    const Macro* macro(const std::string& name) const
    {
        const auto it = macroIndex_.find(name);
        return it == macroIndex_.end() ? nullptr : &macros_[it->second];
    }
    Macro* macro(const std::string& name)
    {
        const auto it = macroIndex_.find(name);
        return it == macroIndex_.end() ? nullptr : &macros_[it->second];
    }
    static int paramIndex(const Macro* m, const std::string& name)
    {
        if (!m) return -1;
        const auto it = std::find(m->params.begin(), m->params.end(), name);
        return it == m->params.end() ? -1 : static_cast<int>(it - m->params.begin());
    }

    // ---- counting expansions ----------------------------------------------------------------------

    /// The expansion of macro `m`, counted from its body; nullptr when it cannot be counted
    /// (it expands into itself, or its #defines nest too deep), which is refused.
    const Form* macroForm(Macro& m)
    {
        if (m.state == Macro::State::Done) return &m.form;
        if (m.state == Macro::State::Failed) return nullptr;
        const Tok& at = tok_[m.nameToken];
        if (m.state == Macro::State::Busy) {
            refuse(at, "#define " + m.name + " is refused: it expands into itself, through its own body or another "
                                             "#define's");
            m.state = Macro::State::Failed;
            return nullptr;
        }
        if (macroDepth_ >= lim_.maxNesting) {
            refuse(at, "#define " + m.name + " is refused: #defines that expand into #defines nest more than " +
                           std::to_string(lim_.maxNesting) + " deep here, the deepest TileScope reads");
            m.state = Macro::State::Failed;
            return nullptr;
        }
        m.state = Macro::State::Busy;
        ++macroDepth_;
        Form f;
        const bool ok = count(m.body, 0, m.body.size(), &m, 0, f);
        --macroDepth_;
        if (m.state == Macro::State::Failed) return nullptr;   // refused on the way
        if (!ok) {
            m.state = Macro::State::Failed;
            return nullptr;
        }
        if (++f.chain > lim_.maxNesting) {
            refuse(at, "#define " + m.name + " is refused: it expands through #defines nested more than " +
                           std::to_string(lim_.maxNesting) + " deep, the deepest TileScope reads");
            m.state = Macro::State::Failed;
            return nullptr;
        }
        m.form = std::move(f);
        m.state = Macro::State::Done;
        return &m.form;
    }

    /// Counts the expansion of tokens [from, to) of `stream` (a macro's body when `owner` is
    /// that macro, whose parameters stay unknowns; else code): into `out`, its size and
    /// nesting as functions of owner's arguments. False when it cannot be counted (refused).
    bool count(const std::vector<size_t>& stream, size_t from, size_t to, const Macro* owner, int level, Form& out)
    {
        // One count inside another, through arguments and #defines: bounded, so that the
        // counting's own stack stays small whatever the file.
        struct Depth {
            int& d;
            explicit Depth(int& x) : d(++x) {}
            ~Depth() { --d; }
        } depth(countDepth_);
        if (countDepth_ > 2 * lim_.maxNesting + 2) {
            const std::string why = "#defines and their arguments nest more than " + std::to_string(lim_.maxNesting) +
                                    " deep here, the deepest TileScope reads";
            if (from < to) refuse(tok_[stream[from]], why);
            else refuse(0, 0, why);
            return false;
        }
        const size_t np = owner ? owner->params.size() : 0;
        Form f;
        f.per.assign(np, 0);
        f.paramPeak.assign(np, kNoPeak);
        int d = 0;
        for (size_t p = from; p < to; ++p) {
            const Tok& t = tok_[stream[p]];
            if (t.kind == Kind::Word) {
                if (const int pi = paramIndex(owner, t.text); pi >= 0) {
                    f.per[pi] = add(f.per[pi], 1);
                    f.paramPeak[pi] = std::max(f.paramPeak[pi], std::max(d, 0));
                    continue;
                }
                if (Macro* m = macro(t.text)) {
                    const Form* mf = macroForm(*m);
                    if (!mf) return false;
                    f.chain = std::max(f.chain, mf->chain);
                    if (!m->functionLike) {
                        f.size = add(f.size, mf->size);
                        f.peak = std::min(kPeakCap, std::max(f.peak, d + mf->peak));
                        continue;
                    }
                    if (p + 1 < to && tok_[stream[p + 1]].text == "(") {
                        // The arguments: split at the commas outside inner parentheses.
                        std::vector<std::pair<size_t, size_t>> args;
                        size_t q = p + 2, argFrom = p + 2;
                        int depth = 1;
                        for (; q < to; ++q) {
                            const std::string& s = tok_[stream[q]].text;
                            if (s == "(") ++depth;
                            if (s == ")" && --depth == 0) break;
                            if (s == "," && depth == 1) {
                                args.emplace_back(argFrom, q);
                                argFrom = q + 1;
                            }
                        }
                        if (q >= to) {
                            refuse(t, "the arguments of " + m->name + " are never closed with a )");
                            return false;
                        }
                        if (!(argFrom == q && args.empty() && m->params.empty())) args.emplace_back(argFrom, q);
                        if (args.size() != m->params.size()) {
                            refuse(t, m->name + " takes " + std::to_string(m->params.size()) + " argument" +
                                          (m->params.size() == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
                            return false;
                        }
                        if (level >= lim_.maxNesting) {
                            refuse(t, "#define invocations nest more than " + std::to_string(lim_.maxNesting) +
                                          " deep here, the deepest TileScope reads");
                            return false;
                        }
                        std::vector<Form> af(args.size());
                        for (size_t j = 0; j < args.size(); ++j) {
                            if (!count(stream, args[j].first, args[j].second, owner, level + 1, af[j])) return false;
                            f.chain = std::max(f.chain, af[j].chain);
                        }
                        uint64_t size = mf->size;
                        for (size_t j = 0; j < args.size(); ++j) size = add(size, mul(mf->per[j], af[j].size));
                        f.size = add(f.size, size);
                        f.peak = std::min(kPeakCap, std::max(f.peak, d + mf->peak));
                        for (size_t j = 0; j < args.size(); ++j) {
                            if (mf->per[j] == 0) continue;
                            f.peak = std::min(kPeakCap, std::max(f.peak, d + mf->paramPeak[j] + af[j].peak));
                            for (size_t i = 0; i < np; ++i) {
                                if (af[j].per[i] == 0) continue;
                                f.per[i] = add(f.per[i], mul(mf->per[j], af[j].per[i]));
                                f.paramPeak[i] = std::min(kPeakCap, std::max(f.paramPeak[i], std::max(d, 0) + mf->paramPeak[j] +
                                                                                                  af[j].paramPeak[i]));
                            }
                        }
                        p = q;
                        continue;
                    }
                    // named without its arguments: not expanded (checkStream refuses it)
                }
            }
            f.size = add(f.size, 1);
            if (isOpener(t.text)) f.peak = std::min(kPeakCap, std::max(f.peak, ++d));
            else if (isCloser(t.text)) --d;
        }
        out = std::move(f);
        return true;
    }

    // ---- brackets and limits ------------------------------------------------------------------------

    /// partner_[p]: the position in code_ of the bracket that closes (or opens) the one at p.
    void matchBrackets()
    {
        partner_.assign(code_.size(), npos);
        std::vector<size_t> open;
        for (size_t p = 0; p < code_.size(); ++p) {
            const std::string& s = tok_[code_[p]].text;
            if (isOpener(s)) {
                open.push_back(p);
            } else if (isCloser(s)) {
                if (open.empty() || closerOf(tok_[code_[open.back()]].text) != s[0]) return;   // unmatched from here on
                partner_[p] = open.back();
                partner_[open.back()] = p;
                open.pop_back();
            }
        }
    }

    /// The code as it would be after expansion: its size, each statement's size and the
    /// nesting of brackets and statements, counted. False when a limit is exceeded (the rest
    /// of the file is not looked at).
    bool structure()
    {
        enum class Open { Paren, Bracket, Brace, If, Else, Loop, Do, DoWhile };
        std::vector<Open> stack;
        std::vector<size_t> openedAt;   // position in code_ of each bracket on the stack (controls: the keyword)
        uint64_t total = 0, piece = 0;
        auto tooMuch = [&](const Tok& at) {
            if (total > lim_.maxExpandedTokens) {
                refuse(at, "with its #defines expanded the file grows past " + std::to_string(lim_.maxExpandedTokens) +
                               " tokens by this line, the most TileScope reads (they are counted, never expanded)");
                return true;
            }
            if (piece > lim_.maxStatementTokens) {
                refuse(at, "this statement has more than " + std::to_string(lim_.maxStatementTokens) +
                               " tokens with its #defines expanded, the most one statement or declaration may have");
                return true;
            }
            return false;
        };
        auto tooDeep = [&](const Tok& at, uint64_t depth) {
            if (depth <= static_cast<uint64_t>(lim_.maxNesting)) return false;
            refuse(at, "brackets ( [ { and statements nest more than " + std::to_string(lim_.maxNesting) +
                           " deep here, with #defines expanded, the deepest TileScope reads");
            return true;
        };
        for (const std::vector<size_t>& c : pragmaCounts_) {
            Form f;
            if (!count(c, 0, c.size(), nullptr, 0, f)) continue;
            total = add(total, f.size);
            piece = f.size;
            if (tooMuch(tok_[c.front()]) || tooDeep(tok_[c.front()], static_cast<uint64_t>(f.peak))) return false;
        }
        piece = 0;
        auto next = [&](size_t p) -> const std::string& {
            static const std::string none;
            return p + 1 < code_.size() ? tok_[code_[p + 1]].text : none;
        };
        auto endStatement = [&](size_t p) {
            while (!stack.empty()) {
                Open& top = stack.back();
                if (top == Open::If && next(p) == "else") {
                    top = Open::Else;
                    return;
                }
                if (top == Open::Do) {
                    top = Open::DoWhile;
                    return;
                }
                if (top == Open::If || top == Open::Else || top == Open::Loop || top == Open::DoWhile) {
                    stack.pop_back();
                    openedAt.pop_back();
                    continue;
                }
                return;
            }
        };
        for (size_t p = 0; p < code_.size(); ++p) {
            const Tok& t = tok_[code_[p]];
            const std::string& s = t.text;
            if (t.kind == Kind::Word) {
                if (Macro* m = macro(s)) {
                    Form f;
                    size_t last = p;
                    if (m->functionLike && next(p) == "(") {
                        last = partner_[p + 1];
                        if (last == npos) {
                            refuse(t, "the arguments of " + s + " are not closed with a ) that matches");
                            return false;
                        }
                        if (!count(code_, p, last + 1, nullptr, 0, f)) return false;
                    } else if (const Form* mf = macroForm(*m)) {
                        f = *mf;
                    } else {
                        return false;
                    }
                    total = add(total, f.size);
                    piece = add(piece, f.size);
                    if (tooMuch(t) || tooDeep(t, stack.size() + static_cast<uint64_t>(std::max(0, f.peak)))) return false;
                    p = last;
                    continue;
                }
            }
            total = add(total, 1);
            piece = add(piece, 1);
            if (tooMuch(t)) return false;
            if (isOpener(s)) {
                stack.push_back(s == "(" ? Open::Paren : s == "[" ? Open::Bracket : Open::Brace);
                openedAt.push_back(p);
                if (s == "{") piece = 0;
                if (tooDeep(t, stack.size())) return false;
            } else if (isCloser(s)) {
                const Open want = s == ")" ? Open::Paren : s == "]" ? Open::Bracket : Open::Brace;
                if (stack.empty() || stack.back() != want) {
                    if (!stack.empty() && (stack.back() == Open::Paren || stack.back() == Open::Bracket ||
                                           stack.back() == Open::Brace))
                        refuse(t, "this " + s + " does not close the " + tok_[code_[openedAt.back()]].text + " on line " +
                                      std::to_string(tok_[code_[openedAt.back()]].line));
                    else
                        refuse(t, "this " + s + " closes nothing that is open");
                    return true;   // the brackets are refused; the limits cannot be followed further
                }
                stack.pop_back();
                openedAt.pop_back();
                if (s == "}") {
                    piece = 0;
                    endStatement(p);
                }
            } else if (s == ";") {
                if (stack.empty() || (stack.back() != Open::Paren && stack.back() != Open::Bracket)) {
                    piece = 0;
                    endStatement(p);
                }
            } else if (t.kind == Kind::Word && (s == "if" || s == "for" || s == "while" || s == "switch" || s == "do")) {
                if (s == "while" && !stack.empty() && stack.back() == Open::DoWhile) continue;
                stack.push_back(s == "if" ? Open::If : s == "do" ? Open::Do : Open::Loop);
                openedAt.push_back(p);
                if (tooDeep(t, stack.size())) return false;
            }
        }
        for (size_t i = 0; i < stack.size(); ++i) {
            if (stack[i] == Open::Paren || stack[i] == Open::Bracket || stack[i] == Open::Brace) {
                const Tok& o = tok_[code_[openedAt[i]]];
                refuse(o, "this " + o.text + " is never closed");
                break;
            }
        }
        return true;
    }

    // ---- declarations at file scope ---------------------------------------------------------------

    const Tok& at(size_t p) const { return tok_[code_[p]]; }

    /// The declarations at file scope: #defines aside, the __constant__ mask, __device__
    /// functions with their bodies and the one __global__ kernel.
    void fileScope()
    {
        const size_t n = code_.size();
        for (size_t p = 0; p < n;) {
            const Tok& first = at(p);
            if (first.text == ";") {
                ++p;
                continue;
            }
            if (isCloser(first.text)) return;   // refused by structure()
            // The head: what comes before the declarator's ( [ = { ;
            size_t h = p;
            bool global = false, device = false, host = false, constant = false, shared = false;
            const Tok* name = nullptr;
            size_t namePos = npos;
            const Tok* viaMacro = nullptr;
            std::vector<size_t> launchBounds;
            while (h < n) {
                const Tok& t = at(h);
                const std::string& s = t.text;
                if (s == "(" || s == "[" || s == "=" || s == "{" || s == ";" || s == "," || isCloser(s)) break;
                if (s == "__launch_bounds__" && h + 1 < n && at(h + 1).text == "(") {
                    launchBounds.push_back(h);
                    if (partner_[h + 1] == npos) return;
                    h = partner_[h + 1] + 1;
                    continue;
                }
                if (s == "__global__") global = true;
                else if (s == "__device__") device = true;
                else if (s == "__host__") host = true;
                else if (s == "__constant__") constant = true;
                else if (s == "__shared__") shared = true;
                else if (t.kind == Kind::Word && macro(s) && !viaMacro) viaMacro = &t;
                if (t.kind == Kind::Word && !isKeyword(s) && !isQualifier(s) && !isTypeWord(s) && !isCudaName(s)) {
                    name = &t;
                    namePos = h;
                }
                ++h;
            }
            if (h >= n) {
                decline(first, "this declaration at file scope does not end with ; or a body");
                return;
            }
            const std::string& stop = at(h).text;
            if (viaMacro) {
                decline(*viaMacro, "a declaration at file scope that takes part of its head from #define " + viaMacro->text +
                                      " is refused: write its qualifiers, type and name themselves");
            }
            if (stop == "{") {
                // `extern "C" { ... }`, `namespace a { ... }`, `struct S { ... }`: the words
                // that open them are refused on their own; the block is passed over.
                decline(first, "a block at file scope is refused: the code of a kernel file is in its kernel and its "
                               "__device__ functions");
                if (partner_[h] == npos) return;
                p = partner_[h] + 1;
                continue;
            }
            if (stop == "(" && name && namePos + 1 == h) {
                declaratorName_.insert(code_[namePos]);
                if (partner_[h] == npos) return;
                size_t q = partner_[h] + 1;
                const bool body = q < n && at(q).text == "{";
                const bool bodyless = q < n && at(q).text == ";";
                size_t end = q;
                if (body) {
                    if (partner_[q] == npos) return;
                    end = partner_[q] + 1;
                } else {
                    while (end < n && at(end).text != ";" && at(end).text != "{") {
                        if (isOpener(at(end).text)) {
                            if (partner_[end] == npos) return;
                            end = partner_[end];
                        }
                        ++end;
                    }
                    if (end < n && at(end).text == "{" && partner_[end] != npos) end = partner_[end];
                    ++end;
                }
                const std::string& fn = name->text;
                if (!body && !bodyless) {
                    decline(*name, "the declaration of " + fn + " is not supported: a kernel file holds #defines, one "
                                                               "__constant__ mask, __device__ functions and one __global__ kernel");
                } else if (global) {
                    if (!body) {
                        decline(*name, "kernel " + fn + " is declared without a body: define the kernel once, with its body");
                    } else if (!kernel_.empty()) {
                        decline(*name, "a second __global__ kernel, " + fn + ": a kernel file holds one kernel (the first is " +
                                          kernel_ + ")");
                    } else {
                        kernel_ = fn;
                        for (size_t lb : launchBounds) launchBoundsOk_.insert(code_[lb]);
                    }
                } else if (device && !shared && !constant) {
                    if (!body) {
                        decline(*name, "__device__ function " + fn + " is declared without a body: define each helper "
                                                                    "once, with its body, before the kernel that calls it");
                    } else {
                        ownFunctions_.insert(fn);
                        // `static __device__ float f(...)`: static gives a helper nothing to keep.
                        for (size_t i = p; i < namePos; ++i)
                            if (at(i).text == "static") staticOk_.insert(code_[i]);
                    }
                } else if (constant || shared) {
                    decline(*name, std::string(constant ? "__constant__" : "__shared__") + " " + fn +
                                      " is not an array: at file scope a kernel file declares one __constant__ float "
                                      "array, the convolution mask");
                } else if (host) {
                    decline(*name, fn + " is host code: a kernel file holds the __global__ kernel and its __device__ "
                                       "helpers (the launch comes from the scenario)");
                } else if (!body) {
                    decline(*name, "function " + fn + " is declared without a body: a kernel calls only the __device__ "
                                                     "functions its file defines and the functions docs/student-kernels.md allows");
                } else {
                    decline(*name, fn + " is host code: a kernel file holds the __global__ kernel and its __device__ "
                                       "helpers (the launch comes from the scenario)");
                }
                p = end;
                continue;
            }
            // A variable (or something this scan does not know): up to its ; outside brackets,
            // or to the end of a body that follows a parameter list (`float operator+(...) {}`).
            size_t end = h;
            while (end < n && at(end).text != ";") {
                if (isOpener(at(end).text)) {
                    if (partner_[end] == npos) return;
                    const bool body = at(end).text == "{" && end > 0 && at(end - 1).text == ")";
                    end = partner_[end];
                    if (body) break;
                }
                ++end;
            }
            if (name) declaratorName_.insert(code_[namePos]);
            const std::string v = name ? name->text : std::string("here");
            const Tok& where = name ? *name : first;
            if (constant && !global && !device && !shared) {
                if (stop != "[")
                    decline(where, "__constant__ " + v + " must be an array of float: the convolution mask");
            } else if (shared) {
                decline(where, "__shared__ array " + v + " is declared outside the kernel: declare it inside, as PMPP does");
            } else if (device || global) {
                decline(where, std::string(device ? "__device__" : "__global__") + " variable " + v +
                                  " is refused: a kernel uses its parameters, registers and __shared__ arrays");
            } else if (name) {
                decline(where, "global variable " + v + " is not supported: a kernel uses its parameters, registers "
                                                       "and __shared__ arrays");
            } else {
                decline(where, "this declaration is not supported: a kernel file holds #defines, one __constant__ "
                              "mask, __device__ functions and one __global__ kernel");
            }
            p = end + 1;
        }
    }

    // ---- each token ---------------------------------------------------------------------------------

    /// Whether the name at position p of `s`, followed by `(`, declares something
    /// (`float x(1.0f)`, `int f(int)`) rather than calls it.
    bool declares(const std::vector<size_t>& s, size_t p) const
    {
        size_t q = p;
        while (q > 0) {
            const std::string& w = tok_[s[q - 1]].text;
            if (w == "*" || w == "&" || w == "&&" || w == "const" || w == "volatile" || w == "__restrict__") {
                --q;
                continue;
            }
            break;
        }
        if (q == 0) return false;
        const Tok& before = tok_[s[q - 1]];
        if (before.kind == Kind::Word && isTypeWord(before.text)) return true;
        if (before.text != ",") return false;
        // `int a = 1, b(2)`: a comma of a declaration whose statement begins with a type.
        int depth = 0;
        size_t r = q - 1, steps = 0;
        while (r > 0 && ++steps <= kDeclarationReach) {
            const std::string& w = tok_[s[r - 1]].text;
            if (isCloser(w)) ++depth;
            else if (isOpener(w)) {
                if (depth == 0) return w == "{" && statementStartsWithType(s, r);
                --depth;
            } else if (w == ";" && depth == 0) {
                return statementStartsWithType(s, r);
            }
            --r;
        }
        return r == 0 && statementStartsWithType(s, 0);
    }
    /// How far back declares() looks for the start of a declaration with commas.
    static constexpr size_t kDeclarationReach = 256;
    bool statementStartsWithType(const std::vector<size_t>& s, size_t r) const
    {
        while (r < s.size() && isQualifier(tok_[s[r]].text)) ++r;
        return r < s.size() && isTypeWord(tok_[s[r]].text);
    }

    /// Every token of `s` (the code, a #define's body or a #pragma unroll count) on its own:
    /// keywords, names, literals and calls.
    void checkStream(const std::vector<size_t>& s, const Macro* owner)
    {
        struct Group {
            enum class What { Control, Operator, Call, MacroCall, Other } what;
            size_t open;
        };
        std::vector<Group> groups;
        int braces = 0;   // of the code: 0 at file scope, where fileScope() judges declarations
        for (size_t p = 0; p < s.size(); ++p) {
            const Tok& t = tok_[s[p]];
            const Tok* nx = p + 1 < s.size() ? &tok_[s[p + 1]] : nullptr;
            const bool callNext = nx && nx->text == "(";
            switch (t.kind) {
            case Kind::Unknown:
                refuse(t, "this character is not part of a kernel's C++: a kernel file is written in the ASCII "
                          "letters, digits and symbols of C++");
                continue;
            case Kind::String:
                refuse(t, "string literals are refused: a kernel has no use for text (what would need one is "
                          "printf, asm or extern \"C\", none of which a kernel file may use)");
                continue;
            case Kind::Hash:
                refuse(t, "a # here is refused: the only directives are #define and #pragma unroll, each on a line of its own");
                continue;
            case Kind::Number:
            case Kind::Char:
                continue;
            case Kind::Punct:
                break;
            case Kind::Word:
                word(s, p, owner, callNext, owner == nullptr && braces == 0);
                if (callNext) {
                    // What the parentheses after the word are: a control's condition, an
                    // operator's operand, a call (or cast), or a plain group (`return (x)`).
                    Group g{Group::What::Other, p + 1};
                    const std::string& w = t.text;
                    if (w == "if" || w == "for" || w == "while" || w == "switch" || w == "catch")
                        g.what = Group::What::Control;
                    else if (w == "sizeof" || w == "alignof" || w == "noexcept" || w == "decltype" ||
                             w == "static_assert" || w == "typeid" || w == "__launch_bounds__")
                        g.what = Group::What::Operator;
                    else if (paramIndex(owner, w) < 0 && macro(w) && macro(w)->functionLike)
                        g.what = Group::What::MacroCall;
                    else if (!isKeyword(w) || isTypeWord(w))
                        g.what = Group::What::Call;
                    groups.push_back(g);
                    ++p;   // the ( is this group's
                }
                continue;
            }
            const std::string& w = t.text;
            if (w == "{") ++braces;
            if (w == "}" && braces > 0) --braces;
            if (w == "::") {
                refuse(t, "the scope operator :: is refused: a kernel file has no namespaces or classes, and every "
                          "name it uses is its own or CUDA's");
            } else if (w == "[" && nx && nx->text == "[") {
                refuse(t, "attributes [[...]] are refused: CUDA's qualifiers (__global__, __device__, __shared__, "
                          "...) are the only ones a kernel needs");
            } else if (w == "(") {
                const Tok* prev = p > 0 ? &tok_[s[p - 1]] : nullptr;
                Group g{Group::What::Other, p};
                if (prev && prev->text == ">") g.what = Group::What::Call;   // static_cast<float>(x)
                groups.push_back(g);
            } else if (w == ")") {
                if (groups.empty()) continue;
                const Group g = groups.back();
                groups.pop_back();
                if (!callNext) continue;
                bool cast = g.what == Group::What::Other && g.open + 1 < p;
                for (size_t i = g.open + 1; cast && i < p; ++i) {
                    const std::string& c = tok_[s[i]].text;
                    cast = isTypeWord(c) || c == "const" || c == "volatile" || c == "__restrict__" || c == "*" || c == "&";
                }
                if (g.what == Group::What::Control || cast) continue;
                if (g.what == Group::What::MacroCall)
                    refuse(*nx, "the expansion of a #define is called here: write the call itself, with the function's name");
                else
                    refuse(*nx, "a call through a pointer or an expression is refused: call a __device__ function of "
                                "this file, or an allowed function, by its name");
            } else if (w == "]" && callNext) {
                refuse(*nx, "a call through an array element or a lambda is refused: call a __device__ function of "
                            "this file, or an allowed function, by its name");
            }
        }
    }

    /// The name or keyword at position p of stream `s`.
    void word(const std::vector<size_t>& s, size_t p, const Macro* owner, bool callNext, bool fileScope)
    {
        const Tok& t = tok_[s[p]];
        const std::string& w = t.text;
        if (isKeyword(w)) {
            if (w == "extern" && p + 1 < s.size() && tok_[s[p + 1]].text == "__shared__") {
                // the name: the first word after __shared__ that is not a type or qualifier
                const Tok* name = nullptr;
                for (size_t q = p + 2; q < s.size() && q < p + 12; ++q) {
                    const Tok& c = tok_[s[q]];
                    if (c.kind == Kind::Word && !isTypeWord(c.text) && !isQualifier(c.text) && !isKeyword(c.text)) {
                        name = &c;
                        break;
                    }
                }
                const Tok& where = name ? *name : t;
                refuse(where, "extern __shared__ " + (name ? name->text : std::string("array")) +
                                  " (dynamic shared memory) is not supported: declare the array with a constant size, "
                                  "as PMPP Fig. 5.9 does");
                return;
            }
            if (w == "static" && staticOk_.count(s[p])) return;
            if (const char* why = refusedKeyword(w)) refuse(t, why);
            return;
        }
        if (!plainName(w)) {
            refuse(t, "this name is refused: a kernel's names are written in the letters A-Z and a-z, the digits and _");
            return;
        }
        if (const std::string why = refusedReservedName(w); !why.empty()) {
            refuse(t, why);
            return;
        }
        if (w == "__launch_bounds__" && !launchBoundsOk_.count(s[p])) {
            refuse(t, "__launch_bounds__ is refused here: it belongs in the head of the __global__ kernel, before its name");
            return;
        }
        const Macro* m = paramIndex(owner, w) >= 0 ? nullptr : macro(w);
        if (m && m->functionLike && !callNext) {
            refuse(t, w + " is a #define with parameters, named here without its arguments");
            return;
        }
        if (!callNext) return;
        if (paramIndex(owner, w) >= 0) {
            refuse(t, "#define " + owner->name + " calls its parameter " + w +
                          ", which is refused: write the name of the function it calls in the #define");
            return;
        }
        if (m) {
            if (!m->functionLike) refuse(t, w + " is a #define used as a function, which is refused: write the call itself, with the function's name");
            return;
        }
        if (declaratorName_.count(s[p]) || isTypeWord(w) || (isCudaName(w) && w != "__syncthreads")) return;
        if (declares(s, p)) {
            if (fileScope) return;   // fileScope() judges what is declared there
            // `float f();`, `int system(const char*);`: a function declared inside a function
            const Tok* inside = p + 2 < s.size() ? &tok_[s[p + 2]] : nullptr;
            const Tok* after = p + 3 < s.size() ? &tok_[s[p + 3]] : nullptr;
            const bool typed = inside && (isTypeWord(inside->text) || isQualifier(inside->text)) &&
                               !(after && (after->text == "(" || after->text == "{"));
            if (!inside || inside->text == ")" || typed)
                refuse(t, "a function declared inside a function (" + w + ") is refused: a kernel calls only the "
                                                                           "__device__ functions its file defines and the allowed functions");
            return;
        }
        const Tok* prev = p > 0 ? &tok_[s[p - 1]] : nullptr;
        if (prev && (prev->text == "." || prev->text == "->")) {
            refuse(t, w + "(...) calls a member function, which is refused: a kernel file's types have none");
            return;
        }
        if (isAllowedFunction(w) || ownFunctions_.count(w) || w == kernel_) return;
        if (const std::string why = unsupportedName(w); !why.empty()) {
            refuse(t, why);
            return;
        }
        refuse(t, w + " is neither a __device__ function of this file nor one of the functions a kernel may call "
                      "(CUDA's built-ins and the math functions the CPU and the GPU round alike, docs/student-kernels.md)");
    }

    static constexpr size_t npos = static_cast<size_t>(-1);

    const std::string& src_;
    const ScanLimits lim_;
    std::vector<Tok> tok_;
    std::vector<size_t> code_;                       ///< tokens outside directives
    std::vector<size_t> partner_;                    ///< matching bracket, by position in code_
    std::vector<Macro> macros_;
    std::unordered_map<std::string, size_t> macroIndex_;
    std::vector<std::vector<size_t>> pragmaCounts_;  ///< the count of each #pragma unroll that has one
    int macroDepth_ = 0;
    int countDepth_ = 0;                             ///< count() calls under way, one inside another
    std::set<std::string> ownFunctions_;             ///< the file's __device__ functions with bodies
    std::string kernel_;
    std::unordered_set<size_t> declaratorName_;      ///< names declared at file scope (tokens)
    std::unordered_set<size_t> launchBoundsOk_;      ///< __launch_bounds__ in the kernel's head (tokens)
    std::unordered_set<size_t> staticOk_;            ///< static in the head of a __device__ function (tokens)
    std::map<unsigned, Diagnostic> found_;           ///< one refusal per line
    std::vector<Diagnostic> declarations_;           ///< fileScope()'s, added last
};

}  // namespace

const std::vector<std::string>& allowedFunctions()
{
    static const std::vector<std::string> names = {
        "__syncthreads", "make_float4",                             // CUDA's built-ins
        "ceil", "ceilf", "floor", "floorf", "trunc", "truncf",     // exact: an integer value
        "round", "roundf",
        "fabs", "fabsf", "abs", "fmin", "fminf", "fmax", "fmaxf",  // exact
        "min", "max",                                               // int, unsigned and float overloads, as CUDA's
        "sqrt", "sqrtf", "fma", "fmaf",                             // correctly rounded on both
    };
    return names;
}

std::string unsupportedName(const std::string& name)
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
