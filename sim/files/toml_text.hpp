// Text made safe to give to toml++ 3.3 (scenario files, the app's settings file).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ts::sim {

/// A place in a text: 1-based line and column (columns count characters, not bytes).
struct TextPlace {
    int line = 0;   ///< 0: nowhere
    int column = 0;
};

/// True for the code points toml++ 3.3 (Debian 12's) cannot classify: its whitespace check
/// for non-ASCII characters splits U+00A0..U+FEFF into 64 blocks of 1018 code points and
/// handles blocks 0, 11 and 63 nowhere, reaching __builtin_unreachable (undefined
/// behaviour). That is U+00A1..U+0499 (Latin-1 signs such as the multiplication sign and
/// micro sign, Greek, Cyrillic), U+2C5E..U+3057 but U+3000, and U+FB26..U+FEFE. The
/// fuzzers found it (fuzz/).
bool tomlppCannotClassify(char32_t c);

/// What tomlSafeText made of a text.
struct TomlSafeText {
    std::string text;          ///< what to give toml++; only if refused.line is 0
    TextPlace refused;         ///< where a character had to be refused; line 0 if none was
    char32_t character = 0;    ///< that character
    /// Where it stood: outside any string, in a 'literal string', or right after a
    /// backslash in a "basic string" (an escape TOML does not have).
    enum class Where { Outside, LiteralString, AfterBackslash } where = Where::Outside;

    /// The column in the original text of a place toml++ names in `text` (an escape
    /// written in place of a character moves what follows it on its line).
    int originalColumn(int line, int column) const;

    struct Escape {
        int line, column;   ///< where the escape starts in `text`
    };
    std::vector<Escape> escapes;   ///< in order
};

/// `text` with every character toml++ 3.3 cannot classify taken out of its sight, the
/// meaning kept: in a "basic string" (one line or three quotes) it becomes the escape
/// \uXXXX, which toml++ turns back into the same character; in a # comment it becomes '?'.
/// One standing anywhere else (outside strings, where TOML refuses any non-ASCII text; in a
/// 'literal string', which has no escapes; right after a backslash) is refused: the result names its place. Every
/// other byte, other non-ASCII text and malformed UTF-8 included, is passed on unchanged for
/// toml++ to judge. Strings are found as TOML 1.0 writes them; whatever this scan makes of
/// malformed text, toml++ never receives one of those characters.
TomlSafeText tomlSafeText(std::string_view text);

/// Why tomlSafeText refused `t`'s character, as the end of a sentence (no place): "a
/// non-ASCII character (U+0416) outside quotes; TOML allows them only in ...".
std::string refusalReason(const TomlSafeText& t);

}  // namespace ts::sim
