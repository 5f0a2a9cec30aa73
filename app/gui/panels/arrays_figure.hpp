// The Matrices panel's picture of an array problem (sim::Family::Array): see arrays_figure.cpp.
#pragma once
#include "sim/engine/simulate.hpp"
#include "state.hpp"

namespace ts::app {

/// Draws the inputs and the output of array problem `s` (which has a trace) in the current
/// window, coloured by the replay at the cursor (f.replay, f.view.cursor and thread).
void drawArrayFigure(Frame& f, const sim::Simulation& s);

}  // namespace ts::app
