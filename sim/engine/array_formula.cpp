// The reference formula of an array problem (sim/engine/array_formula.hpp): a small C
// expression parser that keeps C's types, and an evaluator that contracts products into
// fused multiply-adds where nvcc does.
#include "sim/engine/array_formula.hpp"

#include "sim/catalogue/array_spec.hpp"
#include "sim/teaching/words.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ts::sim {

/// The value types of C that a formula can have.
enum class Type { Int, Float, Double };

struct ArrayFormula::Node {
    enum Kind { IntLit, RealLit, Name, Read, Neg, Not, Binary, Cond, Call } kind = IntLit;
    Type type = Type::Int;
    long long i = 0;                 ///< IntLit
    double d = 0;                    ///< RealLit (already rounded to float for a float literal)
    std::string name;                ///< Name, Call (function), Binary (operator)
    int array = -1;                  ///< Read: index into inputs_
    std::vector<std::shared_ptr<const Node>> kids;
};

namespace {

using NodeP = std::shared_ptr<const ArrayFormula::Node>;
using Node = ArrayFormula::Node;

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

Type promote(Type a, Type b)
{
    if (a == Type::Double || b == Type::Double) return Type::Double;
    if (a == Type::Float || b == Type::Float) return Type::Float;
    return Type::Int;
}

/// Recursive descent over C's precedence: ?: || && (== !=) (< <= > >=) (+ -) (* / %) unary primary.
class Parser {
public:
    Parser(const std::string& s, const std::vector<FormulaArray>& inputs, const std::vector<std::string>& indices,
           const Variables& sizes)
        : s_(s), inputs_(inputs), indices_(indices), sizes_(sizes) {}

