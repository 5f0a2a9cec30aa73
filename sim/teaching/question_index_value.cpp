// Practice questions of kind index-value (sim/teaching/questions.hpp): an index expression of the kernel
// evaluated with a thread's variables at a step, checked against the index the trace recorded;
// and the candidate expressions of a source line that the generator and forStep ask about.
#include "sim/teaching/question_common.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace ts::sim {

using namespace question_detail;

/// Checks an index expression against the thread's recorded access at the step where it
/// is a whole subscript of that access; returns false on a mismatch.
bool QuestionGenerator::Impl::agreesWithTrace(const BlockData& d, int th, int step, const std::string& expr, long long value) const
{
    const Trace& t = d.trace();
    const std::string want = squeezed(expr);
    for (int ev : d.byThread[th]) {
        if (d.stepOf[ev] != step) continue;
        const Event& e = t.events[ev];
        if (e.array == kNoArray) continue;
        const ArrayInfo& a = t.arrays[e.array];
        const std::vector<AccessText> acc = findAccesses(sourceLine(source, e.line), {writtenName(a)});
        if (acc.size() != 1) continue;
        const auto& subs = acc[0].subscripts;
        for (size_t i = 0; i < subs.size(); ++i) {
            if (squeezed(subs[i]) != want) continue;
            const long long recorded = subs.size() == 2 ? (i == 0 ? e.index / a.cols : e.index % a.cols) : e.index;
            if (recorded != value) return false;
        }
    }
    return true;
}

void QuestionGenerator::Impl::indexValue(Question& q)
{
    BlockData& d = block(*q.spec.block);
    const int th = linear(d, *q.spec.thread);
    const int step = *q.spec.step;
    const Trace& t = d.trace();
    const std::string who = threadName(s, *q.spec.thread) + " of " + blockName(s, *q.spec.block);
    if (step >= static_cast<int>(t.steps.size()))
        throw QuestionError("step " + std::to_string(step) + " is past the last step of " +
                            blockName(s, *q.spec.block) + "'s trace, " + std::to_string(t.steps.size() - 1) + ".");
    const Variables vars = variablesAt(d, th, step);
    const Evaluation ev = evaluate(q.spec.expression, vars);
    if (!ev.value)
        throw QuestionError("\"" + q.spec.expression + "\" has no value for " + who + " at step " +
                            std::to_string(step) + ": " + ev.error);
    if (!agreesWithTrace(d, th, step, q.spec.expression, *ev.value))
        throw QuestionError("\"" + q.spec.expression + "\" disagrees with the index the simulator recorded for " +
                            who + " at step " + std::to_string(step) + ".");
    q.answer.shape = AnswerShape::Number;
    q.answer.number = *ev.value;
    // The line: the thread's own line at this step if the expression is written there,
    // else the first line of the kernel that writes it, else its definition (int X = ...).
    const std::string want = squeezed(q.spec.expression);
    unsigned ln = 0;
    for (int e : d.byThread[th])
        if (d.stepOf[e] == step && squeezed(sourceLine(source, t.events[e].line)).find(want) != std::string::npos) {
            ln = t.events[e].line;
            break;
        }
    std::string shown = q.spec.expression, substituted = substitute(q.spec.expression, vars);
    const bool bare = identifiers(q.spec.expression).size() == 1 && squeezed(q.spec.expression) ==
                                                                        identifiers(q.spec.expression)[0];
    std::string idsFrom = q.spec.expression;   // the names whose values the explanation gives
    if (bare) {
        // A named variable: its definition shows how it is computed.
        const std::string def = "int " + q.spec.expression + " =";
        for (unsigned n = 1; n <= lines(); ++n) {
            const std::string l = sourceLine(source, n);
            if (const size_t at = l.find(def); at != std::string::npos) {
                ln = n;
                std::string rhs = trim(l.substr(at + def.size()));
                if (!rhs.empty() && rhs.back() == ';') rhs.pop_back();
                shown = q.spec.expression + " = " + rhs;
                // CUDA's built-ins as the variables they stand for (x.blockIdx.x is bx, ...).
                const Dim3 bd = t.blockDim;
                for (auto [from, to] : {std::pair<std::string, std::string>{"x.blockIdx.x", "bx"},
                                        {"x.blockIdx.y", "by"}, {"x.threadIdx.x", "tx"}, {"x.threadIdx.y", "ty"},
                                        {"x.blockDim.x", std::to_string(bd.x)}, {"x.blockDim.y", std::to_string(bd.y)}})
                    for (size_t p = rhs.find(from); p != std::string::npos; p = rhs.find(from, p + to.size()))
                        rhs.replace(p, from.size(), to);
                idsFrom = rhs;
                substituted = substitute(rhs, vars);
                if (evaluate(rhs, vars).value != ev.value) substituted.clear();   // not a plain sum: say the value only
                break;
            }
        }
    }
    if (!ln)
        for (unsigned n = 1; n <= lines(); ++n)
            if (squeezed(sourceLine(source, n)).find(want) != std::string::npos) {
                ln = n;
                break;
            }
    if (!ln && step < static_cast<int>(t.steps.size())) ln = t.steps[step].line;
    q.line = ln;
    std::vector<std::string> given;
    for (const std::string& id : identifiers(idsFrom))
        if (id != q.spec.expression || !bare)
            if (auto it = vars.find(id); it != vars.end()) given.push_back(id + " = " + std::to_string(it->second));
    const std::string& label = t.steps[step].label;
    q.prompt = "What is " + q.spec.expression + " for " + who + " at step " + std::to_string(step) + " (" + label +
               ")?";
    q.explanation = capitalised(lineRef(ln)) + ": " + (given.empty() ? "" : "with " + joinList(given) + ", ") +
                    shown + " gives " + (substituted.empty() ? "" : substituted + " = ") +
                    std::to_string(*ev.value) + ".";
}

