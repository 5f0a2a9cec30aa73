#include "glossary.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <optional>

#include "panels/widgets.hpp"
#include "state.hpp"

namespace ts::app {
namespace {

// The entries, alphabetical (tests/app/welcome_test.cpp checks the order and that every
// link has an entry). Written for a student who meets the word in a panel.
constexpr std::array<GlossaryEntry, 33> kGlossary{{
    {"bank conflict", "Shared memory is split into 32 banks, one 4-byte word each in turn. When lanes of a warp touch "
     "different words of the same bank, the bank serves them one after another and the warp waits; the Memory panel "
     "counts the extra passes as wavefronts.", "sec. 6.1 (banks)"},
    {"barrier", "__syncthreads(): no thread of the block passes it until every thread has reached it. A tiled kernel "
     "needs one after loading a tile (so nobody reads a slot before it is written) and one after using it (so "
     "nobody overwrites a slot still being read).", "sec. 4.3, 5.4"},
    {"block", "A group of threads launched together on one SM, able to share memory and wait at barriers; blockIdx "
     "(bx, by) says which one a thread belongs to. In the tiled kernels each block computes one tile of P.", "sec. 2.5, 3.2"},
    {"coalescing", "When the 32 lanes of a warp read neighbouring addresses, the hardware serves them with a few "
     "32-byte sectors; scattered addresses need many. TileScope counts sectors per request: fewer is better.", "sec. 6.1"},
    {"constant memory", "A small read-only memory cached for the whole grid; it is fastest when all lanes of a warp read "
     "the same word. The convolution mask M lives there.", "sec. 7.3"},
    {"corner turning", "Loading a tile so that consecutive lanes read consecutive addresses (coalesced), even though the "
     "computation walks it the other way, and turning it round in shared memory.", "sec. 6.1"},
    {"ghost cell", "A position outside the input (before its start or past its end). It has no value, so it counts as "
     "0: the tiled kernels store a 0 in the shared tile instead of loading.", "sec. 5.5, 7.1"},
    {"global memory", "The GPU's large device memory (DRAM), seen by every thread; slow compared with shared memory, which "
     "is why the tiled kernels copy tiles out of it once and reuse them.", "sec. 5.2"},
    {"grid", "All the blocks of one kernel launch (gridDim of them); every block runs the same kernel on its own part of "
     "the data.", "sec. 2.5, 3.1"},
    {"halo cell", "An input element that a block's outputs need but that lies outside the block's own output tile, "
     "in a neighbour's. The tiled convolution loads the halo cells into N_ds too.", "sec. 7.4"},
    {"hazard", "Two threads touch the same shared slot, at least one writing, with no barrier between them. RAW "
     "(read-after-write): a thread reads before the writer wrote. WAR (write-after-read): a thread overwrites before "
     "the reader read. The result then depends on timing.", "sec. 5.4"},
    {"Mask_Width", "The number of mask elements per side in convolution (odd, so the mask has a centre). Each output "
     "reads Mask_Width inputs per dimension, so a tile needs Mask_Width - 1 halo cells per dimension.", "sec. 7.1"},
    {"Mds / Nds", "The shared-memory arrays that hold the current tiles of M and N in tiled matrix multiplication, "
     "TILE_WIDTH x TILE_WIDTH floats each.", "sec. 5.4"},
    {"N_ds", "The shared-memory copy of a convolution's input tile: the output tile's inputs plus the halo cells.",
     "sec. 7.4"},
    {"occupancy", "How many warps an SM holds at once against the most it could. Registers per thread, shared memory per "
     "block, thread slots and block slots each set a limit; the smallest one wins.", "sec. 4.7"},
    {"OP/B", "Floating-point operations per byte read from global memory (the compute-to-global-memory-access ratio). "
     "Tiling raises it: tiled matrix multiplication does 2 x TILE_WIDTH operations for every two 4-byte loads, "
     "TILE_WIDTH / 4 OP/B (4 at TILE_WIDTH 16).",
     "sec. 5.1, 5.4"},
    {"output tile", "The outputs one block computes: a tile of P. In convolution its own inputs are the internal cells, "
     "the rest of its input tile are halo cells.", "sec. 7.4"},
    {"padding", "Declaring a shared array one column wider than needed (Nds[16][17]) so that a column's words fall in "
     "different banks, which removes bank conflicts.", ""},
    {"phase", "One round of a tiled kernel's outer loop: load a tile of each input into shared memory, barrier, use the "
     "tiles, barrier. A product of Width k takes k / TILE_WIDTH phases, rounded up.", "sec. 5.4"},
    {"race", "A result that depends on which thread runs first; in TileScope a shared read that got another value than "
     "it gets with every barrier in place, or a P that differs from the CPU reference.", "sec. 5.4"},
    {"register", "A thread's private, fastest storage (Pvalue lives in one). An SM has a fixed number, so more registers "
     "per thread can mean fewer blocks at once.", "sec. 4.7, 5.2"},
    {"reuse", "Using a value fetched once from global memory many times. In a tile of Mds each element serves TILE_WIDTH "
     "threads of its row, which is what raises OP/B.", "sec. 5.3"},
    {"roofline", "A chart of performance against OP/B: below the ridge a kernel is bound by memory bandwidth (the slope), "
     "above it by arithmetic (the flat roof).", "sec. 5.1"},
    {"sector", "32 bytes of global memory, the unit the memory system moves. A warp's request costs as many sectors as "
     "its addresses span.", "sec. 6.1"},
    {"shared memory", "Fast on-chip memory that the threads of one block share and that lives as long as the block; "
     "declared __shared__. The tiles Mds, Nds and N_ds live there.", "sec. 5.2"},
    {"step", "One statement run by the traced block's threads between two barriers, or the barrier itself: what the "
     "Timeline moves through.", ""},
    {"thread", "One instance of the kernel; threadIdx (tx, ty) is its place in the block. In matrix multiplication each "
     "thread computes one element of P.", "sec. 2.5, 3.2"},
    {"thread coarsening", "Giving one thread the work of several (more elements of P each), so that a tile loaded once "
     "serves more outputs, at the cost of fewer threads.", "sec. 6.3"},
    {"tile", "The part of an input that a block copies into shared memory for one phase: a TILE_WIDTH x TILE_WIDTH square "
     "of M or N, or a convolution's input tile.", "sec. 5.3"},
    {"TILE_SIZE", "In tiled convolution, the number of outputs a block computes along each axis; its input tile is "
     "TILE_SIZE + Mask_Width - 1 long.", "sec. 7.4"},
    {"TILE_WIDTH", "The edge of a square tile in tiled matrix multiplication; the block is TILE_WIDTH x TILE_WIDTH "
     "threads. Larger tiles reuse each loaded element more (higher OP/B) but take more shared memory.", "sec. 5.4"},
    {"tiling", "Splitting the data into tiles that fit in shared memory, so that a block loads each element once and "
     "its threads reuse it many times.", "sec. 5.3"},
    {"warp", "32 threads of a block, taken in order of their linear index, that the hardware schedules together. "
     "Coalescing and bank conflicts are about the addresses of one warp's lanes.", "sec. 4.4"},
}};

constexpr std::array<TimelineLegendEntry, 5> kTimelineLegend{{
    {sim::StepKind::Use, "use", "The threads multiply-add from the tiles in shared memory.", "reuse"},
    {sim::StepKind::LoadTile, "load tile", "The threads copy a tile from global memory into shared memory.", "tile"},
    {sim::StepKind::Barrier, "barrier", "__syncthreads(): every thread of the block waits for the others.", "barrier"},
    {sim::StepKind::Store, "store P", "The threads write their results to P in global memory.", "global memory"},
    {sim::StepKind::Other, "other", "Any other statement (index arithmetic, a boundary test).", "step"},
}};

bool sameTerm(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

bool contains(std::string_view text, std::string_view part)
{
    if (part.empty()) return true;
    auto it = std::search(text.begin(), text.end(), part.begin(), part.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
    return it != text.end();
}

/// The glossary window drawn last: its rectangle and the term asked for ("" when not drawn).
struct GlossaryDrawn {
    bool shown = false;
    ImVec2 pos, size;
    std::string term;
};

GlossaryDrawn& glossaryDrawn()
{
    static GlossaryDrawn d;
    return d;
}

/// A term asked for by openGlossaryAt, for the next drawGlossary.
std::optional<std::string>& pendingTerm()
{
    static std::optional<std::string> term;
    return term;
}

}  // namespace

std::span<const GlossaryEntry> glossary() { return kGlossary; }

const GlossaryEntry* findGlossaryEntry(std::string_view term)
{
    for (const GlossaryEntry& e : kGlossary)
        if (sameTerm(e.term, term)) return &e;
    return nullptr;
}

const char* glossaryTermOf(Meaning m)
{
    switch (m) {
    case Meaning::Cell: return nullptr;
    case Meaning::InShared: return "shared memory";
    case Meaning::LoadedEarlier: return "phase";
    case Meaning::LoadedThisPhase: return "phase";
    case Meaning::ThisStep: return "step";
    case Meaning::Internal: return "output tile";
    case Meaning::Halo: return "halo cell";
    case Meaning::ZeroFill: return "ghost cell";
    case Meaning::Finished: return "output tile";
    case Meaning::WrongP: return "race";
    case Meaning::WrongRead: return "barrier";
    case Meaning::Hazard: return "hazard";
    case Meaning::Selected: return "thread";
    case Meaning::PracticeChosen:
    case Meaning::PracticeRight:
    case Meaning::PracticeWrong:
    case Meaning::PracticeMissed: return nullptr;
    }
    return nullptr;
}

std::span<const TimelineLegendEntry> timelineLegend() { return kTimelineLegend; }

void openGlossaryAt(std::string_view term) { pendingTerm() = std::string(term); }

void glossaryLink(const char* term)
{
    const GlossaryEntry* e = findGlossaryEntry(term);
    if (!e) return;
    ImGui::SameLine(0, scaled(4));
    ImGui::PushID(term);
    if (ImGui::SmallButton("?")) openGlossaryAt(term);
    ImGui::PopID();
    tooltip(std::string(e->term) + ": " + e->text + "\n(click: the glossary)");
}

void drawGlossary(Frame& f)
{
    View& v = f.view;
    static std::string filter;
    bool scroll = false;
    if (std::optional<std::string>& asked = pendingTerm(); asked) {
        v.showGlossary = true;
        v.glossaryTerm = *asked;
        asked.reset();
        filter.clear();
        scroll = true;
        ImGui::SetNextWindowFocus();
    }
    glossaryDrawn().shown = false;
    if (!v.showGlossary) return;
    const float em = ImGui::GetFontSize();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(std::min(em * 36, display.x * 0.9f), std::min(em * 30, display.y * 0.8f)),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Glossary", &v.showGlossary, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        glossaryDrawn() = GlossaryDrawn{true, ImGui::GetWindowPos(), ImGui::GetWindowSize(), v.glossaryTerm};
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::InputTextWithHint("##filter", "filter: a word of the term or its text", &filter);
        ImGui::BeginChild("##entries");
        for (const GlossaryEntry& e : kGlossary) {
            if (!contains(e.term, filter) && !contains(e.text, filter)) continue;
            const bool asked = sameTerm(e.term, v.glossaryTerm);
            const ImVec2 top = ImGui::GetCursorScreenPos();
            if (asked && scroll) ImGui::SetScrollHereY(0.0f);   // the entry asked for at the top
            ImGui::PushFont(f.theme.fonts.bold);
            if (asked) colouredText(f.theme.palette.selected, e.term);
            else ImGui::TextUnformatted(e.term);
            ImGui::PopFont();
            if (*e.source) {
                ImGui::SameLine();
                ImGui::TextDisabled("PMPP %s", e.source);
            }
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(e.text);
            ImGui::PopTextWrapPos();
            if (asked)
                ImGui::GetWindowDrawList()->AddRect(ImVec2(top.x - 3, top.y - 2),
                                                    ImVec2(top.x + ImGui::GetContentRegionAvail().x + 3,
                                                           ImGui::GetItemRectMax().y + 2),
                                                    f.theme.palette.selected, 3.0f, 0, 2.0f);
            ImGui::Spacing();
        }
        ImGui::EndChild();
    }
    ImGui::End();
}

std::string glossaryReport()
{
    const GlossaryDrawn& d = glossaryDrawn();
    if (!d.shown) return "";
    char line[200];
    std::snprintf(line, sizeof line, "glossary %.0f %.0f %.0f %.0f %s\n", d.pos.x, d.pos.y, d.size.x, d.size.y,
                  d.term.empty() ? "-" : d.term.c_str());
    return line;
}

}  // namespace ts::app
