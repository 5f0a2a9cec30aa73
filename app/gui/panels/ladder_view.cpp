#include "ladder_view.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>

#include "sim/kernel_registry.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {

std::string thousands(double v, int decimals)
{
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    const std::string s = b;
    const size_t dot = s.find('.');
    const size_t whole = dot == std::string::npos ? s.size() : dot;
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i < whole && i > 0 && s[i - 1] != '-' && (whole - i) % 3 == 0) out += kGroupSeparator;
        out += s[i];
    }
    return out;
}

std::string groupedNoBreak(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const bool digitBefore = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]));
        const bool threeAfter = i + 3 < text.size() + 0 && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 2])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 3])) &&
                                (i + 4 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i + 4])));
        if (text[i] == ',' && digitBefore && threeAfter) out += kGroupSeparator;
        else out += text[i];
    }
    return out;
}

std::string compactCount(uint64_t v)
{
    char b[32];
    if (v < 10000) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
    else if (v < 1000000) std::snprintf(b, sizeof b, "%.0fk", v / 1e3);
    else std::snprintf(b, sizeof b, "%.1fM", v / 1e6);
    return b;
}

const sim::Roofline* RooflineSource::get(const Loaded& loaded)
{
    if (!loaded.ladder) return nullptr;
    if (built_ && generation_ == loaded.resultsGeneration && model_ == loaded.ladder.get()) return &roofline_;
    generation_ = loaded.resultsGeneration;
    model_ = loaded.ladder.get();
    roofline_ = loaded.results ? sim::resultsRoofline(*loaded.results, loaded.ladder->counts) : loaded.ladder->textbook;
    built_ = true;
    return &roofline_;
}

std::string resultsCaption(const Loaded& loaded)
{
    return loaded.results ? loaded.results->measuredOn() : "textbook A100 profile (PMPP)";
}

ImU32 kernelColour(const std::string& kernel, const Palette& pal)
{
    if (kernel == "cublas") return pal.finished;
    const size_t n = std::size(sim::kLadderRungs);
    for (size_t i = 0; i < n; ++i)
        if (kernel == sim::kLadderRungs[i]) return heatColour(0.22f + 0.78f * static_cast<float>(i) / static_cast<float>(n - 1));
    return pal.noOutput;
}

void headingWithHelp(ImFont* bold, const std::string& heading, const std::string& help)
{
    const float marker = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::PushFont(bold);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(1.0f, ImGui::GetContentRegionAvail().x - marker));
    ImGui::TextUnformatted(heading.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    helpMarker(help.c_str());
}

std::string shortName(const std::string& kernel)
{
    return kernel.rfind("matmul-", 0) == 0 ? kernel.substr(7) : kernel;
}

}  // namespace ts::app
