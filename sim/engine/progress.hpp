// Progress and cancellation of a long simulation: the parts of sim::simulate (inputs and
// CPU reference, the grid of fibers, the trace) report how far they are and stop when
// another thread asks them to (the app's Cancel button, sim::SimOptions::cancel).
#pragma once
#include <algorithm>
#include <atomic>
#include <exception>

namespace ts::sim {

/// Thrown out of a part of a simulation whose cancel flag was set; sim::simulate catches
/// it and returns a Simulation with `cancelled` set, so callers never see it.
struct Cancelled : std::exception {
    const char* what() const noexcept override { return "the simulation was cancelled"; }
};

/// Where a long computation reports how far it is (0..1) and learns that it should stop.
/// Both pointers may be null; a default Progress reports nothing and never stops.
struct Progress {
    const std::atomic<bool>* cancel = nullptr;   ///< set (by another thread) to stop
    std::atomic<float>* done = nullptr;          ///< overall fraction done, 0..1
    double from = 0, to = 1;                     ///< the share of `done` this part covers

    /// Is the work asked to stop?
    bool stopRequested() const { return cancel && cancel->load(std::memory_order_relaxed); }
    /// Reports `fraction` (0..1) of this part as done; throws Cancelled if asked to stop.
    void at(double fraction) const
    {
        if (done)
            done->store(static_cast<float>(from + (to - from) * std::clamp(fraction, 0.0, 1.0)),
                        std::memory_order_relaxed);
        if (stopRequested()) throw Cancelled();
    }
    /// The fractions [a, b] of this part, as a Progress of its own.
    Progress part(double a, double b) const
    {
        Progress p = *this;
        p.from = from + (to - from) * a;
        p.to = from + (to - from) * b;
        return p;
    }
};

}  // namespace ts::sim
