// The caption bar under the menu: the preset's title, the current step, and its narration
// (the preset's hand-written line where one lands on the step, else one generated from the
// trace: sim/teaching/narration.hpp).
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <vector>

#include "diagnosis_report.hpp"
#include "panels.hpp"
#include "sim/teaching/narration.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The diagnosis the caption bar drew last (captionDiagnosisDrawn).
std::string gDiagnosisDrawn;

constexpr const char* kHint = "Space plays, Left/Right step, Home/End jump. Hover any cell for its index, "
                              "value and loads; click a tile of P to trace that block.";

/// The narration of every step of the loaded simulation and the problems of the preset's
/// hand-written lines, made once per simulation (a trace of a thousand steps is narrated
/// in one go, not every frame).
struct StepLines {
    std::weak_ptr<const sim::Simulation> sim;
    uint64_t generation = ~0ull;
    std::vector<sim::StepNarration> lines;
    std::string problem;   ///< CaptionText::narrationProblem
};

const StepLines& stepLines(const Loaded& loaded)
{
    static StepLines cache;
    if (cache.generation != loaded.generation || cache.sim.expired() || cache.sim.lock() != loaded.sim) {
        cache.sim = loaded.sim;
        cache.generation = loaded.generation;
        std::vector<std::string> problems;
        cache.lines = sim::narrateSteps(loaded.preset, *loaded.sim, &problems);
        cache.problem.clear();
        if (!problems.empty())
            cache.problem = problems.front() +
                            (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : "");
    }
    return cache;
}

}  // namespace

std::string captionDiagnosisDrawn() { return gDiagnosisDrawn; }

CaptionText captionText(const Loaded& loaded, const View& view)
{
    CaptionText c;
    const sim::Preset& p = loaded.preset;
    c.title = p.title.empty() ? "TileScope" : p.title;
    if (view.presentation) {
        c.presentation = view.presentationScale;
        c.presentationDrawn = view.presentationDrawn;
        c.screenHeight = view.screenHeight;
    }
    const sim::Simulation* s = loaded.sim.get();
    if (!s) {
        c.simulating = true;
        return c;
    }
    const int cursor = view.cursor;
    const int steps = static_cast<int>(s->trace.steps.size());
    c.lastStep = steps - 1;
    c.blockX = s->trace.block.x;
    c.blockY = s->trace.block.y;
    c.blockZ = s->trace.block.z;
    if (cursor >= 0 && cursor < steps) {
        c.step = cursor;
        c.label = s->trace.steps[cursor].label;
    } else if (cursor == -1 && steps > 0) {
        c.label = "before the first step";   // practice mode asks about step 0 before showing it
    }
    c.practice = practiceCaption(view.practice, view.presentation);
    if (steps > 0) {
        const StepLines& lines = stepLines(loaded);
        c.narrationProblem = lines.problem;
        if (c.step) {
            c.narration = lines.lines[*c.step].text;
            c.handWritten = lines.lines[*c.step].handWritten;
        }
    }
    return c;
}

std::string captionLine(const CaptionText& c)
{
    std::ostringstream o;
    if (c.simulating) {
        o << c.title << " | simulating...";
        if (c.presentation) o << " | presentation " << *c.presentation << "x";
        return o.str();
    }
    o << c.title << " | step " << c.step.value_or(-1) << " of " << c.lastStep << " | " << c.label << " | "
      << c.narration.value_or("(no narration)");
    if (c.presentation) {
        // The setting is the scale at 1080p; a window of another height draws at its share.
        auto scale = [](float v) {
            char b[32];
            std::snprintf(b, sizeof b, "%.2f", v);
            std::string t = b;
            while (t.back() == '0') t.pop_back();
            if (t.back() == '.') t.pop_back();
            return t;
        };
        o << " | presentation " << scale(*c.presentation) << "x";
        if (scale(c.presentationDrawn) != scale(*c.presentation))
            o << " (" << scale(c.presentationDrawn) << "x at " << static_cast<int>(std::lround(c.screenHeight)) << " px high)";
    }
    if (!c.practice.empty()) o << " | practice: " << c.practice;
    return o.str();
}

namespace {

/// How many rows a line of items of `widths` pixels takes at `wrap` pixels, each item after
/// the first `gaps[i]` pixels after the one before it on the same row, or starting the next
/// row when it does not fit there; an item wider than the row takes more rows of its own.
/// `sameRow`, if given, gets for each item whether it goes on the row of the item before it.
int flowRows(const std::vector<float>& widths, const std::vector<float>& gaps, float wrap,
             std::vector<bool>* sameRow = nullptr)
{
    int rows = 0;
    float x = 0;
    if (sameRow) sameRow->assign(widths.size(), false);
    for (size_t i = 0; i < widths.size(); ++i) {
        const float w = widths[i];
        // (Two pixels to spare: ImGui rounds the cursor, and wraps an item that fits exactly.)
        if (i > 0 && x + gaps[i] + w <= wrap - 2) {
            x += gaps[i] + w;
            if (sameRow) (*sameRow)[i] = true;
            continue;
        }
        rows += std::max(1, static_cast<int>(std::ceil(w / std::max(1.0f, wrap))));
        x = w > wrap ? wrap : w;
    }
    return rows;
}

float textWidth(ImFont* font, const std::string& s)
{
    return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, s.c_str()).x;
}

