// The plain-CUDA front end's rewrites of what nvcc compiles differently (frontend/translate.hpp):
// multiply-adds on registers, 128-bit float4 accesses, make_float4, the iterations of
// `#pragma unroll` loops, and calls of __device__ helpers.
#include "frontend/translate_internal.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace ts::student::translate_detail {

std::vector<Translator::Token> Translator::tokensOf(CXCursor c)
{
    std::vector<Token> out;
    const CXSourceRange r = clang_getCursorExtent(c);
    const Pos b = expansion(clang_getRangeStart(r)), e = expansion(clang_getRangeEnd(r));
    const Pos sb = spelling(clang_getRangeStart(r)), se = spelling(clang_getRangeEnd(r));
    if (!b.inMain || !e.inMain || !sb.inMain || !se.inMain || sb.offset != b.offset || se.offset != e.offset)
        return out;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken* tokens = nullptr;
    unsigned n = 0;
    clang_tokenize(tu, r, &tokens, &n);
    for (unsigned i = 0; i < n; ++i) {
        const CXSourceRange tr = clang_getTokenExtent(tu, tokens[i]);
        const Pos tb = expansion(clang_getRangeStart(tr)), te = expansion(clang_getRangeEnd(tr));
        if (tb.offset >= e.offset) break;
        out.push_back(Token{str(clang_getTokenSpelling(tu, tokens[i])), tb.offset, te.offset});
    }
    clang_disposeTokens(tu, tokens, n);
    return out;
}

std::vector<CXCursor> Translator::childrenOf(CXCursor c)
{
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData d) {
            static_cast<std::vector<CXCursor>*>(d)->push_back(child);
            return CXChildVisit_Continue;
        },
        &out);
    return out;
}

bool Translator::binary(CXCursor c, Binary& out)
{
    const CXCursorKind k = clang_getCursorKind(c);
    std::vector<CXCursor> kids = childrenOf(c);
    // A struct's assignment (float4) is a call of its operator=: the left operand, the
    // operator's name, the right operand.
    if (k == CXCursor_CallExpr && str(clang_getCursorSpelling(c)) == "operator=" && kids.size() == 3)
        kids = {kids[0], kids[2]};
    else if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
        return false;
    if (kids.size() != 2) return false;
    out.tokens = tokensOf(c);
    const std::vector<Token> left = tokensOf(kids[0]);
    if (out.tokens.empty() || left.empty()) return false;
    for (const Token& t : out.tokens)
        if (t.begin >= left.back().end) {
            out.lhs = kids[0];
            out.rhs = kids[1];
            out.op = t;
            return true;
        }
    return false;
}

bool Translator::registersOnly(CXCursor e)
{
    for (const Token& t : tokensOf(e))
        if (t.text == "++" || t.text == "--" || (t.text.size() >= 1 && t.text.back() == '=' && t.text != "==" &&
                                                  t.text != "!=" && t.text != "<=" && t.text != ">="))
            return false;
    if (tokensOf(e).empty()) return false;
    bool ok = true;
    clang_visitChildren(
        e,
        [](CXCursor child, CXCursor, CXClientData d) {
            bool& ok = *static_cast<bool*>(d);
            const CXCursorKind k = clang_getCursorKind(child);
            if (k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr || clang_isStatement(k)) {
                ok = false;
                return CXChildVisit_Break;
            }
            if (k == CXCursor_DeclRefExpr) {
                const CXCursor ref = clang_getCursorReferenced(child);
                const CXCursorKind rk = clang_getCursorKind(ref);
                const CXTypeKind t = clang_getCanonicalType(clang_getCursorType(ref)).kind;
                const std::string a = annotation(ref);
                if ((rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl) || !spelling(clang_getCursorLocation(ref)).inMain ||
                    a == "ts:shared" || a == "ts:constant" || t == CXType_Pointer) {
                    ok = false;
                    return CXChildVisit_Break;
                }
            }
            return CXChildVisit_Recurse;
        },
        &ok);
    if (!ok) return false;
    // The cursor itself, when it is a lone reference (the visit above sees only children).
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
        const CXCursor ref = clang_getCursorReferenced(e);
        const std::string a = annotation(ref);
        if (!spelling(clang_getCursorLocation(ref)).inMain || a == "ts:shared" || a == "ts:constant" ||
            clang_getCanonicalType(clang_getCursorType(ref)).kind == CXType_Pointer)
            return false;
    }
    return true;
}

