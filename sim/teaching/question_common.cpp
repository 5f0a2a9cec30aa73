// The machinery the practice questions share (question_common.hpp): the kernel's shape as the
// questions see it, the text helpers, and the generator's state: a block's simulation with its
// trace indexed, the kernel's source lines, how an access or a zero fill is explained, and the
// dispatch from a question's kind to the file that answers it (question_<kind>.cpp).
#include "sim/teaching/question_common.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include "sim/teaching/kernel_view.hpp"

#include <algorithm>
#include <cctype>

#include "kernels/context.cuh"

namespace ts::sim {

namespace question_detail {

Shape shapeOf(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    if (!k) return Shape::Unknown;
    if (problemOf(*k).tilesOfM) {
        if (!k->tiled) return Shape::NaiveMatmul;
        // PMPP's tiled kernel and its Nds variants: one P element per thread, square tiles,
        // two barriers a phase (the ladder's rungs reshape all three).
        if (k->threadRows == 1 && k->threadCols == 1 && k->blockColsFactor == 1 && k->tileK == 0 &&
            k->barriersPerPhase == 2)
            return Shape::TiledMatmul;
        return Shape::OtherMatmul;
    }
    if (problemOf(*k).picture == Picture::Arrays) return Shape::Arrays;
    return k->tiled ? Shape::ConvTiled : Shape::ConvBasic;
}

bool isConv(Shape sh) { return sh == Shape::ConvBasic || sh == Shape::ConvTiled; }

bool kindFits(const Scenario& s, QuestionKind k)
{
    const Shape sh = shapeOf(s);
    const KernelInfo* info = s.kernelInfo();
    switch (k) {
    case QuestionKind::MdsLoads: return sh == Shape::TiledMatmul;
    case QuestionKind::NdsLoads:
    case QuestionKind::BlockTile:
    case QuestionKind::NdsSlot: return sh == Shape::TiledMatmul || sh == Shape::ConvTiled;
    case QuestionKind::IndexValue: return sh != Shape::OtherMatmul && sh != Shape::Unknown;
    case QuestionKind::ElementReaders:
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: return isConv(sh);
    case QuestionKind::DroppedBarrierHazard: return info && info->barriers != 0;
    case QuestionKind::BlockGlobalLoads:
    case QuestionKind::OccupancyBlocks:
    case QuestionKind::OccupancyLimiter: return sh != Shape::Unknown;
    case QuestionKind::DivergentWarps:
    case QuestionKind::TreeSlot: return info && info->reductionTree;
    case QuestionKind::ScanAdds: return info && info->scan;
    }
    return false;
}

/// Why a kind does not fit a kernel, after "it": "has no Mds tile".
const char* notFitting(QuestionKind k)
{
    switch (k) {
    case QuestionKind::MdsLoads:
        return "loads no Mds tile of M (PMPP's tiled matrix multiplications, matmul-tiled and its Nds variants, do)";
    case QuestionKind::NdsLoads:
    case QuestionKind::BlockTile:
    case QuestionKind::NdsSlot:
        return "loads no tile of N into shared memory phase by phase (PMPP's tiled matrix multiplications and the "
               "tiled convolutions do)";
    case QuestionKind::IndexValue: return "has index variables the code view does not follow (a rung of the ladder)";
    case QuestionKind::ElementReaders:
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: return "is not a convolution";
    case QuestionKind::DroppedBarrierHazard: return "has no barrier that can be dropped";
    case QuestionKind::DivergentWarps:
    case QuestionKind::TreeSlot: return "is not one of PMPP ch. 10's reduction trees";
    case QuestionKind::ScanAdds: return "is not one of PMPP ch. 11's scans";
    default: return "is not a known kernel";
    }
}

/// `t` without white space, for comparing expressions as written.
std::string squeezed(std::string_view t)
{
    std::string out;
    for (char c : t)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

static bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
static bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The identifiers of an expression, in order, once each.
std::vector<std::string> identifiers(std::string_view e)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < e.size();) {
        if (identStart(e[i])) {
            size_t j = i;
            while (j < e.size() && identChar(e[j])) ++j;
            std::string id(e.substr(i, j - i));
            if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(e[i]))) {
            while (i < e.size() && identChar(e[i])) ++i;
        } else {
            ++i;
        }
    }
    return out;
}

