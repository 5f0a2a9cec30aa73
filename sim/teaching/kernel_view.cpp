#include "sim/teaching/kernel_view.hpp"

#include <cctype>

#include <sstream>

#include <cstring>
#include <map>

#include <set>

#include <algorithm>
#include <utility>

#include "kernels/context.cuh"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/words.hpp"

namespace ts::sim {

namespace {

/// The convolution kernels' variables (kernels/conv*.cuh), as threadVariables documents.
/// CUDA's built-in variables of thread (tx, ty) of the traced block, under the names a
/// kernel written as PMPP prints it uses (`threadIdx.x`, `blockDim.x`, ...).
void addBuiltIns(Variables& v, const Scenario& s, const Trace& t, long long tx, long long ty, long long tz)
{
    const Dim3 grid = launchShape(s).grid;
    v["threadIdx.x"] = tx, v["threadIdx.y"] = ty, v["threadIdx.z"] = tz;
    v["blockIdx.x"] = t.block.x, v["blockIdx.y"] = t.block.y, v["blockIdx.z"] = t.block.z;
    v["blockDim.x"] = t.blockDim.x, v["blockDim.y"] = t.blockDim.y, v["blockDim.z"] = t.blockDim.z;
    v["gridDim.x"] = grid.x, v["gridDim.y"] = grid.y, v["gridDim.z"] = grid.z;
}

}  // namespace

void convVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty, Variables& v)
{
    const long long bx = t.block.x, by = t.block.y, T = s.tile, mw = s.maskWidth;
    const long long bdx = t.blockDim.x, bdy = t.blockDim.y;
    v["Mask_Width"] = mw;
    v["MAX_MASK_WIDTH"] = kernels::MAX_MASK_WIDTH;
    const KernelInfo* info = s.kernelInfo();
    if (info->tiled) v["TILE_SIZE"] = T;
    const bool use = st && st->kind == StepKind::Use;
    if (problemOf(s).dims == 1) {
        const long long i = bx * bdx + tx;
        v["Width"] = s.width;
        v["i"] = i;
        v["n"] = mw / 2;
        v["halo_index_left"] = (bx - 1) * T + tx;
        v["halo_index_right"] = (bx + 1) * T + tx;
        v["N_start_point"] = i - mw / 2;
        v["This_tile_start_point"] = bx * T;
        v["Next_tile_start_point"] = (bx + 1) * T;
        v["Row"] = 0;
        v["Col"] = i;
        if (use) {
            v["j"] = st->iteration;
            v["N_index"] = i - mw / 2 + st->iteration;
        }
        return;
    }
    v["width"] = s.width;
    v["height"] = s.height;
    if (info->tiled) {
        v["row_o"] = v["Row"] = by * T + ty;
        v["col_o"] = v["Col"] = bx * T + tx;
        v["row_i"] = by * T + ty - mw / 2;
        v["col_i"] = bx * T + tx - mw / 2;
    } else {
        v["Row"] = by * bdy + ty;
        v["Col"] = bx * bdx + tx;
        v["N_start_row"] = v["Row"] - mw / 2;
        v["N_start_col"] = v["Col"] - mw / 2;
    }
    if (use) {
        v["i"] = st->iteration / mw;
        v["j"] = st->iteration % mw;
        if (!info->tiled) {
            v["row_i"] = v["N_start_row"] + v["i"];
            v["col_i"] = v["N_start_col"] + v["j"];
        }
    }
}

namespace {

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The kernel's own integer declarations, `unsigned int i = 2*x.threadIdx.x;` or `constexpr
/// unsigned int COARSE_FACTOR = 2;`, evaluated in source order with what `v` knows (the
/// context's `x.` dropped) and added to it: a described problem's kernel names its indices
/// this way (PMPP Fig. 10.6's i, Fig. 10.13's segment, i and t). A loop's variable, declared
/// in its `for`, changes from one iteration to the next and is left out; so is a name the
/// kernel assigns again later (other than by the same declaration in another kernel of the
/// file), or one `v` holds already.
void declaredVariables(const std::string& source, Variables& v)
{
    static const std::set<std::string> typeWords = {"const", "constexpr", "inline", "static", "unsigned", "signed",
                                                    "int", "long", "short", "size_t"};
    std::map<std::string, int> assigned;   // how often each name is the target of an `=`
    std::vector<std::pair<std::string, std::string>> declared;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) {
        const size_t comment = line.find("//");
        if (comment != std::string::npos) line.erase(comment);
        for (size_t from = 0; from < line.size();) {
            const size_t semi = line.find(';', from);
            const std::string stmt = trim(line.substr(from, semi == std::string::npos ? std::string::npos : semi - from));
            from = semi == std::string::npos ? line.size() : semi + 1;
            const size_t eq = stmt.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 >= stmt.size() || stmt[eq + 1] == '=' ||
                std::string("<>!+-*/%&|^").find(stmt[eq - 1]) != std::string::npos)
                continue;
            std::istringstream words(stmt.substr(0, eq));
            std::vector<std::string> w;
            for (std::string x; words >> x;) w.push_back(x);
            if (w.empty() || !std::all_of(w.back().begin(), w.back().end(), identChar)) continue;
            ++assigned[w.back()];
            bool typed = w.size() >= 2;
            for (size_t k = 0; k + 1 < w.size(); ++k) typed &= typeWords.count(w[k]) > 0;
            if (typed && stmt.rfind("for", 0) != 0) declared.emplace_back(w.back(), stmt.substr(eq + 1));
        }
    }
    // A name declared alike in each of a file's kernels (PMPP sec. 11.6's three kernels each
    // declare `unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;`) is one value.
    std::map<std::string, std::set<std::string>> forms;
    for (const auto& [name, expr] : declared) forms[name].insert(trim(expr));
    for (auto [name, expr] : declared) {
        const std::string declaredName = name;   // (clang 14 cannot capture a binding)
        const size_t declarations = static_cast<size_t>(
            std::count_if(declared.begin(), declared.end(), [&](const auto& d) { return d.first == declaredName; }));
        if (static_cast<size_t>(assigned[name]) != declarations || forms[name].size() != 1 || v.count(name)) continue;
        for (size_t p = expr.find("x."); p != std::string::npos; p = expr.find("x.", p))
            if (p == 0 || !identChar(expr[p - 1])) expr.erase(p, 2);
            else p += 2;
        if (const Evaluation e = evaluate(expr, v); e.value) v[name] = *e.value;
    }
}

