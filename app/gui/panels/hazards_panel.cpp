// Hazards: what the hazard detector found (the two barriers of PMPP Fig. 5.9: without the barrier
// after the load a read-after-write, without the one after the use a write-after-read).
// The racecheck-like list of sites (kind, array, both source lines, count over the grid),
// then the traced block's hazards one by one; choosing one moves the timeline to the step
// of its second access and marks both accesses in Threads, Code and Shared memory. The
// "(?)" says why a hazard matters even when a run happens to give the right P. The focus
// always belongs to the cursor step: stepping the timeline shows that step's first hazard.
// On a slide the panel shows the counts, this run's result and the step's hazard; the lists
// stay at the desk.
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "sim/catalogue/problem_desc.hpp"
#include "kernels/context.cuh"
#include "layout.hpp"
#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// For one simulation: the step and the trace position of every event by its
/// execution-order number (Event::seq), and the hazard to show first at each step.
struct StepIndex {
    uint64_t generation = ~0ull;
    std::vector<int> stepOfSeq;
    std::vector<int> eventOfSeq;
    std::vector<int> shownAt;   ///< by step: a traced hazard with an access in it, -1 if none
};

int stepOf(const std::vector<int>& bySeq, uint32_t seq)
{
    return seq < bySeq.size() ? bySeq[seq] : -1;
}

/// `cache`, made again when the loaded simulation has changed.
const StepIndex& stepIndex(const Frame& f, const sim::Simulation& s, StepIndex& cache)
{
    if (cache.generation != f.loaded.generation) {
        const sim::Trace& t = s.trace;
        cache.generation = f.loaded.generation;
        cache.stepOfSeq.assign(t.events.size(), -1);
        cache.eventOfSeq.assign(t.events.size(), -1);
        for (size_t st = 0; st < t.steps.size(); ++st)
            for (int i = t.steps[st].begin; i < t.steps[st].end; ++i)
                if (t.events[i].seq < cache.stepOfSeq.size()) {
                    cache.stepOfSeq[t.events[i].seq] = static_cast<int>(st);
                    cache.eventOfSeq[t.events[i].seq] = i;
                }
        // At each step, the first hazard whose read there got a wrong value (the race the
        // step shows), else the first with its second access there, else with its first.
        std::vector<int> rank(t.steps.size(), 4);
        cache.shownAt.assign(t.steps.size(), -1);
        const std::vector<uint8_t>& wrong = f.loaded.wrongReads;
        for (size_t k = 0; k < s.hazards.traced.size(); ++k) {
            const sim::Hazard& h = s.hazards.traced[k];
            for (const sim::HazardAccess* a : {&h.first, &h.second}) {
                const int st = stepOf(cache.stepOfSeq, a->seq);
                if (st < 0) continue;
                const int ev = cache.eventOfSeq[a->seq];
                const bool wrongRead = !a->write && ev >= 0 && static_cast<size_t>(ev) < wrong.size() && wrong[ev];
                const int r = wrongRead ? 0 : a == &h.second ? 1 : 2;
                if (r < rank[st]) {
                    rank[st] = r;
                    cache.shownAt[st] = static_cast<int>(k);
                }
            }
        }
    }
    return cache;
}

std::string threadText(const sim::Trace& t, uint16_t thread)
{
    const int bx = static_cast<int>(t.blockDim.x);
    std::string text = "(";
    text.append(std::to_string(thread / bx)).append(",").append(std::to_string(thread % bx)).append(")");
    return text;
}

std::string slotText(const sim::Trace& t, uint8_t array, int32_t slot)
{
    const sim::ArrayInfo& a = t.arrays.at(array);
    if (a.rows > 1) return a.name + "[" + std::to_string(slot / a.cols) + "][" + std::to_string(slot % a.cols) + "]";
    return a.name + "[" + std::to_string(slot) + "]";
}

const char* accessWord(bool write) { return write ? "write" : "read"; }

bool sameSite(const sim::HazardSite& site, const sim::Hazard& h)
{
    return site.kind == h.kind && site.array == h.array && site.firstLine == h.first.line &&
           site.secondLine == h.second.line;
}