/// `text` with a newline where a row of `wrap` pixels in the current font is full, breaking
/// at spaces only: ImGui's own wrapping also breaks after a '.', which cuts a range such as
/// M[96..99] in two. A word wider than the row keeps a row of its own (ImGui then wraps it).
std::string wrappedAtSpaces(const std::string& text, float wrap)
{
    ImFont* font = ImGui::GetFont();
    const float space = textWidth(font, " ");
    std::string out;
    float x = 0;
    size_t from = 0;
    while (from < text.size()) {
        size_t to = text.find(' ', from);
        if (to == std::string::npos) to = text.size();
        const std::string word = text.substr(from, to - from);
        const float w = textWidth(font, word);
        if (!out.empty() && x + space + w > wrap) {
            out += '\n';
            x = 0;
        } else if (!out.empty()) {
            out += ' ';
            x += space;
        }
        out += word;
        x += w;
        from = to + 1;
    }
    return out;
}

std::string stepText(int step, int last)
{
    return "Step " + std::to_string(step) + " of " + std::to_string(last);
}

std::string blockText(const CaptionText& c)
{
    return "block (bx=" + std::to_string(c.blockX) + ", by=" + std::to_string(c.blockY) +
           (c.blockZ ? ", bz=" + std::to_string(c.blockZ) : std::string()) + ")";
}

/// The notice the title line shows: the view's, else a hand-written narration line of the
/// preset that lands on no step (said in the error colour, never dropped silently). On a
/// slide only an error: what went well ("Opened ladder-4096-h100.json: 11 timings...") is
/// the presenter's, and its row cost the Roofline beside the Ladder its chart.
std::string noticeText(const Frame& f)
{
    if (f.view.presentation && !f.view.notice.empty() && !f.view.noticeIsError) return "";
    if (!f.view.notice.empty() || !f.loaded.sim || f.loaded.sim->trace.steps.empty()) return f.view.notice;
    return stepLines(f.loaded).problem;
}

/// The label of the caption bar's button that moves to the step of the run's mistake.
std::string goLabel(const Diagnosis& d) { return "Go to step " + std::to_string(d.step) + " (G)"; }

/// The height of the diagnosis row at `wrap` pixels: the button beside the sentence wrapped
/// at spaces, 0 without a diagnosis.
/// The caption's title line for this step as draw() lays it out: its items (title, step,
/// label, block, or the title and "simulating..."; then the notice), their widths in the
/// bold and ui fonts, and the gap before each.
struct TitleLine {
    std::vector<std::string> items;
    std::vector<float> widths, gaps;
    size_t notice = 0;   ///< the notice's index, 0 for none
};
TitleLine titleLine(const Frame& f, const CaptionText& c, const std::string& notice)
{
    TitleLine t;
    t.items = {c.title};
    if (c.step) t.items = {c.title, stepText(*c.step, c.lastStep), c.label, blockText(c)};
    else if (f.busy.simulating) t.items.push_back("simulating...");
    if (!notice.empty()) {
        t.notice = t.items.size();
        t.items.push_back(notice);
    }
    t.gaps.assign(t.items.size(), scaled(24));
    for (size_t i = 0; i < t.items.size(); ++i) t.widths.push_back(textWidth(i == 0 ? f.theme.fonts.bold : f.theme.fonts.ui, t.items[i]));
    if (c.step) t.gaps[2] = ImGui::GetStyle().ItemSpacing.x;
    return t;
}

/// Whether the caption says the run's mistake in the narration's place: on a slide, for a
/// student's kernel file (a lecture preset's hand-written narration says what went wrong).
bool diagnosisOnSlide(const Frame& f)
{
    return f.view.presentation && f.loaded.sim && f.loaded.diagnosis.kind != Diagnosis::Kind::None &&
           !f.loaded.kernelFile.empty();
}

