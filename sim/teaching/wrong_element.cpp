#include "sim/teaching/wrong_element.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <iomanip>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/engine/provenance.hpp"

namespace ts::sim {

/// `v` as the shortest text that reads back as the same float ("0.75", "-1.0625").
std::string floatText(float v)
{
    std::ostringstream o;
    o << std::setprecision(9) << v;
    for (int p = 1; p <= 9; ++p) {
        std::ostringstream q;
        q << std::setprecision(p) << v;
        // strtof, not stof: a subnormal value must not throw.
        if (std::isnan(v) || std::strtof(q.str().c_str(), nullptr) == v) return q.str();
    }
    return o.str();
}

std::string threadText(const Dim3& block, int thread)
{
    const unsigned bx = block.x ? block.x : 1, by = block.y ? block.y : 1;
    std::ostringstream o;
    o << "(tx=" << thread % bx << ", ty=" << (thread / bx) % by << ")";
    return o.str();
}


/// The element array `a` holds at flat index `i`, as the kernel's text names it: "M[2][5]" or
/// "N[7]".
std::string elementText(const ArrayInfo& a, long long i)
{
    if (a.rows <= 1) return a.name + "[" + std::to_string(i) + "]";
    const RowCol rc = a.rowCol(i);
    return a.name + "[" + std::to_string(rc.row) + "][" + std::to_string(rc.col) + "]";
}


std::vector<SummedTerm> termsSummedDetail(const Simulation& t, int thread, int p, long long element)
{
    std::vector<const Event*> order;
    for (const Event& e : t.trace.events) order.push_back(&e);
    std::sort(order.begin(), order.end(), [](const Event* a, const Event* b) { return a->seq < b->seq; });
    const auto& arrays = t.trace.arrays;
    std::map<std::pair<int, int>, Operand> slot;   // what each shared slot holds now, and since which store
    std::vector<Operand> pending;
    std::vector<SummedTerm> terms;
    for (const Event* e : order) {
        if (e->array >= arrays.size() && e->op != Op::Fma) continue;
        if (e->op == Op::SharedStore || e->op == Op::ZeroFill) {
            Operand o;
            o.element = e->op == Op::ZeroFill ? "0"
                        : e->originArray < arrays.size() ? elementText(arrays[e->originArray], e->origin)
                                                         : elementText(arrays[e->array], e->index);
            o.slot = elementText(arrays[e->array], e->index);
            o.storeLine = e->line;
            slot[{e->array, e->index}] = o;
            continue;
        }
        if (e->thread != thread) continue;
        if (e->op == Op::GlobalLoad || e->op == Op::ConstantLoad) {
            pending.push_back(Operand{elementText(arrays[e->array], e->index), "", 0, e->line});
        } else if (e->op == Op::SharedLoad) {
            const auto it = slot.find({e->array, e->index});
            Operand o = it == slot.end() ? Operand{elementText(arrays[e->array], e->index) + " (never stored)",
                                                   elementText(arrays[e->array], e->index), 0, 0}
                                         : it->second;
            o.readLine = e->line;
            pending.push_back(o);
        } else if (e->op == Op::Fma) {
            if (pending.size() >= 2) terms.push_back(SummedTerm{pending[pending.size() - 2], pending.back()});
            else terms.push_back(SummedTerm{Operand{"registers", "", 0, e->line}, Operand{"registers", "", 0, e->line}});
            pending.clear();
        } else if (e->op == Op::GlobalStore && static_cast<int>(e->array) == p) {
            if (e->index == element) break;
            terms.clear();   // an earlier element of the same thread (coarsening)
            pending.clear();
        }
    }
    return terms;
}

/// The products thread `thread` of the traced block of `t` added into the element it stored
/// at flat index `element` of P (array `p`), in its order, each operand named by the global
/// element it came from (a shared slot by what was stored there, "0" for a zero fill):
/// {"M[1][0] * N[0][0]", ...}. Empty when the trace has none.
std::vector<std::string> termsSummed(const Simulation& t, int thread, int p, long long element)
{
    std::vector<std::string> out;
    for (const SummedTerm& term : termsSummedDetail(t, thread, p, element))
        out.push_back(term.a.element == "registers" ? "registers" : term.text());
    return out;
}

namespace {

bool zeroTerm(const std::string& t) { return t.rfind("0 * ", 0) == 0 || t.ends_with(" * 0"); }

}  // namespace

std::optional<WrongCause> termCause(const std::vector<SummedTerm>& got, const std::vector<std::string>& want)
{
    std::vector<const SummedTerm*> g;
    for (const SummedTerm& t : got)
        if (!zeroTerm(t.text())) g.push_back(&t);
    std::vector<std::string> w;
    for (const std::string& t : want)
        if (!zeroTerm(t)) w.push_back(t);
    for (size_t n = 0; n < g.size() && n < w.size(); ++n) {
        if (g[n]->text() == w[n] || g[n]->a.element == "registers") continue;
        const size_t star = w[n].find(" * ");
        const std::string wantA = w[n].substr(0, star);
        const Operand& o = g[n]->a.element != wantA ? g[n]->a : g[n]->b;
        const std::string which = "term " + std::to_string(n + 1) + " of the sum";
        if (!o.slot.empty() && o.storeLine)
            return WrongCause{o.storeLine, "line " + std::to_string(o.storeLine) + " stored " + o.element + " into " + o.slot +
                                               ", which line " + std::to_string(o.readLine) + " read for " + which +
                                               "; the reference's " + which.substr(0, which.find(" of")) + " is " + w[n]};
        if (o.readLine)
            return WrongCause{o.readLine, "line " + std::to_string(o.readLine) + " read " + o.element + " for " + which +
                                              "; the reference's " + which.substr(0, which.find(" of")) + " is " + w[n]};
        return std::nullopt;
    }
    return std::nullopt;
}

namespace {

/// The frames of statements of `source` that enclose line `line` ("for", "while", "do",
/// "if", with their lines), outermost first: the deepest nesting seen on that line.
std::vector<std::pair<std::string, unsigned>> enclosing(const std::string& source, unsigned line)
{
    struct Frame {
        std::string kind;
        unsigned line;
        bool braced;
        int braceDepth;   // the depth of braces the frame's body opened at
    };
    std::vector<Frame> stack, deepest;
    // A header seen, waiting for its parentheses to close (for, while, if) or for its body.
    std::optional<Frame> header;
    int parens = 0, headerParens = -1, braces = 0;
    bool expectBody = false;
    unsigned at = 1;
    auto word = [&](size_t i, const char* w) {
        const size_t n = std::strlen(w);
        if (source.compare(i, n, w) != 0) return false;
        const bool before = i == 0 || !(std::isalnum(static_cast<unsigned char>(source[i - 1])) || source[i - 1] == '_');
        const bool after = i + n >= source.size() || !(std::isalnum(static_cast<unsigned char>(source[i + n])) || source[i + n] == '_');
        return before && after;
    };
    auto note = [&] {
        if (at == line && stack.size() >= deepest.size()) deepest = stack;
    };
    // A braceless body ends at the `;` that closes its statement: pop every braceless frame
    // opened at this brace depth.
    auto endStatement = [&] {
        while (!stack.empty() && !stack.back().braced && stack.back().braceDepth == braces) stack.pop_back();
    };
    for (size_t i = 0; i < source.size(); ++i) {
        const char c = source[i];
        if (c == '\n') {
            ++at;
            continue;
        }
        if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
            while (i < source.size() && source[i] != '\n') ++i;
            --i;
            continue;
        }
        if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
            for (i += 2; i + 1 < source.size() && !(source[i] == '*' && source[i + 1] == '/'); ++i)
                if (source[i] == '\n') ++at;
            ++i;
            continue;
        }
        if (c == '"' || c == '\'') {
            for (++i; i < source.size() && source[i] != c; ++i)
                if (source[i] == '\\') ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        if (expectBody) {
            expectBody = false;
            if (c == '{') {
                header->braced = true;
                header->braceDepth = braces + 1;
                stack.push_back(*header);
                header.reset();
                ++braces;
                note();
                continue;
            }
            header->braced = false;
            header->braceDepth = braces;
            stack.push_back(*header);
            header.reset();
        }
        note();
        if (!header) {
            for (const char* k : {"for", "while", "if", "do", "else"})
                if (word(i, k)) {
                    const std::string kind = k;
                    if (kind == "while" && !stack.empty() && stack.back().kind == "do-end") break;
                    header = Frame{kind == "else" ? "if" : kind, at, false, 0};
                    i += kind.size() - 1;
                    if (kind == "do" || kind == "else") expectBody = true;
                    else headerParens = parens;
                    break;
                }
            if (header) continue;
        }
        if (c == '(') {
            ++parens;
        } else if (c == ')') {
            --parens;
            if (header && parens == headerParens) {
                headerParens = -1;
                expectBody = true;
            }
        } else if (c == '{') {
            ++braces;
        } else if (c == '}') {
            const bool closesFrame = !stack.empty() && stack.back().braced && stack.back().braceDepth == braces;
            if (closesFrame) stack.pop_back();
            --braces;
            // A braced body ends its statement: so does every braceless one around it.
            if (closesFrame) endStatement();
        } else if (c == ';' && parens == 0) {
            endStatement();
        }
    }
    std::vector<std::pair<std::string, unsigned>> out;
    for (const Frame& f : deepest) out.emplace_back(f.kind, f.line);
    return out;
}

}  // namespace