std::string Translator::textOf(CXCursor e) const
{
    const std::vector<Token> t = tokensOf(e);
    return t.empty() ? "" : src_.substr(t.front().begin, t.back().end - t.front().begin);
}

bool Translator::sameTokens(CXCursor a, CXCursor b)
{
    const std::vector<Token> x = tokensOf(a), y = tokensOf(b);
    if (x.size() != y.size() || x.empty()) return false;
    for (size_t i = 0; i < x.size(); ++i)
        if (x[i].text != y[i].text) return false;
    return true;
}

void Translator::registerFma(CXCursor c)
{
    Binary outer;
    if (!binary(c, outer) || !isFloat(c) || !isFloat(outer.lhs) || !registersOnly(outer.lhs)) return;
    Binary sum, product;
    CXCursor acc = clang_getNullCursor();   // the accumulator read on the right, if written there
    bool productFirst = false;
    if (outer.op.text == "+=") {
        if (!binary(outer.rhs, product)) return;
    } else if (outer.op.text == "=") {
        if (!binary(outer.rhs, sum) || sum.op.text != "+" || !isFloat(outer.rhs)) return;
        if (binary(sum.rhs, product) && sameTokens(sum.lhs, outer.lhs)) {
            acc = sum.lhs;
        } else if (binary(sum.lhs, product) && sameTokens(sum.rhs, outer.lhs)) {
            acc = sum.rhs;
            productFirst = true;
        } else {
            return;
        }
    } else {
        return;
    }
    if (product.op.text != "*" || !isFloat(product.lhs) || !isFloat(product.rhs) || !registersOnly(product.lhs) ||
        !registersOnly(product.rhs))
        return;
    const std::vector<Token> a = tokensOf(product.lhs), b = tokensOf(product.rhs);
    const std::string x = textOf(outer.lhs);
    if (a.empty() || b.empty() || x.empty() || x.find('\n') != std::string::npos) return;
    // Insertions and operator tokens only, so that no line moves.
    if (outer.op.text == "+=") {
        edits.push_back(Edit{outer.op.begin, outer.op.end, "="});
        edits.push_back(Edit{a.front().begin, a.front().begin, "ts_ctx.fmaf(", 3});
        edits.push_back(Edit{product.op.begin, product.op.end, ","});
        edits.push_back(Edit{b.back().end, b.back().end, ", " + x + ")", -3});
    } else if (!productFirst) {
        // `x + ` goes (x has no side effect) and comes back as the third argument.
        const std::vector<Token> r = tokensOf(acc);
        const unsigned from = r.front().begin, to = a.front().begin;
        const std::string gone = src_.substr(from, to - from);
        edits.push_back(Edit{from, to, "ts_ctx.fmaf(" + std::string(static_cast<size_t>(std::count(gone.begin(), gone.end(), '\n')), '\n')});
        edits.push_back(Edit{product.op.begin, product.op.end, ","});
        edits.push_back(Edit{b.back().end, b.back().end, ", " + x + ")", -3});
    } else {
        const std::vector<Token> r = tokensOf(acc);
        edits.push_back(Edit{a.front().begin, a.front().begin, "ts_ctx.fmaf(", 3});
        edits.push_back(Edit{product.op.begin, product.op.end, ","});
        edits.push_back(Edit{sum.op.begin, sum.op.end, ","});
        edits.push_back(Edit{r.back().end, r.back().end, ")", -3});
    }
}

CXCursor Translator::unwrap(CXCursor e)
{
    while (clang_getCursorKind(e) == CXCursor_UnexposedExpr || clang_getCursorKind(e) == CXCursor_ParenExpr) {
        const std::vector<CXCursor> kids = childrenOf(e);
        if (kids.size() != 1) break;
        e = kids[0];
    }
    return e;
}