/// Which site the traced list is filtered to (-1: all), for one simulation, whether a
/// click on a site asks for the list's tab, and the row the list last scrolled to.
struct SiteFilter {
    uint64_t generation = ~0ull;
    int site = -1;
    bool showList = false;
    int scrolledTo = -1;
};

/// Chooses traced hazard `i`: the cursor goes to the step of its second access, the
/// second thread is selected.
void choose(Frame& f, const sim::Simulation& s, const std::vector<int>& bySeq, int i)
{
    const sim::Hazard& h = s.hazards.traced[i];
    f.view.hazard = HazardFocus{i, f.loaded.generation};
    const int step = stepOf(bySeq, h.second.seq);
    if (step >= 0) f.view.cursor = step;
    f.view.thread = h.second.thread;
    f.view.playing = false;
}

void summary(Frame& f, const sim::Simulation& s, bool setupLine)
{
    const Palette& pal = f.theme.palette;
    const sim::HazardLog& log = s.hazards;
    ImGui::PushFont(f.theme.fonts.bold);
    ImGui::Text("RAW %llu   WAR %llu   WAW %llu", static_cast<unsigned long long>(log.raw),
                static_cast<unsigned long long>(log.war), static_cast<unsigned long long>(log.waw));
    ImGui::PopFont();
    tooltip("Hazardous pairs of accesses in the whole grid (simulated): two threads of one block touch the "
            "same shared slot, or the same element of a global array the kernel writes, at least one writes "
            "(an atomic does not race with another), and no barrier lies between. Named by their "
            "order in the program (each thread's accesses since the last barrier), as racecheck names them: "
            "RAW, the write comes first; WAR, the read comes first; WAW, both write. Which thread actually "
            "ran first is the schedule's doing.");
    if (log.raw + log.war + log.waw > 0)
        helpMarker("A hazard is a fact about the program, not about one run: two threads touch one slot with "
                   "nothing that orders them. Whether the reader gets the old or the new value depends on which "
                   "thread or warp runs first: the schedule here, the hardware on a GPU, where it can change from "
                   "run to run. So the same kernel can give the right P today and a wrong one tomorrow; a right "
                   "P proves nothing. In this run the pairs whose read got a wrong value are the ones that show "
                   "in P.");
    std::string setup;
    if (s.scenario.dropBarriers & kernels::AFTER_LOAD) setup += "after-load dropped, ";
    if (s.scenario.dropBarriers & kernels::AFTER_COMPUTE) setup += "after-compute dropped, ";
    if (s.scenario.dropBarriers & kernels::FENCE) setup += "fence dropped, ";
    if (setup.empty()) setup = "all barriers in place, ";
    setup += std::string("schedule ") + sim::scheduleName(f.loaded.preset.schedule);
    if (setupLine) colouredText(pal.dimText, setup);
    if (!s.error.empty()) return;
    size_t wrong = 0;
    for (size_t i = 0; i < s.P.size() && i < s.reference.size(); ++i)
        if (std::memcmp(&s.P[i], &s.reference[i], sizeof(float)) != 0) ++wrong;
    if (wrong) {
        // Where the wrong elements are marked, as the window shows it now: the family's picture
        // open, folded to its title bar, or closed.
        const char* picture = sim::problemOf(s.scenario).picture == sim::Picture::Convolution ? "convolution" : "matrices";
        const PanelId pic = panelId(picture);
        const std::string title = panelTable()[pic].title;
        std::string where = "framed in red in " + title;
        if (!f.view.open[pic]) where += "; View > " + title + " shows it";
        else if (placePanel(pic, f).folded) where += ", folded now: click its title bar to open it";
        colouredText(pal.error, "This run: " + std::to_string(wrong) + " of " + std::to_string(s.P.size()) +
                                    " P elements wrong (" + where + ").");
    }
    else
        colouredText(pal.okText, "This run: P equals the CPU reference.");
    tooltip("P compared bit for bit with the CPU reference (fmaf in k order)");
}

