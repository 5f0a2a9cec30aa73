#include "questions_command.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <variant>

#include "commands.hpp"
#include "kernels/context.cuh"
#include "sim/teaching/questions.hpp"
#include "work_check.hpp"

namespace ts::cli {
namespace {

using nlohmann::ordered_json;

/// A simulation the work check refused; it has said why on stderr.
struct Refused {
    int status;
};

ordered_json position(const sim::Cell& c, bool oneD)
{
    if (oneD) return c.col;
    return ordered_json::array({c.row, c.col});
}

ordered_json answerJson(const sim::Question& q)
{
    const sim::Answer& a = q.answer;
    ordered_json j = ordered_json::object();
    switch (q.spec.kind) {
    case sim::QuestionKind::MdsLoads:
    case sim::QuestionKind::NdsLoads:
    case sim::QuestionKind::BlockTile:
    case sim::QuestionKind::HaloCells:
    case sim::QuestionKind::GhostCells: {
        ordered_json cells = ordered_json::array();
        for (const sim::Cell& c : a.cells) cells.push_back(position(c, a.oneD));
        const bool elements = q.spec.kind != sim::QuestionKind::HaloCells && q.spec.kind != sim::QuestionKind::GhostCells;
        j[elements ? "elements" : "cells"] = cells;
        break;
    }
    case sim::QuestionKind::NdsSlot: j["slot"] = position(a.cells.at(0), a.oneD); break;
    case sim::QuestionKind::IndexValue: j["value"] = a.number; break;
    case sim::QuestionKind::ElementReaders: {
        ordered_json threads = ordered_json::array();
        for (const sim::Cell& c : a.cells) threads.push_back(ordered_json::array({c.col, c.row}));   // [tx, ty]
        j["threads"] = threads;
        break;
    }
    case sim::QuestionKind::DroppedBarrierHazard: j["hazard"] = a.name; break;
    case sim::QuestionKind::BlockGlobalLoads: j["count"] = a.number; break;
    case sim::QuestionKind::OccupancyBlocks: j["blocks"] = a.number; break;
    case sim::QuestionKind::OccupancyLimiter: j["limiter"] = a.name; break;
    case sim::QuestionKind::DivergentWarps: j["warps"] = a.number; break;
    case sim::QuestionKind::TreeSlot: j["element"] = a.number; break;
    case sim::QuestionKind::ScanAdds: j["adds"] = a.number; break;
    }
    return j;
}

ordered_json questionJson(const sim::Question& q, bool oneD, bool threeD)
{
    const sim::QuestionSpec& s = q.spec;
    ordered_json j;
    j["kind"] = sim::questionKindName(s.kind);
    // [bx, by] and [tx, ty]; a 3D launch (PMPP's stencil) gives the third index too.
    if (s.block) j["block"] = threeD ? ordered_json{s.block->x, s.block->y, s.block->z} : ordered_json{s.block->x, s.block->y};
    if (s.thread) j["thread"] = threeD ? ordered_json{s.thread->x, s.thread->y, s.thread->z} : ordered_json{s.thread->x, s.thread->y};
    if (s.phase) j["phase"] = *s.phase;
    if (s.step) j["step"] = *s.step;
    if (s.element) j["element"] = position(*s.element, oneD);
    if (!s.array.empty()) j["array"] = s.array;
    if (s.barrier) j["barrier"] = s.barrier == kernels::AFTER_COMPUTE ? "after-compute" : "after-load";
    if (!s.expression.empty()) j["expression"] = s.expression;
    if (!s.profile.empty()) j["profile"] = s.profile;
    if (s.blockThreads) j["block_threads"] = *s.blockThreads;
    if (s.regsPerThread) j["regs_per_thread"] = *s.regsPerThread;
    if (s.smemPerBlock) j["smem_per_block"] = *s.smemPerBlock;
    j["prompt"] = q.prompt;
    j["answer"] = answerJson(q);
    j["explanation"] = q.explanation;
    if (q.line) {
        j["line"] = q.line;
        j["source"] = q.lineText;
    }
    j["fixed"] = q.fixed;
    return j;
}

/// --seed: a whole number from 0 to 2^64 - 1 (as simulate's).
CLI::Validator seedCheck()
{
    return CLI::Validator(
        [](std::string& in) {
            if (!in.empty() && in.size() <= 20 && in.find_first_not_of("0123456789") == std::string::npos &&
                (in.size() < 20 || in <= "18446744073709551615"))
                return std::string();
            return "must be a whole number from 0 to " + std::to_string(std::numeric_limits<unsigned long long>::max()) +
                   "; got '" + in + "'";
        },
        "0..2^64-1");
}

/// --count: 1 to 1000 questions.
CLI::Validator countCheck()
{
    return CLI::Validator(
        [](std::string& in) {
            if (!in.empty() && in.size() <= 4 && in.find_first_not_of("0123456789") == std::string::npos) {
                const int n = std::stoi(in);
                if (n >= 1 && n <= 1000) return std::string();
            }
            return "must be a whole number of questions from 1 to 1000; got '" + in + "'";
        },
        "1..1000");
}

}  // namespace

CLI::App* addQuestionsCommand(CLI::App& app, QuestionsOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "questions", "Practice questions generated from the scenario's simulation, with their answers, deterministic "
                     "for a seed (kinds: " + sim::questionKindList() + ")");
    c->add_option("--scenario", o.scenario, "A lecture preset's name (tilescope --list-scenarios) or a scenario file")
        ->required();
    c->add_option("--count", o.count,
                  "Questions in all: the scenario file's own [[question]] tables first, then generated ones")
        ->capture_default_str()
        ->check(countCheck());
    c->add_option("--seed", o.seed, "Seed of the generated questions")->capture_default_str()->check(seedCheck());
    c->add_option("--kind", o.kinds, "Only these kinds, comma-separated: " + sim::questionKindList());
    c->add_flag("--json", o.json, "Print one JSON object (spec: docs/cli.md)");
    c->add_flag("--yes", o.yes, "Simulate a scenario estimated to take more than 10 s (otherwise refused)");
    return c;
}