    NodeP run(size_t from, std::string& error)
    {
        pos_ = from;
        NodeP n = cond();
        skip();
        if (error_.empty() && pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "'");
        error = error_;
        return error_.empty() ? n : nullptr;
    }
    /// The formula calls sum(A, first, last).
    bool rangedSum = false;

private:
    void skip()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    bool peek(const char* op)
    {
        skip();
        return s_.compare(pos_, std::char_traits<char>::length(op), op) == 0;
    }
    bool eat(const char* op)
    {
        if (!peek(op)) return false;
        pos_ += std::char_traits<char>::length(op);
        return true;
    }
    void fail(const std::string& why)
    {
        if (error_.empty()) error_ = why;
    }
    static NodeP make(Node n) { return std::make_shared<const Node>(std::move(n)); }
    NodeP binary(const std::string& op, NodeP a, NodeP b)
    {
        if (!a || !b) return nullptr;
        Node n;
        n.kind = Node::Binary;
        n.name = op;
        const bool logical = op == "&&" || op == "||" || op == "<" || op == ">" || op == "<=" || op == ">=" ||
                             op == "==" || op == "!=";
        n.type = logical ? Type::Int : promote(a->type, b->type);
        if (op == "%" && n.type != Type::Int) fail("% needs two integers (use fmodf for floats, which a formula does not offer)");
        n.kids = {std::move(a), std::move(b)};
        return make(std::move(n));
    }
    NodeP cond()
    {
        NodeP c = logicalOr();
        if (!eat("?")) return c;
        NodeP a = cond();
        if (!eat(":")) fail("a ':' is missing after '?'");
        NodeP b = cond();
        if (!c || !a || !b) return nullptr;
        Node n;
        n.kind = Node::Cond;
        n.type = promote(a->type, b->type);
        n.kids = {c, a, b};
        return make(std::move(n));
    }
    NodeP logicalOr()
    {
        NodeP v = logicalAnd();
        while (error_.empty() && eat("||")) v = binary("||", v, logicalAnd());
        return v;
    }
    NodeP logicalAnd()
    {
        NodeP v = equality();
        while (error_.empty() && eat("&&")) v = binary("&&", v, equality());
        return v;
    }
    NodeP equality()
    {
        NodeP v = relational();
        while (error_.empty()) {
            if (eat("==")) v = binary("==", v, relational());
            else if (eat("!=")) v = binary("!=", v, relational());
            else break;
        }
        return v;
    }
    NodeP relational()
    {
        NodeP v = additive();
        while (error_.empty()) {
            if (eat("<=")) v = binary("<=", v, additive());
            else if (eat(">=")) v = binary(">=", v, additive());
            else if (eat("<")) v = binary("<", v, additive());
            else if (eat(">")) v = binary(">", v, additive());
            else break;
        }
        return v;
    }
    NodeP additive()
    {
        NodeP v = multiplicative();
        while (error_.empty()) {
            if (eat("+")) v = binary("+", v, multiplicative());
            else if (eat("-")) v = binary("-", v, multiplicative());
            else break;
        }
        return v;
    }
    NodeP multiplicative()
    {
        NodeP v = unary();
        while (error_.empty()) {
            if (eat("*")) v = binary("*", v, unary());
            else if (eat("/")) v = binary("/", v, unary());
            else if (eat("%")) v = binary("%", v, unary());
            else break;
        }
        return v;
    }
    NodeP unary()
    {
        if (++depth_ > 64) {
            fail("it is nested too deeply");
            return nullptr;
        }
        NodeP r;
        if (eat("-")) {
            NodeP a = unary();
            if (a) {
                Node n;
                n.kind = Node::Neg;
                n.type = a->type;
                n.kids = {a};
                r = make(std::move(n));
            }
        } else if (eat("+")) {
            r = unary();
        } else if (eat("!")) {
            NodeP a = unary();
            if (a) {
                Node n;
                n.kind = Node::Not;
                n.kids = {a};
                r = make(std::move(n));
            }
        } else {
            r = primary();
        }
        --depth_;
        return r;
    }
    NodeP number()
    {
        const size_t b = pos_;
        bool real = false;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        if (pos_ < s_.size() && s_[pos_] == '.') {
            real = true;
            ++pos_;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        }
        if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
            real = true;
            ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        }
        const std::string text = s_.substr(b, pos_ - b);
        const bool f = pos_ < s_.size() && (s_[pos_] == 'f' || s_[pos_] == 'F');
        if (f) ++pos_;
        if (pos_ < s_.size() && identChar(s_[pos_])) {
            fail("'" + s_.substr(b, pos_ + 1 - b) + "' is not a number as C writes one");
            return nullptr;
        }
        if (f && !real) {
            fail("'" + text + "f' is not a C literal; write " + text + ".0f");
            return nullptr;
        }
        Node n;
        if (real) {
            n.kind = Node::RealLit;
            n.type = f ? Type::Float : Type::Double;
            // strtof rounds the decimal text once, as the compiler does for a float literal.
            n.d = f ? static_cast<double>(std::strtof(text.c_str(), nullptr)) : std::strtod(text.c_str(), nullptr);
        } else {
            n.kind = Node::IntLit;
            errno = 0;
            n.i = std::strtoll(text.c_str(), nullptr, 10);
            if (errno == ERANGE || n.i > 2147483647ll) {
                fail("the literal " + text + " does not fit in an int");
                return nullptr;
            }
        }
        return make(std::move(n));
    }
    NodeP primary()
    {
        skip();
        if (pos_ >= s_.size()) {
            fail("it ends too early");
            return nullptr;
        }
        if (eat("(")) {
            NodeP v = cond();
            if (!eat(")")) fail("a ')' is missing");
            return v;
        }
        const char c = s_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (c == '\'') {
            // A character literal, 'a': its code, an int (a histogram's letters, PMPP ch. 9).
            if (pos_ + 2 >= s_.size() || s_[pos_ + 2] != '\'' || s_[pos_ + 1] == '\\' || s_[pos_ + 1] == '\'') {
                fail("a character literal is one plain character in quotes, like 'a'");
                return nullptr;
            }
            Node n;
            n.kind = Node::IntLit;
            n.i = static_cast<signed char>(s_[pos_ + 1]);
            pos_ += 3;
            return make(std::move(n));
        }
        if (!identStart(c)) {
            fail("unexpected '" + std::string(1, c) + "'");
            return nullptr;
        }
        const size_t b = pos_;
        while (pos_ < s_.size() && identChar(s_[pos_])) ++pos_;
        const std::string name = s_.substr(b, pos_ - b);
        if (peek("(")) return call(name);
        if (name == "NAN") {
            Node n;
            n.kind = Node::RealLit;
            n.type = Type::Float;
            n.d = static_cast<double>(std::nanf(""));
            return make(std::move(n));
        }
        for (size_t a = 0; a < inputs_.size(); ++a)
            if (inputs_[a].name == name) return read(name, static_cast<int>(a));
        if (peek("[")) {
            fail(name + " is not an input array of the problem; the formula reads " + inputNames());
            return nullptr;
        }
        bool known = sizes_.count(name) > 0;
        for (const std::string& i : indices_) known = known || i == name;
        if (!known) {
            fail("'" + name + "' is neither an index of the left side, nor a size, nor an input array");
            return nullptr;
        }
        Node n;
        n.kind = Node::Name;
        n.name = name;
        return make(std::move(n));
    }
    std::string inputNames() const
    {
        std::string o;
        for (size_t a = 0; a < inputs_.size(); ++a) o += (a ? (a + 1 == inputs_.size() ? " and " : ", ") : "") + inputs_[a].name;
        return o.empty() ? "no arrays" : o;
    }
    NodeP read(const std::string& name, int array)
    {
        Node n;
        n.kind = Node::Read;
        n.type = Type::Float;
        n.array = array;
        n.name = name;
        while (eat("[")) {
            NodeP sub = cond();
            if (!eat("]")) fail("a ']' is missing after a subscript of " + name);
            if (!sub) return nullptr;
            if (sub->type != Type::Int) fail("the subscript of " + name + " must be an integer expression");
            n.kids.push_back(sub);
        }
        const size_t want = static_cast<size_t>(inputs_[static_cast<size_t>(array)].dims());
        if (n.kids.size() != want) {
            fail(name + " is " + (want == 3 ? "3D, read as " + name + "[i][j][k]" : want == 2 ? "2D, read as " + name + "[row][col]" : "1D, read as " + name + "[i]") + "; the formula gives it " +
                 std::to_string(n.kids.size()) + " subscript" + (n.kids.size() == 1 ? "" : "s"));
            return nullptr;
        }
        return make(std::move(n));
    }
    NodeP call(const std::string& fn)
    {
        if (fn == "count") {
            // count(A, lo, hi) or count(A, lo, hi, first, last): how many elements of input A
            // (those from index first to last) lie between lo and hi, an int (a histogram's
            // bin, PMPP ch. 9).
            eat("(");
            skip();
            const size_t b = pos_;
            while (pos_ < s_.size() && identChar(s_[pos_])) ++pos_;
            const std::string name = s_.substr(b, pos_ - b);
            Node n;
            n.kind = Node::Call;
            n.name = fn;
            n.type = Type::Int;
            for (size_t a = 0; a < inputs_.size(); ++a)
                if (inputs_[a].name == name) n.array = static_cast<int>(a);
            if (n.array < 0) {
                fail("count(" + name + ", lo, hi): " + name + " is not an input array of the problem; the formula reads " + inputNames());
                return nullptr;
            }
            while (eat(",")) {
                NodeP k = cond();
                if (!k) return nullptr;
                if (k->type != Type::Int) fail("the bounds of count are integer expressions");
                n.kids.push_back(k);
            }
            if (!eat(")") || (n.kids.size() != 2 && n.kids.size() != 4)) {
                fail("count takes an input array and two bounds, and optionally a first and last index: count(" + name +
                     ", lo, hi) or count(" + name + ", lo, hi, first, last)");
                return nullptr;
            }
            return make(std::move(n));
        }
        if (fn == "sum") {
            // sum(A): every element of input A, added in float in index order; sum(A, first,
            // last): those from index first to last (a scan's prefix, PMPP ch. 11).
            eat("(");
            skip();
            const size_t b = pos_;
            while (pos_ < s_.size() && identChar(s_[pos_])) ++pos_;
            const std::string name = s_.substr(b, pos_ - b);
            Node n;
            n.kind = Node::Call;
            n.name = fn;
            n.type = Type::Float;
            for (size_t a = 0; a < inputs_.size(); ++a)
                if (inputs_[a].name == name) n.array = static_cast<int>(a);
            if (n.array < 0) {
                fail("sum(" + name + "): " + name + " is not an input array of the problem; the formula reads " + inputNames());
                return nullptr;
            }
            while (eat(",")) {
                NodeP k = cond();
                if (!k) return nullptr;
                if (k->type != Type::Int) fail("the first and last index of sum are integer expressions");
                n.kids.push_back(k);
            }
            if (!eat(")") || (n.kids.size() != 0 && n.kids.size() != 2)) {
                fail("sum takes the name of an input array, and optionally a first and last index: sum(" + name + ") or sum(" +
                     name + ", first, last)");
                return nullptr;
            }
            if (!n.kids.empty()) rangedSum = true;
            return make(std::move(n));
        }
        const bool one = fn == "sqrtf" || fn == "fabsf";
        const bool two = fn == "fminf" || fn == "fmaxf" || fn == "min" || fn == "max";
        if (!one && !two) {
            fail("the function " + fn + " is not one a formula may call (sqrtf, fabsf, fminf, fmaxf, min, max, sum, count): "
                 "others, like expf or sinf, are not rounded the same on the CPU and the GPU");
            return nullptr;
        }
        eat("(");
        Node n;
        n.kind = Node::Call;
        n.name = fn;
        NodeP a = cond();
        n.kids.push_back(a);
        if (two) {
            if (!eat(",")) fail(fn + " takes two arguments");
            n.kids.push_back(cond());
        }
        if (!eat(")")) fail("a ')' is missing after the arguments of " + fn);
        for (const NodeP& k : n.kids)
            if (!k) return nullptr;
        n.type = (fn == "min" || fn == "max") ? promote(n.kids[0]->type, n.kids[1]->type) : Type::Float;
        return make(std::move(n));
    }