CXCursor Translator::vectorSubscript(CXCursor deref)
{
    const std::vector<Token> t = tokensOf(deref);
    if (clang_getCursorKind(deref) != CXCursor_UnaryOperator || t.size() < 2 || t[0].text != "*" ||
        t[1].text != "reinterpret_cast")
        return clang_getNullCursor();
    const std::vector<CXCursor> kids = childrenOf(deref);
    if (kids.size() != 1) return clang_getNullCursor();
    const CXCursor cast = unwrap(kids[0]);
    const CXType to = clang_getCanonicalType(clang_getCursorType(cast));
    if (clang_getCursorKind(cast) != CXCursor_CXXReinterpretCastExpr || to.kind != CXType_Pointer ||
        str(clang_getCursorSpelling(clang_getTypeDeclaration(clang_getPointeeType(to)))) != "float4")
        return clang_getNullCursor();
    CXCursor address = clang_getNullCursor();
    for (const CXCursor& k : childrenOf(cast))
        if (clang_getCursorKind(k) != CXCursor_TypeRef) address = unwrap(k);
    const std::vector<Token> a = tokensOf(address);
    if (a.size() < 2 || a[0].text != "&") return clang_getNullCursor();
    const std::vector<CXCursor> inner = childrenOf(address);
    if (inner.size() != 1) return clang_getNullCursor();
    const CXCursor sub = unwrap(inner[0]);
    if (clang_getCursorKind(sub) != CXCursor_ArraySubscriptExpr || childrenOf(sub).size() != 2) return clang_getNullCursor();
    return sub;
}

bool Translator::sharedArray(CXCursor sub)
{
    CXCursor base = unwrap(childrenOf(sub)[0]);
    if (clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr) return true;
    return clang_getCursorKind(base) == CXCursor_DeclRefExpr && annotation(clang_getCursorReferenced(base)) == "ts:shared";
}

bool Translator::insideVectorAccess(unsigned offset) const
{
    for (const auto& [b, e] : vectorAccesses_)
        if (offset >= b && offset < e) return true;
    return false;
}

bool Translator::vectorCall(CXCursor deref, CXCursor sub, const char* global, const char* shared)
{
    const std::vector<Token> d = tokensOf(deref), s = tokensOf(sub);
    const std::vector<CXCursor> parts = childrenOf(sub);
    const std::vector<Token> base = tokensOf(parts[0]);
    if (d.empty() || s.empty() || base.empty() || s.back().text != "]") return false;
    const Token* open = nullptr;
    for (const Token& t : s)
        if (t.begin >= base.back().end) {
            open = &t;
            break;
        }
    if (!open || open->text != "[") return false;
    edits.push_back(Edit{d.front().begin, s.front().begin, std::string("ts_ctx.") + (sharedArray(sub) ? shared : global) + "("});
    edits.push_back(Edit{open->begin, open->end, ", "});
    edits.push_back(Edit{s.back().begin, s.back().end, ""});
    vectorAccesses_.emplace_back(d.front().begin, d.back().end);
    return true;
}

void Translator::vectorLoad(CXCursor c)
{
    const std::vector<Token> t = tokensOf(c);
    if (t.empty() || insideVectorAccess(t.front().begin)) return;
    const CXCursor sub = vectorSubscript(c);
    if (!clang_Cursor_isNull(sub)) vectorCall(c, sub, "ldg4", "lds4");
}

bool Translator::vectorStore(CXCursor c)
{
    Binary as;
    if (!binary(c, as) || as.op.text != "=") return false;
    const CXCursor lhs = unwrap(as.lhs);
    const CXCursor sub = vectorSubscript(lhs);
    if (clang_Cursor_isNull(sub)) return false;
    const std::vector<Token> d = tokensOf(lhs), v = tokensOf(as.rhs);
    if (d.empty() || v.empty() || d.back().text != ")") return false;
    if (!vectorCall(lhs, sub, "stg4", "sts4")) return false;
    edits.push_back(Edit{d.back().begin, d.back().end, ""});
    edits.push_back(Edit{as.op.begin, as.op.end, ","});
    edits.push_back(Edit{v.back().end, v.back().end, ")", -3});
    return true;
}

