// Practice: practice mode's question, the answer being built, the reveal and the session's
// score (app/gui/practice.hpp, docs/practice.md). The cells of an answer are clicked in the
// other panels; here a number or a name is typed or chosen, cells may be typed too, and
// Reveal (or Enter) grades the answer.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The panel; it keeps no state of its own (View::practice holds it).
struct PracticePanel final : Panel {
    void draw(Frame& f) override;
};

/// A swatch of mark `m` and its label, after the item before it on the same line where it
/// fits there (`first`: it starts the line).
void markLegend(const Frame& f, PracticeMark m, const char* label, bool first)
{
    const float h = ImGui::GetTextLineHeight() + scaled(4);
    const float width = h + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
    if (!first && ImGui::GetItemRectMax().x + scaled(14) + width <=
                      ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine(0, scaled(14));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(h, h));
    drawPracticeMark(ImGui::GetWindowDrawList(), p, ImVec2(p.x + h, p.y + h), m, f.theme.palette);
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
}

/// The small form of mark `m` (cells under 6 px) as a swatch and its label, on the line of
/// the item before it where it fits (`first`: after the line's text).
void smallMarkLegend(const Frame& f, PracticeMark m, const char* label)
{
    const float h = ImGui::GetTextLineHeight();
    const float width = h + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
    if (ImGui::GetItemRectMax().x + scaled(10) + width <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine(0, scaled(10));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(h, h));
    const ImVec2 c(p.x + h * 0.5f, p.y + h * 0.5f);
    drawPracticeMark(ImGui::GetWindowDrawList(), ImVec2(c.x - 2.5f, c.y - 2.5f), ImVec2(c.x + 2.5f, c.y + 2.5f), m,
                     f.theme.palette);
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
}

}  // namespace

void PracticePanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        Practice& p = f.view.practice;
        const Palette& pal = f.theme.palette;
        bool on = p.on;
        if (ImGui::Checkbox("Practice mode (P)", &on)) practiceToggle(p);
        tooltip("Before each step is shown, a question about it: answer by clicking cells in the other panels or "
                "typing, then press Enter (or Reveal).");
        ImGui::SameLine(0, scaled(16));
        if (ImGui::Button("Restart (R)")) practiceRestart(p, f.view);
        tooltip("Score 0 of 0, back to the first step, and new generated questions.");
        const std::vector<std::string> lines = practiceLines(p, f.loaded);
        // On a slide the caption shows the question large, and the presenter knows how to
        // answer: here the rest, as short as it goes (the picture keeps its width).
        const bool slide = f.view.presentation;
        // The score, beside the buttons where it fits.
        if (ImGui::GetItemRectMax().x + scaled(16) + ImGui::CalcTextSize(lines[0].c_str()).x <=
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
            ImGui::SameLine(0, scaled(16));
        ImGui::TextWrapped("%s", lines[0].c_str());
        // The scenario file's questions this view cannot ask (about another block, where the
        // panels do not show what answers them): one short line, the reasons in its tooltip,
        // so that the panel keeps its height on a slide.
        std::string notAsked;
        int notAskedCount = 0;
        for (size_t i = 1; i < lines.size(); ++i)
            if (lines[i].rfind("Not asked here: ", 0) == 0) {
                notAsked += (notAsked.empty() ? "" : "\n") + lines[i];
                ++notAskedCount;
            }
        for (size_t i = 1; i < lines.size(); ++i) {
            const std::string& l = lines[i];
            if (l.rfind("Not asked here: ", 0) == 0) continue;
            // On a slide the caption carries the verdict ("Step 6: not quite; ...") and the
            // answer: the panel keeps the marks and the reason.
            if (slide && p.revealed && (l.rfind("Your answer: ", 0) == 0 || l.rfind("The answer: ", 0) == 0 ||
                                        l == "Right." || l == "Not quite."))
                continue;
            const bool question = i == 1 && p.on && p.question;
            if (slide && (question || (i == 2 && practiceWaiting(p)))) continue;
            if (question) {
                ImGui::PushFont(f.theme.fonts.bold);
                ImGui::TextWrapped("%s", l.c_str());
                ImGui::PopFont();
            } else if (p.revealed && p.question && (l == "Right." || l == "Not quite.")) {
                ImGui::PushFont(f.theme.fonts.bold);
                colouredText(p.grade.correct ? pal.okText : pal.error, l);   // words: 4.5:1 (palette test)
                ImGui::PopFont();
            } else if (p.revealed && l.rfind("Marked: ", 0) == 0) {
                // The marks as the cells show them, with their counts.
                const std::string right = std::to_string(p.grade.right.size()) + " right";
                const std::string wrong = std::to_string(p.grade.wrong.size()) + " wrong";
                const std::string missed = std::to_string(p.grade.missed.size()) + " missed";
                markLegend(f, PracticeMark::Right, right.c_str(), true);
                markLegend(f, PracticeMark::Wrong, wrong.c_str(), false);
                markLegend(f, PracticeMark::Missed, missed.c_str(), false);
            } else {
                ImGui::TextWrapped("%s", l.c_str());
            }
        }
        if (notAskedCount > 0) {
            const std::string head = std::to_string(notAskedCount) + (notAskedCount == 1 ? " question" : " questions") +
                                     " of the file not asked here (?)";
            ImGui::TextDisabled("%s", head.c_str());
            tooltip(notAsked);
        }
        if (p.smallMarks) {
            // Cells under 6 px (a large matrix, zoomed out) carry the small form of the marks.
            ImGui::TextUnformatted("Cells under 6 px:");
            tooltip("Too small for a frame and a sign: a square about the cell in the mark's colour (missed: an outline).");
            if (p.revealed) {
                smallMarkLegend(f, PracticeMark::Right, "right");
                smallMarkLegend(f, PracticeMark::Wrong, "wrong");
                smallMarkLegend(f, PracticeMark::Missed, "missed");
            } else {
                smallMarkLegend(f, PracticeMark::Chosen, "chosen");
            }
        }
        if (practiceWaiting(p)) {
            const sim::Question& q = *p.question;
            const std::vector<std::string> choices = practiceChoices(q);
            bool enter = false;
            if (!choices.empty()) {
                for (size_t i = 0; i < choices.size(); ++i) {
                    if (i) ImGui::SameLine();
                    const bool chosen = p.typed == choices[i];
                    if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
                    if (ImGui::Button(choices[i].c_str())) practiceType(p, choices[i]);
                    if (chosen) ImGui::PopStyleColor();
                }
            } else if (!slide || q.answer.shape == sim::AnswerShape::Number) {
                const bool number = q.answer.shape == sim::AnswerShape::Number;
                // The field, and the button beside it where both fit, else under it.
                const ImGuiStyle& st = ImGui::GetStyle();
                const float button = ImGui::CalcTextSize("Reveal (Enter)").x + 2 * st.FramePadding.x;
                const float avail = ImGui::GetContentRegionAvail().x;
                const float field = std::min(ImGui::GetFontSize() * (number ? 8.0f : 14.0f), avail);
                const bool beside = field + st.ItemSpacing.x + button <= avail;
                ImGui::SetNextItemWidth(field);
                enter = ImGui::InputTextWithHint("##answer", number ? "a number" : "or type cells: M[1][2], ...", &p.typed,
                                                 ImGuiInputTextFlags_EnterReturnsTrue);
                tooltip(number ? "Type the number (the digit keys work without clicking here too), then Enter."
                               : "Cells may be typed as well as clicked, separated by commas; Enter reveals.");
                if (beside) ImGui::SameLine();
            }
            if (ImGui::Button("Reveal (Enter)") || enter) practiceReveal(p, f.loaded, f.view);
        }
        if (!p.notice.empty()) colouredText(p.noticeIsError ? pal.error : pal.dimText, p.notice);
    }
    ImGui::End();
}

std::unique_ptr<Panel> makePracticePanel() { return std::make_unique<PracticePanel>(); }

}  // namespace ts::app
