#include "sim/files/toml_text.hpp"

#include <cstdint>
#include <cstdio>

namespace ts::sim {

bool tomlppCannotClassify(char32_t c)
{
    // The block test of toml++ 3.3's is_non_ascii_horizontal_whitespace, inverted: which
    // code points reach its `default: unreachable`.
    if (c <= 0xA0 || c > 0xFEFF || c == 0x3000 || c == 0xFEFF) return false;
    const std::uint64_t block = (c - 0xA0) / 0x3FA;
    if ((std::uint64_t{1} << block) & 0x7FFFFFFFFFFFF75Eull) return false;
    return block != 5 && block != 7;
}

namespace {

/// The code point of the well-formed UTF-8 sequence at text[i] and its length in bytes, or
/// length 0 if the bytes there are not one (toml++ reports those itself).
struct Decoded {
    char32_t c = 0;
    size_t length = 0;
};

Decoded decodeUtf8(std::string_view text, size_t i)
{
    const auto b = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
    const auto cont = [&](size_t k) { return (b(k) & 0xC0) == 0x80; };
    const unsigned b0 = b(0);
    if (b0 >= 0xC2 && b0 <= 0xDF && cont(1)) return {char32_t((b0 & 0x1F) << 6 | (b(1) & 0x3F)), 2};
    if (b0 >= 0xE0 && b0 <= 0xEF && cont(1) && cont(2)) {
        const char32_t c = (b0 & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
        if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) return {c, 3};
    }
    if (b0 >= 0xF0 && b0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
        const char32_t c = (b0 & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
        if (c >= 0x10000 && c <= 0x10FFFF) return {c, 4};
    }
    return {};
}

bool isAscii(char c) { return static_cast<unsigned char>(c) < 0x80; }

enum class In { Outside, Comment, Basic, Literal, MultiBasic, MultiLiteral };

}  // namespace

TomlSafeText tomlSafeText(std::string_view text)
{
    TomlSafeText r;
    r.text.reserve(text.size());
    In in = In::Outside;
    bool escapeOpen = false;   // the last byte passed on began an escape
    int line = 1, column = 0, outColumn = 0;   // column: in `text`; outColumn: in r.text
    size_t i = 0;
    const size_t n = text.size();
    const auto at = [&](size_t k) { return k < n ? text[k] : '\0'; };
    const auto copy = [&](size_t count) {   // passes `count` bytes on, keeping line and column
        for (size_t k = 0; k < count && i < n; ++k) {
            const char c = text[i++];
            r.text += c;
            if (c == '\n') {
                ++line;
                column = outColumn = 0;
            } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
                ++column;
                ++outColumn;
            }
        }
    };
    while (i < n) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            const Decoded d = decodeUtf8(text, i);
            const bool afterBackslash = escapeOpen;
            escapeOpen = false;
            if (d.length == 0 || !tomlppCannotClassify(d.c)) {
                copy(d.length ? d.length : 1);
                continue;
            }
            if ((in == In::Basic || in == In::MultiBasic) && !afterBackslash) {
                r.escapes.push_back({line, outColumn + 1});
                outColumn += 5;   // the escape's six characters stand for one
                char escape[8];
                std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(d.c));
                r.text += escape;
            } else if (in == In::Comment) {
                r.text += '?';
            } else {
                r.refused = {line, column + 1};
                r.character = d.c;
                r.where = afterBackslash                                  ? TomlSafeText::Where::AfterBackslash
                          : in == In::Literal || in == In::MultiLiteral ? TomlSafeText::Where::LiteralString
                                                                        : TomlSafeText::Where::Outside;
                return r;
            }
            i += d.length;
            ++column;
            ++outColumn;
            continue;
        }
        switch (in) {
        case In::Outside:
            if (c == '#') in = In::Comment;
            else if (c == '"') in = at(i + 1) == '"' && at(i + 2) == '"' ? In::MultiBasic : In::Basic;
            else if (c == '\'') in = at(i + 1) == '\'' && at(i + 2) == '\'' ? In::MultiLiteral : In::Literal;
            copy(in == In::MultiBasic || in == In::MultiLiteral ? 3 : 1);
            break;
        case In::Comment:
            if (c == '\n') in = In::Outside;
            copy(1);
            break;
        case In::Basic:
        case In::Literal:
            if (c == '\n' || (c == '"' && in == In::Basic) || (c == '\'' && in == In::Literal)) in = In::Outside;
            // An escaped ASCII character (\" or \\) is passed on with its backslash; one
            // before a non-ASCII character is left open for the branch above.
            if (c == '\\' && in == In::Basic && !isAscii(at(i + 1))) escapeOpen = true;
            copy(c == '\\' && in == In::Basic && at(i + 1) != '\n' && isAscii(at(i + 1)) ? 2 : 1);
            break;
        case In::MultiBasic:
        case In::MultiLiteral: {
            const char quote = in == In::MultiBasic ? '"' : '\'';
            if (c == quote && at(i + 1) == quote && at(i + 2) == quote) {
                // The closing delimiter, and up to two quotes of the content just before it
                // ("""a""""" is a"" followed by the delimiter).
                size_t run = 0;
                while (run < 5 && at(i + run) == quote) ++run;
                copy(run);
                in = In::Outside;
            } else {
                if (c == '\\' && in == In::MultiBasic && !isAscii(at(i + 1))) escapeOpen = true;
                copy(c == '\\' && in == In::MultiBasic && isAscii(at(i + 1)) ? 2 : 1);
            }
            break;
        }
        }
    }
    return r;
}

int TomlSafeText::originalColumn(int line, int column) const
{
    int original = column;
    for (const Escape& e : escapes)
        if (e.line == line && e.column < column) original -= 5;
    return original;
}

std::string refusalReason(const TomlSafeText& t)
{
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(t.character));
    switch (t.where) {
    case TomlSafeText::Where::LiteralString:
        return std::string("the character ") + code +
               " in a 'literal string', where the TOML reader (toml++ 3.3) cannot take it; put the text in "
               "\"double quotes\" instead.";
    case TomlSafeText::Where::AfterBackslash:
        return std::string("a backslash before the character ") + code + ", which is no TOML escape.";
    case TomlSafeText::Where::Outside:
        break;
    }
    return std::string("a non-ASCII character (") + code +
           ") outside quotes; TOML allows them only in \"strings\" and # comments.";
}

}  // namespace ts::sim