    const std::string& s_;
    const std::vector<FormulaArray>& inputs_;
    const std::vector<std::string>& indices_;
    const Variables& sizes_;
    size_t pos_ = 0;
    int depth_ = 0;
    std::string error_;
};

/// A value of one of C's types: an int in `i`, a float or a double in `d` (a float exactly
/// representable, rounded after every operation).
struct Value {
    Type type = Type::Int;
    long long i = 0;
    double d = 0;
    double real() const { return type == Type::Int ? static_cast<double>(i) : d; }
    bool truth() const { return type == Type::Int ? i != 0 : d != 0; }
};

/// `v` converted to type `t` (an int to float rounds as C does).
Value as(const Value& v, Type t)
{
    if (v.type == t) return v;
    Value r;
    r.type = t;
    if (t == Type::Int) r.i = static_cast<long long>(v.d);
    else if (t == Type::Float) r.d = v.type == Type::Int ? static_cast<double>(static_cast<float>(v.i)) : static_cast<double>(static_cast<float>(v.d));
    else r.d = v.real();
    return r;
}

Value real(Type t, double d)
{
    Value r;
    r.type = t;
    r.d = t == Type::Float ? static_cast<double>(static_cast<float>(d)) : d;
    return r;
}

struct Evaluator {
    const std::vector<FormulaArray>& inputs;
    const Variables& vars;
    const std::vector<std::string>& indices;   ///< the left side's index names...
    long long index[3] = {0, 0, 0};             ///< ...and their values for this element
    uint64_t flops = 0;
    std::string error;
    /// Each input's running sums (ArrayFormula::element), or null.
    const std::vector<std::vector<float>>* running = nullptr;

