#include "sim/engine/replay.hpp"

#include <algorithm>
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
    // A thread's first store: its only one on PMPP's kernels, Pvalue[0][0] on the register
    // tiles, whose other elements follow.
    for (const Event& e : t.events)
        if (e.op == Op::GlobalStore && e.thread < s.threads.size() && !s.threads[e.thread].hasOutput) {
            ThreadView& th = s.threads[e.thread];
            th.hasOutput = true;
            th.outputArray = e.array;
            th.outputIndex = e.index;
        }
    if (!t.steps.empty()) s.phase = t.steps.front().phase;
    s.threadsAtStart = s.threads;
    return s;
}

/// Back to the state before the first step, keeping what does not change (the threads'
/// outputs, the arrays' sizes).
void restart(ReplayState& s, const Trace& t)
{
    for (auto& slots : s.slots) std::fill(slots.begin(), slots.end(), SlotView{});
    for (auto& elements : s.elements) elements.clear();
    s.threads = s.threadsAtStart;
    s.phase = t.steps.empty() ? 0 : t.steps.front().phase;
    s.cursor = -1;
    s.soFar = Totals{};
    s.nowFlags.clear();
    s.phaseFlags.clear();
    s.undo = UndoLog{};
}

/// The element, its old value noted in the undo log first.
ElementView& changeElement(ReplayState& s, int array, int32_t index)
{
    ElementView& el = s.elements[array][index];
    s.undo.elements.push_back({static_cast<uint8_t>(array), index, el});
    return el;
}

SlotView& changeSlot(ReplayState& s, int array, int32_t index)
{
    SlotView& slot = s.slots[array][index];
    s.undo.slots.push_back({static_cast<uint8_t>(array), index, slot});
    return slot;
}

ThreadView& changeThread(ReplayState& s, uint16_t thread)
{
    ThreadView& th = s.threads[thread];
    s.undo.threads.push_back({thread, th.pvalue, th.fmas, th.stored});
    return th;
}

void checkCursor(const Trace& t, int cursor)
{
    if (cursor < -1 || cursor >= static_cast<int>(t.steps.size()))
        throw std::out_of_range("Step " + std::to_string(cursor) + " is outside the trace, which has " +
                                std::to_string(t.steps.size()) + " steps (0 to " +
                                std::to_string(static_cast<int>(t.steps.size()) - 1) + ").");
}

/// A global element as a store (or an atomic) of event `e` leaves it.
void storeGlobal(ReplayState& s, const Event& e)
{
    ElementView& el = changeElement(s, e.array, e.index);
    el.stored = true;
    el.storedValue = e.value;
    if (e.thread < s.threads.size()) changeThread(s, e.thread).stored = true;
}

