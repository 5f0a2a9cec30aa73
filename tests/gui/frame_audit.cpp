#include "frame_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "screenshot.hpp"

namespace ts::test::gui {
namespace {

using app::contrastRatio;
using app::over;
using app::relativeLuminance;

/// Where a glyph sits in the font atlas: its font and code point.
struct AtlasGlyph {
    const ImFont* font;
    const ImFontGlyph* glyph;
};

uint64_t uvKey(float u, float v)
{
    uint32_t a = 0, b = 0;
    std::memcpy(&a, &u, 4);
    std::memcpy(&b, &v, 4);
    return (uint64_t{a} << 32) | b;
}

/// Every glyph of every font in the atlas, by its top-left atlas coordinates.
std::unordered_map<uint64_t, AtlasGlyph> atlasGlyphs()
{
    std::unordered_map<uint64_t, AtlasGlyph> m;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) m.emplace(uvKey(g.U0, g.V0), AtlasGlyph{font, &g});
    return m;
}

void appendUtf8(std::string& s, unsigned c)
{
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
}

/// One glyph quad found in the draw lists.
struct Glyph {
    const ImDrawList* list;
    unsigned firstVertex;   ///< of its 4 vertices, in list->VtxBuffer
    ImVec2 min, max;        ///< visible part (clipped)
    float top;              ///< its line's top (position less the glyph's offset)
    float pen, advance;     ///< the pen's x before the glyph, and how far the glyph moves it
    ImU32 colour;
    const ImFont* font;
    unsigned codepoint;
};

/// The colour of median luminance under [min, max) of `img`.
ImU32 medianBackground(const app::Image& img, ImVec2 min, ImVec2 max)
{
    const int x0 = std::clamp(static_cast<int>(std::floor(min.x)), 0, img.width);
    const int x1 = std::clamp(static_cast<int>(std::ceil(max.x)), x0, img.width);
    const int y0 = std::clamp(static_cast<int>(std::floor(min.y)), 0, img.height);
    const int y1 = std::clamp(static_cast<int>(std::ceil(max.y)), y0, img.height);
    std::vector<std::pair<double, ImU32>> px;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const unsigned char* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
            const ImU32 c = IM_COL32(p[0], p[1], p[2], 255);
            px.emplace_back(relativeLuminance(c), c);
        }
    if (px.empty()) return 0;
    std::nth_element(px.begin(), px.begin() + px.size() / 2, px.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return px[px.size() / 2].second;
}

}  // namespace