    bool fail(const std::string& why)
    {
        if (error.empty()) error = why;
        return false;
    }

    bool isProduct(const Node& n, Type t) const { return n.kind == Node::Binary && n.name == "*" && n.type == t && t != Type::Int; }

    /// fma(a, b, c) in type t: one rounding.
    Value fused(Type t, const Value& a, const Value& b, const Value& c)
    {
        flops += 2;
        if (t == Type::Float)
            return real(t, static_cast<double>(std::fmaf(static_cast<float>(a.d), static_cast<float>(b.d), static_cast<float>(c.d))));
        return real(t, std::fma(a.d, b.d, c.d));
    }

    bool eval(const Node& n, Value& out)
    {
        switch (n.kind) {
        case Node::IntLit: out = Value{Type::Int, n.i, 0}; return true;
        case Node::RealLit: out = Value{n.type, 0, n.d}; return true;
        case Node::Name: {
            for (size_t k = 0; k < indices.size(); ++k)
                if (indices[k] == n.name) {
                    out = Value{Type::Int, index[k], 0};
                    return true;
                }
            auto it = vars.find(n.name);
            if (it == vars.end()) return fail("the value of '" + n.name + "' is not known");
            out = Value{Type::Int, it->second, 0};
            return true;
        }
        case Node::Read: {
            const FormulaArray& a = inputs[static_cast<size_t>(n.array)];
            long long sub[3] = {0, 0, 0};
            for (size_t k = 0; k < n.kids.size() && k < 3; ++k) {
                Value v;
                if (!eval(*n.kids[k], v)) return false;
                sub[k] = v.i;
            }
            long long flat = 0;
            if (a.threeD) {
                const int plane = a.rows / std::max(1, a.slices);
                if (sub[0] < 0 || sub[0] >= a.slices || sub[1] < 0 || sub[1] >= plane || sub[2] < 0 || sub[2] >= a.cols)
                    return fail("the formula reads " + a.name + "[" + std::to_string(sub[0]) + "][" + std::to_string(sub[1]) + "][" +
                                std::to_string(sub[2]) + "], outside " + a.name + " (" + std::to_string(a.slices) + " x " +
                                std::to_string(plane) + " x " + std::to_string(a.cols) + ")");
                flat = (sub[0] * plane + sub[1]) * a.cols + sub[2];
            } else if (a.twoD) {
                if (sub[0] < 0 || sub[0] >= a.rows || sub[1] < 0 || sub[1] >= a.cols)
                    return fail("the formula reads " + a.name + "[" + std::to_string(sub[0]) + "][" + std::to_string(sub[1]) +
                                "], outside " + a.name + " (" + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ")");
                flat = sub[0] * a.cols + sub[1];
            } else {
                const long long size = 1ll * a.rows * a.cols;
                if (sub[0] < 0 || sub[0] >= size)
                    return fail("the formula reads " + a.name + "[" + std::to_string(sub[0]) + "], outside " + a.name + " (" +
                                std::to_string(size) + " elements)");
                flat = sub[0];
            }
            out = Value{Type::Float, 0, static_cast<double>((*a.values)[static_cast<size_t>(flat)])};
            return true;
        }
        case Node::Neg: {
            Value v;
            if (!eval(*n.kids[0], v)) return false;
            if (v.type == Type::Int) v.i = -v.i;
            else v.d = -v.d;
            out = v;
            return true;
        }
        case Node::Not: {
            Value v;
            if (!eval(*n.kids[0], v)) return false;
            out = Value{Type::Int, v.truth() ? 0 : 1, 0};
            return true;
        }
        case Node::Cond: {
            Value c;
            if (!eval(*n.kids[0], c)) return false;
            Value v;
            if (!eval(*n.kids[c.truth() ? 1 : 2], v)) return false;
            out = as(v, n.type);
            return true;
        }
        case Node::Call: {
            if (n.name == "count") {
                const std::vector<float>& v = *inputs[static_cast<size_t>(n.array)].values;
                Value b[4];
                for (size_t k = 0; k < n.kids.size(); ++k)
                    if (!eval(*n.kids[k], b[k])) return false;
                long long first = 0, last = static_cast<long long>(v.size()) - 1;
                if (n.kids.size() == 4) first = std::max(first, b[2].i), last = std::min(last, b[3].i);
                long long c = 0;
                for (long long j = first; j <= last; ++j)
                    c += v[static_cast<size_t>(j)] >= static_cast<float>(b[0].i) && v[static_cast<size_t>(j)] <= static_cast<float>(b[1].i);
                out = Value{Type::Int, c, 0};
                return true;
            }
            if (n.name == "sum") {
                const std::vector<float>& v = *inputs[static_cast<size_t>(n.array)].values;
                long long first = 0, last = static_cast<long long>(v.size()) - 1;
                if (n.kids.size() == 2) {
                    Value b[2];
                    for (size_t k = 0; k < 2; ++k)
                        if (!eval(*n.kids[k], b[k])) return false;
                    first = std::max(first, b[0].i);
                    last = std::min(last, b[1].i);
                }
                float total = 0.0f;
                if (last >= first) {
                    if (first == 0 && running) {
                        total = (*running)[static_cast<size_t>(n.array)][static_cast<size_t>(last) + 1];
                    } else {
                        for (long long j = first; j <= last; ++j) total += v[static_cast<size_t>(j)];
                    }
                    flops += static_cast<uint64_t>(last - first);
                }
                out = real(Type::Float, static_cast<double>(total));
                return true;
            }
            std::vector<Value> a(n.kids.size());
            for (size_t k = 0; k < n.kids.size(); ++k)
                if (!eval(*n.kids[k], a[k])) return false;
            if (n.type != Type::Int) ++flops;
            if (n.name == "sqrtf") out = real(Type::Float, std::sqrt(static_cast<float>(as(a[0], Type::Float).d)));
            else if (n.name == "fabsf") out = real(Type::Float, std::fabs(as(a[0], Type::Float).d));
            else if (n.name == "fminf") out = real(Type::Float, std::fmin(as(a[0], Type::Float).d, as(a[1], Type::Float).d));
            else if (n.name == "fmaxf") out = real(Type::Float, std::fmax(as(a[0], Type::Float).d, as(a[1], Type::Float).d));
            else {
                const Value x = as(a[0], n.type), y = as(a[1], n.type);
                const bool less = n.type == Type::Int ? x.i < y.i : x.d < y.d;
                out = (n.name == "min") == less ? x : y;
                if (n.type != Type::Int) out = real(n.type, n.type == Type::Int ? 0 : (n.name == "min" ? std::fmin(x.d, y.d) : std::fmax(x.d, y.d)));
            }
            return true;
        }
        case Node::Binary: return binary(n, out);
        }
        return fail("the formula has a part it cannot evaluate");
    }