std::vector<unsigned> enclosingLoops(const std::string& source, unsigned line)
{
    std::vector<unsigned> out;
    for (const auto& [kind, at] : enclosing(source, line))
        if (kind == "for" || kind == "while" || kind == "do") out.push_back(at);
    return out;
}

std::vector<unsigned> enclosingIfs(const std::string& source, unsigned line)
{
    std::vector<unsigned> out;
    for (const auto& [kind, at] : enclosing(source, line))
        if (kind == "if") out.push_back(at);
    return out;
}

std::vector<std::string> referenceTerms(const Scenario& s, long long i)
{
    const auto terms = problemOf(s).referenceTerms;
    return terms ? terms(s, i) : std::vector<std::string>{};
}

/// What a wrong element's thread summed against what the reference sums, products with a
/// zero fill left out: the first term where they part, or their counts; "" when the terms
/// agree (the values differed) or the thread's sum is of registers the trace does not name.
std::string termsText(std::vector<std::string> got, std::vector<std::string> want)
{
    // A product with a zero fill (a ghost cell, a tile's part past the edge) adds exactly 0:
    // leave such terms out of both sides.
    auto zero = [](const std::string& t) { return t.rfind("0 * ", 0) == 0 || t.ends_with(" * 0"); };
    std::erase_if(got, zero);
    std::erase_if(want, zero);
    if (got.empty()) return "";
    for (size_t n = 0; n < got.size() && n < want.size(); ++n)
        if (got[n] != want[n])
            return "its term " + std::to_string(n + 1) + " of " + std::to_string(got.size()) + " is " + got[n] +
                   " where the reference's is " + want[n];
    if (got.size() != want.size())
        return "it summed " + std::to_string(got.size()) + " terms where the reference sums " + std::to_string(want.size());
    return "";
}