void Translator::makeFloat4(CXCursor c, const Pos& at)
{
    const std::vector<Token> t = tokensOf(c);
    if (t.size() < 3 || t[0].text != "make_float4" || t[1].text != "(") {
        error(at, "make_float4 inside a macro is not supported: write it in the kernel's text");
        return;
    }
    edits.push_back(Edit{t[0].begin, t[0].end, "typename TsContext::Float4"});
}

std::string Translator::copyableText(CXCursor e) const
{
    const CXSourceRange r = clang_getCursorExtent(e);
    const Pos b = expansion(clang_getRangeStart(r));
    Pos en = expansion(clang_getRangeEnd(r));
    // An expression that ends in a macro (`e += THREADS`) ends where the macro's name
    // starts, as far as its expansion goes: the name belongs to it.
    auto ident = [&](unsigned i) { return i < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[i])) || src_[i] == '_'); };
    if (!en.inMain || en.offset < b.offset) en = b;   // a lone macro: its end is in its definition
    if (ident(en.offset) && (en.offset == b.offset || !ident(en.offset - 1)))
        while (ident(en.offset)) ++en.offset;
    if (!b.inMain || !en.inMain || en.offset <= b.offset) return "";
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken* tokens = nullptr;
    unsigned n = 0;
    // The tokens as the file writes them (a macro's name, not its expansion).
    const CXFile file = clang_getFile(tu, kMainPath);
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, file, b.offset), clang_getLocationForOffset(tu, file, en.offset)),
                   &tokens, &n);
    bool ok = true;
    for (unsigned i = 0; i < n; ++i) {
        const std::string t = str(clang_getTokenSpelling(tu, tokens[i]));
        if (t == "++" || t == "--" || t == "(" || (t.back() == '=' && t != "==" && t != "!=" && t != "<=" && t != ">="))
            ok = ok && t == "(";   // parentheses are fine; a call shows in the tree below
    }
    clang_disposeTokens(tu, tokens, n);
    clang_visitChildren(
        e,
        [](CXCursor child, CXCursor, CXClientData d) {
            const CXCursorKind k = clang_getCursorKind(child);
            bool bad = k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr;
            if (k == CXCursor_DeclRefExpr) bad = !spelling(clang_getCursorLocation(clang_getCursorReferenced(child))).inMain;
            if (bad) *static_cast<bool*>(d) = false;
            return bad ? CXChildVisit_Break : CXChildVisit_Recurse;
        },
        &ok);
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && !spelling(clang_getCursorLocation(clang_getCursorReferenced(e))).inMain)
        ok = false;
    return ok ? src_.substr(b.offset, en.offset - b.offset) : "";
}

bool Translator::constantOf(CXCursor e, long long& value)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r) return false;
    const bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) value = clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}