std::vector<DrawnText> measureTexts(ImDrawData* data, ImVec2 display, ImU32 clear)
{
    const std::unordered_map<uint64_t, AtlasGlyph> atlas = atlasGlyphs();
    const ImTextureID fontTexture = ImGui::GetIO().Fonts->TexID;
    std::vector<Glyph> glyphs;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback || cmd.TextureId != fontTexture) continue;
            const ImVec2 clipMin(std::max(cmd.ClipRect.x, 0.0f), std::max(cmd.ClipRect.y, 0.0f));
            const ImVec2 clipMax(std::min(cmd.ClipRect.z, display.x), std::min(cmd.ClipRect.w, display.y));
            for (unsigned i = cmd.IdxOffset; i + 2 < cmd.IdxOffset + cmd.ElemCount; i += 3) {
                const unsigned a = cmd.VtxOffset + list->IdxBuffer[i];
                if (cmd.VtxOffset + list->IdxBuffer[i + 1] != a + 1 || cmd.VtxOffset + list->IdxBuffer[i + 2] != a + 2)
                    continue;   // a glyph's first triangle is (v, v+1, v+2)
                if (a + 3 >= static_cast<unsigned>(list->VtxBuffer.Size)) continue;
                const ImDrawVert& v0 = list->VtxBuffer[a];
                const auto it = atlas.find(uvKey(v0.uv.x, v0.uv.y));
                if (it == atlas.end()) continue;
                const ImDrawVert& v2 = list->VtxBuffer[a + 2];
                if (v2.uv.x != it->second.glyph->U1 || v2.uv.y != it->second.glyph->V1) continue;
                const ImVec2 min(std::max(v0.pos.x, clipMin.x), std::max(v0.pos.y, clipMin.y));
                const ImVec2 max(std::min(v2.pos.x, clipMax.x), std::min(v2.pos.y, clipMax.y));
                if (max.x - min.x < 1 || max.y - min.y < 1) continue;   // clipped away
                const ImFontGlyph& fg = *it->second.glyph;
                glyphs.push_back({list, a, min, max, v0.pos.y - fg.Y0, v0.pos.x - fg.X0, fg.AdvanceX, v0.col,
                                  it->second.font, fg.Codepoint});
            }
        }
    }
    // The frame again without its glyphs: what every text is drawn on.
    std::vector<ImU32> saved(glyphs.size() * 4);
    for (size_t g = 0; g < glyphs.size(); ++g)
        for (unsigned k = 0; k < 4; ++k) {
            ImDrawVert& v = const_cast<ImDrawList*>(glyphs[g].list)->VtxBuffer[glyphs[g].firstVertex + k];
            saved[g * 4 + k] = v.col;
            v.col &= ~IM_COL32_A_MASK;
        }
    app::Image bare;
    const std::string error = app::renderImage(data, static_cast<int>(display.x), static_cast<int>(display.y), clear, bare);
    for (size_t g = 0; g < glyphs.size(); ++g)
        for (unsigned k = 0; k < 4; ++k)
            const_cast<ImDrawList*>(glyphs[g].list)->VtxBuffer[glyphs[g].firstVertex + k].col = saved[g * 4 + k];
    if (!error.empty()) throw std::runtime_error(error);

    std::vector<DrawnText> texts;
    const Glyph* before = nullptr;
    for (const Glyph& g : glyphs) {
        const ImU32 bg = medianBackground(bare, g.min, g.max);
        const double c = contrastRatio(over(g.colour, bg), bg);
        const bool sameText = before && before->list == g.list && before->colour == g.colour && before->font == g.font &&
                              std::fabs(before->top - g.top) < 0.5f && g.min.x >= before->min.x &&
                              g.min.x - before->max.x < g.font->FontSize;
        if (!sameText) {
            DrawnText t;
            t.window = g.list->_OwnerName ? g.list->_OwnerName : "";
            t.min = g.min;
            t.max = g.max;
            t.colour = g.colour;
            t.background = bg;
            t.fontSize = g.font->FontSize;
            t.contrast = c;
            texts.push_back(std::move(t));
        } else {
            DrawnText& t = texts.back();
            // A gap wider than a fifth of the font between the pen's place after the glyph
            // before and this glyph's pen: a space (or more) was there.
            if (g.pen - (before->pen + before->advance) > g.font->FontSize * 0.2f) t.text += ' ';
            t.min = ImVec2(std::min(t.min.x, g.min.x), std::min(t.min.y, g.min.y));
            t.max = ImVec2(std::max(t.max.x, g.max.x), std::max(t.max.y, g.max.y));
            if (c < t.contrast) {
                t.contrast = c;
                t.background = bg;
            }
        }
        appendUtf8(texts.back().text, g.codepoint);
        before = &g;
    }
    return texts;
}

std::vector<std::string> overlappingLabels(const std::vector<app::LabelNote>& labels)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < labels.size(); ++i)
        for (size_t j = i + 1; j < labels.size(); ++j) {
            const app::LabelNote& a = labels[i];
            const app::LabelNote& b = labels[j];
            if (a.window != b.window) continue;
            const float w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
            const float h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
            if (w > 0.5f && h > 0.5f) out.push_back(a.window + ": '" + a.text + "' overlaps '" + b.text + "'");
        }
    return out;
}

}  // namespace ts::test::gui
