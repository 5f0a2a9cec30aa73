#include "sim/teaching/wrong_element.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>

#include "sim/engine/provenance.hpp"

namespace ts::sim {

/// `v` as the shortest text that reads back as the same float ("0.75", "-1.0625").
std::string floatText(float v)
{
    std::ostringstream o;
    o << std::setprecision(9) << v;
    for (int p = 1; p <= 9; ++p) {
        std::ostringstream q;
        q << std::setprecision(p) << v;
        // strtof, not stof: a subnormal value must not throw.
        if (std::isnan(v) || std::strtof(q.str().c_str(), nullptr) == v) return q.str();
    }
    return o.str();
}

std::string threadText(const Dim3& block, int thread)
{
    const unsigned bx = block.x ? block.x : 1, by = block.y ? block.y : 1;
    std::ostringstream o;
    o << "(tx=" << thread % bx << ", ty=" << (thread / bx) % by << ")";
    return o.str();
}


/// The element array `a` holds at flat index `i`, as the kernel's text names it: "M[2][5]" or
/// "N[7]".
std::string elementText(const ArrayInfo& a, long long i)
{
    if (a.rows <= 1) return a.name + "[" + std::to_string(i) + "]";
    const RowCol rc = a.rowCol(i);
    return a.name + "[" + std::to_string(rc.row) + "][" + std::to_string(rc.col) + "]";
}


/// The products thread `thread` of the traced block of `t` added into the element it stored
/// at flat index `element` of P (array `p`), in its order, each operand named by the global
/// element it came from (a shared slot by what was stored there, "0" for a zero fill):
/// {"M[1][0] * N[0][0]", ...}. Empty when the trace has none.
std::vector<std::string> termsSummed(const Simulation& t, int thread, int p, long long element)
{
    std::vector<const Event*> order;
    for (const Event& e : t.trace.events) order.push_back(&e);
    std::sort(order.begin(), order.end(), [](const Event* a, const Event* b) { return a->seq < b->seq; });
    const auto& arrays = t.trace.arrays;
    std::map<std::pair<int, int>, std::string> slot;   // what each shared slot holds now
    std::vector<std::string> pending, terms;
    for (const Event* e : order) {
        if (e->array >= arrays.size() && e->op != Op::Fma) continue;
        if (e->op == Op::SharedStore || e->op == Op::ZeroFill) {
            slot[{e->array, e->index}] = e->op == Op::ZeroFill ? "0"
                                         : e->originArray < arrays.size() ? elementText(arrays[e->originArray], e->origin)
                                                                          : elementText(arrays[e->array], e->index);
            continue;
        }
        if (e->thread != thread) continue;
        if (e->op == Op::GlobalLoad || e->op == Op::ConstantLoad) {
            pending.push_back(elementText(arrays[e->array], e->index));
        } else if (e->op == Op::SharedLoad) {
            const auto it = slot.find({e->array, e->index});
            pending.push_back(it == slot.end() ? elementText(arrays[e->array], e->index) + " (never stored)" : it->second);
        } else if (e->op == Op::Fma) {
            terms.push_back(pending.size() >= 2 ? pending[pending.size() - 2] + " * " + pending.back() : "registers");
            pending.clear();
        } else if (e->op == Op::GlobalStore && static_cast<int>(e->array) == p) {
            if (e->index == element) break;
            terms.clear();   // an earlier element of the same thread (coarsening)
            pending.clear();
        }
    }
    return terms;
}

/// The terms the CPU reference sums for element `i` of P, in its order, named as
/// termsSummed() names them: M[row][kk] * N[kk][col] for a matmul, N[..] * M[jj] for a
/// convolution (0 for a ghost element).
std::vector<std::string> referenceTerms(const Scenario& s, const std::string& family, long long i)
{
    std::vector<std::string> t;
    const int count = family == "matmul" ? s.k : family == "conv1d" ? s.maskWidth : s.maskWidth * s.maskWidth;
    for (int n = 0; n < count; ++n) {
        if (family == "matmul") {
            const long long row = i / s.l, col = i % s.l;
            t.push_back("M[" + std::to_string(row) + "][" + std::to_string(n) + "] * N[" + std::to_string(n) + "][" +
                        std::to_string(col) + "]");
        } else if (family == "conv1d") {
            const long long from = i - s.maskWidth / 2 + n;
            t.push_back((from < 0 || from >= s.width ? std::string("0") : "N[" + std::to_string(from) + "]") + " * M[" +
                        std::to_string(n) + "]");
        } else {
            const long long row = i / s.width - s.maskWidth / 2 + n / s.maskWidth,
                            col = i % s.width - s.maskWidth / 2 + n % s.maskWidth;
            const bool ghost = row < 0 || row >= s.height || col < 0 || col >= s.width;
            t.push_back("M[" + std::to_string(n / s.maskWidth) + "][" + std::to_string(n % s.maskWidth) + "] * " +
                        (ghost ? std::string("0") : "N[" + std::to_string(row) + "][" + std::to_string(col) + "]"));
        }
    }
    return t;
}

/// What a wrong element's thread summed against what the reference sums, products with a
/// zero fill left out: the first term where they part, or their counts; "" when the terms
/// agree (the values differed) or the thread's sum is of registers the trace does not name.
std::string termsText(std::vector<std::string> got, std::vector<std::string> want)
{
    // A product with a zero fill (a ghost cell, a tile's part past the edge) adds exactly 0:
    // leave such terms out of both sides.
    auto zero = [](const std::string& t) { return t.rfind("0 * ", 0) == 0 || t.ends_with(" * 0"); };
    std::erase_if(got, zero);
    std::erase_if(want, zero);
    if (got.empty()) return "";
    for (size_t n = 0; n < got.size() && n < want.size(); ++n)
        if (got[n] != want[n])
            return "its term " + std::to_string(n + 1) + " of " + std::to_string(got.size()) + " is " + got[n] +
                   " where the reference's is " + want[n];
    if (got.size() != want.size())
        return "it summed " + std::to_string(got.size()) + " terms where the reference sums " + std::to_string(want.size());
    return "";
}

std::string familyName(const Scenario& s)
{
    switch (familyOf(s)) {
    case Family::Matmul: return "matmul";
    case Family::Conv1D: return "conv1d";
    case Family::Conv2D: return "conv2d";
    case Family::Array: return "array";
    }
    return "matmul";
}

std::string wrongElementText(const Simulation& r, long long i, unsigned line)
{
    constexpr int p = 2;   // M, N, P come first, whatever their names
    const std::string family = familyName(r.scenario);
    const ArrayInfo& out = r.arrays.at(p);
    std::string name = out.name + "[" + std::to_string(i) + "]";
    if (family != "conv1d" && out.rows > 1) {
        const PElement e = elementAt(out, i);
        name = out.name + "[" + std::to_string(e.row) + "][" + std::to_string(e.col) + "]";
    }
    const float got = r.P.at(static_cast<size_t>(i)), want = r.reference.at(static_cast<size_t>(i));
    const std::optional<Writer> w = writerOf(r, p, i);
    if (!w)
        return name + " was never written (the reference gives " + floatText(want) + "): no thread stores it; check that the grid covers all of " +
               out.name + " and that the boundary check lets that thread through";
    std::string d = name + " is " + floatText(got) + " where the reference gives " + floatText(want) + "; thread " +
                    threadText(r.block, w->thread) + " of block (" + std::to_string(w->block.x) + ", " +
                    std::to_string(w->block.y) + ") stored it" + (line ? " at line " + std::to_string(line) : std::string());
    const Uint3& traced = r.scenario.block;
    if (family != "array" && w->block.x == traced.x && w->block.y == traced.y && w->block.z == traced.z)
        if (const std::string terms = termsText(termsSummed(r, w->thread, p, i), referenceTerms(r.scenario, family, i));
            !terms.empty())
            d += "; " + terms;
    return d;
}

}  // namespace ts::sim
