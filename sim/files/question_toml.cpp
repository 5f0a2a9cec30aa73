#include "sim/files/question_toml.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "kernels/context.cuh"
#include "sim/teaching/questions.hpp"

namespace ts::sim {

namespace {

constexpr const char* kQuestionKeys[] = {"kind",       "step",    "block",   "thread",        "phase",
                                         "element",    "barrier", "array",   "expression",    "profile",
                                         "block_threads", "regs_per_thread", "smem_per_block"};

/// A malformed question: the problem and the node it lies at.
struct Bad {
    const toml::node* at;
    std::string problem;
};

int lineOf(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

/// "the string \"x\"", "the integer 5", "an array", ... for messages.
std::string what(const toml::node& n)
{
    if (const auto* v = n.as_string()) return "the string \"" + oneLine(v->get().substr(0, 40)) + "\"";
    if (const auto* v = n.as_integer()) return "the integer " + std::to_string(v->get());
    if (n.is_floating_point()) return "a floating-point number";
    if (n.is_boolean()) return "a boolean";
    if (n.is_array()) return "an array";
    if (n.is_table()) return "a table";
    return "a date or time";
}

int integer(const toml::node& n, const char* key, long long lo, long long hi)
{
    const auto* v = n.as_integer();
    if (!v) throw Bad{&n, std::string(key) + " must be an integer; got " + what(n) + "."};
    if (v->get() < lo || v->get() > hi)
        throw Bad{&n, std::string(key) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                          "; got " + std::to_string(v->get()) + "."};
    return static_cast<int>(v->get());
}

std::string text(const toml::node& n, const char* key)
{
    const auto* v = n.as_string();
    if (!v) throw Bad{&n, std::string(key) + " must be a string in quotes; got " + what(n) + "."};
    return v->get();
}

/// [x, y]: two non-negative integers; [x, y, z] too where `three` (a block or thread of a 3D launch).
Uint3 pair(const toml::node& n, const char* key, const char* shape, bool three = false)
{
    const toml::array* a = n.as_array();
    if (!a || (a->size() != 2 && !(three && a->size() == 3)))
        throw Bad{&n, std::string(key) + " must be " + shape + "; got " + what(n) + "."};
    constexpr long long kMax = std::numeric_limits<int>::max();
    const int x = integer(*a->get(0), key, 0, kMax), y = integer(*a->get(1), key, 0, kMax);
    const int z = a->size() == 3 ? integer(*a->get(2), key, 0, kMax) : 0;
    return Uint3{static_cast<unsigned>(x), static_cast<unsigned>(y), static_cast<unsigned>(z)};
}

QuestionSpec readOne(const toml::table& t, const Preset& p)
{
    QuestionSpec q;
    q.line = lineOf(t);
    for (auto&& [key, node] : t)
        if (std::none_of(std::begin(kQuestionKeys), std::end(kQuestionKeys), [&k = key](const char* x) { return k.str() == x; })) {
            std::string list;
            for (const char* k : kQuestionKeys) list += std::string(list.empty() ? "" : ", ") + k;
            throw Bad{&node, "unknown key '" + oneLine(key.str()) + "' in [[question]]; the known keys are " + list + "."};
        }
    const toml::node* kind = t.get("kind");
    if (!kind) throw Bad{&t, "[[question]] needs kind, one of " + questionKindList() + "."};
    const std::string name = text(*kind, "kind");
    const std::optional<QuestionKind> k = findQuestionKind(name);
    if (!k) throw Bad{kind, "'" + oneLine(name) + "' is not a question kind; the kinds are " + questionKindList() + "."};
    q.kind = *k;
    if (std::string why; !questionKindApplies(p.scenario, q.kind, &why)) throw Bad{kind, why};
    constexpr long long kMax = std::numeric_limits<int>::max();
    const bool conv1d = familyOf(p.scenario) == Family::Conv1D;
    if (const toml::node* n = t.get("step")) q.step = integer(*n, "step", 0, kMax);
    // A 3D launch (PMPP's stencil) names three indices; the others keep the message of two.
    const bool threeD = launchShape(p.scenario).grid.z > 1 || launchShape(p.scenario).block.z > 1;
    if (const toml::node* n = t.get("block"))
        q.block = pair(*n, "block", threeD ? "[bx, by, bz], three block indices" : "[bx, by], two block indices", threeD);
    if (const toml::node* n = t.get("thread"))
        q.thread = pair(*n, "thread", threeD ? "[tx, ty, tz], a thread index in the block" : "[tx, ty], a thread index in the block", threeD);
    if (const toml::node* n = t.get("phase")) q.phase = integer(*n, "phase", 0, kMax);
    if (const toml::node* n = t.get("element")) {
        if (conv1d) {
            if (!n->is_integer()) throw Bad{n, "element must be the index of an element of N (1D); got " + what(*n) + "."};
            q.element = Cell{0, integer(*n, "element", 0, kMax)};
        } else {
            const Uint3 e = pair(*n, "element", "[row, col], an element of N");
            q.element = Cell{static_cast<int>(e.x), static_cast<int>(e.y)};
        }
    }
    if (const toml::node* n = t.get("barrier")) {
        const std::string b = text(*n, "barrier");
        if (b == "after-load") q.barrier = kernels::AFTER_LOAD;
        else if (b == "after-compute") q.barrier = kernels::AFTER_COMPUTE;
        else throw Bad{n, "barrier must be \"after-load\" or \"after-compute\"; got \"" + oneLine(b) + "\"."};
    }
    if (const toml::node* n = t.get("array")) q.array = text(*n, "array");
    if (const toml::node* n = t.get("expression")) {
        q.expression = text(*n, "expression");
        if (q.expression.find_first_not_of(" \t") == std::string::npos)
            throw Bad{n, "expression must not be empty; write it as the kernel does, e.g. \"ph*TILE_WIDTH + tx\"."};
    }
    if (const toml::node* n = t.get("profile")) q.profile = text(*n, "profile");
    if (const toml::node* n = t.get("block_threads")) q.blockThreads = integer(*n, "block_threads", 1, kMax);
    if (const toml::node* n = t.get("regs_per_thread")) q.regsPerThread = integer(*n, "regs_per_thread", 0, kMax);
    if (const toml::node* n = t.get("smem_per_block")) q.smemPerBlock = integer(*n, "smem_per_block", 0, kMax);
    std::string key;
    if (std::string e = checkQuestion(p, q, &key); !e.empty()) {
        const toml::node* at = key == "kind" ? static_cast<const toml::node*>(&t) : t.get(key);
        throw Bad{at ? at : &t, e};
    }
    return q;
}

/// A TOML basic string: in double quotes, with quotes, backslashes and control characters
/// escaped.
std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') out.append(1, '\\').append(1, c);
        else if (u < 0x20 || u == 0x7f) {
            const char hex[] = "0123456789abcdef";
            out.append("\\u00").append(1, hex[u >> 4]).append(1, hex[u & 15]);
        } else out += c;
    }
    return out + "\"";
}

}  // namespace

