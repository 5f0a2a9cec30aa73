// frame_audit_check: the measurements layout_check relies on, tried on a frame whose answers
// are known. In the app's hidden window it draws texts of known colours on known fills (black
// on white, WCAG's 4.5:1 border on both sides of it, half-transparent text, light text on the
// code panel's kind of highlight, a text partly clipped away) and checks that measureTexts()
// finds each text, spells it, gives its font size, and measures the contrast that the WCAG
// formula gives for those colours, worked out here by hand; and that overlappingLabels()
// reports two overlapping label boxes and not two that only touch.
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cmath>
#include <string>
#include <vector>

#include "frame_audit.hpp"
#include "gui_check.hpp"

using namespace ts::app;
using namespace ts::test::gui;

namespace {

/// The measured text that reads `s`, or nullptr.
const DrawnText* find(const std::vector<DrawnText>& texts, const std::string& s)
{
    for (const DrawnText& t : texts)
        if (t.text == s) return &t;
    return nullptr;
}

void expectText(const std::vector<DrawnText>& texts, const std::string& s, double contrast, float fontSize)
{
    const DrawnText* t = find(texts, s);
    expect(t != nullptr, "the text '" + s + "' is found in the draw lists");
    if (!t) return;
    expect(std::fabs(t->contrast - contrast) < 0.05,
           "'" + s + "' reads " + std::to_string(t->contrast) + ":1, expected " + std::to_string(contrast) + ":1");
    expect(std::fabs(t->fontSize - fontSize) < 0.01f,
           "'" + s + "' is " + std::to_string(t->fontSize) + " px, expected " + std::to_string(fontSize));
}

}  // namespace

int main()
{
    // The WCAG formula on colours whose ratios are known: black on white 21:1, #767676 on white
    // 4.54:1 (the darkest grey that passes on white), #777777 on white 4.48:1 (fails).
    expect(std::fabs(contrastRatio(IM_COL32(0, 0, 0, 255), IM_COL32(255, 255, 255, 255)) - 21.0) < 1e-9, "black on white is 21:1");
    expect(std::fabs(contrastRatio(IM_COL32(0x76, 0x76, 0x76, 255), IM_COL32(255, 255, 255, 255)) - 4.54) < 0.005,
           "#767676 on white is 4.54:1");
    expect(std::fabs(contrastRatio(IM_COL32(0x77, 0x77, 0x77, 255), IM_COL32(255, 255, 255, 255)) - 4.48) < 0.005,
           "#777777 on white is 4.48:1");

    Options o;
    o.width = o.height = 64;
    o.screenshot = "(frame_audit_check)";   // offscreen: a hidden window, no settings read or written
    App app(o);
    openWithRetries(app);
    const ImVec2 display(800, 400);
    settle(app, display);   // fonts built and uploaded

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::GetIO().DisplaySize = display;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(display);
    ImGui::Begin("audit", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = app.theme().fonts.ui;
    const float px = font->FontSize;
    auto fill = [&](float y, ImU32 c) { dl->AddRectFilled(ImVec2(0, y), ImVec2(800, y + 40), c); };
    const ImU32 white = IM_COL32(255, 255, 255, 255);
    fill(0, white);
    dl->AddText(font, px, ImVec2(10, 10), IM_COL32(0, 0, 0, 255), "Black on white");
    dl->AddText(font, px, ImVec2(300, 10), IM_COL32(0x76, 0x76, 0x76, 255), "Just passes");
    dl->AddText(font, px, ImVec2(550, 10), IM_COL32(0x77, 0x77, 0x77, 255), "Just fails");
    // Half-transparent black on white composites to (127, 127, 127): 4.0:1 (worked out below).
    fill(40, white);
    dl->AddText(font, px, ImVec2(10, 50), IM_COL32(0, 0, 0, 128), "Half black");
    // Light grey text on a yellow highlight at 70/255 over the dark window, as the Code panel
    // draws its current line: the highlight is what the text is drawn on.
    const ImU32 dark = IM_COL32(27, 29, 34, 255);
    fill(80, dark);
    dl->AddRectFilled(ImVec2(0, 80), ImVec2(800, 120), IM_COL32(240, 228, 66, 70));
    dl->AddText(font, px, ImVec2(10, 90), IM_COL32(140, 146, 160, 255), "On the highlight");
    // A text whose right half lies outside the clip rectangle: its visible glyphs are measured.
    fill(120, white);
    dl->PushClipRect(ImVec2(0, 120), ImVec2(60, 160));
    dl->AddText(font, px, ImVec2(10, 130), IM_COL32(0, 0, 0, 255), "Clipped text far to the right");
    dl->PopClipRect();
    ImGui::End();
    ImGui::Render();
    const std::vector<DrawnText> texts = measureTexts(ImGui::GetDrawData(), display, IM_COL32(18, 19, 23, 255));

    expectText(texts, "Black on white", 21.0, px);
    expectText(texts, "Just passes", contrastRatio(IM_COL32(0x76, 0x76, 0x76, 255), white), px);
    expectText(texts, "Just fails", contrastRatio(IM_COL32(0x77, 0x77, 0x77, 255), white), px);
    expect(find(texts, "Just fails") && find(texts, "Just fails")->contrast < 4.5, "'Just fails' is under 4.5:1");
    expectText(texts, "Half black", contrastRatio(IM_COL32(127, 127, 127, 255), white), px);
    // 70/255 of (240, 228, 66) over (27, 29, 34): (85, 84, 43) after rounding.
    const ImU32 lit = IM_COL32(85, 84, 43, 255);
    expectText(texts, "On the highlight", contrastRatio(IM_COL32(140, 146, 160, 255), lit), px);
    const DrawnText* clipped = nullptr;
    for (const DrawnText& t : texts)
        if (t.text.rfind("Cli", 0) == 0) clipped = &t;
    expect(clipped && clipped->text.size() < std::string("Clipped text far to the right").size() && clipped->max.x <= 60.5f,
           "a text cut by its clip rectangle is measured on its visible glyphs only");

    // Chart labels: two boxes that overlap by 4 px, two that only touch, two in another window.
    const std::vector<LabelNote> labels{{"Roofline", "naive", ImVec2(0, 0), ImVec2(40, 10)},
                                        {"Roofline", "tiled", ImVec2(36, 6), ImVec2(80, 16)},
                                        {"Roofline", "cuBLAS", ImVec2(80, 0), ImVec2(120, 10)},
                                        {"Ladder", "naive", ImVec2(0, 0), ImVec2(40, 10)}};
    const std::vector<std::string> overlaps = overlappingLabels(labels);
    expect(overlaps.size() == 1 && overlaps.front() == "Roofline: 'naive' overlaps 'tiled'",
           "one overlap reported, 'naive' and 'tiled' (got " + std::to_string(overlaps.size()) + ")");
    return finish("frame_audit_check");
}