void Translator::unrolledLoop(CXCursor c)
{
    const std::vector<CXCursor> kids = childrenOf(c);
    if (kids.size() != 1 || clang_getCursorKind(kids[0]) != CXCursor_ForStmt) return;
    const CXCursor loop = kids[0];
    // The pragma's tokens lie before the loop's own: `#pragma unroll [N]`.
    const Pos start = expansion(clang_getRangeStart(clang_getCursorExtent(c)));
    const Pos forAt = expansion(clang_getRangeStart(clang_getCursorExtent(loop)));
    if (!start.inMain || !forAt.inMain || forAt.offset <= start.offset) return;
    std::vector<std::string> pragma;
    {
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
        CXToken* tokens = nullptr;
        unsigned n = 0;
        clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
        for (unsigned i = 0; i < n; ++i) {
            if (expansion(clang_getTokenLocation(tu, tokens[i])).offset >= forAt.offset) break;
            pragma.push_back(str(clang_getTokenSpelling(tu, tokens[i])));
        }
        clang_disposeTokens(tu, tokens, n);
    }
    if (std::find(pragma.begin(), pragma.end(), "unroll") == pragma.end() || pragma.back() == "1") return;
    const std::vector<CXCursor> parts = childrenOf(loop);   // init, condition, increment, body
    if (parts.size() != 4 || clang_getCursorKind(parts[0]) != CXCursor_DeclStmt ||
        clang_getCursorKind(parts[3]) != CXCursor_CompoundStmt)
        return;
    const std::vector<CXCursor> decls = childrenOf(parts[0]);
    if (decls.size() != 1 || clang_getCursorKind(decls[0]) != CXCursor_VarDecl) return;
    const std::string v = str(clang_getCursorSpelling(decls[0]));
    const std::vector<CXCursor> init = childrenOf(decls[0]);
    if (init.empty()) return;
    const std::string first = copyableText(init.back());
    // The step: ++v, v++ or v += step.
    std::string step;
    long long stepValue = 0;
    const std::vector<Token> inc = tokensOf(parts[2]);
    if (inc.size() == 2 && (inc[0].text == "++" || inc[1].text == "++")) {
        step = "1";
        stepValue = 1;
    } else {
        // v += step, where step may be a macro: the operator is the text between the two
        const std::vector<CXCursor> sides = childrenOf(parts[2]);
        if (clang_getCursorKind(parts[2]) != CXCursor_CompoundAssignOperator || sides.size() != 2) return;
        const Pos lhsEnd = expansion(clang_getRangeEnd(clang_getCursorExtent(sides[0])));
        const Pos rhsBegin = expansion(clang_getRangeStart(clang_getCursorExtent(sides[1])));
        if (!lhsEnd.inMain || !rhsBegin.inMain || rhsBegin.offset <= lhsEnd.offset ||
            str(clang_getCursorSpelling(clang_getCursorReferenced(unwrap(sides[0])))) != v)
            return;
        std::string op = src_.substr(lhsEnd.offset, rhsBegin.offset - lhsEnd.offset);
        op.erase(std::remove_if(op.begin(), op.end(), [](unsigned char ch) { return std::isspace(ch); }), op.end());
        if (op != "+=") return;
        step = copyableText(sides[1]);
        if (!constantOf(sides[1], stepValue)) stepValue = 0;
    }
    if (first.empty() || step.empty()) return;
    std::string tag = "((" + v + ") - (" + first + ")) / (" + step + ")";
    // Nested in another unrolled loop: number the pair, outer * trips + this.
    const Pos bodyOpen = expansion(clang_getRangeStart(clang_getCursorExtent(parts[3])));
    const UnrolledLoop* outer = nullptr;
    for (const UnrolledLoop& u : unrolled_)
        if (u.begin < forAt.offset && forAt.offset < u.end && (!outer || u.begin > outer->begin)) outer = &u;
    if (outer) {
        Binary cond;
        long long a = 0, b = 0;
        if (!binary(parts[1], cond) || cond.op.text != "<" || !constantOf(init.back(), a) || !constantOf(cond.rhs, b) ||
            stepValue <= 0 || b <= a)
            return;   // no constant trip count: the pair cannot be numbered
        tag = "(" + outer->tag + ") * " + std::to_string((b - a + stepValue - 1) / stepValue) + " + " + tag;
    }
    const Pos loopEnd = expansion(clang_getRangeEnd(clang_getCursorExtent(loop)));
    unrolled_.push_back(UnrolledLoop{forAt.offset, loopEnd.offset, tag});
    edits.push_back(Edit{bodyOpen.offset + 1, bodyOpen.offset + 1,
                         " const auto ts_unrolled = ts_ctx.unrolled(static_cast<unsigned>(" + tag + "));"});
}

void Translator::call(CXCursor c, const Pos& at, const std::string& name)
{
    const Pos sp = spelling(clang_getCursorLocation(c));
    if (!sp.inMain || sp.offset != at.offset) {
        error(at, "a call of " + name + " inside a macro is not supported: write it in the kernel's text");
        return;
    }
    const size_t open = src_.find('(', at.offset + name.size());
    if (open == std::string::npos) {
        error(at, "cannot find the arguments of the call of " + name);
        return;
    }
    const bool args = clang_Cursor_getNumArguments(c) > 0;
    edits.push_back(Edit{static_cast<unsigned>(open + 1), static_cast<unsigned>(open + 1), args ? "ts_ctx, " : "ts_ctx", 2});
}
}  // namespace ts::student::translate_detail

