#include "svg_export.hpp"

#include <stb_truetype.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <utility>

namespace ts::app {
namespace {

/// A number as SVG wants it: at most two decimals, no trailing zeros.
std::string num(float v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(v));
    std::string s = buf;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

/// fill="#rrggbb" plus fill-opacity when not opaque (ImU32 keeps R in the low byte).
std::string fill(ImU32 c)
{
    char buf[64];
    const unsigned a = (c >> IM_COL32_A_SHIFT) & 0xFF;
    std::snprintf(buf, sizeof buf, "fill=\"#%02x%02x%02x\"", (c >> IM_COL32_R_SHIFT) & 0xFF,
                  (c >> IM_COL32_G_SHIFT) & 0xFF, (c >> IM_COL32_B_SHIFT) & 0xFF);
    std::string s = buf;
    if (a != 255) s += " fill-opacity=\"" + num(static_cast<float>(a) / 255.0f) + "\"";
    return s;
}

/// One code point as UTF-8, escaped for XML.
std::string xmlChar(unsigned cp)
{
    switch (cp) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    default: break;
    }
    std::string s;
    if (cp < 0x80) s += static_cast<char>(cp);
    else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

/// How SVG names an ImGui font: family, weight, and CSS pixels per ImGui pixel size.
/// ImGui sizes a TTF font by its ascent minus descent (stb_truetype's
/// ScaleForPixelHeight); CSS's font-size is the em, so the ratio comes from the font file.
struct FontFace {
    std::string family;
    bool bold = false;
    float cssPerPx = 1.0f;
};

FontFace faceOf(const ImFont* font)
{
    FontFace f;
    const ImFontConfig* cfg = font->ConfigData;
    const std::string name = cfg ? cfg->Name : "";
    if (name.find("DejaVuSansMono") != std::string::npos) f.family = "'DejaVu Sans Mono', monospace";
    else if (name.find("DejaVuSans") != std::string::npos) f.family = "'DejaVu Sans', Verdana, sans-serif";
    else f.family = "monospace";   // ImGui's built-in bitmap font
    f.bold = name.find("Bold") != std::string::npos;
    if (cfg && cfg->FontData && cfg->FontDataSize > 0) {
        const auto* data = static_cast<const unsigned char*>(cfg->FontData);
        stbtt_fontinfo info;
        if (stbtt_InitFont(&info, data, stbtt_GetFontOffsetForIndex(data, cfg->FontNo)))
            f.cssPerPx = stbtt_ScaleForPixelHeight(&info, 1.0f) / stbtt_ScaleForMappingEmToPixels(&info, 1.0f);
    }
    return f;
}

/// A glyph of the atlas found from the texture coordinates of its quad.
struct GlyphRef {
    const ImFont* font = nullptr;
    const ImFontGlyph* glyph = nullptr;
};

class Converter {
public:
    Converter(ImVec2 origin, SvgStats& stats) : origin_(origin), stats_(stats)
    {
        const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
        white_ = atlas->TexUvWhitePixel;
        for (const ImFont* font : atlas->Fonts) {
            faces_[font] = faceOf(font);
            for (const ImFontGlyph& g : font->Glyphs)
                if (g.Visible) glyphs_[{g.U0, g.V0}] = GlyphRef{font, &g};
        }
    }

    void list(const ImDrawList* dl)
    {
        for (const ImDrawCmd& cmd : dl->CmdBuffer) {
            if (cmd.UserCallback || cmd.ElemCount == 0) continue;
            const ImVec4 r = cmd.ClipRect;
            out_ << "<g clip-path=\"url(#" << clipId(r) << ")\">\n";
            const ImDrawIdx* idx = dl->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = dl->VtxBuffer.Data + cmd.VtxOffset;
            for (unsigned i = 0; i + 2 < cmd.ElemCount;) i += triangle(idx, i, cmd.ElemCount, vtx);
            flush();
            out_ << "</g>\n";
        }
    }

    std::string defs() const { return defs_.str(); }
    std::string body() const { return out_.str(); }

private:
    bool isWhite(const ImDrawVert& v) const
    {
        return std::fabs(v.uv.x - white_.x) < 1e-6f && std::fabs(v.uv.y - white_.y) < 1e-6f;
    }

    std::string clipId(const ImVec4& r)
    {
        const auto key = std::make_tuple(r.x, r.y, r.z, r.w);
        auto it = clips_.find(key);
        if (it != clips_.end()) return it->second;
        std::string id = "c";
        id += std::to_string(clips_.size());
        clips_[key] = id;
        defs_ << "<clipPath id=\"" << id << "\"><rect x=\"" << num(r.x - origin_.x) << "\" y=\"" << num(r.y - origin_.y)
              << "\" width=\"" << num(r.z - r.x) << "\" height=\"" << num(r.w - r.y) << "\"/></clipPath>\n";
        return id;
    }