int runQuestions(const QuestionsOptions& o)
{
    const std::optional<sim::Preset> found = presetOrSay(o.scenario);
    if (!found) return kBadInput;
    const sim::Preset& preset = *found;
    std::vector<sim::QuestionKind> kinds;
    if (!o.kinds.empty()) {
        size_t from = 0;
        while (from <= o.kinds.size()) {
            const size_t comma = std::min(o.kinds.find(',', from), o.kinds.size());
            const std::string name = o.kinds.substr(from, comma - from);
            const std::optional<sim::QuestionKind> k = sim::findQuestionKind(name);
            if (!k) {
                std::cerr << "tilescope-cli: --kind: '" << sim::oneLine(name) << "' is not a question kind; the kinds are "
                          << sim::questionKindList() << ".\n";
                return kBadInput;
            }
            std::string why;
            if (!sim::questionKindApplies(preset.scenario, *k, &why)) {
                std::cerr << "tilescope-cli: --kind: " << why << "\n";
                return kBadInput;
            }
            if (std::find(kinds.begin(), kinds.end(), *k) == kinds.end()) kinds.push_back(*k);
            from = comma + 1;
        }
    }
    for (const std::string& p : preset.questionProblems) std::cerr << "tilescope-cli: " << p << "\n";
    const bool yes = o.yes;
    sim::QuestionGenerator gen(preset, nullptr, [yes](const sim::Scenario& s, const sim::SimOptions& opt) {
        std::variant<sim::Simulation, int> r = guardedSimulate(s, opt, yes, true);
        if (const int* status = std::get_if<int>(&r)) throw Refused{*status};
        return std::move(std::get<sim::Simulation>(r));
    });
    sim::QuestionRequest req;
    req.seed = o.seed;
    req.count = o.count;
    req.kinds = kinds;
    std::vector<sim::Question> qs;
    try {
        qs = gen.generate(req);
    } catch (const Refused& r) {
        return r.status;
    } catch (const sim::QuestionError& e) {
        std::cerr << "tilescope-cli: " << sim::oneLine(e.what()) << "\n";
        return kBadInput;
    }
    for (const sim::QuestionProblem& p : gen.problems()) std::cerr << "tilescope-cli: " << p.message << "\n";
    const bool oneD = sim::familyOf(preset.scenario) == sim::Family::Conv1D;
    if (o.json) {
        ordered_json j;
        j["scenario"] = preset.name;
        j["seed"] = o.seed;
        j["questions"] = ordered_json::array();
        const sim::LaunchShape shape = sim::launchShape(preset.scenario);
        const bool threeD = shape.grid.z > 1 || shape.block.z > 1;
        for (const sim::Question& q : qs) j["questions"].push_back(questionJson(q, oneD, threeD));
        std::cout << j.dump() << "\n";
        return kOk;
    }
    std::cout << preset.name << " (" << preset.title << "), seed " << o.seed << ": " << qs.size()
              << (qs.size() == 1 ? " question" : " questions") << "\n";
    int n = 0;
    for (const sim::Question& q : qs) {
        std::cout << "\n" << ++n << ". [" << sim::questionKindName(q.spec.kind) << (q.fixed ? ", from the file" : "")
                  << "] " << q.prompt << "\n   Answer: " << sim::answerText(q) << "\n   Why: " << q.explanation << "\n";
    }
    return kOk;
}

}  // namespace ts::cli