namespace {
std::string wrongElementTextOf(const Simulation& r, long long i, unsigned line);
}

std::string inStudentNames(const std::string& text, const std::string& kernel)
{
    if (!findLoadedKernel(kernel)) return text;
    static const std::regex element("(^|[^A-Za-z0-9_])([MNP])\\[");
    std::string out;
    size_t from = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), element), end; it != end; ++it) {
        const size_t at = static_cast<size_t>(it->position(2));
        out += text.substr(from, at - from) + loadedArrayLabel(kernel, (*it)[2].str());
        from = at + 1;
    }
    return out + text.substr(from);
}

std::string wrongElementText(const Simulation& r, long long i, unsigned line)
{
    return inStudentNames(wrongElementTextOf(r, i, line), r.scenario.kernel);
}

namespace {

/// wrongElementText() in the simulator's names of the arrays.
std::string wrongElementTextOf(const Simulation& r, long long i, unsigned line)
{
    constexpr int p = 2;   // M, N, P come first, whatever their names
    const ProblemDesc& problem = problemOf(r.scenario);
    const ArrayInfo& out = r.arrays.at(p);
    std::string name = out.name + "[" + std::to_string(i) + "]";
    if (problem.dims != 1 && out.rows > 1) {
        const PElement e = elementAt(out, i);
        name = out.name + "[" + std::to_string(e.row) + "][" + std::to_string(e.col) + "]";
    }
    const float got = r.P.at(static_cast<size_t>(i)), want = r.reference.at(static_cast<size_t>(i));
    const std::optional<Writer> w = writerOf(r, p, i);
    if (!w)
        return name + " was never written (the reference gives " + floatText(want) + "): no thread stores it; check that the grid covers all of " +
               out.name + " and that the boundary check lets that thread through";
    const std::string value = name + " is " + floatText(got) + " where the reference gives " + floatText(want);
    const std::string stored = "; thread " + threadText(r.block, w->thread) + " of block (" + std::to_string(w->block.x) + ", " +
                               std::to_string(w->block.y) + ") stored it" + (line ? " at line " + std::to_string(line) : std::string());
    const Uint3& traced = r.scenario.block;
    if (problem.referenceTerms && w->block.x == traced.x && w->block.y == traced.y && w->block.z == traced.z) {
        const std::vector<SummedTerm> terms = termsSummedDetail(r, w->thread, p, i);
        const std::vector<std::string> reference = referenceTerms(r.scenario, i);
        // The line that put the wrong operand in play first, the store of P second.
        if (const std::optional<WrongCause> cause = termCause(terms, reference)) return value + ": " + cause->text + stored;
        if (const std::string text = termsText(termsSummed(r, w->thread, p, i), reference); !text.empty())
            return value + stored + "; " + text;
    }
    return value + stored;
}

}  // namespace

}  // namespace ts::sim