    bool binary(const Node& n, Value& out)
    {
        const std::string& op = n.name;
        const Node& L = *n.kids[0];
        const Node& R = *n.kids[1];
        if (op == "&&" || op == "||") {
            Value a;
            if (!eval(L, a)) return false;
            if ((op == "&&") != a.truth()) {
                out = Value{Type::Int, a.truth() ? 1 : 0, 0};
                return true;
            }
            Value b;
            if (!eval(R, b)) return false;
            out = Value{Type::Int, b.truth() ? 1 : 0, 0};
            return true;
        }
        // nvcc's contraction: a product of the sum's type, as an operand of + or -, fused.
        if ((op == "+" || op == "-") && n.type != Type::Int) {
            const bool left = isProduct(L, n.type), right = !left && isProduct(R, n.type);
            if (left || right) {
                const Node& p = left ? L : R;
                const Node& other = left ? R : L;
                Value a, b, c;
                if (!eval(*p.kids[0], a) || !eval(*p.kids[1], b) || !eval(other, c)) return false;
                a = as(a, n.type), b = as(b, n.type), c = as(c, n.type);
                if (op == "-") {
                    if (left) c.d = -c.d;   // a*b - c
                    else a.d = -a.d;        // c - a*b
                }
                out = fused(n.type, a, b, c);
                return true;
            }
        }
        Value a, b;
        if (!eval(L, a) || !eval(R, b)) return false;
        const Type t = promote(a.type, b.type);
        a = as(a, t), b = as(b, t);
        if (op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=") {
            const double x = a.real(), y = b.real();
            const bool r = op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : op == ">=" ? x >= y : op == "==" ? x == y : x != y;
            if (t == Type::Int) {
                const bool ri = op == "<" ? a.i < b.i : op == ">" ? a.i > b.i : op == "<=" ? a.i <= b.i : op == ">=" ? a.i >= b.i : op == "==" ? a.i == b.i : a.i != b.i;
                out = Value{Type::Int, ri ? 1 : 0, 0};
            } else {
                out = Value{Type::Int, r ? 1 : 0, 0};
            }
            return true;
        }
        if (t == Type::Int) {
            long long r = 0;
            bool over = false;
            if (op == "+") over = __builtin_add_overflow(a.i, b.i, &r);
            else if (op == "-") over = __builtin_sub_overflow(a.i, b.i, &r);
            else if (op == "*") over = __builtin_mul_overflow(a.i, b.i, &r);
            else {
                if (b.i == 0) return fail("the formula divides an integer by zero");
                r = op == "/" ? a.i / b.i : a.i % b.i;
            }
            if (over) return fail("an integer in the formula overflows");
            out = Value{Type::Int, r, 0};
            return true;
        }
        ++flops;
        double r = 0;
        if (t == Type::Float) {
            const float x = static_cast<float>(a.d), y = static_cast<float>(b.d);
            r = op == "+" ? x + y : op == "-" ? x - y : op == "*" ? x * y : x / y;
        } else {
            r = op == "+" ? a.d + b.d : op == "-" ? a.d - b.d : op == "*" ? a.d * b.d : a.d / b.d;
        }
        out = real(t, r);
        return true;
    }
};

}  // namespace