bool containsWord(std::string_view text, std::string_view word)
{
    for (size_t p = text.find(word); p != std::string_view::npos; p = text.find(word, p + 1)) {
        const bool before = p > 0 && identChar(text[p - 1]);
        const bool after = p + word.size() < text.size() && identChar(text[p + word.size()]);
        if (!before && !after) return true;
    }
    return false;
}

std::string barrierName(unsigned bit) { return bit == kernels::AFTER_COMPUTE ? "after-compute" : "after-load"; }
std::string barrierMacro(unsigned bit) { return bit == kernels::AFTER_COMPUTE ? "AFTER_COMPUTE" : "AFTER_LOAD"; }

bool oneD(const Scenario& s) { return problemOf(s).dims == 1; }

std::string blockName(const Scenario& s, const Uint3& b)
{
    if (oneD(s)) return "block bx=" + std::to_string(b.x);
    const bool threeD = b.z || problemOf(s).dims == 3;
    return "block (bx=" + std::to_string(b.x) + ", by=" + std::to_string(b.y) + (threeD ? ", bz=" + std::to_string(b.z) : std::string()) + ")";
}

std::string threadName(const Scenario& s, const Uint3& t)
{
    if (oneD(s)) return "thread tx=" + std::to_string(t.x);
    if (t.z || problemOf(s).dims == 3)
        return "thread (tz=" + std::to_string(t.z) + ", ty=" + std::to_string(t.y) + ", tx=" + std::to_string(t.x) + ")";
    return "thread (ty=" + std::to_string(t.y) + ", tx=" + std::to_string(t.x) + ")";
}

/// "M[1][2]" or, for a 1D array, "N[5]".
std::string cellName(const std::string& array, const Cell& c, bool oneDim)
{
    if (oneDim) return array + "[" + std::to_string(c.col) + "]";
    return array + "[" + std::to_string(c.row) + "][" + std::to_string(c.col) + "]";
}

OccupancyAsk occupancyAsk(const Preset& p, const QuestionSpec& q, int kernelSmem)
{
    OccupancyAsk a;
    const bool table = p.occupancy && p.occupancy->profile != "current";
    a.profile = !q.profile.empty() ? q.profile : table ? p.occupancy->profile : "textbook";
    a.input.blockThreads = q.blockThreads ? *q.blockThreads
                           : table        ? p.occupancy->input.blockThreads
                                          : static_cast<int>(launchShape(p.scenario).block.count());
    a.input.regsPerThread = q.regsPerThread ? *q.regsPerThread : table ? p.occupancy->input.regsPerThread : 0;
    a.input.smemPerBlock = q.smemPerBlock ? *q.smemPerBlock
                           : table        ? p.occupancy->input.smemPerBlock
                                          : std::max(0, kernelSmem);
    return a;
}

/// The shared array a tile of N goes into: "Nds" (matrix multiplication) or "N_ds".
std::string sharedOfN(const Scenario& s) { return problemOf(s).sharedOfN; }

bool stepIsTarget(QuestionKind k)
{
    return k == QuestionKind::IndexValue || k == QuestionKind::DivergentWarps || k == QuestionKind::TreeSlot ||
           k == QuestionKind::ScanAdds;
}

bool sameTarget(const QuestionSpec& a, const QuestionSpec& b)
{
    auto same3 = [](const std::optional<Uint3>& x, const std::optional<Uint3>& y) {
        return x.has_value() == y.has_value() && (!x || (x->x == y->x && x->y == y->y && x->z == y->z));
    };
    return a.kind == b.kind && same3(a.block, b.block) && same3(a.thread, b.thread) && a.phase == b.phase &&
           (!stepIsTarget(a.kind) || a.step == b.step) && a.element == b.element &&
           a.barrier == b.barrier && a.array == b.array && squeezed(a.expression) == squeezed(b.expression) &&
           a.profile == b.profile && a.blockThreads == b.blockThreads && a.regsPerThread == b.regsPerThread &&
           a.smemPerBlock == b.smemPerBlock;
}

}  // namespace question_detail

using namespace question_detail;

QuestionGenerator::Impl::Impl(const Preset& p, const Simulation* t, Runner r)
    : preset(p), s(p.scenario), run(std::move(r)), traced(t), shape(shapeOf(p.scenario)),
      info(findKernel(p.scenario.kernel)), source(info ? kernelSource(info->sourceFile) : std::string())
{
    if (!run) run = [](const Scenario& sc, const SimOptions& o) { return simulate(sc, o); };
}