namespace ts::student::translate_detail {

void Translator::branchCondition(CXCursor c, CXCursorKind kind, const Pos& at)
{
    const std::vector<Token> t = tokensOf(c);
    if (t.size() < 2) return;   // written inside a #define: not marked
    auto opener = [](const std::string& s) { return s == "(" || s == "[" || s == "{"; };
    auto closer = [](const std::string& s) { return s == ")" || s == "]" || s == "}"; };
    // The token that closes the bracket opened at `open`, or t.size().
    auto matching = [&](size_t open) {
        int depth = 0;
        for (size_t k = open; k < t.size(); ++k) {
            if (opener(t[k].text)) ++depth;
            if (closer(t[k].text) && --depth == 0) return k;
        }
        return t.size();
    };
    // The tokens at bracket depth 0 of [from, to) that read `what`.
    auto atTop = [&](size_t from, size_t to, const char* what) {
        std::vector<size_t> found;
        int depth = 0;
        for (size_t k = from; k < to; ++k) {
            if (opener(t[k].text)) ++depth;
            if (closer(t[k].text)) --depth;
            if (depth == 0 && t[k].text == what) found.push_back(k);
        }
        return found;
    };
    size_t b = 0, e = 0;   // the condition's tokens, [b, e)
    if (kind == CXCursor_IfStmt || kind == CXCursor_WhileStmt) {
        if (t[1].text != "(") return;
        const size_t close = matching(1);
        if (close >= t.size()) return;
        b = 2;
        e = close;
        if (!atTop(b, e, ";").empty()) {
            error(at, "an if with an initialiser, `if (init; condition)`, is not supported: declare the variable before the if");
            return;
        }
    } else if (kind == CXCursor_DoStmt) {
        size_t last = t.size() - 1;
        if (t[last].text == ";" && last > 0) --last;
        if (t[last].text != ")") return;
        int depth = 0;
        size_t open = last;
        for (size_t k = last + 1; k-- > 0;) {
            if (closer(t[k].text)) ++depth;
            if (opener(t[k].text) && --depth == 0) {
                open = k;
                break;
            }
        }
        if (open == last || open == 0 || t[open - 1].text != "while") return;
        b = open + 1;
        e = last;
    } else if (kind == CXCursor_ForStmt) {
        if (t[1].text != "(") return;
        const size_t close = matching(1);
        if (close >= t.size()) return;
        const std::vector<size_t> semis = atTop(2, close, ";");
        if (semis.size() != 2) return;
        b = semis[0] + 1;
        e = semis[1];
    } else if (kind == CXCursor_ConditionalOperator) {
        const std::vector<size_t> q = atTop(0, t.size(), "?");
        if (q.empty()) return;
        b = 0;
        e = q.front();
    } else {
        return;
    }
    if (e <= b) return;   // `for (;;)`: no condition, no branch
    const unsigned begin = t[b].begin, end = t[e - 1].end;
    // The condition's own cursor: a declaration there is refused, a constant is no branch.
    CXCursor cond = clang_getNullCursor();
    for (const CXCursor& k : childrenOf(c)) {
        const CXSourceRange r = clang_getCursorExtent(k);
        const Pos kb = expansion(clang_getRangeStart(r)), ke = expansion(clang_getRangeEnd(r));
        const CXCursorKind kk = clang_getCursorKind(k);
        if ((kk == CXCursor_VarDecl || kk == CXCursor_DeclStmt) && kb.offset >= begin && kb.offset < end) {
            if (kind == CXCursor_ForStmt) continue;   // the loop's own initialiser lies before `begin`
            error(at, "a variable declared in a condition is not supported: declare it before the statement");
            return;
        }
        if (kb.offset == begin && ke.offset == end && clang_isExpression(kk)) cond = k;
    }
    long long value = 0;
    if (!clang_Cursor_isNull(cond) && constantOf(cond, value)) return;
    if (kind == CXCursor_ForStmt) {
        const unsigned forAt = t.front().begin;
        for (const UnrolledLoop& u : unrolled_) {
            Binary cmp;
            if (u.begin == forAt && !clang_Cursor_isNull(cond) && binary(cond, cmp) && constantOf(cmp.rhs, value))
                return;   // `#pragma unroll` with a constant trip count: nvcc leaves no branch
        }
    }
    ++branchOrder_;
    edits.push_back(Edit{begin, begin, "ts_ctx.branch(", 1000000 - branchOrder_});
    edits.push_back(Edit{end, end, ")", -1000000 + branchOrder_});
}

bool Translator::intrinsicCall(CXCursor c, const Pos& at, const std::string& name)
{
    const bool atomic = name == "atomicAdd" || name == "atomicExch" || name == "atomicSub" || name == "atomicMax" ||
                        name == "atomicMin";
    const bool warp = name == "__shfl_sync" || name == "__shfl_up_sync" || name == "__shfl_down_sync" ||
                      name == "__shfl_xor_sync" || name == "__syncwarp";
    if (!atomic && !warp) return false;
    const std::vector<Token> t = tokensOf(c);
    if (t.size() < 3 || t[0].text != name || t[1].text != "(") {
        error(at, "the call of " + name + " must be written in the kernel's text, not through a #define");
        return true;
    }
    if (atomic) {
        // A global array is a pointer parameter: `p` (element 0) or `&p[i]`; a __shared__ one
        // is `&s[i]` or `&s[i][j]` (PMPP Fig. 9.10's `&histo_s[bin]`).
        auto pointerParam = [](CXCursor e) {
            e = stripped(e);
            if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
            const CXCursor ref = clang_getCursorReferenced(e);
            return clang_getCursorKind(ref) == CXCursor_ParmDecl &&
                   clang_getCanonicalType(clang_getCursorType(ref)).kind == CXType_Pointer;
        };
        auto sharedArray = [this](CXCursor e) {
            e = stripped(e);
            while (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr) {
                const std::vector<CXCursor> parts = childrenOf(e);
                if (parts.size() != 2) return false;
                e = stripped(parts[0]);
            }
            if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
            const std::string n = str(clang_getCursorSpelling(clang_getCursorReferenced(e)));
            for (const SharedArray& s : out_.shared)
                if (s.name == n) return true;
            return false;
        };
        bool ok = false;
        if (clang_Cursor_getNumArguments(c) == 2) {
            const CXCursor a = stripped(clang_Cursor_getArgument(c, 0));
            if (pointerParam(a)) {
                ok = true;
            } else if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
                const std::vector<Token> at0 = tokensOf(a);
                const std::vector<CXCursor> inner = childrenOf(a);
                if (!at0.empty() && at0[0].text == "&" && inner.size() == 1) {
                    const CXCursor sub = stripped(inner[0]);
                    const std::vector<CXCursor> parts = childrenOf(sub);
                    ok = clang_getCursorKind(sub) == CXCursor_ArraySubscriptExpr && parts.size() == 2 &&
                         (pointerParam(parts[0]) || sharedArray(sub));
                }
            }
        }
        if (!ok) {
            error(at, name + " here takes an element of a global array, which the kernel gets as a pointer "
                             "parameter (" + name + "(p, v) for p[0], or " + name + "(&p[i], v)), or of a __shared__ "
                             "array (" + name + "(&s[i], v)); atomics on local variables are not simulated");
            return true;
        }
        edits.push_back(Edit{t[0].begin, t[0].end, "ts_ctx." + name});
        return true;
    }
    if (name == "__syncwarp") {
        edits.push_back(Edit{t[0].begin, t[0].end, "ts_ctx.syncwarp"});
        return true;
    }
    // The prelude's overload libclang chose gives the value's type (float, int or unsigned
    // int), named explicitly: the value may be a recording reference (`__shfl_down_sync(m,
    // input_s[t], 1)`), from which the context's template would deduce the wrong type.
    const CXTypeKind k = clang_getCanonicalType(clang_getCursorResultType(clang_getCursorReferenced(c))).kind;
    const char* type = k == CXType_Float ? "float" : k == CXType_Int ? "int" : k == CXType_UInt ? "unsigned int" : nullptr;
    if (!type) {
        error(at, name + " here shuffles a float, an int or an unsigned int");
        return true;
    }
    edits.push_back(Edit{t[0].begin, t[0].end, "ts_ctx.template " + name.substr(2) + "<" + type + ">"});
    return true;
}

}  // namespace ts::student::translate_detail