/// Applies the events of step `k` to `s`, noting in s.undo what they overwrite.
void applyStep(ReplayState& s, const Trace& t, int k, std::vector<LastRead>& last)
{
    const Step& step = t.steps[k];
    UndoLog::Mark mark;
    mark.elements = s.undo.elements.size();
    mark.slots = s.undo.slots.size();
    mark.threads = s.undo.threads.size();
    mark.phaseFlags = s.phaseFlags.size();
    mark.phase = s.phase;
    mark.soFar = s.soFar;
    if (step.phase != s.phase) {
        // A new phase: the elements loaded in the last one are no longer "this phase".
        for (auto [a, i] : s.phaseFlags) changeElement(s, a, i).loadedThisPhase = false;
        mark.phaseChanged = true;
        mark.oldPhaseFlags = std::move(s.phaseFlags);
        s.phaseFlags.clear();
        s.phase = step.phase;
    }
    s.undo.marks.push_back(std::move(mark));
    for (int n = step.begin; n < step.end; ++n) {
        const Event& e = t.events[n];
        LastRead* lr = e.thread < last.size() ? &last[e.thread] : nullptr;
        switch (e.op) {
        case Op::GlobalLoad:
        case Op::ConstantLoad: {
            ElementView& el = changeElement(s, e.array, e.index);
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
        case Op::ZeroFill:
        case Op::Atomic: {
            // An atomic on a global element leaves it as a store does; one on a shared slot
            // (PMPP Fig. 9.10's privatized bins) leaves the slot as a shared store does.
            const bool sharedSlot = e.array < s.slots.size() && !s.slots[e.array].empty();
            if (e.op == Op::Atomic && !sharedSlot) {
                storeGlobal(s, e);
                ++s.soFar.global_atomics;
                if (lr) *lr = LastRead{};
                break;
            }
            SlotView& slot = changeSlot(s, e.array, e.index);
            if (slot.sourceIndex >= 0) --changeElement(s, slot.sourceArray, slot.sourceIndex).sharedCopies;
            slot.value = e.value;
            slot.written = true;
            slot.writer = e.thread;
            slot.writeStep = k;
            slot.zeroFilled = e.op == Op::ZeroFill;
            slot.sourceArray = kNoArray;
            slot.sourceIndex = -1;
            if (e.op == Op::SharedStore && e.origin >= 0) {
                // The simulator's provenance: the global element whose value this is.
                slot.sourceArray = e.originArray;
                slot.sourceIndex = e.origin;
                ++changeElement(s, e.originArray, e.origin).sharedCopies;
            }
            if (e.op == Op::Atomic) ++s.soFar.shared_atomics;
            else ++s.soFar.shared_stores;
            if (e.op == Op::ZeroFill) ++s.soFar.zero_fills;
            if (lr) *lr = LastRead{};
            break;
        }
        case Op::GlobalStore:
            storeGlobal(s, e);
            ++s.soFar.global_stores;
            if (lr) *lr = LastRead{};
            break;
        case Op::Fma:
            if (e.thread < s.threads.size()) {
                ThreadView& th = changeThread(s, e.thread);
                th.pvalue = e.value;
                ++th.fmas;
            }
            s.soFar.flops += 2;
            if (lr) *lr = LastRead{};
            break;
        case Op::Barrier:
            ++s.soFar.barriers;
            break;
        case Op::Branch:
        case Op::Shuffle: break;   // register to register: no element, no counter
        }
    }
    s.cursor = k;
}

/// Undoes step s.cursor: every value it overwrote is put back, newest first.
void undoStep(ReplayState& s)
{
    UndoLog& u = s.undo;
    UndoLog::Mark& mark = u.marks.back();
    for (size_t n = u.threads.size(); n-- > mark.threads;) {
        const UndoLog::ThreadChange& c = u.threads[n];
        ThreadView& th = s.threads[c.thread];
        th.pvalue = c.pvalue;
        th.fmas = c.fmas;
        th.stored = c.stored;
    }
    for (size_t n = u.slots.size(); n-- > mark.slots;) s.slots[u.slots[n].array][u.slots[n].index] = u.slots[n].old;
    for (size_t n = u.elements.size(); n-- > mark.elements;)
        s.elements[u.elements[n].array][u.elements[n].index] = u.elements[n].old;
    u.threads.resize(mark.threads);
    u.slots.resize(mark.slots);
    u.elements.resize(mark.elements);
    if (mark.phaseChanged) s.phaseFlags = std::move(mark.oldPhaseFlags);
    else s.phaseFlags.resize(mark.phaseFlags);
    s.phase = mark.phase;
    s.soFar = mark.soFar;
    u.marks.pop_back();
    --s.cursor;
}

/// Clears the flags that describe the cursor step alone (readNow, writtenNow, activeNow),
/// before any step is applied or undone, so that the undo log never holds them.
void clearCursorFlags(ReplayState& s, const Trace& t)
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
}

/// Sets the flags that describe the cursor step alone.
void flagCursorStep(ReplayState& s, const Trace& t)
{
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
    clearCursorFlags(s, t);
    if (cursor < s.cursor) {
        // Undo the steps after `cursor`, or start again if the steps up to it hold fewer
        // events than those to undo (Home from far on).
        const auto events = [&](int from, int to) {   // events of steps from..to
            return from > to ? 0 : t.steps[to].end - t.steps[from].begin;
        };
        if (events(0, cursor) < events(cursor + 1, s.cursor)) restart(s, t);
        else
            while (s.cursor > cursor) undoStep(s);
    }
    std::vector<LastRead> last(s.threads.size());
    for (int k = s.cursor + 1; k <= cursor; ++k) applyStep(s, t, k, last);
    flagCursorStep(s, t);
}

}  // namespace ts::sim