SimOptions QuestionGenerator::Impl::options() const
{
    SimOptions o;
    o.schedule = preset.schedule;
    o.scheduleSeed = preset.scheduleSeed;
    o.memoryModel = false;
    o.detectHazards = false;
    return o;
}

BlockData& QuestionGenerator::Impl::block(const Uint3& b)
{
    auto& slot = blocks[{b.x, b.y, b.z}];
    if (slot) return *slot;
    auto d = std::make_unique<BlockData>();
    if (traced && traced->trace.block.x == b.x && traced->trace.block.y == b.y && traced->trace.block.z == b.z &&
        !traced->trace.steps.empty()) {
        d->sim = traced;
    } else {
        Scenario sc = s;
        sc.block = b;
        d->owned = run(sc, options());
        d->sim = &d->owned;
    }
    if (!d->sim->error.empty()) throw QuestionError(d->sim->error);
    const Trace& t = d->trace();
    d->stepOf.assign(t.events.size(), -1);
    for (size_t si = 0; si < t.steps.size(); ++si)
        for (int e = t.steps[si].begin; e < t.steps[si].end; ++e) d->stepOf[e] = static_cast<int>(si);
    const size_t threads = t.blockDim.count();
    d->byThread.assign(threads, {});
    d->fills.assign(threads, {});
    for (size_t e = 0; e < t.events.size(); ++e)
        if (t.events[e].thread != kNoThread && t.events[e].thread < threads)
            d->byThread[t.events[e].thread].push_back(static_cast<int>(e));
    for (size_t th = 0; th < threads; ++th) {
        std::vector<int>& ev = d->byThread[th];
        std::stable_sort(ev.begin(), ev.end(), [&](int a, int c) { return t.events[a].seq < t.events[c].seq; });
        for (size_t i = 0; i < ev.size(); ++i) {
            const Event& e = t.events[ev[i]];
            if (e.op != Op::SharedStore && e.op != Op::ZeroFill) continue;
            Fill f;
            f.event = ev[i];
            if (e.op == Op::SharedStore && i > 0 && t.events[ev[i - 1]].op == Op::GlobalLoad &&
                t.events[ev[i - 1]].line == e.line)
                f.load = ev[i - 1];
            d->fills[th][e.array].push_back(f);
        }
    }
    if (isConv(shape)) d->conv = convView(*d->sim);
    slot = std::move(d);
    return *slot;
}

int QuestionGenerator::Impl::linear(const BlockData& d, const Uint3& t) const
{
    return static_cast<int>((t.z * d.trace().blockDim.y + t.y) * d.trace().blockDim.x + t.x);
}

/// The thread's variables at a step (threadVariables: `ph` is the step's phase, which the
/// trace counts from the tile fills when a barrier is dropped).
Variables QuestionGenerator::Impl::variablesAt(const BlockData& d, int thread, int step) const
{
    return threadVariables(s, d.trace(), thread, step);
}

/// The name the source gives an array (the 2D mask in constant memory is Mc).
std::string QuestionGenerator::Impl::writtenName(const ArrayInfo& a) const
{
    return writtenArrayName(s, a);
}

/// "M[Row*k + ph*TILE_WIDTH + tx] = M[1*4 + 1*2 + 0] = M[6], that is M[1][2]" for the
/// access of recorded event `ev` by `thread` at `step`; just the element when the line's
/// expression cannot be matched to it.
std::string QuestionGenerator::Impl::describeAccess(const BlockData& d, int thread, int step, int ev) const
{
    const Trace& t = d.trace();
    const Event& e = t.events[ev];
    const ArrayInfo& a = t.arrays[e.array];
    const bool flat2D = a.rows > 1 && a.space == Space::Global;
    const RowCol rc = a.rowCol(e.index);
    const Cell cell{rc.row, rc.col};
    const std::string plain = a.rows > 1 ? cellName(a.name, cell, false) : cellName(a.name, cell, true);
    const std::vector<AccessText> acc = findAccesses(sourceLine(source, e.line), {writtenName(a)});
    if (acc.empty()) return plain;
    const Variables vars = variablesAt(d, thread, step);
    std::string substituted = acc[0].array, evaluated = a.name;
    std::vector<long long> values;
    for (const std::string& sub : acc[0].subscripts) {
        substituted.append("[").append(substitute(sub, vars)).append("]");
        const Evaluation ev2 = evaluate(sub, vars);
        if (!ev2.value) return plain;
        values.push_back(*ev2.value);
        evaluated.append("[").append(std::to_string(*ev2.value)).append("]");
    }
    const long long flat = values.size() == 2 ? values[0] * a.cols + values[1] : values.at(0);
    if (flat != e.index) return plain;
    std::string out = acc[0].text();
    if (substituted != out) out += " = " + substituted;
    if (evaluated != substituted) out += " = " + evaluated;
    if (flat2D) out += ", that is " + cellName(a.name, cell, false);
    return out;
}