std::string ArrayFormula::parse(const std::string& text, const FormulaArray& out, const std::vector<FormulaArray>& inputs,
                                const Variables& sizes)
{
    out_ = out;
    inputs_ = inputs;
    indices_.clear();
    root_.reset();
    // The left side: OUT[name] or OUT[name][name].
    const size_t eq = text.find('=');
    if (eq == std::string::npos || (eq + 1 < text.size() && text[eq + 1] == '='))
        return "the reference is `" + out.name + (out.twoD ? "[row][col]" : "[i]") + " = EXPRESSION`; this one has no '='";
    const std::string lhs = trim(text.substr(0, eq));
    size_t p = 0;
    while (p < lhs.size() && identChar(lhs[p])) ++p;
    const std::string name = lhs.substr(0, p);
    if (name != out.name)
        return "the left side of the reference must be the output " + out.name + (name.empty() ? "" : ", not " + name);
    while (p < lhs.size()) {
        if (lhs[p] == ' ') {
            ++p;
            continue;
        }
        const size_t close = lhs.find(']', p);
        if (lhs[p] != '[' || close == std::string::npos) return "the left side must be " + out.name + (out.twoD ? "[row][col]" : "[i]") + " with plain index names";
        const std::string idx = trim(lhs.substr(p + 1, close - p - 1));
        bool plain = !idx.empty() && identStart(idx[0]);
        for (char c : idx) plain = plain && identChar(c);
        if (!plain) return "the subscript '" + idx + "' on the left side must be a plain name (the index variable), like i, or row and col";
        if (sizes.count(idx)) return "the index '" + idx + "' on the left side is already a size of the problem; name the index otherwise";
        for (const FormulaArray& a : inputs)
            if (a.name == idx) return "the index '" + idx + "' on the left side is already an array's name";
        for (const std::string& i : indices_)
            if (i == idx) return "the left side uses the index '" + idx + "' twice";
        indices_.push_back(idx);
        p = close + 1;
    }
    const size_t want = static_cast<size_t>(out.dims());
    if (indices_.size() != want)
        return out.name + " is " + (want == 3 ? "3D" : out.twoD ? "2D" : "1D") + ", so the left side is " + out.name +
               (want == 3 ? "[i][j][k]" : out.twoD ? "[row][col]" : "[i]") + "; got " + lhs;
    std::string error;
    Parser parser(text, inputs_, indices_, sizes);
    root_ = parser.run(eq + 1, error);
    rangedSum_ = parser.rangedSum;
    if (!error.empty()) return "cannot read the reference formula: " + error;
    return "";
}

