#include "sim/teaching/expression.hpp"

#include <cctype>

namespace ts::sim {
namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
/// The end of the name that starts at `b`: an identifier, with a `.x`, `.y` or `.z` member
/// as CUDA's built-in variables have (`threadIdx.x` is one name).
size_t nameEnd(std::string_view s, size_t b)
{
    size_t e = b;
    while (e < s.size() && identChar(s[e])) ++e;
    if (e + 1 < s.size() && s[e] == '.' && (s[e + 1] == 'x' || s[e + 1] == 'y' || s[e + 1] == 'z') &&
        (e + 2 == s.size() || !identChar(s[e + 2])))
        e += 2;
    return e;
}

/// Recursive-descent parser: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
/// unary := '-' unary | primary; primary := number | name | '(' expr ')'.
class Parser {
public:
    Parser(std::string_view s, const Variables& v) : s_(s), vars_(v) {}

    Evaluation run()
    {
        long long v = expr();
        skip();
        if (error_.empty() && pos_ != s_.size())
            fail("unexpected '" + std::string(1, s_[pos_]) + "' at position " + std::to_string(pos_));
        if (!error_.empty()) return Evaluation{std::nullopt, error_, unknown_};
        return Evaluation{v, {}, {}};
    }

private:
    void skip()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    bool eat(char c)
    {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) { ++pos_; return true; }
        return false;
    }
    void fail(const std::string& why)
    {
        if (error_.empty()) error_ = "Cannot evaluate '" + std::string(s_) + "': " + why + ".";
    }
    /// a op b, or a failure when the result does not fit in a long long (signed overflow
    /// would be undefined behaviour).
    long long checked(long long a, char op, long long b)
    {
        long long r = 0;
        const bool over = op == '+' ? __builtin_add_overflow(a, b, &r)
                          : op == '-' ? __builtin_sub_overflow(a, b, &r)
                                      : __builtin_mul_overflow(a, b, &r);
        if (over) fail("the value is too large");
        return over ? 0 : r;
    }
    long long expr()
    {
        long long v = term();
        while (error_.empty()) {
            if (eat('+')) v = checked(v, '+', term());
            else if (eat('-')) v = checked(v, '-', term());
            else break;
        }
        return v;
    }
    long long term()
    {
        long long v = unary();
        while (error_.empty()) {
            if (eat('*')) {
                v = checked(v, '*', unary());
            } else if (eat('/')) {
                long long d = unary();
                if (d == 0) { fail("division by zero"); return 0; }
                if (d == -1) { v = checked(0, '-', v); continue; }   // LLONG_MIN / -1 overflows
                v /= d;
            } else {
                break;
            }
        }
        return v;
    }
    long long unary()
    {
        if (eat('-')) {
            if (!deeper()) return 0;
            const long long v = checked(0, '-', unary());
            --depth_;
            return v;
        }
        return primary();
    }
    /// Counts one level of nesting; fails past kMaxDepth, so that a written expression
    /// (a scenario file's question) cannot exhaust the stack.
    bool deeper()
    {
        if (++depth_ <= kMaxDepth) return true;
        fail("it is nested too deeply");
        return false;
    }
    static constexpr int kMaxDepth = 64;
    long long primary()
    {
        skip();
        if (pos_ >= s_.size()) { fail("it ends too early"); return 0; }
        if (eat('(')) {
            if (!deeper()) return 0;
            long long v = expr();
            --depth_;
            if (!eat(')')) fail("a ')' is missing");
            return v;
        }
        const char c = s_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            long long v = 0;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
                v = checked(checked(v, '*', 10), '+', s_[pos_++] - '0');
            return v;
        }
        if (identStart(c)) {
            size_t b = pos_;
            pos_ = nameEnd(s_, pos_);
            std::string name(s_.substr(b, pos_ - b));
            auto it = vars_.find(name);
            if (it == vars_.end()) {
                if (error_.empty()) unknown_ = name;
                fail("the value of '" + name + "' is not known here");
                return 0;
            }
            return it->second;
        }
        fail("unexpected '" + std::string(1, c) + "' at position " + std::to_string(pos_));
        return 0;
    }

    std::string_view s_;
    const Variables& vars_;
    size_t pos_ = 0;
    int depth_ = 0;
    std::string error_;
    std::string unknown_;   ///< the name that had no value, when that failed the evaluation
};

}  // namespace

Evaluation evaluate(std::string_view expr, const Variables& vars)
{
    return Parser(expr, vars).run();
}

std::string substitute(std::string_view expr, const Variables& vars)
{
    std::string out;
    for (size_t i = 0; i < expr.size();) {
        if (identStart(expr[i])) {
            size_t b = i;
            i = nameEnd(expr, i);
            std::string name(expr.substr(b, i - b));
            auto it = vars.find(name);
            out += it == vars.end() ? name : std::to_string(it->second);
        } else {
            out += expr[i++];
        }
    }
    return out;
}

std::string AccessText::text() const
{
    std::string t = array;
    for (const std::string& s : subscripts) t += "[" + s + "]";
    return t;
}

std::vector<AccessText> findAccesses(std::string_view line, const std::vector<std::string>& arrays)
{
    std::vector<AccessText> found;
    size_t i = 0;
    auto skipSpace = [&](size_t p) {
        while (p < line.size() && std::isspace(static_cast<unsigned char>(line[p]))) ++p;
        return p;
    };
    while (i < line.size()) {
        if (!identStart(line[i])) { ++i; continue; }
        size_t b = i;
        while (i < line.size() && identChar(line[i])) ++i;
        std::string name(line.substr(b, i - b));
        bool known = false;
        for (const std::string& a : arrays) known = known || a == name;
        size_t p = skipSpace(i);
        if (!known || p >= line.size() || line[p] != '[') continue;
        AccessText acc{name, {}};
        while (p < line.size() && line[p] == '[') {
            int depth = 1;
            size_t start = p + 1, q = start;
            for (; q < line.size() && depth > 0; ++q) {
                if (line[q] == '[') ++depth;
                if (line[q] == ']') --depth;
            }
            if (depth != 0) break;   // unbalanced: not an access we can read
            acc.subscripts.emplace_back(line.substr(start, q - 1 - start));
            p = skipSpace(q);
        }
        if (!acc.subscripts.empty()) found.push_back(acc);
        i = p;
    }
    return found;
}

}  // namespace ts::sim