/// Why there are none, when there are none (why hazards matter is under the summary's "(?)").
void explanation(const Frame& f)
{
    colouredText(f.theme.palette.dimText,
                 "No hazards: a barrier separates every pair of accesses to a shared slot by different "
                 "threads, so every schedule gives the same P. Drop a barrier in Code to see why.");
}

/// The hazard the other panels show, in one line.
void shown(const Frame& f, const sim::Simulation& s, const std::vector<int>& bySeq)
{
    const sim::Hazard* h = focusedHazard(f.loaded, f.view);
    const Palette& pal = f.theme.palette;
    if (!h) {
        colouredText(pal.dimText, "No hazard has an access in this step.");
        return;
    }
    const sim::Trace& t = s.trace;
    auto access = [&](const sim::HazardAccess& a) {
        return std::string(accessWord(a.write)) + " by " + threadText(t, a.thread) + " at line " +
               std::to_string(a.line) + " (step " + std::to_string(stepOf(bySeq, a.seq)) + ")";
    };
    colouredText(pal.hazardText, std::string("Shown: ") + sim::hazardName(h->kind) + " on " + slotText(t, h->array, h->slot) +
                                 ", " + access(h->first) + ", then " + access(h->second) + ".");
    tooltip("Marked in Threads (1st, 2nd), Code (both lines) and Shared memory (the slot). Steps gather the "
            "same statement of every thread, so the step of an access can come before the step of an access "
            "that ran earlier.");
}

