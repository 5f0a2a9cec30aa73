#include "kernel_view.hpp"

namespace ts::sim {

Variables threadVariables(const Scenario& s, const Trace& t, int thread, int step)
{
    const long long tx = thread % static_cast<int>(t.blockDim.x);
    const long long ty = thread / static_cast<int>(t.blockDim.x);
    const long long bx = t.block.x, by = t.block.y;
    Variables v{{"tx", tx}, {"ty", ty}, {"bx", bx}, {"by", by}, {"j", s.j}, {"k", s.k}, {"l", s.l}};
    v["Row"] = by * t.blockDim.y + ty;
    v["Col"] = bx * t.blockDim.x + tx;
    const KernelInfo* info = findKernel(s.kernel);
    const bool tiled = info && info->tiled;
    const Step* st = step >= 0 && step < static_cast<int>(t.steps.size()) ? &t.steps[step] : nullptr;
    if (tiled) {
        v["TILE_WIDTH"] = s.tile;
        if (st) v["ph"] = st->phase;
    }
    if (st && st->kind == StepKind::Use) v["i"] = st->iteration;
    return v;
}

std::optional<TileRect> phaseTile(const Scenario& s, const Uint3& block, int phase,
                                  const std::string& array)
{
    const KernelInfo* info = findKernel(s.kernel);
    if (!info || !info->tiled || info->family != Family::Matmul) return std::nullopt;
    const int T = s.tile;
    if (array == "M") return TileRect{static_cast<int>(block.y) * T, phase * T, T, T};
    if (array == "N") return TileRect{phase * T, static_cast<int>(block.x) * T, T, T};
    return std::nullopt;
}

std::string tileSourceArray(const Scenario& s, const std::string& sharedArray)
{
    const KernelInfo* info = findKernel(s.kernel);
    if (!info || !info->tiled || info->family != Family::Matmul) return {};
    if (sharedArray == "Mds") return "M";
    if (sharedArray == "Nds") return "N";
    return {};
}

std::string sourceLine(const std::string& text, unsigned line)
{
    size_t b = 0;
    for (unsigned n = 1; n < line; ++n) {
        b = text.find('\n', b);
        if (b == std::string::npos) return {};
        ++b;
    }
    if (line == 0 || b > text.size()) return {};
    size_t e = text.find('\n', b);
    return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::vector<AccessExplanation> explainAccesses(const Scenario& s, const Trace& t, int thread,
                                               int step, const std::string& source)
{
    std::vector<AccessExplanation> out;
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return out;
    const Variables vars = threadVariables(s, t, thread, step);
    std::vector<std::string> names;
    for (const ArrayInfo& a : t.arrays) names.push_back(a.name);

    // The textual accesses of each line, and how many of each array were matched so far.
    struct LineAccesses {
        std::vector<AccessText> accesses;
        std::vector<bool> used;
    };
    std::map<unsigned, LineAccesses> lines;

    const Step& st = t.steps[step];
    for (int n = st.begin; n < st.end; ++n) {
        const Event& e = t.events[n];
        if (e.thread != thread || e.array == kNoArray) continue;
        const ArrayInfo& info = t.arrays[e.array];
        AccessExplanation x;
        x.op = e.op;
        x.value = e.value;
        x.line = e.line;
        x.array = info.name;
        x.recorded = e.index;

        auto [it, fresh] = lines.try_emplace(e.line);
        if (fresh) {
            it->second.accesses = findAccesses(sourceLine(source, e.line), names);
            it->second.used.assign(it->second.accesses.size(), false);
        }
        LineAccesses& la = it->second;
        const AccessText* acc = nullptr;
        for (size_t a = 0; a < la.accesses.size() && !acc; ++a)
            if (!la.used[a] && la.accesses[a].array == info.name) {
                la.used[a] = true;
                acc = &la.accesses[a];
            }
        if (!acc) {
            x.error = "Line " + std::to_string(e.line) + " of the source shows no access to " +
                      info.name + ".";
            out.push_back(x);
            continue;
        }
        x.written = acc->text();
        x.substituted = info.name;
        x.evaluated = info.name;
        std::vector<long long> subs;
        for (const std::string& sub : acc->subscripts) {
            x.substituted.append("[").append(substitute(sub, vars)).append("]");
            Evaluation ev = evaluate(sub, vars);
            if (!ev.value) {
                x.error = ev.error;
                break;
            }
            subs.push_back(*ev.value);
            x.evaluated.append("[").append(std::to_string(*ev.value)).append("]");
        }
        if (x.error.empty()) {
            // Row-major: a[r][c] is element r*cols + c; a 1D subscript is the flat index.
            if (subs.size() == 1) x.flat = subs[0];
            else if (subs.size() == 2) x.flat = subs[0] * info.cols + subs[1];
            else x.error = "Only one or two subscripts are understood; " + x.written + " has " +
                           std::to_string(subs.size()) + ".";
        }
        if (!x.error.empty()) x.evaluated.clear();
        out.push_back(x);
    }
    return out;
}

}  // namespace ts::sim