float diagnosisHeight(const Frame& f, float wrap)
{
    const Diagnosis& d = f.loaded.diagnosis;
    if (d.kind == Diagnosis::Kind::None || !f.loaded.sim || f.view.presentation) return 0;
    const ImGuiStyle& st = ImGui::GetStyle();
    float button = 0;
    if (d.step >= 0) button = ImGui::CalcTextSize(goLabel(d).c_str()).x + 2 * st.FramePadding.x + st.ItemSpacing.x;
    ImGui::PushFont(f.theme.fonts.captionBold);
    const std::string text = "Wrong: " + d.sentence;
    const float h = ImGui::CalcTextSize(wrappedAtSpaces(text, wrap - button).c_str()).y;
    ImGui::PopFont();
    return std::max(h, d.step >= 0 ? ImGui::GetFrameHeight() : 0.0f) + st.ItemSpacing.y;
}

}  // namespace

float CaptionBar::height(const Frame& f)
{
    // The title line (the title, the step, its label and the block, flowing onto more rows
    // when the window is narrow) plus the narration wrapped to the window's width (a long one
    // takes several lines; in presentation mode even a short one may). The widest label and
    // the tallest narration of the preset set the height, so that the panels below stay put
    // while stepping. On a slide the bar is as tall as this step's text (its title line and
    // its narration, in the slide's caption font: theme.hpp), so that it keeps no empty rows.
    ImGui::PushFont(f.theme.fonts.caption);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float wrap = ImGui::GetIO().DisplaySize.x - 2 * st.WindowPadding.x;
    const std::string practice = practiceCaption(f.view.practice, f.view.presentation);
    const std::string notice = noticeText(f);
    if (generation_ != f.loaded.generation || wrap_ != wrap || fontSize_ != ImGui::GetFontSize() ||
        notice_ != notice || practice_ != practice) {
        float text = ImGui::CalcTextSize(kHint, nullptr, false, wrap).y;
        // Practice mode's question or verdict takes the narration's place.
        if (!practice.empty()) {
            ImGui::PushFont(f.theme.fonts.captionBold);
            text = std::max(text, ImGui::CalcTextSize(practice.c_str(), nullptr, false, wrap).y);
            ImGui::PopFont();
        }
        const CaptionText c = captionText(f.loaded, f.view);
        // The title line in the ui fonts (on a slide only the narration is in the caption font).
        ImFont* ui = f.theme.fonts.ui;
        std::vector<float> widths = {textWidth(f.theme.fonts.bold, c.title)};
        if (f.loaded.sim) {
            if (!f.loaded.sim->trace.steps.empty())
                for (const sim::StepNarration& n : stepLines(f.loaded).lines)
                    // The rows as draw() shows them: broken at spaces, not wrapped again.
                    text = std::max(text, ImGui::CalcTextSize(wrappedAtSpaces(n.text, wrap).c_str()).y);
            float label = 0;
            for (const sim::Step& s : f.loaded.sim->trace.steps) label = std::max(label, textWidth(ui, s.label));
            widths.push_back(textWidth(ui, stepText(c.lastStep, c.lastStep)));
            widths.push_back(label);
            widths.push_back(textWidth(ui, blockText(c)));
        } else {
            widths.push_back(textWidth(ui, "simulating..."));
        }
        if (!notice.empty()) widths.push_back(textWidth(ui, notice));
        std::vector<float> gaps(widths.size(), scaled(24));
        if (f.loaded.sim) gaps[2] = st.ItemSpacing.x;
        generation_ = f.loaded.generation;
        wrap_ = wrap;
        fontSize_ = ImGui::GetFontSize();
        notice_ = notice;
        practice_ = practice;
        rows_ = flowRows(widths, gaps, wrap);
        text_ = text;
    }
    float text = text_;
    int rows = rows_;
    if (f.view.presentation) {
        const CaptionText c = captionText(f.loaded, f.view);
        // The title line's rows as this step's label flows them (the widest label of the
        // preset can take a second row that this step leaves empty).
        if (c.step) {
            const TitleLine t = titleLine(f, c, notice);
            rows = flowRows(t.widths, t.gaps, wrap);
        }
        if (!practice.empty()) {
            ImGui::PushFont(f.theme.fonts.captionBold);
            text = ImGui::CalcTextSize(practice.c_str(), nullptr, false, wrap).y;
            ImGui::PopFont();
        } else if (diagnosisOnSlide(f)) {
            ImGui::PushFont(f.theme.fonts.captionBold);
            text = ImGui::CalcTextSize(wrappedAtSpaces("Wrong: " + f.loaded.diagnosis.sentence, wrap).c_str()).y;
            ImGui::PopFont();
        } else if (c.narration && !c.narration->empty()) {
            text = ImGui::CalcTextSize(wrappedAtSpaces(*c.narration, wrap).c_str()).y;
        } else {
            text = ImGui::CalcTextSize(kHint, nullptr, false, wrap).y;
        }
    }
    const float h = static_cast<float>(rows) * (f.theme.fonts.ui->FontSize + st.ItemSpacing.y) + text + diagnosisHeight(f, wrap) +
           st.ItemSpacing.y + 2 * st.WindowPadding.y;
    ImGui::PopFont();
    return h;
}