/// `text` without the execution context's `x.` before CUDA's built-in variables
/// (`x.threadIdx.x` is threadIdx.x): kernels/context.cuh's single-source spelling.
std::string withoutContext(std::string text)
{
    for (const char* builtIn : {"threadIdx.", "blockIdx.", "blockDim.", "gridDim."}) {
        const std::string spelled = std::string("x.") + builtIn;
        for (size_t p = text.find(spelled); p != std::string::npos; p = text.find(spelled, p))
            if (p == 0 || !identChar(text[p - 1])) text.erase(p, 2);
            else p += spelled.size();
    }
    return text;
}

}  // namespace

void arrayVariables(const Scenario& s, const Trace& t, const Step*, long long tx, long long ty, Variables& v)
{
    const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel);
    if (!spec) return;
    for (const auto& [name, value] : spec->sizeValues(s)) v[name] = value;
    // A registry row's compiled block size (PMPP ch. 10's BLOCK_DIM), then the kernel's own
    // declarations.
    if (const KernelInfo* info = s.kernelInfo(); info && info->tiled && !findLoadedKernel(s.kernel)) {
        v["BLOCK_DIM"] = s.tile;
        // PMPP ch. 11's section: the elements per thread x the block (Fig. 11.3's SECTION_SIZE).
        if (info->scan) v["SECTION_SIZE"] = 1ll * std::max(1, info->scanElementsPerThread) * s.tile;
    }
    if (const KernelInfo* info = s.kernelInfo(); info && !findLoadedKernel(s.kernel))
        declaredVariables(kernelSource(info->sourceFile), v);
    // A 3D output's index names as its reference formula's left side gives them
    // (`out[i][j][k] = ...`, PMPP's own i, j, k), for the element the thread stores.
    const ArrayDecl* out = spec->output();
    const long long thread = (v.count("threadIdx.z") ? v.at("threadIdx.z") * std::max(1u, t.blockDim.y) + ty : ty) * t.blockDim.x + tx;
    if (!out || out->extents.size() != 3 || thread < 0 || thread >= static_cast<long long>(t.outputs.size())) return;
    const Trace::Output& o = t.outputs[static_cast<size_t>(thread)];
    ArrayShape sh;
    std::string error;
    if (!o.stored || !spec->shape(*out, spec->sizeValues(s), sh, error)) return;
    std::vector<std::string> names;
    const std::string lhs = spec->reference.substr(0, spec->reference.find('='));
    for (size_t p = lhs.find('['); p != std::string::npos; p = lhs.find('[', p + 1)) {
        const size_t close = lhs.find(']', p);
        if (close == std::string::npos) break;
        names.push_back(trim(lhs.substr(p + 1, close - p - 1)));
    }
    if (names.size() != 3) return;
    v[names[0]] = o.row / sh.rows;
    v[names[1]] = o.row % sh.rows;
    v[names[2]] = o.col;
}

void matmulVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty, Variables& v)
{
    v["j"] = s.j, v["k"] = s.k, v["l"] = s.l;
    const int thread = static_cast<int>(ty * t.blockDim.x + tx);
    int arrayP = -1;
    for (size_t a = 0; a < t.arrays.size(); ++a)
        if (t.arrays[a].name == "P" && t.arrays[a].space == Space::Global) arrayP = static_cast<int>(a);
    // Row and Col of the thread's element; on a rung whose threads compute several they may
    // change along a loop (matmul-coarsened's Col = colStart + c*TILE_WIDTH), and then are left
    // unknown rather than given the first element's.
    if (const std::optional<PElement> p = threadElement(t, arrayP, thread)) {
        const Trace::Output& o = t.outputs[thread];
        if (o.oneRow) v["Row"] = p->row;
        if (o.oneCol) v["Col"] = p->col;
    }
    const KernelInfo* info = s.kernelInfo();
    const bool tiled = info && info->tiled;
    if (tiled) {
        v["TILE_WIDTH"] = s.tile;
        if (st) v["ph"] = st->phase;
    }
    if (st && st->kind == StepKind::Use) v["i"] = st->iteration;
}

