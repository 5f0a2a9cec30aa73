// Internal to the lexer scan (frontend/scan.hpp); not for other callers. What the files of
// the scan share: the token and #define records, the Scanner class and the word tests its
// passes use. scan.cpp lexes, scan_macros.cpp reads and counts the #defines, scan_code.cpp
// checks the code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/scan.hpp"

namespace ts::student::scan_detail {

/// a + b, saturating at a size far above every limit (scan.cpp's kHuge).
uint64_t add(uint64_t a, uint64_t b);
/// a * b, saturating as add() does.
uint64_t mul(uint64_t a, uint64_t b);
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

/// Whether [from, to) of `s` holds nothing but line splices.
bool onlySplices(const std::string& s, size_t from, size_t to);
/// Whether `s` is a C++ keyword.
bool isKeyword(const std::string& s);
/// Whether `s` is a built-in type name (a declaration starts with one).
bool isTypeWord(const std::string& s);
/// Whether `s` may stand between a type and the name it declares, or before the type.
bool isQualifier(const std::string& s);
/// Whether `s` is one of CUDA's names that begin with __ which a kernel file may use.
bool isCudaName(const std::string& s);
/// Whether `s` is a name the prelude declares besides the functions.
bool isBuiltinVariable(const std::string& s);
/// Whether `s` is on allowedFunctions().
bool isAllowedFunction(const std::string& s);
/// Whether `s` is ( [ or {.
bool isOpener(const std::string& s);
/// Whether `s` is ) ] or }.
bool isCloser(const std::string& s);
/// The bracket that closes opener `s`.
char closerOf(const std::string& s);
/// Why keyword `k` is refused anywhere in a kernel file, or nullptr.
const char* refusedKeyword(const std::string& k);
/// Why a name that begins with _ is refused, or "" when it may be used.
std::string refusedReservedName(const std::string& n);
/// Whether `s` is an identifier (letters, digits and _, not starting with a digit).
bool plainName(const std::string& s);

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

    std::vector<Diagnostic> run();

private:
    // ---- refusals -------------------------------------------------------------------------------

    void refuse(unsigned line, unsigned column, std::string why);
    void refuse(const Tok& t, std::string why) { refuse(t.line, t.column, std::move(why)); }
    /// A declaration at file scope refused: reported where no word of its line is.
    void decline(const Tok& t, std::string why) { declarations_.push_back(Diagnostic{t.line, t.column, std::move(why)}); }
    std::vector<Diagnostic> finish();

    // ---- line splices ----------------------------------------------------------------------------

    /// Refuses a line splice (a backslash at the end of a line) outside a directive and a
    /// block comment. In code the front end joins the two lines into one, and a rewritten
    /// call across the join (`__s\` then `yncthreads();` on the next line, which the fuzzer
    /// found) loses a line break, so the simulator's line numbers would no longer be the
    /// student's; no kernel needs one. At the end of a // comment it makes the next line part
    /// of the comment, a line of code that silently vanishes. A #define may go on over
    /// several lines as C++ allows.
    void splices();

    // ---- lexing ---------------------------------------------------------------------------------

    /// The student's tokens, comments left out; false when the scan cannot go on.
    bool lex();

    // ---- directives -----------------------------------------------------------------------------

    /// Splits the tokens into the code and the directives and reads the #defines; false when
    /// the scan cannot go on.
    bool directives();

    void directive(size_t hash, size_t end);

    void define(size_t hash, size_t at, size_t end);

    void pragma(size_t hash, size_t at, size_t end);

    const Macro* macro(const std::string& name) const;
    Macro* macro(const std::string& name);
    static int paramIndex(const Macro* m, const std::string& name);

    // ---- counting expansions ----------------------------------------------------------------------

    /// The expansion of macro `m`, counted from its body; nullptr when it cannot be counted
    /// (it expands into itself, or its #defines nest too deep), which is refused.
    const Form* macroForm(Macro& m);

    /// Counts the expansion of tokens [from, to) of `stream` (a macro's body when `owner` is
    /// that macro, whose parameters stay unknowns; else code): into `out`, its size and
    /// nesting as functions of owner's arguments. False when it cannot be counted (refused).
    bool count(const std::vector<size_t>& stream, size_t from, size_t to, const Macro* owner, int level, Form& out);

    // ---- brackets and limits ------------------------------------------------------------------------

    /// partner_[p]: the position in code_ of the bracket that closes (or opens) the one at p.
    void matchBrackets();

    /// The code as it would be after expansion: its size, each statement's size and the
    /// nesting of brackets and statements, counted. False when a limit is exceeded (the rest
    /// of the file is not looked at).
    bool structure();

    // ---- declarations at file scope ---------------------------------------------------------------

    const Tok& at(size_t p) const { return tok_[code_[p]]; }

    /// The declarations at file scope: #defines aside, the __constant__ mask, __device__
    /// functions with their bodies and the one __global__ kernel.
    void fileScope();

    // ---- each token ---------------------------------------------------------------------------------

    /// Whether the name at position p of `s`, followed by `(`, declares something
    /// (`float x(1.0f)`, `int f(int)`) rather than calls it.
    bool declares(const std::vector<size_t>& s, size_t p) const;
    /// How far back declares() looks for the start of a declaration with commas.
    static constexpr size_t kDeclarationReach = 256;
    bool statementStartsWithType(const std::vector<size_t>& s, size_t r) const;

    /// Every token of `s` (the code, a #define's body or a #pragma unroll count) on its own:
    /// keywords, names, literals and calls.
    void checkStream(const std::vector<size_t>& s, const Macro* owner);

    /// The name or keyword at position p of stream `s`.
    void word(const std::vector<size_t>& s, size_t p, const Macro* owner, bool callNext, bool fileScope);

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

}  // namespace ts::student::scan_detail
