// Practice questions of kinds halo-cells and ghost-cells (sim/teaching/questions.hpp): a convolution
// block's halo cells (inside N) and ghost cells (outside N), from its ConvGeometry, with the
// line of the kernel that loads, zero-fills or skips them.
#include "sim/teaching/question_common.hpp"

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::haloOrGhost(Question& q, bool halo)
{
    BlockData& d = block(*q.spec.block);
    const ConvView& v = *d.conv;
    const ConvGeometry& g = v.geo;
    q.answer.shape = AnswerShape::Cells;
    q.answer.oneD = oneD(s);
    for (int r = g.inRow0; r < g.inRow0 + g.inRows; ++r)
        for (int c = g.inCol0; c < g.inCol0 + g.inCols; ++c)
            if (g.role(r, c) == (halo ? ConvRole::Halo : ConvRole::Ghost)) q.answer.cells.push_back(Cell{r, c});
    // The line that handles them: the load (halo) or zero fill (ghost) of such a slot,
    // a global read of a halo cell, or the boundary check that skips ghost cells.
    const Trace& t = d.trace();
    const int nArr = arrayId(d, "N");
    int first = -1;
    for (size_t e = 0; e < t.events.size() && first < 0; ++e) {
        const Event& x = t.events[e];
        if (x.array == kNoArray) continue;
        if (static_cast<int>(x.array) == v.ndsArray && (x.op == Op::SharedStore || x.op == Op::ZeroFill)) {
            for (const ConvSlot& sl : v.slots)
                if (sl.slot == x.index && sl.role == (halo ? ConvRole::Halo : ConvRole::Ghost)) first = static_cast<int>(e);
        } else if (halo && static_cast<int>(x.array) == nArr && x.op == Op::GlobalLoad) {
            const int row = g.twoD ? x.index / g.width : 0, col = g.twoD ? x.index % g.width : x.index;
            if (g.role(row, col) == ConvRole::Halo) first = static_cast<int>(e);
        }
    }
    unsigned ln = first >= 0 ? t.events[first].line : 0;
    if (!ln && !halo) {
        // Basic kernels skip ghost cells: the check that does it.
        for (unsigned n = 1; n <= lines() && !ln; ++n)
            if (const std::string l = sourceLine(source, n); l.find("if (") != std::string::npos && l.find(">= 0") != std::string::npos)
                ln = n;
    }
    q.line = ln;
    if (first >= 0 && !q.spec.step) q.spec.step = d.stepOf[first];
    const std::string outTile = g.twoD ? "rows " + std::to_string(g.outRow0) + "-" +
                                             std::to_string(g.outRow0 + g.outRows - 1) + ", columns " +
                                             std::to_string(g.outCol0) + "-" + std::to_string(g.outCol0 + g.outCols - 1)
                                       : "N[" + std::to_string(g.outCol0) + "] to N[" +
                                             std::to_string(g.outCol0 + g.outCols - 1) + "]";
    const std::string reach = "the positions within Mask_Width/2 = " + std::to_string(g.n) +
                              " of the output tile (" + outTile + ") that lie ";
    q.prompt = halo ? "Which input cells are halo cells of " + blockName(s, *q.spec.block) +
                          " (inside N, reached by its mask, outside its output tile)?"
                    : "Which input cells are ghost cells of " + blockName(s, *q.spec.block) +
                          " (reached by its mask but outside N)?";
    const std::string where = ln ? capitalised(lineRef(ln)) + ", " : std::string("The kernel ");
    if (halo)
        q.explanation = where + (first >= 0 && t.events[first].op == Op::GlobalLoad && t.steps[d.stepOf[first]].kind != StepKind::LoadTile
                                     ? "reads the halo from global memory: "
                                     : "loads the halo: ") +
                        reach + "outside it but inside N" + (q.answer.cells.empty() ? " (none here)" : "") + ".";
    else
        q.explanation = where + (skipsGhostCells(first) ? "skips the ghost cells: " : "stores 0 for the ghost cells: ") +
                        reach + "outside N (" + (g.twoD ? "N is " + std::to_string(g.height) + " x " +
                                                              std::to_string(g.width)
                                                        : "Width = " + std::to_string(g.width)) + ")" +
                        (q.answer.cells.empty() ? "; none here" : "") + ".";
}

std::optional<QuestionSpec> QuestionGenerator::Impl::pickHaloOrGhost(QuestionSpec q, SplitMix64&, const Uint3& b,
                                                                     const Uint3&, int)
{
    q.block = b;
    return q;
}

}  // namespace ts::sim
