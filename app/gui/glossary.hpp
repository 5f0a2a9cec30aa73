// The glossary (Help > Glossary): the field's terms (TILE_WIDTH, Mds, halo cell, OP/B, ...),
// each in a sentence or two, kept in one table; the legends' words link to their entry
// (a click opens the glossary there). The table and the links are data, checked by
// tests/app/welcome_test.cpp: every term a legend links to has an entry.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "meanings.hpp"
#include "sim/engine/trace.hpp"

namespace ts::app {

struct Frame;

/// One entry of the glossary.
struct GlossaryEntry {
    const char* term;      ///< as the panels write it ("halo cell", "Mds / Nds")
    const char* text;      ///< one or two sentences, in the book's vocabulary
    const char* source;    ///< where PMPP (4th ed.) treats it ("sec. 5.4"), or "" for none
};

/// Every entry, in alphabetical order of the term (case ignored).
std::span<const GlossaryEntry> glossary();

/// The entry whose term is `term` (case ignored), or null.
const GlossaryEntry* findGlossaryEntry(std::string_view term);

/// The glossary term a legend entry of meaning `m` links to, or null for one without a
/// term of its own (the plain cell).
const char* glossaryTermOf(Meaning m);

/// One entry of the Timeline's legend: the colour of the steps of a kind, its words and the
/// glossary term they link to.
struct TimelineLegendEntry {
    sim::StepKind kind;
    const char* words;     ///< "load tile"
    const char* means;     ///< the tooltip: what such a step is
    const char* term;      ///< glossary term
};

/// The Timeline legend's entries, in the order the bar stacks them (bottom first).
std::span<const TimelineLegendEntry> timelineLegend();

/// Asks for the glossary window, open at `term` (the legends call it on a click; the app
/// shows it in the next drawGlossary).
void openGlossaryAt(std::string_view term);

/// The glossary's window while View::showGlossary (or after openGlossaryAt): a filter field
/// and every entry, the one asked for highlighted and scrolled into view.
void drawGlossary(Frame& f);

/// --print-layout's line for the glossary drawn in the last frame: "glossary X Y W H TERM"
/// (the term asked for, "-" for none); "" when it was not drawn.
std::string glossaryReport();

/// A small "?" button after the last item that opens the glossary at `term`, with the
/// entry's text as its tooltip.
void glossaryLink(const char* term);

}  // namespace ts::app