void readQuestionTables(const std::string& file, const toml::node& question, Preset& p)
{
    auto report = [&](const toml::node& at, const std::string& problem) {
        p.questionProblems.push_back(oneLine(file + ", line " + std::to_string(lineOf(at)) + ": " + problem));
    };
    const toml::array* a = question.as_array();
    if (!a || !a->is_array_of_tables()) {
        report(question, "question must be written as [[question]] tables, one per question, with kind and its "
                         "target (block, thread, phase, step, element, barrier, ...).");
        return;
    }
    for (const toml::node& n : *a) {
        try {
            p.questions.push_back(readOne(*n.as_table(), p));
        } catch (const Bad& b) {
            report(*b.at, b.problem);
        }
    }
}

void writeQuestionTables(std::ostream& o, const Preset& p)
{
    const bool conv1d = familyOf(p.scenario) == Family::Conv1D;
    for (const QuestionSpec& q : p.questions) {
        o << "\n[[question]]\nkind = \"" << questionKindName(q.kind) << "\"\n";
        if (q.block) o << "block = [" << q.block->x << ", " << q.block->y << "]\n";
        if (q.thread) o << "thread = [" << q.thread->x << ", " << q.thread->y << "]\n";
        if (q.phase) o << "phase = " << *q.phase << "\n";
        if (q.step) o << "step = " << *q.step << "\n";
        if (q.element) {
            if (conv1d) o << "element = " << q.element->col << "\n";
            else o << "element = [" << q.element->row << ", " << q.element->col << "]\n";
        }
        if (q.barrier)
            o << "barrier = \"" << (q.barrier == kernels::AFTER_COMPUTE ? "after-compute" : "after-load") << "\"\n";
        if (!q.array.empty()) o << "array = " << quoted(q.array) << "\n";
        if (!q.expression.empty()) o << "expression = " << quoted(q.expression) << "\n";
        if (!q.profile.empty()) o << "profile = " << quoted(q.profile) << "\n";
        if (q.blockThreads) o << "block_threads = " << *q.blockThreads << "\n";
        if (q.regsPerThread) o << "regs_per_thread = " << *q.regsPerThread << "\n";
        if (q.smemPerBlock) o << "smem_per_block = " << *q.smemPerBlock << "\n";
    }
}

}  // namespace ts::sim