/// Why a zero fill at `zeroLine` stored 0: the boundary check on its own line (a ?:) or
/// the nearest `if (` above, with the thread's numbers put in.
std::string QuestionGenerator::Impl::zeroFillReason(const Variables& vars, unsigned zeroLine) const
{
    std::string text = sourceLine(source, zeroLine);
    if (size_t q = text.find('?'); q != std::string::npos) {
        const size_t eq = text.find(" = ");
        if (eq != std::string::npos && eq < q) {
            const std::string cond = trim(text.substr(eq + 3, q - eq - 3));
            return "its check `" + cond + "` reads `" + substitute(cond, vars) + "`";
        }
    }
    for (unsigned n = zeroLine; n > 0 && n + 8 > zeroLine; --n) {
        const std::string l = sourceLine(source, n);
        const size_t at = l.find("if (");
        if (at == std::string::npos) continue;
        size_t depth = 0, end = at + 3;
        for (; end < l.size(); ++end) {
            if (l[end] == '(') ++depth;
            else if (l[end] == ')' && --depth == 0) break;
        }
        const std::string cond = trim(l.substr(at + 4, end > at + 4 ? end - at - 4 : 0));
        return "the check on line " + std::to_string(n) + ", `" + cond + "`, reads `" + substitute(cond, vars) +
               "` for it";
    }
    return "the element lies outside the input";
}

/// The fills of `sharedName` by `thread` that belong to `phase` (matrix multiplication:
/// the phase-th; convolution: all, in its single phase).
std::vector<Fill> QuestionGenerator::Impl::phaseFills(const BlockData& d, int thread, const std::string& sharedName, int phase) const
{
    const int arr = arrayId(d, sharedName);
    auto it = d.fills[thread].find(arr);
    if (it == d.fills[thread].end()) return {};
    if (shape != Shape::TiledMatmul) return it->second;
    if (phase < static_cast<int>(it->second.size())) return {it->second[phase]};
    return {};
}

Cell QuestionGenerator::Impl::cellOf(const BlockData& d, int ev) const
{
    const Event& e = d.trace().events[ev];
    const RowCol rc = d.trace().arrays[e.array].rowCol(e.index);
    return Cell{rc.row, rc.col};
}

QuestionSpec QuestionGenerator::Impl::aimAtThread(QuestionSpec q, SplitMix64& rng, const Uint3& b, const Uint3& t,
                                                  int phases) const
{
    q.block = b;
    q.thread = t;
    q.phase = static_cast<int>(rng.below(phases));
    return q;
}

std::vector<QuestionGenerator::Impl::Fill> QuestionGenerator::Impl::convFills(const Uint3& b, const Uint3& t)
{
    BlockData& d = block(b);
    return phaseFills(d, linear(d, t), sharedOfN(s), 0);
}

void QuestionGenerator::Impl::addPhaseTargets(std::vector<QuestionSpec>& out, QuestionKind kind, const Uint3& b,
                                              const Uint3& tu, const std::optional<Cell>& element) const
{
    QuestionSpec q;
    q.kind = kind;
    q.block = b;
    q.thread = tu;
    q.element = element;
    for (int ph = 0; ph < std::max(1, questionPhases(s)); ++ph) {
        q.phase = ph;
        out.push_back(q);
    }
}

bool QuestionGenerator::Impl::skipsGhostCells(int first) const
{
    return first < 0 && (shape == Shape::ConvBasic || info->haloFromGlobal);
}