    /// Converts the triangle at index i (and, for a glyph quad or a fan of one colour, the
    /// triangles that complete it); returns how many indices it used.
    unsigned triangle(const ImDrawIdx* idx, unsigned i, unsigned count, const ImDrawVert* vtx)
    {
        const ImDrawVert &a = vtx[idx[i]], &b = vtx[idx[i + 1]], &c = vtx[idx[i + 2]];
        if (isWhite(a) && isWhite(b) && isWhite(c)) {
            // A fan (0,1,2), (0,2,3), ...: one polygon while the colour stays the same.
            const ImU32 col = a.col == b.col && b.col == c.col ? a.col : average(a.col, b.col, c.col);
            std::vector<ImVec2> poly{a.pos, b.pos, c.pos};
            unsigned used = 3;
            while (i + used + 2 < count && idx[i + used] == idx[i] && idx[i + used + 1] == idx[i + used - 1]) {
                const ImDrawVert& d = vtx[idx[i + used + 2]];
                if (!isWhite(d) || d.col != col || a.col != col) break;
                poly.push_back(d.pos);
                used += 3;
            }
            stats_.triangles += used / 3;
            if (((col >> IM_COL32_A_SHIFT) & 0xFF) == 0) return used;
            shape(col, poly);
            return used;
        }
        // A glyph: ImGui writes each as the quad (0,1,2), (0,2,3) with UVs at its corners.
        if (i + 5 < count && idx[i + 3] == idx[i] && idx[i + 4] == idx[i + 2]) {
            if (glyph(a, c)) return 6;
        }
        ++stats_.skipped;
        return 3;
    }

    static ImU32 average(ImU32 x, ImU32 y, ImU32 z)
    {
        ImU32 out = 0;
        for (int s = 0; s < 32; s += 8)
            out |= ((((x >> s) & 0xFF) + ((y >> s) & 0xFF) + ((z >> s) & 0xFF)) / 3) << s;
        return out;
    }

    void shape(ImU32 col, const std::vector<ImVec2>& poly)
    {
        if (!textOpen_.empty()) flushText();
        if (pathColour_ != col || path_.empty()) {
            flushPath();
            pathColour_ = col;
        }
        for (size_t k = 0; k < poly.size(); ++k) {
            path_ += k ? 'L' : 'M';
            path_ += num(poly[k].x - origin_.x);
            path_ += ' ';
            path_ += num(poly[k].y - origin_.y);
        }
        path_ += 'Z';
    }