/// The racecheck-like table of sites; a click filters the traced list to one site.
void sites(Frame& f, const sim::Simulation& s, const std::vector<int>& bySeq, SiteFilter& filter)
{
    const sim::HazardLog& log = s.hazards;
    const sim::Trace& t = s.trace;
    // A list: as tall as its rows where there is room, else it scrolls.
    const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float rows = static_cast<float>(log.sites.size() + 1);
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                               ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("sites", 4, tf, ImVec2(0, elasticHeight(std::min(rows, 3.0f) * row + 1, rows * row + 1))))
        return;
    markScrollingList();
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("kind");
    ImGui::TableSetupColumn("array");
    ImGui::TableSetupColumn("lines");
    ImGui::TableSetupColumn("pairs", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const char* const heads[] = {"RAW: a write, then a read by another thread; WAR: a read, then a write; WAW: two writes",
                                 "The array (shared, or global)", "The source lines of the first and the second access",
                                 "Pairs of accesses of the whole grid at these lines"};
    for (int c = 0; c < 4; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        tooltip(heads[c]);
    }
    for (size_t i = 0; i < log.sites.size(); ++i) {
        const sim::HazardSite& h = log.sites[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string id = std::string(sim::hazardName(h.kind)) + "##site" + std::to_string(i);
        if (ImGui::Selectable(id.c_str(), filter.site == static_cast<int>(i), ImGuiSelectableFlags_SpanAllColumns)) {
            filter.site = static_cast<int>(i);
            filter.showList = true;
            if (filter.site >= 0)
                for (size_t k = 0; k < log.traced.size(); ++k)
                    if (sameSite(h, log.traced[k])) {
                        choose(f, s, bySeq, static_cast<int>(k));
                        break;
                    }
        }
        tooltip("Like compute-sanitizer's racecheck: " + std::string(accessWord(h.kind != sim::HazardKind::WAR)) +
                " at line " + std::to_string(h.firstLine) + ", then " +
                accessWord(h.kind != sim::HazardKind::RAW) + " at line " + std::to_string(h.secondLine) +
                " by another thread with no barrier between; first seen in block (" +
                std::to_string(h.exampleBlock.x) + ", " + std::to_string(h.exampleBlock.y) + "), threads " +
                threadText(t, h.exampleFirst) + " and " + threadText(t, h.exampleSecond) +
                ". Click to list only these in the traced block's tab and show the first of them.");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(t.arrays.at(h.array).name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%u \u2192 %u", h.firstLine, h.secondLine);
        ImGui::TableNextColumn();
        ImGui::Text("%llu", static_cast<unsigned long long>(h.count));
    }
    ImGui::EndTable();
}

/// The traced block's hazards (of the filtered site, or all), one row each.
void traced(Frame& f, const sim::Simulation& s, const std::vector<int>& bySeq, SiteFilter& filter)
{
    const sim::HazardLog& log = s.hazards;
    const sim::Trace& t = s.trace;
    std::vector<int> rows;
    for (size_t k = 0; k < log.traced.size(); ++k)
        if (filter.site < 0 || sameSite(log.sites[filter.site], log.traced[k])) rows.push_back(static_cast<int>(k));
    const int chosen = focusedHazard(f.loaded, f.view) ? f.view.hazard.index : -1;
    const auto at = std::find(rows.begin(), rows.end(), chosen);
    const int pos = at == rows.end() ? -1 : static_cast<int>(at - rows.begin());

    if (filter.site >= 0) {
        const sim::HazardSite& site = log.sites[filter.site];
        ImGui::Text("only %s on %s, lines %u then %u", sim::hazardName(site.kind), t.arrays.at(site.array).name.c_str(),
                    site.firstLine, site.secondLine);
        ImGui::SameLine();
        if (ImGui::SmallButton("all")) filter.site = -1;
        tooltip("List every hazard of the traced block");
    } else {
        ImGui::Text("%zu hazards", rows.size());
    }
    tooltip("The hazards of the traced block, in the order the detector found them. Choose one: the "
            "timeline moves to the step of its second access, Threads and Shared memory mark both threads "
            "and the slot, Code both lines. Stepping the timeline shows each step's own.");
    ImGui::SameLine();
    ImGui::BeginDisabled(rows.empty() || pos == 0);
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) choose(f, s, bySeq, rows[pos < 0 ? 0 : pos - 1]);
    ImGui::EndDisabled();
    tooltip("Previous hazard");
    ImGui::SameLine();
    ImGui::BeginDisabled(rows.empty() || pos + 1 >= static_cast<int>(rows.size()));
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) choose(f, s, bySeq, rows[pos + 1]);
    ImGui::EndDisabled();
    tooltip("Next hazard");
    if (log.traced.size() >= sim::HazardLog::kMaxTraced) {
        ImGui::SameLine();
        ImGui::TextDisabled("(the first %zu)", sim::HazardLog::kMaxTraced);
    }
    if (rows.empty()) {
        if (!log.sites.empty())
            ImGui::TextDisabled("None in this block; the Grid tab names a block that has some.");
        return;
    }
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingFixedFit;
    const float rowH = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float count = static_cast<float>(rows.size() + 1);
    if (!ImGui::BeginTable("traced", 4, tf, ImVec2(0, elasticHeight(std::min(count, 4.0f) * rowH + 1, count * rowH + 1))))
        return;
    markScrollingList();
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("kind");
    ImGui::TableSetupColumn("slot");
    ImGui::TableSetupColumn("1st");
    ImGui::TableSetupColumn("2nd", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const char* const heads[] = {"RAW, WAR or WAW", "The slot or element both access",
                                 "The first access: thread (ty,tx), read or write, source line",
                                 "The second access: thread (ty,tx), read or write, source line"};
    for (int c = 0; c < 4; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        tooltip(heads[c]);
    }
    // Keep the chosen row in view when it was chosen elsewhere (a site, the arrows).
    if (pos >= 0 && filter.scrolledTo != chosen) {
        const float y = pos * rowH, view = ImGui::GetWindowHeight() - 2 * rowH;
        if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view) ImGui::SetScrollY(std::max(0.0f, y - view * 0.5f));
        filter.scrolledTo = chosen;
    }
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows.size()));
    while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
            const sim::Hazard& h = log.traced[rows[r]];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string id = std::string(sim::hazardName(h.kind)) + "##h" + std::to_string(rows[r]);
            if (ImGui::Selectable(id.c_str(), rows[r] == chosen, ImGuiSelectableFlags_SpanAllColumns))
                choose(f, s, bySeq, rows[r]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(slotText(t, h.array, h.slot).c_str());
            for (const sim::HazardAccess* a : {&h.first, &h.second}) {
                ImGui::TableNextColumn();
                ImGui::Text("%s %s %u", threadText(t, a->thread).c_str(), a->write ? "w" : "r", a->line);
                tooltip(threadText(t, a->thread) + " " + accessWord(a->write) + "s " + slotText(t, h.array, h.slot) +
                        " at line " + std::to_string(a->line) + ", in step " + std::to_string(stepOf(bySeq, a->seq)));
            }
        }
    ImGui::EndTable();
}