Variables threadVariables(const Scenario& s, const Trace& t, int thread, int step)
{
    const long long bx = std::max(1u, t.blockDim.x), by = std::max(1u, t.blockDim.y);
    const long long tx = thread % bx;
    const long long ty = thread / bx % by, tz = thread / bx / by;
    const Step* st = step >= 0 && step < static_cast<int>(t.steps.size()) ? &t.steps[step] : nullptr;
    // The built-in variables, then the ones the problem's kernels name (its description's hook).
    Variables v{{"tx", tx}, {"ty", ty}, {"bx", t.block.x}, {"by", t.block.y}};
    // A 3D launch (PMPP's stencil) names its third axis too.
    if (t.blockDim.z > 1 || t.block.z > 0) v["tz"] = tz, v["bz"] = t.block.z;
    addBuiltIns(v, s, t, tx, ty, tz);
    if (const auto hook = problemOf(s).threadVariables) hook(s, t, st, tx, ty, v);
    return v;
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

std::string writtenArrayName(const Scenario& s, const ArrayInfo& a)
{
    // A student's kernel: the names its parameters and its __constant__ array have.
    if (a.space != Space::Shared && findLoadedKernel(s.kernel)) return loadedArrayLabel(s.kernel, a.name);
    const char* label = problemOf(s).constantLabel;
    return a.space == Space::Constant && *label ? std::string(label) : a.name;
}

std::vector<AccessExplanation> explainAccesses(const Scenario& s, const Trace& t, int thread,
                                               int step, const std::string& source)
{
    std::vector<AccessExplanation> out;
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return out;
    const Variables vars = threadVariables(s, t, thread, step);
    // The names the source writes: conv2d's mask in constant memory is Mc, the trace's M.
    std::vector<std::string> names;
    for (const ArrayInfo& a : t.arrays) names.push_back(writtenArrayName(s, a));

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
        if (e.op == Op::Atomic) {
            float before;
            std::memcpy(&before, &e.origin, sizeof before);   // Machine::recordAtomic
            x.before = before;
        }
        x.line = e.line;
        x.array = info.name;
        x.recorded = e.index;

        auto [it, fresh] = lines.try_emplace(e.line);
        if (fresh) {
            it->second.accesses = findAccesses(sourceLine(source, e.line), names);
            // A registry kernel's single-source spelling, `XY[x.threadIdx.x]`, read as the CUDA
            // it stands for (the Code panel's listing drops the context's `x.` the same way).
            for (AccessText& a : it->second.accesses)
                for (std::string& sub : a.subscripts) sub = withoutContext(sub);
            it->second.used.assign(it->second.accesses.size(), false);
        }
        LineAccesses& la = it->second;
        const AccessText* acc = nullptr;
        for (size_t a = 0; a < la.accesses.size() && !acc; ++a)
            if (!la.used[a] && la.accesses[a].array == writtenArrayName(s, info)) {
                la.used[a] = true;
                acc = &la.accesses[a];
            }
        // `a[i] += ...` reads and writes one textual access: a store goes with the access
        // already matched to a load of the same element.
        for (size_t a = 0; a < la.accesses.size() && !acc; ++a) {
            if (!la.used[a] || la.accesses[a].array != writtenArrayName(s, info) || la.accesses[a].subscripts.size() != 1)
                continue;
            if (const Evaluation ev = evaluate(la.accesses[a].subscripts[0], vars); ev.value && *ev.value == e.index)
                acc = &la.accesses[a];
        }
        // An atomic on a pointer to element 0 (`atomicAdd(output, v)`, PMPP Fig. 10.13).
        if (!acc && e.op == Op::Atomic && e.index == 0 &&
            sourceLine(source, e.line).find("(" + writtenArrayName(s, info) + ",") != std::string::npos) {
            x.written = writtenArrayName(s, info);
            x.substituted = x.written;
            x.evaluated = x.written + "[0]";
            x.flat = 0;
            out.push_back(x);
            continue;
        }
        if (!acc) {
            x.error = "Line " + std::to_string(e.line) + " of the source shows no access to " +
                      writtenArrayName(s, info) + ".";
            out.push_back(x);
            continue;
        }
        x.written = acc->text();
        x.substituted = writtenArrayName(s, info);
        x.evaluated = writtenArrayName(s, info);
        std::vector<long long> subs;
        for (const std::string& sub : acc->subscripts) {
            x.substituted.append("[").append(substitute(sub, vars)).append("]");
            Evaluation ev = evaluate(sub, vars);
            if (!ev.value) {
                x.error = ev.error;
                x.unknown = ev.unknown;
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