    /// A glyph quad from its top-left `tl` (vertex 0) and bottom-right `br` (vertex 2)
    /// corners; false when its texture coordinates belong to no glyph of the atlas.
    bool glyph(const ImDrawVert& tl, const ImDrawVert& br)
    {
        auto it = glyphs_.find({tl.uv.x, tl.uv.y});
        GlyphRef ref;
        bool clipped = false;
        if (it != glyphs_.end() && std::fabs(it->second.glyph->U1 - br.uv.x) < 1e-6f &&
            std::fabs(it->second.glyph->V1 - br.uv.y) < 1e-6f) {
            ref = it->second;
        } else {
            // ImGui cut the glyph at a clip edge and moved its UVs: find the glyph whose atlas
            // rectangle holds the quad's, and clip the character to the quad.
            for (const auto& [key, g] : glyphs_) {
                const ImFontGlyph& q = *g.glyph;
                if (tl.uv.x >= q.U0 - 1e-6f && tl.uv.y >= q.V0 - 1e-6f && br.uv.x <= q.U1 + 1e-6f && br.uv.y <= q.V1 + 1e-6f) {
                    ref = g;
                    clipped = true;
                    break;
                }
            }
            if (!ref.glyph) return false;
        }
        const ImFontGlyph& g = *ref.glyph;
        // Pixels per font pixel, from the quad's extent and the glyph's (unclipped) extent.
        float scale = 1.0f;
        if (!clipped && g.X1 > g.X0) scale = (br.pos.x - tl.pos.x) / (g.X1 - g.X0);
        else if (g.U1 > g.U0 && g.X1 > g.X0)
            scale = (br.pos.x - tl.pos.x) / ((br.uv.x - tl.uv.x) / (g.U1 - g.U0) * (g.X1 - g.X0));
        // Where the unclipped quad's top-left corner would be.
        const float x1 = tl.pos.x - (g.U1 > g.U0 ? (tl.uv.x - g.U0) / (g.U1 - g.U0) * (g.X1 - g.X0) * scale : 0);
        const float y1 = tl.pos.y - (g.V1 > g.V0 ? (tl.uv.y - g.V0) / (g.V1 - g.V0) * (g.Y1 - g.Y0) * scale : 0);
        const float penX = x1 - g.X0 * scale - origin_.x;
        const float baseline = y1 - (g.Y0 - ref.font->Ascent) * scale - origin_.y;
        const float size = ref.font->FontSize * scale;
        ++stats_.glyphs;
        if (!path_.empty()) flushPath();
        const bool sameRun = !textOpen_.empty() && !clipped && runFont_ == ref.font && runColour_ == tl.col &&
                             std::fabs(runBaseline_ - baseline) < 0.01f && std::fabs(runSize_ - size) < 0.01f &&
                             penX > runEnd_ - 0.5f;
        if (!sameRun) {
            flushText();
            const FontFace& face = faces_[ref.font];
            textOpen_ = "<text y=\"" + num(baseline) + "\" font-family=\"" + face.family + "\" font-size=\"" +
                        num(size * face.cssPerPx) + "\"" + (face.bold ? " font-weight=\"bold\"" : "") + " " +
                        fill(tl.col);
            runFont_ = ref.font;
            runColour_ = tl.col;
            runBaseline_ = baseline;
            runSize_ = size;
            runClip_.clear();
            if (clipped) {
                const ImVec4 r(tl.pos.x, tl.pos.y, br.pos.x, br.pos.y);
                runClip_ = clipId(r);
            }
        } else {
            // The gap to this glyph: the spaces ImGui skipped (they draw nothing).
            const ImFontGlyph* space = ref.font->FindGlyphNoFallback(' ');
            const float adv = space ? space->AdvanceX * scale : 0;
            if (adv > 0) {
                const int n = static_cast<int>(std::lround((penX - runEnd_) / adv));
                for (int k = 0; k < n; ++k) {
                    xs_ += num(runEnd_ + k * adv) + " ";
                    chars_ += " ";
                }
            }
        }
        xs_ += num(penX) + " ";
        chars_ += xmlChar(g.Codepoint);
        runEnd_ = penX + g.AdvanceX * scale;
        return true;
    }

    void flushPath()
    {
        if (path_.empty()) return;
        out_ << "<path d=\"" << path_ << "\" " << fill(pathColour_) << "/>\n";
        path_.clear();
    }

    void flushText()
    {
        if (textOpen_.empty()) return;
        if (!xs_.empty()) xs_.pop_back();
        if (!runClip_.empty()) out_ << "<g clip-path=\"url(#" << runClip_ << ")\">";
        out_ << textOpen_ << " x=\"" << xs_ << "\">" << chars_ << "</text>";
        if (!runClip_.empty()) out_ << "</g>";
        out_ << "\n";
        textOpen_.clear();
        xs_.clear();
        chars_.clear();
    }

    void flush()
    {
        flushPath();
        flushText();
    }

    ImVec2 origin_;
    SvgStats& stats_;
    ImVec2 white_;
    std::map<const ImFont*, FontFace> faces_;
    std::map<std::pair<float, float>, GlyphRef> glyphs_;
    std::map<std::tuple<float, float, float, float>, std::string> clips_;
    std::ostringstream defs_, out_;
    std::string path_;
    ImU32 pathColour_ = 0;
    std::string textOpen_, xs_, chars_, runClip_;
    const ImFont* runFont_ = nullptr;
    ImU32 runColour_ = 0;
    float runBaseline_ = 0, runSize_ = 0, runEnd_ = 0;
};

}  // namespace

std::string drawListsToSvg(const std::vector<const ImDrawList*>& lists, ImVec2 origin, ImVec2 size,
                           ImU32 background, SvgStats* stats)
{
    SvgStats local;
    Converter conv(origin, stats ? *stats : local);
    for (const ImDrawList* dl : lists) conv.list(dl);
    std::ostringstream svg;
    svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(size.x) << "\" height=\""
        << num(size.y) << "\" viewBox=\"0 0 " << num(size.x) << " " << num(size.y)
        << "\" xml:space=\"preserve\">\n"
        << "<!-- TileScope: vector export of the window as drawn; text in DejaVu fonts -->\n"
        << "<defs>\n" << conv.defs() << "</defs>\n"
        << "<style>text { white-space: pre; }</style>\n"
        << "<rect width=\"" << num(size.x) << "\" height=\"" << num(size.y) << "\" " << fill(background | IM_COL32_A_MASK)
        << "/>\n"
        << conv.body() << "</svg>\n";
    return svg.str();
}

}  // namespace ts::app
