// The lexer scan's passes over the code (frontend/scan.hpp): brackets matched, the limits
// after expansion, the declarations at file scope, and each token's keywords, names and calls.
#include "frontend/scan_internal.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace ts::student::scan_detail {

// ---- brackets and limits ------------------------------------------------------------------------

void Scanner::matchBrackets()
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

bool Scanner::structure()
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

void Scanner::fileScope()
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

bool Scanner::declares(const std::vector<size_t>& s, size_t p) const
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

bool Scanner::statementStartsWithType(const std::vector<size_t>& s, size_t r) const
{
    while (r < s.size() && isQualifier(tok_[s[r]].text)) ++r;
    return r < s.size() && isTypeWord(tok_[s[r]].text);
}

void Scanner::checkStream(const std::vector<size_t>& s, const Macro* owner)
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

void Scanner::word(const std::vector<size_t>& s, size_t p, const Macro* owner, bool callNext, bool fileScope)
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
}  // namespace ts::student::scan_detail