Question QuestionGenerator::Impl::answer(const QuestionSpec& spec)
{
    std::string key;
    if (std::string e = checkQuestion(preset, spec, &key); !e.empty()) throw QuestionError(e);
    Question q;
    q.spec = spec;
    switch (spec.kind) {
    case QuestionKind::MdsLoads: loads(q, true); break;
    case QuestionKind::NdsLoads: loads(q, false); break;
    case QuestionKind::BlockTile: blockTile(q); break;
    case QuestionKind::NdsSlot: ndsSlot(q); break;
    case QuestionKind::IndexValue: indexValue(q); break;
    case QuestionKind::ElementReaders: elementReaders(q); break;
    case QuestionKind::HaloCells: haloOrGhost(q, true); break;
    case QuestionKind::GhostCells: haloOrGhost(q, false); break;
    case QuestionKind::DroppedBarrierHazard: droppedBarrier(q); break;
    case QuestionKind::BlockGlobalLoads: blockGlobalLoads(q); break;
    case QuestionKind::OccupancyBlocks: occupancy(q, false); break;
    case QuestionKind::OccupancyLimiter: occupancy(q, true); break;
    case QuestionKind::DivergentWarps: divergentWarps(q); break;
    case QuestionKind::TreeSlot: treeSlot(q); break;
    case QuestionKind::ScanAdds: scanAdds(q); break;
    }
    q.lineText = q.line ? line(q.line) : std::string();
    return q;
}

/// The blocks generated questions ask about: the preset's own block first, then up to
/// three others of the grid, chosen with the seed (each is simulated once).
std::vector<Uint3> QuestionGenerator::Impl::blockPool(SplitMix64& rng) const
{
    const LaunchShape ls = launchShape(s);
    std::vector<Uint3> pool{Uint3{s.block.x, s.block.y, s.block.z}};
    const uint64_t total = ls.grid.count();
    const uint64_t plane = uint64_t{ls.grid.x} * ls.grid.y;
    for (int tries = 0; pool.size() < std::min<uint64_t>(4, total) && tries < 64; ++tries) {
        const uint64_t b = rng.below(total);
        const Uint3 u{static_cast<unsigned>(b % ls.grid.x), static_cast<unsigned>(b / ls.grid.x % ls.grid.y),
                      static_cast<unsigned>(b / plane)};
        if (std::none_of(pool.begin(), pool.end(), [&](const Uint3& o) { return o.x == u.x && o.y == u.y && o.z == u.z; }))
            pool.push_back(u);
    }
    return pool;
}

/// A target for `kind`, chosen with `rng`; none when the choice has nothing to ask.
std::optional<QuestionSpec> QuestionGenerator::Impl::pick(QuestionKind kind, SplitMix64& rng, const std::vector<Uint3>& pool)
{
    QuestionSpec q;
    q.kind = kind;
    const LaunchShape ls = launchShape(s);
    const Uint3 b = pool[rng.below(pool.size())];
    Uint3 t{static_cast<unsigned>(rng.below(ls.block.x)), static_cast<unsigned>(rng.below(ls.block.y)), 0};
    if (ls.block.z > 1) t.z = static_cast<unsigned>(rng.below(ls.block.z));   // a 3D block (PMPP's stencil)
    const int phases = std::max(1, questionPhases(s));
    switch (kind) {
    case QuestionKind::MdsLoads:
    case QuestionKind::NdsLoads: return pickLoads(q, rng, b, t, phases);
    case QuestionKind::BlockTile: return pickBlockTile(q, rng, b, t, phases);
    case QuestionKind::NdsSlot: return pickNdsSlot(q, rng, b, t, phases);
    case QuestionKind::IndexValue: return pickIndexValue(q, rng, b, t, phases);
    case QuestionKind::ElementReaders: return pickElementReaders(q, rng, b, t, phases);
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: return pickHaloOrGhost(q, rng, b, t, phases);
    case QuestionKind::BlockGlobalLoads: return pickBlockGlobalLoads(q, rng, b, t, phases);
    case QuestionKind::DroppedBarrierHazard: return pickDroppedBarrier(q, rng, b, t, phases);
    case QuestionKind::OccupancyBlocks:
    case QuestionKind::OccupancyLimiter: return pickOccupancy(q, rng, b, t, phases);
    case QuestionKind::DivergentWarps:
    case QuestionKind::TreeSlot: return pickTreeLevel(q, rng, b, t, phases);
    case QuestionKind::ScanAdds: return pickScanLevel(q, rng, b, t, phases);
    }
    return std::nullopt;
}

}  // namespace ts::sim
