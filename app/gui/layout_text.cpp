// The text report of a frame (app/gui/layout.hpp): the glyphs drawn, read back from the draw
// lists, and the smallest font each role a slide is read by (caption, code, values) drew in.
#include "layout.hpp"

#include <imgui_internal.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "panels/roofline_chart.hpp"
#include "theme.hpp"

namespace ts::app {

namespace {

/// One run of glyphs drawn in one font on one line by one window (as one AddText draws it).
struct TextRun {
    std::string window;   ///< the draw list's owner ("Code/source_1A2B3C4D")
    const ImFont* font = nullptr;
    std::string text;
    float top = 0, right = 0;
};

/// Every run of glyphs in `data`, each glyph's font found from its place in the font atlas
/// (ImFont::RenderText draws a glyph as a quad whose first vertex has the glyph's U0, V0).
std::vector<TextRun> drawnTexts(const ImDrawData* data)
{
    std::vector<TextRun> runs;
    if (!data || !data->Valid) return runs;
    std::map<std::pair<float, float>, std::pair<const ImFont*, const ImFontGlyph*>> atlas;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) atlas.emplace(std::make_pair(g.U0, g.V0), std::make_pair(font, &g));
    const ImTextureID texture = ImGui::GetIO().Fonts->TexID;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        const std::string owner = list->_OwnerName ? list->_OwnerName : "";
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback || cmd.TextureId != texture) continue;
            for (unsigned i = cmd.IdxOffset; i + 5 < cmd.IdxOffset + cmd.ElemCount; i += 3) {
                const unsigned v = cmd.VtxOffset + list->IdxBuffer[i];
                if (cmd.VtxOffset + list->IdxBuffer[i + 1] != v + 1 || cmd.VtxOffset + list->IdxBuffer[i + 2] != v + 2 ||
                    v + 3 >= static_cast<unsigned>(list->VtxBuffer.Size))
                    continue;
                const ImDrawVert& v0 = list->VtxBuffer[v];
                const auto it = atlas.find(std::make_pair(v0.uv.x, v0.uv.y));
                if (it == atlas.end()) continue;
                const ImFont* font = it->second.first;
                const ImFontGlyph& g = *it->second.second;
                const ImDrawVert& v2 = list->VtxBuffer[v + 2];
                if (v2.uv.x != g.U1 || v2.uv.y != g.V1) continue;
                // Clipped away entirely: not seen.
                if (v2.pos.x <= cmd.ClipRect.x || v0.pos.x >= cmd.ClipRect.z || v2.pos.y <= cmd.ClipRect.y ||
                    v0.pos.y >= cmd.ClipRect.w)
                    continue;
                const float top = v0.pos.y - g.Y0, pen = v0.pos.x - g.X0;
                const bool same = !runs.empty() && runs.back().window == owner && runs.back().font == font &&
                                  std::abs(runs.back().top - top) < 0.5f && pen >= runs.back().right - 0.5f &&
                                  pen - runs.back().right < font->FontSize * 0.2f;
                if (!same) runs.push_back(TextRun{owner, font, "", top, pen});
                if (g.Codepoint < 0x80) runs.back().text += static_cast<char>(g.Codepoint);
                runs.back().right = pen + g.AdvanceX;
            }
        }
    }
    return runs;
}

/// A value as a figure writes it in a cell: "-0.280", "1.5", "nan".
bool isValue(const std::string& t)
{
    if (t == "nan" || t == "-nan" || t == "inf" || t == "-inf") return true;
    size_t i = t.size() > 1 && t[0] == '-' ? 1 : 0;
    const size_t dot = t.find('.');
    if (dot == std::string::npos || dot == i || dot + 1 == t.size()) return false;
    for (; i < t.size(); ++i)
        if (i != dot && !std::isdigit(static_cast<unsigned char>(t[i]))) return false;
    return true;
}

}  // namespace

std::string textReport()
{
    // The roles a slide is read by: the caption bar's text, the values in the cells of the
    // figures and the source listing; per role (and figure) the smallest font it drew in.
    struct Role {
        const char* name;
        const char* panel;
        const ImFont* least = nullptr;
        int texts = 0;
    };
    std::vector<Role> roles = {{"caption", "caption-bar"},   {"code", "code"},          {"values", "matrices"},
                               {"values", "convolution"},    {"values", "shared-memory"}, {"caption-title", "caption-bar"}};
    auto note = [&](Role& r, const ImFont* font) {
        ++r.texts;
        if (!r.least || font->FontSize < r.least->FontSize) r.least = font;
    };
    auto windowIs = [](const std::string& owner, const char* title) {
        const std::string t = title;
        return owner == t || owner.rfind(t + "/", 0) == 0;
    };
    for (const TextRun& t : drawnTexts(ImGui::GetDrawData())) {
        // The caption bar's title line (title, step, its label, the block) is in the ui fonts,
        // the narration (and practice's question, the diagnosis) in the caption fonts; at the
        // desk they are the same, and all of it counts as the title line.
        if (t.window == "##caption")
            note(t.font->FontSize == ImGui::GetIO().FontDefault->FontSize ? roles[5] : roles[0], t.font);
        // The listing is the source child's text in its own font (a barrier's checkbox label
        // and the memory columns' names are not code).
        else if (t.window.rfind("Code/source", 0) == 0 && t.font != ImGui::GetIO().FontDefault &&
                 t.text.find_first_not_of(" ") != std::string::npos)
            note(roles[1], t.font);
        else if (isValue(t.text))
            for (size_t r = 2; r < roles.size(); ++r) {
                const PanelId id = findPanel(roles[r].panel);
                if (id >= 0 && windowIs(t.window, panelTable()[id].title)) note(roles[r], t.font);
            }
    }
    std::string out;
    for (const Role& r : roles) {
        char line[160];
        if (!r.least) {
            // A figure's line only where its panel is shown unfolded this frame.
            if (r.name == std::string("caption-title")) continue;
            if (r.name == std::string("values")) {
                const ImGuiWindow* w = ImGui::FindWindowByName(panelTable()[findPanel(r.panel)].title);
                if (!w || !w->Active || w->Collapsed) continue;
            }
            std::snprintf(line, sizeof line, "text %s %s none\n", r.name, r.panel);
        } else {
            std::snprintf(line, sizeof line, "text %s %s %.0f px cap %.0f px in %d texts\n", r.name, r.panel,
                          r.least->FontSize, capHeight(r.least), r.texts);
        }
        out += line;
    }
    // The Roofline's plot box, where it was drawn this frame.
    if (const NotedPlot n = lastRooflinePlot(); n.frame == ImGui::GetFrameCount()) {
        char line[96];
        std::snprintf(line, sizeof line, "plot roofline %.0f x %.0f px\n", n.plot.width(), n.plot.height());
        out += line;
    }
    return out;
}

}  // namespace ts::app