/// Candidate index expressions on a source line: the subscripts of its array accesses,
/// the parenthesised parts and trailing sums inside them, and the named variables it
/// uses; without the trivial ones (tx, a constant, a number).
std::vector<std::string> QuestionGenerator::Impl::expressionsOn(const BlockData& d, unsigned ln) const
{
    const std::string text = sourceLine(source, ln);
    std::vector<std::string> names;
    for (const ArrayInfo& a : d.trace().arrays) names.push_back(writtenName(a));
    std::vector<std::string> out;
    auto add = [&](std::string e) {
        e = trim(e);
        if (e.empty()) return;
        if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    };
    for (const AccessText& acc : findAccesses(text, names))
        for (const std::string& sub : acc.subscripts) {
            add(sub);
            // Parenthesised parts and top-level terms.
            std::vector<std::string> terms;
            int depth = 0;
            size_t start = 0;
            for (size_t i = 0; i < sub.size(); ++i) {
                if (sub[i] == '(') {
                    if (depth++ == 0) {
                        size_t j = i + 1;
                        int dd = 1;
                        for (; j < sub.size() && dd; ++j) dd += sub[j] == '(' ? 1 : sub[j] == ')' ? -1 : 0;
                        add(sub.substr(i + 1, j - i - 2));
                    }
                } else if (sub[i] == ')') {
                    --depth;
                } else if (sub[i] == '+' && depth == 0) {
                    terms.push_back(sub.substr(start, i - start));
                    start = i + 1;
                }
            }
            terms.push_back(sub.substr(start));
            for (size_t from = 1; terms.size() >= 3 && from + 2 <= terms.size(); ++from) {
                std::string tail;
                for (size_t i = from; i < terms.size(); ++i) tail += (i > from ? " + " : "") + trim(terms[i]);
                add(tail);
            }
        }
    for (const std::string& id : identifiers(text))
        if (std::find(names.begin(), names.end(), id) == names.end()) add(id);
    // Alone, these say nothing worth asking: the thread's and block's own indices, the
    // sizes, the loop counters (conv1d's i is the output index, which is worth asking).
    std::set<std::string> trivial = {"tx", "ty", "bx", "by", "ph", "k", "l", "n", "j", "TILE_WIDTH",
                                     "TILE_SIZE", "Mask_Width", "MAX_MASK_WIDTH", "Width", "width",
                                     "height", "Pvalue", "output", "BLOCK_DIM", "SECTION_SIZE"};
    std::istringstream extra(problemOf(s).trivialVariables);
    for (std::string name; extra >> name;) trivial.insert(name);
    // A described problem's own sizes (PMPP's stencil: N).
    if (const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel)) trivial.insert(spec->sizes.begin(), spec->sizes.end());
    std::vector<std::string> kept;
    for (const std::string& e : out) {
        const std::vector<std::string> ids = identifiers(e);
        if (ids.empty()) continue;   // a number
        if (ids.size() == 1 && squeezed(e) == ids[0] && trivial.count(ids[0])) continue;
        kept.push_back(e);
    }
    return kept;
}

std::optional<QuestionSpec> QuestionGenerator::Impl::pickIndexValue(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                                    const Uint3& t, int)
{
    BlockData& d = block(b);
    const int th = linear(d, t);
    std::vector<std::pair<int, unsigned>> steps;   // step, the thread's line there
    for (int e : d.byThread[th]) {
        const int st = d.stepOf[e];
        const StepKind k = d.trace().steps[st].kind;
        if (k != StepKind::LoadTile && k != StepKind::Use && k != StepKind::Store) continue;
        if (steps.empty() || steps.back().first != st) steps.emplace_back(st, d.trace().events[e].line);
    }
    if (steps.empty()) return std::nullopt;
    const auto [st, ln] = steps[rng.below(steps.size())];
    const std::vector<std::string> exprs = expressionsOn(d, ln);
    if (exprs.empty()) return std::nullopt;
    q.block = b;
    q.thread = t;
    q.step = st;
    q.expression = exprs[rng.below(exprs.size())];
    return q;
}

void QuestionGenerator::Impl::stepIndexValue(const StepAsk& a, int th, const Uint3& tu,
                                             std::vector<QuestionSpec>& out) const
{
    const StepKind k = a.st.kind;
    if ((k != StepKind::LoadTile && k != StepKind::Use && k != StepKind::Store) ||
        !questionKindApplies(s, QuestionKind::IndexValue))
        return;
    // The thread's own line at the step (its first event there), else the step's.
    const Trace& t = a.d.trace();
    unsigned ln = a.st.line;
    for (int e = a.st.begin; e < a.st.end; ++e)
        if (t.events[e].thread == th) {
            ln = t.events[e].line;
            break;
        }
    for (const std::string& expr : expressionsOn(a.d, ln)) {
        QuestionSpec q;
        q.kind = QuestionKind::IndexValue;
        q.block = a.b;
        q.thread = tu;
        q.step = a.step;
        q.expression = expr;
        out.push_back(q);
    }
}

}  // namespace ts::sim
