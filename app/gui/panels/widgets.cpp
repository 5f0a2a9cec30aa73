#include "widgets.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "theme.hpp"

namespace ts::app {

namespace {
void wrappedTooltip(const char* text)
{
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}
}  // namespace

void disabledTooltip(const char* text)
{
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) wrappedTooltip(text);
}

void tooltip(const char* text)
{
    if (ImGui::IsItemHovered()) wrappedTooltip(text);
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

void growToAtLeast(ImVec2& a, ImVec2& b, float least)
{
    auto grow = [least](float& lo, float& hi) {
        if (hi - lo >= least) return;
        const float mid = (lo + hi) / 2;
        lo = mid - least / 2;
        hi = mid + least / 2;
    };
    grow(a.x, b.x);
    grow(a.y, b.y);
}

void dashedRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, ImU32 edge)
{
    const float t = std::max(1.0f, thickness);
    const float want = std::max(scaled(4), 2.5f * t);
    // One side from p to q (axis-aligned): an odd number of dash/gap pieces, dashes first
    // and last, each a rectangle t wide on the inner side.
    std::vector<std::pair<ImVec2, ImVec2>> dashes;
    auto side = [&](ImVec2 p, ImVec2 q, bool horizontal) {
        const float len = horizontal ? q.x - p.x : q.y - p.y;
        if (len <= 0) return;
        int pieces = std::max(1, static_cast<int>(len / want));
        if (pieces % 2 == 0) ++pieces;
        const float piece = len / pieces;
        for (int i = 0; i < pieces; i += 2) {
            const float s = i * piece, e = s + piece;
            if (horizontal) dashes.emplace_back(ImVec2(p.x + s, p.y), ImVec2(p.x + e, p.y + t));
            else dashes.emplace_back(ImVec2(p.x, p.y + s), ImVec2(p.x + t, p.y + e));
        }
    };
    side(a, ImVec2(b.x, a.y), true);
    side(ImVec2(a.x, b.y - t), ImVec2(b.x, b.y - t), true);
    side(ImVec2(a.x, a.y + t), ImVec2(a.x, b.y - t), false);
    side(ImVec2(b.x - t, a.y + t), ImVec2(b.x - t, b.y - t), false);
    if ((edge >> IM_COL32_A_SHIFT) & 0xFF)
        for (const auto& [p, q] : dashes) {
            const float e = scaled(1);
            dl->AddRectFilled(ImVec2(p.x - e, p.y - e), ImVec2(q.x + e, q.y + e), edge);
        }
    for (const auto& [p, q] : dashes) dl->AddRectFilled(p, q, colour);
}

void legendItem(ImU32 colour, const char* label, const char* meaning, Swatch style, bool first)
{
    const float h = ImGui::GetTextLineHeight();
    if (!first) {
        const float gap = scaled(14), width = h * 1.3f + scaled(5) + ImGui::CalcTextSize(label).x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a(p.x, p.y + 1), b(p.x + h * 1.3f, p.y + h - 1);
    switch (style) {
    case Swatch::Fill: dl->AddRectFilled(a, b, colour, 2.0f); break;
    case Swatch::Frame:
        // "This step" gets the same edge as on the cells (light theme).
        if (colour == currentPalette().readNow) stepFrame(dl, a, b, currentPalette(), 0, 3.0f);
        else markFrame(dl, a, b, colour, currentPalette(), 3.0f);
        break;
    case Swatch::Dashed: dashedRect(dl, a, b, colour, 3.0f, currentPalette().stepOutline); break;
    }
    ImGui::Dummy(ImVec2(h * 1.3f, h));
    ImGui::SameLine(0, scaled(5));
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

std::optional<std::pair<ImVec2, ImVec2>> centredTextBox(const ImFont* font, ImVec2 a, ImVec2 b, const std::string& text)
{
    const ImVec2 ts = font->CalcTextSizeA(font->FontSize, 1e9f, 0, text.c_str());
    if (ts.x > b.x - a.x - 2 || ts.y > b.y - a.y) return std::nullopt;
    return std::pair(ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), ts);
}

bool centredText(ImDrawList* dl, ImFont* font, ImVec2 a, ImVec2 b, ImU32 colour, const std::string& text, ImU32 backing)
{
    const auto box = centredTextBox(font, a, b, text);
    if (!box) return false;
    const auto [at, ts] = *box;
    if (backing) dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(at.x + ts.x + 1, at.y + ts.y), backing);
    dl->AddText(font, font->FontSize, at, colour, text.c_str());
    return true;
}

std::string cellValue(float v, int decimals)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

CellText cellText(std::initializer_list<ImFont*> fonts, float width)
{
    auto fits = [&](ImFont* f, const char* widest) {
        return f && f->CalcTextSizeA(f->FontSize, 1e9f, 0, widest).x <= width - 4;
    };
    for (ImFont* f : fonts) {
        if (fits(f, "-0.000")) return {f, 3};
        if (fits(f, "-0.00")) return {f, 2};
    }
    return {nullptr, 2};
}

std::string cellValue(float v, bool narrow)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, narrow ? "%.2f" : "%.3f", v);
    return buf;
}

}  // namespace ts::app
