#include "replay.hpp"

#include <stdexcept>
#include <string>

namespace ts::sim {

const ElementView& ReplayState::element(int array, int32_t index) const
{
    static const ElementView untouched;
    if (array < 0 || array >= static_cast<int>(elements.size())) return untouched;
    auto it = elements[array].find(index);
    return it == elements[array].end() ? untouched : it->second;
}

namespace {

/// Where the value a thread last read came from, until its statement ends.
struct LastRead {
    uint8_t array = kNoArray;
    int32_t index = -1;
};

ReplayState initial(const Trace& t)
{
    ReplayState s;
    s.slots.resize(t.arrays.size());
    s.elements.resize(t.arrays.size());
    for (size_t a = 0; a < t.arrays.size(); ++a)
        if (t.arrays[a].space == Space::Shared) s.slots[a].resize(t.arrays[a].size());
    s.threads.resize(t.blockDim.count());
    for (const Event& e : t.events)
        if (e.op == Op::GlobalStore && e.thread < s.threads.size()) {
            ThreadView& th = s.threads[e.thread];
            th.hasOutput = true;
            th.outputArray = e.array;
            th.outputIndex = e.index;
        }
    if (!t.steps.empty()) s.phase = t.steps.front().phase;
    return s;
}

void checkCursor(const Trace& t, int cursor)
{
    if (cursor < -1 || cursor >= static_cast<int>(t.steps.size()))
        throw std::out_of_range("Step " + std::to_string(cursor) + " is outside the trace, which has " +
                                std::to_string(t.steps.size()) + " steps (0 to " +
                                std::to_string(static_cast<int>(t.steps.size()) - 1) + ").");
}

void clearPhase(ReplayState& s)
{
    for (auto [a, i] : s.phaseFlags) s.elements[a][i].loadedThisPhase = false;
    s.phaseFlags.clear();
}

/// Applies the events of step `k` to `s`.
void applyStep(ReplayState& s, const Trace& t, int k, std::vector<LastRead>& last)
{
    const Step& step = t.steps[k];
    if (step.phase != s.phase) {
        clearPhase(s);
        s.phase = step.phase;
    }
    for (int n = step.begin; n < step.end; ++n) {
        const Event& e = t.events[n];
        LastRead* lr = e.thread < last.size() ? &last[e.thread] : nullptr;
        switch (e.op) {
        case Op::GlobalLoad:
        case Op::ConstantLoad: {
            ElementView& el = s.elements[e.array][e.index];
            ++el.loadsSoFar;
            if (!el.loadedThisPhase) {
                el.loadedThisPhase = true;
                s.phaseFlags.emplace_back(e.array, e.index);
            }
            if (e.op == Op::GlobalLoad) ++s.soFar.global_loads; else ++s.soFar.constant_loads;
            if (lr) *lr = LastRead{e.array, e.index};
            break;
        }
        case Op::SharedLoad: {
            ++s.soFar.shared_loads;
            const SlotView& from = s.slots[e.array][e.index];
            if (lr) *lr = LastRead{from.sourceArray, from.sourceIndex};
            break;
        }
        case Op::SharedStore:
        case Op::ZeroFill: {
            SlotView& slot = s.slots[e.array][e.index];
            if (slot.sourceIndex >= 0) --s.elements[slot.sourceArray][slot.sourceIndex].sharedCopies;
            slot.value = e.value;
            slot.written = true;
            slot.writer = e.thread;
            slot.writeStep = k;
            slot.zeroFilled = e.op == Op::ZeroFill;
            slot.sourceArray = kNoArray;
            slot.sourceIndex = -1;
            if (e.op == Op::SharedStore && lr && lr->index >= 0) {
                slot.sourceArray = lr->array;
                slot.sourceIndex = lr->index;
                ++s.elements[lr->array][lr->index].sharedCopies;
            }
            ++s.soFar.shared_stores;
            if (e.op == Op::ZeroFill) ++s.soFar.zero_fills;
            if (lr) *lr = LastRead{};
            break;
        }
        case Op::GlobalStore: {
            ElementView& el = s.elements[e.array][e.index];
            el.stored = true;
            el.storedValue = e.value;
            if (e.thread < s.threads.size()) s.threads[e.thread].stored = true;
            ++s.soFar.global_stores;
            if (lr) *lr = LastRead{};
            break;
        }
        case Op::Fma:
            if (e.thread < s.threads.size()) {
                s.threads[e.thread].pvalue = e.value;
                ++s.threads[e.thread].fmas;
            }
            s.soFar.flops += 2;
            if (lr) *lr = LastRead{};
            break;
        case Op::Barrier:
            ++s.soFar.barriers;
            break;
        }
    }
    s.cursor = k;
}

/// Sets the flags that describe the cursor step alone (readNow, writtenNow, activeNow).
void flagCursorStep(ReplayState& s, const Trace& t)
{
    for (auto [a, i] : s.nowFlags) {
        if (t.arrays[a].space == Space::Shared) {
            s.slots[a][i].readNow = false;
            s.slots[a][i].writtenNow = false;
        } else {
            s.elements[a][i].readNow = false;
        }
    }
    s.nowFlags.clear();
    for (ThreadView& th : s.threads) th.activeNow = false;
    if (s.cursor < 0) return;
    const Step& step = t.steps[s.cursor];
    for (int n = step.begin; n < step.end; ++n) {
        const Event& e = t.events[n];
        if (e.thread < s.threads.size() && e.op != Op::Barrier) s.threads[e.thread].activeNow = true;
        if (e.array == kNoArray) continue;
        switch (e.op) {
        case Op::GlobalLoad:
        case Op::ConstantLoad: s.elements[e.array][e.index].readNow = true; break;
        case Op::SharedLoad: s.slots[e.array][e.index].readNow = true; break;
        case Op::SharedStore:
        case Op::ZeroFill: s.slots[e.array][e.index].writtenNow = true; break;
        default: continue;
        }
        s.nowFlags.emplace_back(e.array, e.index);
    }
}

}  // namespace

ReplayState replay(const Trace& t, int cursor)
{
    checkCursor(t, cursor);
    ReplayState s = initial(t);
    moveTo(s, t, cursor);
    return s;
}

void moveTo(ReplayState& s, const Trace& t, int cursor)
{
    checkCursor(t, cursor);
    if (cursor < s.cursor) s = initial(t);
    std::vector<LastRead> last(s.threads.size());
    for (int k = s.cursor + 1; k <= cursor; ++k) applyStep(s, t, k, last);
    flagCursorStep(s, t);
}

}  // namespace ts::sim