void CaptionBar::draw(Frame& f, float y, float height)
{
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, y));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, f.theme.palette.captionBg);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
    ImGui::Begin("##caption", nullptr, flags);
    ImGui::PushFont(f.theme.fonts.caption);
    const Palette& pal = f.theme.palette;
    const CaptionText c = captionText(f.loaded, f.view);
    // The title line's items, each on the row of the one before when it fits there, in the
    // ui fonts (the caption font is the narration's).
    ImFont* ui = f.theme.fonts.ui;
    ImGui::PushFont(ui);
    const TitleLine title = titleLine(f, c, noticeText(f));
    const std::vector<std::string>& items = title.items;
    const std::vector<float>& widths = title.widths;
    const std::vector<float>& gaps = title.gaps;
    const size_t notice = title.notice;
    std::vector<bool> sameRow;
    flowRows(widths, gaps, ImGui::GetContentRegionAvail().x, &sameRow);
    for (size_t i = 0; i < items.size(); ++i) {
        if (sameRow[i]) ImGui::SameLine(0, gaps[i]);
        ImGui::PushTextWrapPos(0.0f);
        if (i == 0) {
            ImGui::PushFont(f.theme.fonts.bold);
            ImGui::TextUnformatted(items[i].c_str());
            ImGui::PopFont();
        } else if (i == notice) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.view.noticeIsError || f.view.notice.empty() ? pal.error : pal.okText), "%s",
                               items[i].c_str());
        } else if (c.step && i == 1) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.stepText), "%s", items[i].c_str());
        } else if (c.step && i == 3) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%s", items[i].c_str());
        } else {
            ImGui::TextUnformatted(items[i].c_str());
        }
        ImGui::PopTextWrapPos();
    }
    ImGui::PopFont();
    // The run's mistake in the grader's words, with a button to the step where it happens.
    gDiagnosisDrawn.clear();
    // Not as a row of its own on a slide: there it pushed Hazards out of the picture's column
    // and left Shared memory's figure under 70% of its panel (gui.layout_slides-*); the lecture
    // presets' narration says what went wrong, a student's kernel's slide says the mistake in
    // the narration's place (below), and G still moves to the step.
    if (const Diagnosis& d = f.loaded.diagnosis; d.kind != Diagnosis::Kind::None && f.loaded.sim && !f.view.presentation) {
        const ImGuiStyle& st = ImGui::GetStyle();
        if (d.step >= 0) {
            ImGui::BeginDisabled(d.step == f.view.cursor);
            if (ImGui::Button(goLabel(d).c_str()) && d.step < static_cast<int>(f.loaded.sim->trace.steps.size()))
                f.view.cursor = d.step;
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", d.kind == Diagnosis::Kind::Fault ? "Show the step where the kernel faulted (key G)."
                                        : d.hazards() ? "Show the step where the traced block's first such access happens (key G)."
                                                      : "Show the step where the traced block stores its first wrong element (key G).");
            ImGui::SameLine(0, st.ItemSpacing.x);
        }
        const std::string text = "Wrong: " + d.sentence;
        ImGui::PushFont(f.theme.fonts.captionBold);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.error);
        ImGui::TextUnformatted(wrappedAtSpaces(text, ImGui::GetContentRegionAvail().x).c_str());
        ImGui::PopStyleColor();
        ImGui::PopFont();
        gDiagnosisDrawn = d.sentence;
    }
    const std::string practice = practiceCaption(f.view.practice, f.view.presentation);
    if (!practice.empty()) {
        // Practice mode: the question (large on a slide, where the whole UI is), or the verdict.
        const Practice& p = f.view.practice;
        const ImU32 colour = !p.revealed ? pal.stepText : p.grade.correct ? pal.okText : pal.error;   // 4.5:1 on the bar
        ImGui::PushFont(f.theme.fonts.captionBold);
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(practice.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        ImGui::PopFont();
    } else if (diagnosisOnSlide(f)) {
        ImGui::PushFont(f.theme.fonts.captionBold);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.error);
        ImGui::TextUnformatted(wrappedAtSpaces("Wrong: " + f.loaded.diagnosis.sentence, ImGui::GetContentRegionAvail().x).c_str());
        ImGui::PopStyleColor();
        ImGui::PopFont();
        gDiagnosisDrawn = f.loaded.diagnosis.sentence;
    } else if (c.narration && !c.narration->empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(wrappedAtSpaces(*c.narration, ImGui::GetContentRegionAvail().x).c_str());
        ImGui::PopTextWrapPos();
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.dimText);
        ImGui::TextWrapped("%s", kHint);
        ImGui::PopStyleColor();
    }
    ImGui::PopFont();
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

}  // namespace ts::app
