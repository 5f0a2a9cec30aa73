#include "sim/teaching/narration_anchor.hpp"

#include <sstream>

namespace ts::sim {
namespace {

struct KindWord {
    const char* word;
    StepKind kind;
};
constexpr KindWord kKindWords[] = {{"load", StepKind::LoadTile},
                                   {"use", StepKind::Use},
                                   {"barrier", StepKind::Barrier},
                                   {"store", StepKind::Store},
                                   {"other", StepKind::Other}};

std::vector<std::string> words(std::string_view s)
{
    std::vector<std::string> out;
    std::string cur;
    for (const char c : s) {
        if (c == ' ' || c == '\t') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

}  // namespace

const char* anchorKinds()
{
    return "load, use, barrier, store, other";
}

std::string parseAnchorAt(std::string_view at, NarrationAnchor& a)
{
    const std::vector<std::string> w = words(at);
    if (w.empty() || w.size() > 2)
        return "at must be a step kind (" + std::string(anchorKinds()) +
               ") optionally followed by one array name, as \"store P\" or \"load Mds\"; got \"" + std::string(at) + "\".";
    for (const KindWord& k : kKindWords)
        if (w[0] == k.word) {
            a.at = std::string(at);
            a.kind = k.kind;
            a.array = w.size() == 2 ? w[1] : "";
            return "";
        }
    return "at must start with a step kind (" + std::string(anchorKinds()) + "); got \"" + w[0] + "\".";
}

bool anchorMatches(const NarrationAnchor& a, const Trace& t, const Step& s)
{
    if (s.kind != a.kind) return false;
    if (a.phase && s.phase != *a.phase) return false;
    if (a.iteration && s.iteration != *a.iteration) return false;
    if (a.array.empty()) return true;
    for (int i = s.begin; i < s.end; ++i) {
        const Event& e = t.events[i];
        if (e.array < t.arrays.size() && t.arrays[e.array].name == a.array) return true;
    }
    return false;
}

int resolveAnchor(const NarrationAnchor& a, const Trace& t, std::string* why)
{
    int seen = 0;
    for (size_t i = 0; i < t.steps.size(); ++i)
        if (anchorMatches(a, t, t.steps[i]) && ++seen == a.nth) return static_cast<int>(i);
    if (why) {
        if (seen == 0)
            *why = "no step of the trace matches " + describeAnchor(a) + " (tilescope-cli narrate lists the steps).";
        else
            *why = describeAnchor(a) + " asks for match " + std::to_string(a.nth) + " but only " +
                   std::to_string(seen) + (seen == 1 ? " step matches." : " steps match.");
    }
    return -1;
}

std::string describeAnchor(const NarrationAnchor& a)
{
    std::ostringstream o;
    o << "at = \"" << a.at << "\"";
    if (a.phase) o << ", phase = " << *a.phase;
    if (a.iteration) o << ", iteration = " << *a.iteration;
    if (a.nth != 1) o << ", nth = " << a.nth;
    return o.str();
}

}  // namespace ts::sim
