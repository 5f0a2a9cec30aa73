// Internal to the practice questions (sim/teaching/questions.hpp); not for other callers. What the
// files of the questions share: the generator's state (QuestionGenerator::Impl: a block's
// simulation with its trace indexed, the kernel's source), the kernel's shape as the
// questions see it, and the text helpers. Each kind's answer and choice of target lives in
// its own file, question_<kind>.cpp; the rest in question_common.cpp and questions.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/teaching/conv_view.hpp"
#include "sim/teaching/expression.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "sim/teaching/words.hpp"
#include "sim/teaching/occupancy.hpp"
#include "sim/teaching/questions.hpp"

namespace ts::sim {

namespace question_detail {

using ts::sim::capitalised;
using ts::sim::joinList;
using ts::sim::trim;

/// splitmix64 (Steele, Lea, Flood 2014): the same numbers from a seed on every platform,
/// unlike std::uniform_int_distribution, whose output the standard leaves to the library.
struct SplitMix64 {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// A number in [0, n) (n > 0); the modulo's bias is irrelevant here.
    uint64_t below(uint64_t n) { return next() % n; }
    template <class T>
    void shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
    }
};

/// How a kernel lays out its work, as far as the questions care.
/// Arrays: a problem whose picture is its own arrays (a student's array problem, a described
/// registry row such as PMPP's stencil): no tiles of M or N, no halo.
enum class Shape { TiledMatmul, NaiveMatmul, OtherMatmul, ConvBasic, ConvTiled, Arrays, Unknown };

/// The shape of the scenario's kernel (Unknown: not in the registry).
Shape shapeOf(const Scenario& s);
/// Whether `sh` is a convolution (basic or tiled).
bool isConv(Shape sh);
/// Whether question kind `k` applies to the scenario's kernel (questionKindApplies()).
bool kindFits(const Scenario& s, QuestionKind k);
/// Why a kind does not fit a kernel, after "it": "has no Mds tile".
const char* notFitting(QuestionKind k);

/// `t` without white space, for comparing expressions as written.
std::string squeezed(std::string_view t);
/// The identifiers of an expression, in order, once each.
std::vector<std::string> identifiers(std::string_view e);
/// Whether `word` stands in `text` as a whole identifier.
bool containsWord(std::string_view text, std::string_view word);
/// "after-load" or "after-compute" for a ts::kernels::Barrier bit.
std::string barrierName(unsigned bit);
/// "AFTER_LOAD" or "AFTER_COMPUTE", as the kernels' source writes the bit.
std::string barrierMacro(unsigned bit);
/// Whether the scenario's arrays are 1D (1D convolution).
bool oneD(const Scenario& s);
/// "block (bx=1, by=0)", or "block bx=1" in 1D.
std::string blockName(const Scenario& s, const Uint3& b);
/// "thread (ty=0, tx=1)", or "thread tx=1" in 1D.
std::string threadName(const Scenario& s, const Uint3& t);
/// "M[1][2]" or, for a 1D array, "N[5]".
std::string cellName(const std::string& array, const Cell& c, bool oneDim);

/// The resolved occupancy question of `q` on preset `p`: each value the question leaves out
/// comes from the preset's [occupancy] table, else textbook / the kernel's own block;
/// `kernelSmem` is the kernel's static shared memory (-1: not known yet, taken as 0).
struct OccupancyAsk {
    std::string profile;
    OccupancyInput input;
};
OccupancyAsk occupancyAsk(const Preset& p, const QuestionSpec& q, int kernelSmem);

/// The shared array a tile of N goes into: "Nds" (matrix multiplication) or "N_ds".
std::string sharedOfN(const Scenario& s);
/// Whether two questions ask the same (the step counts for index-value only).
bool sameTarget(const QuestionSpec& a, const QuestionSpec& b);
/// Whether a kind's step is part of its target (index-value, divergent-warps, tree-slot), not
/// only where the app asks it.
bool stepIsTarget(QuestionKind k);

/// One write of a shared tile slot by a thread, and the global load it stored (-1: a zero
/// fill). Indices into the trace's events.
struct Fill {
    int event = -1;
    int load = -1;
};

/// A block's simulation, with its trace indexed for the questions.
struct BlockData {
    Simulation owned;
    const Simulation* sim = nullptr;
    std::vector<int> stepOf;                          ///< by event
    std::vector<std::vector<int>> byThread;           ///< events of each thread, in execution order
    std::vector<std::map<int, std::vector<Fill>>> fills;   ///< by thread, then shared array
    std::optional<ConvView> conv;