/// The panel. Its update keeps View::hazard on a hazard whose second access lies in the
/// cursor step: the chosen one while the cursor stays at its step, else the step's first
/// (none if it has none), so Threads, Code and Shared memory mark it even while the
/// Hazards panel is closed.
struct HazardsPanel final : Panel {
    void update(Frame& f) override;
    void draw(Frame& f) override;

private:
    StepIndex index_;     ///< of the loaded simulation
    SiteFilter filter_;   ///< of the loaded simulation
};

}  // namespace

void HazardsPanel::update(Frame& f)
{
    const sim::Simulation* s = f.loaded.sim.get();
    if (!s || f.view.cursor < 0 || f.view.cursor >= static_cast<int>(s->trace.steps.size())) return;
    const StepIndex& ix = stepIndex(f, *s, index_);
    const sim::Hazard* h = focusedHazard(f.loaded, f.view);
    if (h && (stepOf(ix.stepOfSeq, h->first.seq) == f.view.cursor || stepOf(ix.stepOfSeq, h->second.seq) == f.view.cursor))
        return;
    f.view.hazard = HazardFocus{ix.shownAt[f.view.cursor], f.loaded.generation};
}

void HazardsPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s || s->trace.steps.empty()) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
        } else {
            SiteFilter& filter = filter_;
            if (filter.generation != f.loaded.generation) filter = SiteFilter{f.loaded.generation, -1};
            const std::vector<int>& bySeq = stepIndex(f, *s, index_).stepOfSeq;
            summary(f, *s, !f.view.presentation);
            // Hand-overs between blocks through flags that the GPU would not order (PMPP sec.
            // 11.7: a flag set with no __threadfence() after the data, data read through a plain
            // pointer); the simulator's own result is right, its blocks running one at a time.
            if (!s->orderSites.empty()) {
                ImGui::Separator();
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(sim::orderReport(s->orderSites, s->arrays).c_str());
                ImGui::PopTextWrapPos();
                tooltip("The simulator runs one block to its end before the next, so it sees every store at once; a GPU "
                        "runs them together and may show another SM a flag before the data it guards");
            }
            // With hazards, why they matter is under "(?)"; a slide shows what matters and the
            // hazard of the step, and leaves the lists to the desk.
            if (s->hazards.sites.empty()) explanation(f);
            if (!s->hazards.sites.empty()) shown(f, *s, bySeq);
            if (!f.view.presentation && !s->hazards.sites.empty() && ImGui::BeginTabBar("hazard tabs")) {
                const std::string grid = "Grid: " + std::to_string(s->hazards.sites.size()) + " sites";
                if (ImGui::BeginTabItem(grid.c_str())) {
                    sites(f, *s, bySeq, filter);
                    ImGui::EndTabItem();
                }
                tooltip("Every hazard of the launch grouped by kind, array and the two source lines, like the "
                        "summary of compute-sanitizer --tool racecheck");
                const std::string block = "Block (" + std::to_string(s->trace.block.x) + ", " +
                                          std::to_string(s->trace.block.y) + ")###block";
                if (ImGui::BeginTabItem(block.c_str(), nullptr, filter.showList ? ImGuiTabItemFlags_SetSelected : 0)) {
                    traced(f, *s, bySeq, filter);
                    ImGui::EndTabItem();
                }
                filter.showList = false;
                tooltip("The traced block's hazards one by one, with both threads and lines");
                ImGui::EndTabBar();
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeHazardsPanel() { return std::make_unique<HazardsPanel>(); }

}  // namespace ts::app
