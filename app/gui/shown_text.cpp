#include "shown_text.hpp"

#include <imgui.h>
#include <imgui_internal.h>   // ImGuiContext::LogEnabled

namespace ts::app {
namespace {

bool gOn = false;
std::string gText;
void (*gClipboard)(void*, const char*) = nullptr;   ///< the clipboard function taken over

/// ImGui's clipboard function while the text is kept: a log's end appends to it; anything
/// else is a real copy.
void keepLog(void* user, const char* text)
{
    if (ImGui::GetCurrentContext()->LogEnabled) gText += text;
    else if (gClipboard) gClipboard(user, text);
}

}  // namespace

void beginShownText(bool on)
{
    gOn = on;
    if (!on) return;
    gText.clear();
    ImGuiIO& io = ImGui::GetIO();
    if (io.SetClipboardTextFn != keepLog) {
        gClipboard = io.SetClipboardTextFn;
        io.SetClipboardTextFn = keepLog;
    }
}

void logWindowText(const char* title)
{
    if (!gOn || ImGui::GetCurrentContext()->LogEnabled) return;
    // The title without ImGui's "##" or "###" id part.
    std::string shown = title;
    if (const size_t hash = shown.find("##"); hash != std::string::npos) shown.erase(hash);
    gText += "== " + shown + " ==\n";
    ImGui::LogToClipboard(0);   // depth 0: the log opens no tree node that is closed
}

const std::string& shownText() { return gText; }

}  // namespace ts::app
