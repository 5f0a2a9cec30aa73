#include "sim/engine/wrong_reads.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ts::sim {
namespace {

/// Indices into t.events of every shared read, per thread, in execution order.
std::vector<std::vector<int>> readsByThread(const Trace& t)
{
    std::vector<std::vector<int>> by(t.blockDim.count());
    for (size_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.op == Op::SharedLoad && e.thread < by.size()) by[e.thread].push_back(static_cast<int>(i));
    }
    for (std::vector<int>& v : by)
        std::sort(v.begin(), v.end(), [&](int a, int b) { return t.events[a].seq < t.events[b].seq; });
    return by;
}

}  // namespace

std::vector<uint8_t> wrongReads(const Trace& dropped, const Trace& intact)
{
    const auto a = readsByThread(dropped), b = readsByThread(intact);
    if (a.size() != b.size())
        throw std::invalid_argument("The two traces have blocks of different sizes (" + std::to_string(a.size()) +
                                    " and " + std::to_string(b.size()) + " threads).");
    std::vector<uint8_t> wrong(dropped.events.size(), 0);
    for (size_t th = 0; th < a.size(); ++th) {
        if (a[th].size() != b[th].size())
            throw std::invalid_argument("Thread " + std::to_string(th) + " makes " + std::to_string(a[th].size()) +
                                        " shared reads in one trace and " + std::to_string(b[th].size()) +
                                        " in the other: they are not runs of the same scenario.");
        for (size_t n = 0; n < a[th].size(); ++n) {
            const Event& x = dropped.events[a[th][n]];
            const Event& y = intact.events[b[th][n]];
            if (x.array != y.array || x.index != y.index)
                throw std::invalid_argument("Thread " + std::to_string(th) + " reads different slots in the two "
                                            "traces: they are not runs of the same scenario.");
            if (std::memcmp(&x.value, &y.value, sizeof x.value) != 0) wrong[a[th][n]] = 1;
        }
    }
    return wrong;
}

}  // namespace ts::sim
