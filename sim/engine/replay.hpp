// The state of the traced block at a cursor: what sits in every shared slot, what each
// thread has accumulated, which global elements the block has loaded and stored. Replayed
// from a Trace, plain data for the views (docs/design.md, "Data flow": Timeline cursor -> view
// state at the cursor). No UI.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One slot of a shared array (Mds, Nds) of the traced block at the cursor.
struct SlotView {
    float value = 0;                 ///< what the slot holds (0 before any write)
    bool written = false;            ///< written at least once up to the cursor
    uint16_t writer = kNoThread;     ///< linear thread index of the last writer
    bool zeroFilled = false;         ///< the last write was a zero fill (PMPP sec. 5.5)
    uint8_t sourceArray = kNoArray;  ///< global array the value was loaded from, if any
    int32_t sourceIndex = -1;        ///< flat index of that global element, -1 if none
    int writeStep = -1;              ///< step of the last write
    bool readNow = false;            ///< read by the cursor step
    bool writtenNow = false;         ///< written by the cursor step
};

/// One element of a global array (M, N, P) as the traced block saw it up to the cursor.
struct ElementView {
    uint32_t loadsSoFar = 0;         ///< global loads of it by the traced block
    bool loadedThisPhase = false;    ///< loaded in the cursor step's phase
    bool readNow = false;            ///< loaded by the cursor step
    uint16_t sharedCopies = 0;       ///< shared slots whose value was loaded from it
    bool stored = false;             ///< written by the traced block (a finished P element)
    float storedValue = 0;
    bool inShared() const { return sharedCopies > 0; }
};

/// One thread of the traced block at the cursor.
struct ThreadView {
    float pvalue = 0;                ///< the accumulator after its last multiply-add (Fma events)
    int fmas = 0;                    ///< multiply-adds so far
    bool hasOutput = false;          ///< it stores a global element somewhere in the trace
    uint8_t outputArray = kNoArray;  ///< where (from the trace's first GlobalStore of the
    int32_t outputIndex = -1;        ///< thread), if hasOutput
    bool stored = false;             ///< it has stored its output by the cursor
    bool activeNow = false;          ///< it has events in the cursor step
};

/// What the steps applied to a ReplayState changed, so that moving the cursor back undoes
/// them instead of replaying from the first step (stepping back costs what stepping forward
/// costs). Old values are kept in the order they were overwritten; a step's entries start at
/// its mark. Grows with the events applied: about the trace's own size at the last step.
struct UndoLog {
    struct ElementChange { uint8_t array; int32_t index; ElementView old; };
    struct SlotChange { uint8_t array; int32_t index; SlotView old; };
    struct ThreadChange { uint16_t thread; float pvalue; int fmas; bool stored; };
    /// Where step k's entries start, and what it replaced as a whole.
    struct Mark {
        size_t elements = 0, slots = 0, threads = 0;
        size_t phaseFlags = 0;                  ///< phaseFlags' length before the step
        int phase = 0;                          ///< phase before the step
        bool phaseChanged = false;
        std::vector<std::pair<int, int32_t>> oldPhaseFlags;   ///< when phaseChanged
        Totals soFar;
    };
    std::vector<ElementChange> elements;
    std::vector<SlotChange> slots;
    std::vector<ThreadChange> threads;
    std::vector<Mark> marks;                    ///< by step, 0..cursor
};

/// Everything the views show about the traced block after step `cursor`.
struct ReplayState {
    int cursor = -1;                 ///< last step applied; -1 before the first step
    int phase = 0;                   ///< phase of the cursor step
    std::vector<std::vector<SlotView>> slots;   ///< by array id; empty unless shared
    std::vector<std::unordered_map<int32_t, ElementView>> elements;  ///< by array id; global
                                                ///< arrays only, elements the block touched
    std::vector<ThreadView> threads;            ///< by linear thread index
    Totals soFar;                    ///< the traced block's counts up to the cursor

    /// The element `index` of global array `array` (a default ElementView if untouched).
    const ElementView& element(int array, int32_t index) const;

    // Bookkeeping for advancing: what the cursor step and phase flagged, to clear later.
    std::vector<std::pair<int, int32_t>> nowFlags;
    std::vector<std::pair<int, int32_t>> phaseFlags;
    UndoLog undo;                               ///< the steps 0..cursor, for moving back
    std::vector<ThreadView> threadsAtStart;     ///< `threads` before the first step
};

/// The state after steps 0..cursor of `t` (cursor -1: before the first step).
/// Throws std::out_of_range if cursor is not in [-1, steps).
ReplayState replay(const Trace& t, int cursor);

/// Moves `s` (a state replayed from the same trace `t`) to `cursor`: applies only the new
/// steps when moving forward; moving back undoes the steps past `cursor` (UndoLog), or
/// starts again from the state before the first step where that applies fewer events
/// (Home). Same result as replay(t, cursor). Throws as replay.
void moveTo(ReplayState& s, const Trace& t, int cursor);

}  // namespace ts::sim
