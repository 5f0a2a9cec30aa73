// The lexer scan's directives (frontend/scan.hpp): the #defines and #pragma unroll read, and
// the size of each #define's expansion counted as a function of its arguments' sizes.
#include "frontend/scan_internal.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace ts::student::scan_detail {

// ---- directives -----------------------------------------------------------------------------

bool Scanner::directives()
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

void Scanner::directive(size_t hash, size_t end)
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

void Scanner::define(size_t hash, size_t at, size_t end)
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

void Scanner::pragma(size_t hash, size_t at, size_t end)
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

const Macro* Scanner::macro(const std::string& name) const
{
    const auto it = macroIndex_.find(name);
    return it == macroIndex_.end() ? nullptr : &macros_[it->second];
}

Macro* Scanner::macro(const std::string& name)
{
    const auto it = macroIndex_.find(name);
    return it == macroIndex_.end() ? nullptr : &macros_[it->second];
}

int Scanner::paramIndex(const Macro* m, const std::string& name)
{
    if (!m) return -1;
    const auto it = std::find(m->params.begin(), m->params.end(), name);
    return it == m->params.end() ? -1 : static_cast<int>(it - m->params.begin());
}

// ---- counting expansions ----------------------------------------------------------------------

const Form* Scanner::macroForm(Macro& m)
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

bool Scanner::count(const std::vector<size_t>& stream, size_t from, size_t to, const Macro* owner, int level, Form& out)
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
}  // namespace ts::student::scan_detail