    const Trace& trace() const { return sim->trace; }
};

}  // namespace question_detail

/// The generator's state and its answers. The members of each kind (its answer and its
/// pick*, the choice of a target from what pick() drew) are defined in that kind's file.
struct QuestionGenerator::Impl {
    using SplitMix64 = question_detail::SplitMix64;
    using Shape = question_detail::Shape;
    using Fill = question_detail::Fill;
    using BlockData = question_detail::BlockData;

    const Preset& preset;
    const Scenario& s;
    Runner run;
    const Simulation* traced;
    Shape shape;
    const KernelInfo* info;
    std::string source;
    std::map<std::tuple<unsigned, unsigned, unsigned>, std::unique_ptr<BlockData>> blocks;   ///< by (bx, by, bz)
    std::map<unsigned, std::array<uint64_t, 3>> hazards;   ///< barrier bit -> raw, war, waw

    Impl(const Preset& p, const Simulation* t, Runner r);

    // --- shared (question_common.cpp) -----------------------------------------------------

    /// The preset's schedule, without the memory model and the hazard detector (the runs the
    /// answers read need neither).
    SimOptions options() const;
    /// Block `b`'s simulation with its trace indexed, simulated on first use.
    BlockData& block(const Uint3& b);
    int arrayId(const BlockData& d, const std::string& name) const { return d.sim->arrayIndex(name); }
    /// Thread `t`'s index in the block (ty * blockDim.x + tx).
    int linear(const BlockData& d, const Uint3& t) const;
    /// The thread's variables at a step (threadVariables: `ph` is the step's phase, which the
    /// trace counts from the tile fills when a barrier is dropped).
    Variables variablesAt(const BlockData& d, int thread, int step) const;
    std::string line(unsigned n) const { return question_detail::trim(sourceLine(source, n)); }
    /// Lines of the kernel's source file.
    unsigned lines() const { return static_cast<unsigned>(std::count(source.begin(), source.end(), '\n')) + 1; }
    /// "line 34, `Mds[ty][tx] = ...;`"
    std::string lineRef(unsigned n) const { return "line " + std::to_string(n) + ", `" + line(n) + "`"; }
    /// The name the source gives an array (the 2D mask in constant memory is Mc).
    std::string writtenName(const ArrayInfo& a) const;
    /// "M[Row*k + ph*TILE_WIDTH + tx] = M[1*4 + 1*2 + 0] = M[6], that is M[1][2]" for the
    /// access of recorded event `ev` by `thread` at `step`; just the element when the line's
    /// expression cannot be matched to it.
    std::string describeAccess(const BlockData& d, int thread, int step, int ev) const;
    /// Why a zero fill at `zeroLine` stored 0: the boundary check on its own line (a ?:) or
    /// the nearest `if (` above, with the thread's numbers put in.
    std::string zeroFillReason(const Variables& vars, unsigned zeroLine) const;
    /// The fills of `sharedName` by `thread` that belong to `phase` (matrix multiplication:
    /// the phase-th; convolution: all, in its single phase).
    std::vector<Fill> phaseFills(const BlockData& d, int thread, const std::string& sharedName, int phase) const;
    /// The element of the array event `ev` accessed, as (row, col).
    Cell cellOf(const BlockData& d, int ev) const;
    /// `q` aimed at thread `t` of block `b` in a phase drawn with `rng` from [0, phases): the
    /// target of the kinds that ask about one thread's tile fills.
    QuestionSpec aimAtThread(QuestionSpec q, SplitMix64& rng, const Uint3& b, const Uint3& t, int phases) const;
    /// A convolution's fills of N_ds by thread `t` of block `b` (its one phase).
    std::vector<Fill> convFills(const Uint3& b, const Uint3& t);
    /// Whether the kernel skips ghost cells rather than storing 0 for them, given `first`,
    /// the first event that handles one (-1: none): the basic convolutions and those that
    /// read the halo from global memory.
    bool skipsGhostCells(int first) const;
    /// Checks `spec` (checkQuestion) and answers it with its kind's member below.
    Question answer(const QuestionSpec& spec);
    /// The blocks generated questions ask about: the preset's own block first, then up to
    /// three others of the grid, chosen with the seed (each is simulated once).
    std::vector<Uint3> blockPool(SplitMix64& rng) const;
    /// A target for `kind`, chosen with `rng`; none when the choice has nothing to ask.
    /// Draws a block of `pool`, a thread and the phases, then asks the kind's pick*.
    std::optional<QuestionSpec> pick(QuestionKind kind, SplitMix64& rng, const std::vector<Uint3>& pool);