bool ArrayFormula::element(int row, int col, const Variables& sizes, float& value, uint64_t& flops, std::string& error) const
{
    return element(row, col, sizes, value, flops, error, nullptr);
}

bool ArrayFormula::element(int row, int col, const Variables& sizes, float& value, uint64_t& flops, std::string& error,
                           const std::vector<std::vector<float>>* running) const
{
    Evaluator e{inputs_, sizes, indices_, {row, col, 0}, 0, {}, running};
    if (indices_.size() == 1) e.index[0] = 1ll * row * out_.cols + col;
    if (indices_.size() == 3) {
        const int plane = out_.rows / std::max(1, out_.slices);
        e.index[0] = row / plane;
        e.index[1] = row % plane;
        e.index[2] = col;
    }
    Value out;
    if (!root_ || !e.eval(*root_, out)) {
        std::ostringstream o;
        o << (e.error.empty() ? "the formula has not been read" : e.error) << " at " << out_.name;
        if (indices_.size() == 3) o << "[" << e.index[0] << "][" << e.index[1] << "][" << e.index[2] << "]";
        else if (indices_.size() == 2) o << "[" << row << "][" << col << "]";
        else o << "[" << e.index[0] << "]";
        error = o.str();
        return false;
    }
    value = out.type == Type::Int ? static_cast<float>(out.i) : static_cast<float>(out.d);
    flops += e.flops;
    return true;
}

std::vector<float> ArrayFormula::evaluateAll(const Variables& sizes, uint64_t& flops, std::string& error) const
{
    std::vector<float> out(static_cast<size_t>(out_.rows) * out_.cols);
    flops = 0;
    // A scan's reference reads prefixes of its input: their running sums, once, keep it linear.
    std::vector<std::vector<float>> running;
    if (rangedSum_)
        for (const FormulaArray& a : inputs_) {
            std::vector<float>& r = running.emplace_back(1, 0.0f);
            if (a.values)
                for (float v : *a.values) r.push_back(r.back() + v);
        }
    for (int r = 0; r < out_.rows; ++r)
        for (int c = 0; c < out_.cols; ++c)
            if (!element(r, c, sizes, out[static_cast<size_t>(r) * out_.cols + c], flops, error, rangedSum_ ? &running : nullptr))
                return {};
    return out;
}

FormulaArray formulaArray(const ArrayDecl& a, const ArrayShape& sh)
{
    FormulaArray f{a.name, sh.slices * sh.rows, sh.cols, sh.dims == 2, nullptr};
    f.threeD = sh.dims == 3;
    f.slices = sh.slices;
    return f;
}

}  // namespace ts::sim
