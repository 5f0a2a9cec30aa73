// A histogram read from the trace of one block (PMPP ch. 9): each warp's atomic instruction
// on the bins with the bin each lane hit and the character it read, the passes the hardware
// serialises it into (the most lanes on one bin), the bins' values as the atomics add to them,
// and the bytes each warp's load of the text touches, sector by sector. Built from the
// recorded events alone (Op::Atomic with the value before and after, the loads of the text),
// so it holds for a student's histogram as for the registry's. No UI.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One lane of a warp's atomic: its thread, the bin (element) it updated, and the character
/// it last read from the text before it (its code; -1 when it read none).
struct BinLane {
    uint16_t thread = 0;
    int bin = 0;
    int character = -1;
    float before = 0, after = 0;
    uint32_t seq = 0;         ///< the atomic's place in execution order (Event::seq)
};

/// One warp atomic instruction on an array of bins: the lanes that took part (lane order).
struct BinRequest {
    int step = -1;            ///< the trace step it belongs to
    unsigned warp = 0;
    unsigned line = 0;
    int array = -1;           ///< trace.arrays index of the bins it updated
    std::vector<BinLane> lanes;
    /// The passes the hardware serialises it into: the most lanes on one bin (Nsight
    /// Compute's set accesses for a global RED; 1 when every lane has a bin of its own).
    int passes() const;
    /// The bin with the most lanes (the first of equals), -1 for no lanes.
    int busiestBin() const;
};

/// One warp's load of the text: the byte each lane read, and the 32-byte sectors they span.
struct TextLoad {
    int step = -1;
    unsigned warp = 0;
    unsigned line = 0;
    int occurrence = 0;       ///< the lanes' how-many-th load on that line (a coarsened loop's k)
    std::vector<std::pair<uint16_t, long long>> lanes;   ///< (thread, byte index), lane order
    /// Distinct 32-byte sectors the lanes' bytes fall in (an array starts on a sector).
    int sectors() const;
};

/// The histogram of the traced block.
struct HistogramPicture {
    int text = -1;                        ///< trace.arrays index of the text (-1: none found)
    std::vector<BinRequest> requests;     ///< every warp atomic, in step order
    std::vector<TextLoad> loads;          ///< every warp load of the text, in step order
    /// The bins arrays the atomics update, in order of their first atomic (a privatized
    /// kernel's histo_s, then histo).
    std::vector<int> binArrays;

    /// The request shown at trace step `step`: of the last step at or before it that has
    /// requests, the first of warp `warp` (the selected thread's), else that step's last;
    /// -1 before the first.
    int requestAt(int step, unsigned warp) const;
    /// The text load shown at `step`, chosen the same way.
    int loadAt(int step, unsigned warp) const;
    /// The values of bins array `array` (size elements) after every atomic up to and
    /// including step `step`: the value after the latest atomic on each bin (in execution
    /// order), or, before any atomic on it, the value the earliest one found there (0 for
    /// bins never touched).
    std::vector<float> valuesAt(int array, int size, int step) const;
};

/// The histogram of `t`: empty (no requests) when the block made no atomics.
HistogramPicture histogramPicture(const Trace& t);

}  // namespace ts::sim