    // --- one kind each, in its file: the answer and the pick ---------------------------------

    /// A kind's choice of target: `q` (kind set) aimed with what pick() drew, block `b` of
    /// the pool, thread `t` and [0, phases) for a phase, drawing more from `rng` where the
    /// kind needs it; none when the choice has nothing to ask.
    using Pick = std::optional<QuestionSpec>(QuestionSpec q, SplitMix64& rng, const Uint3& b, const Uint3& t,
                                             int phases);

    /// The answers, each in its kind's file (question_loads.cpp answers mds-loads and
    /// nds-loads, question_halo_ghost.cpp halo-cells and ghost-cells, question_occupancy.cpp
    /// both occupancy kinds; every other kind has a file of its own name).
    void loads(Question& q, bool mds);
    void blockTile(Question& q);
    void ndsSlot(Question& q);
    void indexValue(Question& q);
    void elementReaders(Question& q);
    void haloOrGhost(Question& q, bool halo);
    void droppedBarrier(Question& q);
    void blockGlobalLoads(Question& q);
    void occupancy(Question& q, bool limiter);
    void divergentWarps(Question& q);   ///< question_warps.cpp, as tree-slot
    void treeSlot(Question& q);
    void scanAdds(Question& q);         ///< question_scan.cpp
    /// The picks, in the same files.
    Pick pickLoads, pickBlockTile, pickNdsSlot, pickIndexValue, pickElementReaders, pickHaloOrGhost, pickDroppedBarrier,
        pickBlockGlobalLoads, pickOccupancy, pickTreeLevel, pickScanLevel;

    /// What forStep asks the kinds about: step `step` (`st`) of the traced block `b`, whose
    /// trace `d` holds.
    struct StepAsk {
        const BlockData& d;
        const Step& st;
        int step;
        Uint3 b;
    };
    /// The questions of a kind that the step reveals, appended to `out` (none where the kind
    /// does not apply or the step does no such work), in the kinds' files too: about thread
    /// `th` (tu: its tx, ty) for the kinds that ask about one thread, else about the block.
    /// `k`: mds-loads or nds-loads.
    void stepLoads(const StepAsk& a, QuestionKind k, const Uint3& tu, std::vector<QuestionSpec>& out) const;
    void stepNdsSlot(const StepAsk& a, int th, const Uint3& tu, std::vector<QuestionSpec>& out) const;
    void stepIndexValue(const StepAsk& a, int th, const Uint3& tu, std::vector<QuestionSpec>& out) const;
    void stepBlockTile(const StepAsk& a, std::vector<QuestionSpec>& out) const;
    void stepElementReaders(const StepAsk& a, std::vector<QuestionSpec>& out) const;
    void stepDroppedBarrier(const StepAsk& a, std::vector<QuestionSpec>& out) const;
    void stepBlockGlobalLoads(const StepAsk& a, std::vector<QuestionSpec>& out) const;
    /// divergent-warps (th < 0: the block's question) and tree-slot (thread th) at the first
    /// step of a level of the block's reduction tree.
    void stepTreeLevel(const StepAsk& a, int th, const Uint3& tu, std::vector<QuestionSpec>& out) const;
    /// scan-adds at the first step of a level of the block's scan network that adds.
    void stepScanLevel(const StepAsk& a, std::vector<QuestionSpec>& out) const;
    /// `kind`'s questions about thread `tu` of block `b`, one a phase (questionPhases(), at
    /// least one), each with `element` where given.
    void addPhaseTargets(std::vector<QuestionSpec>& out, QuestionKind kind, const Uint3& b, const Uint3& tu,
                         const std::optional<Cell>& element) const;

    // What single kinds need (question_index_value.cpp, question_occupancy.cpp)

    /// Checks an index expression against the thread's recorded access at the step where it
    /// is a whole subscript of that access; returns false on a mismatch.
    bool agreesWithTrace(const BlockData& d, int th, int step, const std::string& expr, long long value) const;
    /// Candidate index expressions on a source line: the subscripts of its array accesses,
    /// the parenthesised parts and trailing sums inside them, and the named variables it
    /// uses; without the trivial ones (tx, a constant, a number).
    std::vector<std::string> expressionsOn(const BlockData& d, unsigned ln) const;
    /// Bytes of shared memory the kernel's block declares (its static arrays).
    int kernelSharedBytes();
};

}  // namespace ts::sim
