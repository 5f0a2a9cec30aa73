// One table of what each colour of a figure means: every state a cell, slot or element can
// be in (touched this step, in Mds/Nds, halo cell, hazard, ...), with its words for the
// legend, its colour in the palette of each theme and how it is drawn (a fill, a solid
// frame, a dashed frame, a corner or a glyph). The panels colour their figures from it and
// their legends draw its entries (legendEntry), listing only what the figure holds: what
// the trace contains (contentsOf), not the kernel's name.
#pragma once
#include <cstdint>
#include <span>

#include "theme.hpp"

namespace ts::sim {
struct Trace;
}

namespace ts::app {

/// A state that a figure shows, with one meaning in every panel.
enum class Meaning : uint8_t {
    Cell,             ///< an element with nothing to say (the plain cell)
    InShared,         ///< its value sits in a shared-memory slot (Mds, Nds, N_ds) now
    LoadedEarlier,    ///< loaded by the traced block in an earlier phase, its slot since overwritten
    LoadedThisPhase,  ///< loaded from global memory in the current phase (or a slot written this step)
    ThisStep,         ///< touched by the cursor step
    Internal,         ///< convolution: in the block's output tile (PMPP sec. 7.4)
    Halo,             ///< convolution: outside the output tile, reached by the mask (halo cell)
    ZeroFill,         ///< a tile slot stored 0 past the edge: ghost cell / zero fill
    Finished,         ///< P element stored by the traced block
    WrongP,           ///< P element that differs from the CPU reference
    WrongRead,        ///< a shared read that got another value than with every barrier
    Hazard,           ///< a slot of the hazard shown in the Hazards panel
    Selected,         ///< the traced block's tile, the selected thread's elements
    PracticeChosen,   ///< practice mode: a cell the student chose
    PracticeRight,    ///< chosen and expected
    PracticeWrong,    ///< chosen, not expected
    PracticeMissed,   ///< expected, not chosen
};

/// How a meaning is drawn on a cell. Colours that come close for a colour-blind eye are
/// told apart by the mark as well (tests/app/palette_test.cpp says which pairs).
enum class Mark : uint8_t {
    Fill,     ///< the cell's fill
    Frame,    ///< a solid frame along the cell's edge (with the palette's edge round it)
    Dashed,   ///< a dashed frame along the cell's edge
    Corner,   ///< a small triangle in a corner
    Glyph,    ///< a frame and a glyph (tick, cross, ring, dot) in the top right corner
};

/// One row of the table.
struct MeaningStyle {
    Meaning meaning;
    const char* words;        ///< the legend's words ("in Mds/Nds", "halo cell")
    const char* means;        ///< the legend's tooltip: what it means, with PMPP's section
    Mark mark;
    ImU32 Palette::*colour;   ///< its colour, a member of the theme's Palette
};

/// Every row, in the order legends list them.
std::span<const MeaningStyle> meaningTable();

/// The row of `m`.
const MeaningStyle& styleOf(Meaning m);

/// The colour of `m` in `pal`.
inline ImU32 colourOf(Meaning m, const Palette& pal) { return pal.*(styleOf(m).colour); }

/// What one traced block's figure can hold, read from its trace: shared arrays, phases,
/// zero fills, stores. A legend shows an entry only where this says the figure has it.
struct FigureContents {
    bool shared = false;      ///< an event in a Space::Shared array (Mds, Nds, N_ds)
    bool phases = false;      ///< more than one phase (a tiled loop)
    bool zeroFills = false;   ///< a slot zero-filled (Op::ZeroFill)
    bool stores = false;      ///< a global store (P written)
    bool barriers = false;    ///< a barrier completed
};

/// The contents of `t`'s figure, from its events and steps.
FigureContents contentsOf(const sim::Trace& t);

/// contentsOf(t), worked out once for the trace of Loaded::generation `generation` (every
/// panel draws the same trace; a block of 1024 threads has millions of events).
const FigureContents& contentsOf(const sim::Trace& t, uint64_t generation);

/// One legend entry from the table: the mark of `m` as a swatch in the current palette,
/// the table's words, and a tooltip with the table's meaning followed by `more` (what the
/// panel adds: "The orange outline is the phase's tile."). Entries after the `first` go on
/// the same line while they fit, then wrap.
void legendEntry(Meaning m, bool first = false, const char* more = nullptr);

/// One entry of a legend drawn with legendEntry(): the meaning and what the panel adds.
struct LegendItem {
    Meaning meaning;
    const char* more = nullptr;
};

/// The width in pixels legendEntry() takes for `m` in the current font: swatch, gap, words.
float legendEntryWidth(Meaning m);

/// The width of the widest of `items` (legendEntryWidth): a legend drawn as a column.
float legendWidth(std::span<const LegendItem> items);

/// How many rows `items` take when legendEntry() lays them out in a region `width` pixels
/// wide (entries on one line while they fit, then the next line); 0 for none.
int legendRows(std::span<const LegendItem> items, float width);

}  // namespace ts::app
