#include "widgets.hpp"

#include <cstdio>

#include "theme.hpp"

namespace ts::app {

void tooltip(const char* text)
{
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void helpMarker(const char* text)
{
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    tooltip(text);
}

void heatLegend(const char* label, unsigned max)
{
    const float w = ImGui::GetFontSize() * 6, h = ImGui::GetTextLineHeight();
    ImGui::Text("%s 0", label);
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < 24; ++i)
        dl->AddRectFilled(ImVec2(p.x + i * w / 24, p.y + 2), ImVec2(p.x + (i + 1) * w / 24 + 1, p.y + h - 2),
                          heatColour(i / 23.0f));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ImGui::Text("%u", max);
}

void legendItem(ImU32 colour, const char* label, const char* meaning, bool frame, bool first)
{
    const float h = ImGui::GetTextLineHeight();
    if (!first) {
        const float gap = 14, width = h * 1.3f + 5 + ImGui::CalcTextSize(label).x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a(p.x, p.y + 1), b(p.x + h * 1.3f, p.y + h - 1);
    if (frame) dl->AddRect(a, b, colour, 0, 0, 3.0f);
    else dl->AddRectFilled(a, b, colour, 2.0f);
    ImGui::Dummy(ImVec2(h * 1.3f, h));
    ImGui::SameLine(0, 5);
    ImGui::TextUnformatted(label);
    if (ImGui::IsItemHovered() || ImGui::IsMouseHoveringRect(a, b)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(meaning);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void colouredText(ImU32 colour, const std::string& text)
{
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

bool centredText(ImDrawList* dl, ImFont* font, ImVec2 a, ImVec2 b, ImU32 colour, const std::string& text)
{
    const float size = font->FontSize;
    const ImVec2 ts = font->CalcTextSizeA(size, 1e9f, 0, text.c_str());
    if (ts.x > b.x - a.x - 2 || ts.y > b.y - a.y) return false;
    dl->AddText(font, size, ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), colour, text.c_str());
    return true;
}

std::string cellValue(float v, bool narrow)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, narrow ? "%.2f" : "%.3f", v);
    return buf;
}

}  // namespace ts::app
