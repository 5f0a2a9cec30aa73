#include "theme.hpp"

#if !defined(__EMSCRIPTEN__)
#include <fontconfig/fontconfig.h>
#endif

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace ts::app {
namespace {

float gScale = 1.0f;   ///< the scale of the last makeTheme()
Palette gPalette;      ///< the palette of the last makeTheme()

/// The installed font file of `family` in `style` ("DejaVu Sans", "Bold"), looked up through
/// fontconfig as any desktop program does; "" when fontconfig knows no font of that family
/// (it would otherwise substitute another one silently). Looked up once per process.
std::string fontFile(const std::string& family, const std::string& style)
{
#if defined(__EMSCRIPTEN__)
    // The web build packs Debian's files into the page at /fonts (cmake/web.cmake).
    if (family == "DejaVu Sans") return style == "Bold" ? "/fonts/DejaVuSans-Bold.ttf" : "/fonts/DejaVuSans.ttf";
    if (family == "DejaVu Sans Mono") return "/fonts/DejaVuSansMono.ttf";
    return "";
#else
    static std::map<std::string, std::string> found;
    const std::string key = family + ":style=" + style;
    if (auto it = found.find(key); it != found.end()) return it->second;
    std::string file;
    if (FcConfig* config = FcInitLoadConfigAndFonts()) {
        FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(key.c_str()));
        FcConfigSubstitute(config, pattern, FcMatchPattern);
        FcDefaultSubstitute(pattern);
        FcResult result = FcResultNoMatch;
        if (FcPattern* match = FcFontMatch(config, pattern, &result)) {
            FcChar8* matchedFamily = nullptr;
            FcChar8* path = nullptr;
            if (FcPatternGetString(match, FC_FAMILY, 0, &matchedFamily) == FcResultMatch &&
                family == reinterpret_cast<const char*>(matchedFamily) &&
                FcPatternGetString(match, FC_FILE, 0, &path) == FcResultMatch)
                file = reinterpret_cast<const char*>(path);
            FcPatternDestroy(match);
        }
        FcPatternDestroy(pattern);
        FcConfigDestroy(config);
    }
    return found[key] = file;
#endif
}

ImFont* addFont(const std::string& family, const std::string& style, float px, bool& missing)
{
    const std::string path = fontFile(family, style);
    if (path.empty() || !std::filesystem::exists(path)) {
        missing = true;
        ImFontConfig cfg;
        cfg.SizePixels = px;
        return ImGui::GetIO().Fonts->AddFontDefault(&cfg);
    }
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    // Latin, Greek, arrows, box drawing and the multiplication sign.
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F,
                                     0x2190, 0x21FF, 0x2200, 0x22FF, 0x2500, 0x25FF, 0};
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), px, &cfg, ranges);
}

}  // namespace

Palette lightPalette()
{
    Palette p;
    p.cell = IM_COL32(138, 141, 150, 255);
    p.cellText = IM_COL32(0, 0, 0, 255);
    p.dimText = IM_COL32(70, 74, 84, 255);
    p.grid = IM_COL32(255, 255, 255, 255);
    p.loadedEarlier = IM_COL32(152, 122, 70, 255);
    p.zeroFill = IM_COL32(150, 70, 130, 255);
    p.halo = IM_COL32(55, 145, 245, 255);
    p.selected = IM_COL32(0, 0, 0, 255);
    p.noOutput = IM_COL32(92, 94, 102, 255);
    p.error = IM_COL32(190, 30, 20, 255);
    p.codeLine = IM_COL32(240, 228, 66, 130);
    p.codeBar = IM_COL32(125, 105, 0, 255);
    p.codeLineAlt = IM_COL32(204, 121, 167, 60);
    p.hazardLine = IM_COL32(86, 180, 233, 60);
    p.hazardText = IM_COL32(0, 84, 150, 255);
    p.wrongReadText = IM_COL32(150, 50, 0, 255);
    p.warnText = IM_COL32(150, 80, 0, 255);
    p.okText = IM_COL32(0, 100, 70, 255);
    // Darker on light cells and as words on white: sky blue and bluish green would be faint there.
    p.practiceRight = IM_COL32(0, 120, 85, 255);
    p.practiceWrong = IM_COL32(190, 70, 0, 255);
    p.practiceMissed = IM_COL32(0, 100, 170, 255);
    p.chartBg = IM_COL32(240, 241, 244, 255);
    p.chartLine = IM_COL32(120, 124, 136, 140);
    p.captionBg = IM_COL32(232, 238, 248, 255);
    p.stepOutline = IM_COL32(0, 0, 0, 255);
    p.stepText = IM_COL32(110, 90, 0, 255);
    p.clear = IM_COL32(250, 250, 250, 255);
    return p;
}

ImGuiStyle themeStyle(ThemeKind kind, float scale)
{
    ImGuiStyle s;
    s.WindowRounding = 4;
    s.FrameRounding = 3;
    s.GrabRounding = 3;
    s.WindowPadding = ImVec2(10, 8);
    s.FramePadding = ImVec2(6, 4);
    s.ItemSpacing = ImVec2(8, 6);
    s.WindowTitleAlign = ImVec2(0.0f, 0.5f);
    ImVec4* c = s.Colors;
    auto rgb = [](int r, int g, int b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); };
    if (kind == ThemeKind::Light) {
        ImGui::StyleColorsLight(&s);
        c[ImGuiCol_Text] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
        c[ImGuiCol_TextDisabled] = rgb(92, 94, 102);   // ImGui's 0.6 grey is 2.8:1 on white
        c[ImGuiCol_WindowBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
        c[ImGuiCol_ChildBg] = ImVec4(0.97f, 0.97f, 0.97f, 1.0f);
        c[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.55f);
        c[ImGuiCol_TitleBg] = ImVec4(0.85f, 0.87f, 0.90f, 1.0f);
        c[ImGuiCol_TitleBgActive] = ImVec4(0.72f, 0.80f, 0.92f, 1.0f);
        c[ImGuiCol_CheckMark] = rgb(0, 90, 180);
        // Black text is drawn over the grab too: a mid blue keeps it at 6:1 and the grab at
        // 3:1 against the white frame (ImGui's #0064c8 left the text at 3.7:1).
        c[ImGuiCol_SliderGrab] = rgb(80, 140, 220);
        c[ImGuiCol_SliderGrabActive] = rgb(70, 130, 215);
        // Selected and hovered rows (Threads, Code): pale opaque blues under which grey,
        // green and vermilion text keep 4.5:1 (ImGui's translucent blue left them at 3.5 to 4:1).
        c[ImGuiCol_Header] = rgb(220, 233, 250);
        c[ImGuiCol_HeaderHovered] = rgb(204, 222, 246);
        c[ImGuiCol_HeaderActive] = rgb(204, 222, 246);   // pressed: as hovered
        s.WindowBorderSize = 1.5f;
        s.FrameBorderSize = 1.0f;
        s.ScaleAllSizes(scale);
        return s;
    }
    ImGui::StyleColorsDark(&s);
    c[ImGuiCol_TextDisabled] = rgb(160, 164, 176);   // ImGui's 0.5 grey is 4.4:1 on the window
    c[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.115f, 0.135f, 1.0f);
    c[ImGuiCol_ChildBg] = ImVec4(0.085f, 0.095f, 0.11f, 1.0f);
    c[ImGuiCol_TitleBg] = ImVec4(0.14f, 0.16f, 0.20f, 1.0f);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.17f, 0.23f, 0.33f, 1.0f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.13f, 0.14f, 0.17f, 1.0f);
    // ImGui's bright blue buttons and headers leave white text at 3.1 to 3.9:1: darker blues.
    c[ImGuiCol_Button] = rgb(44, 72, 112);
    c[ImGuiCol_ButtonHovered] = rgb(50, 92, 150);
    c[ImGuiCol_ButtonActive] = rgb(36, 84, 150);
    // Selected and hovered rows (Threads, Code): dark opaque blues under which grey, green
    // and orange text keep 4.5:1 (a brighter blue left them at 3.4 to 4:1).
    c[ImGuiCol_Header] = rgb(34, 46, 66);
    c[ImGuiCol_HeaderHovered] = rgb(42, 56, 80);
    c[ImGuiCol_HeaderActive] = rgb(42, 56, 80);   // pressed: as hovered
    c[ImGuiCol_Tab] = rgb(36, 56, 86);
    c[ImGuiCol_TabHovered] = rgb(50, 92, 150);
    c[ImGuiCol_TabActive] = rgb(44, 78, 124);
    c[ImGuiCol_TabUnfocused] = rgb(30, 40, 56);
    c[ImGuiCol_TabUnfocusedActive] = rgb(38, 58, 88);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.16f, 0.18f, 0.22f, 1.0f);
    c[ImGuiCol_SliderGrab] = rgb(110, 160, 230);
    c[ImGuiCol_SliderGrabActive] = rgb(140, 185, 245);
    s.ScaleAllSizes(scale);
    return s;
}

Theme makeTheme(float scale, ThemeKind kind, bool slides)
{
    Theme t;
    t.scale = scale;
    t.slides = slides;
    gScale = scale;
    t.kind = kind;
    if (kind == ThemeKind::Light) t.palette = lightPalette();
    gPalette = t.palette;
    bool missing = false;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    t.fonts.ui = addFont("DejaVu Sans", "Book", std::round(17 * scale), missing);
    t.fonts.bold = addFont("DejaVu Sans", "Bold", std::round(17 * scale), missing);
    // On a slide the mono font (the Code panel's thread lines, the shared slots' indices) is
    // the cell font's size: the listing has a font of its own there (code), and the Code
    // panel's explanations must leave room for it under the caption.
    t.fonts.mono = addFont("DejaVu Sans Mono", "Book", std::round((slides ? kSlideMonoPx : 16) * scale), missing);
    t.fonts.cell = addFont("DejaVu Sans Mono", "Book", std::round(14 * scale), missing);
    // 12 px at 1x (11.5 rounded before): a whole number, so that every font of a --scale 4
    // export is exactly 4 times its 1x size and the layout makes the same choices.
    t.fonts.small = addFont("DejaVu Sans Mono", "Book", std::round(12.0f * scale), missing);
    if (slides) {
        t.fonts.caption = addFont("DejaVu Sans", "Book", std::round(kSlideCaptionPx * scale), missing);
        t.fonts.captionBold = addFont("DejaVu Sans", "Bold", std::round(kSlideCaptionPx * scale), missing);
        t.fonts.values = addFont("DejaVu Sans Mono", "Book", std::round(kSlideValuesPx * scale), missing);
        t.fonts.code = addFont("DejaVu Sans Mono", "Book", std::round(kSlideCodePx * scale), missing);
    } else {
        t.fonts.caption = t.fonts.ui;
        t.fonts.captionBold = t.fonts.bold;
        t.fonts.code = t.fonts.mono;
    }
    io.FontDefault = t.fonts.ui;
    if (missing)
        t.fonts.note = "fontconfig finds no DejaVu Sans or DejaVu Sans Mono on this machine (Debian package "
                       "fonts-dejavu-core); using ImGui's built-in font.";
    ImGui::GetStyle() = themeStyle(kind, scale);
    return t;
}

float capHeight(const ImFont* font)
{
    if (!font || !font->ContainerAtlas) return 0;
    const ImFontGlyph* h = font->FindGlyphNoFallback('H');
    ImFontAtlas* atlas = font->ContainerAtlas;
    unsigned char* pixels = nullptr;
    int w = 0, hgt = 0;
    // The atlas keeps its alpha pixels once built (the renderer's RGBA copy is made from them).
    if (!h || !atlas->IsBuilt()) return 0;
    atlas->GetTexDataAsAlpha8(&pixels, &w, &hgt);
    if (!pixels) return 0;
    const int x0 = static_cast<int>(std::lround(h->U0 * w)), x1 = static_cast<int>(std::lround(h->U1 * w));
    const int y0 = static_cast<int>(std::lround(h->V0 * hgt)), y1 = static_cast<int>(std::lround(h->V1 * hgt));
    int rows = 0;
    for (int y = std::max(0, y0); y < std::min(hgt, y1); ++y) {
        bool ink = false;
        for (int x = std::max(0, x0); x < std::min(w, x1) && !ink; ++x) ink = pixels[static_cast<size_t>(y) * w + x] >= 128;
        rows += ink ? 1 : 0;
    }
    return static_cast<float>(rows);
}

float scaled(float px)
{
    return px * gScale;
}

const Palette& currentPalette()
{
    return gPalette;
}

void stepFrame(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal, float rounding, float thickness)
{
    markFrame(dl, a, b, pal.readNow, pal, thickness, rounding);
}

void markFrame(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, const Palette& pal, float thickness, float rounding)
{
    // Round corners only where the frame has room for them: Dear ImGui 1.86 divides by zero
    // (SIGFPE) drawing a corner arc of about half a pixel, which a rounding of 3 on a frame
    // 3 px wide (the timeline's cursor on a long trace) asks for.
    if (std::min(b.x - a.x, b.y - a.y) < 2 * rounding + 4) rounding = 0;
    // The edge 1 px each side at 1x, as every width here grows with the UI scale (a --scale 4
    // export draws the 1x picture four times larger).
    if ((pal.stepOutline >> IM_COL32_A_SHIFT) & 0xFF) dl->AddRect(a, b, pal.stepOutline, rounding, 0, thickness + scaled(2));
    dl->AddRect(a, b, colour, rounding, 0, thickness);
}

ImU32 heatColour(float t)
{
    // 17 equally spaced stops of a viridis-like ramp made for TileScope: a path in the
    // Oklab colour space whose lightness rises in equal steps from 0.28 to 0.93 while the
    // hue turns from indigo (285 degrees) through blue, teal and green to yellow (110
    // degrees), its chroma (0.09 to 0.17) cut back where sRGB cannot show it. Rising
    // lightness keeps the order readable in grey and for every kind of colour vision
    // (tests/app/palette_test.cpp). The heatmap shader gets the same stops (heatmap.cpp).
    static const unsigned char stops[17][3] = {
        {38, 31, 82},   {37, 44, 98},    {32, 58, 113},   {20, 73, 127},  {4, 89, 134},   {6, 103, 138},
        {4, 118, 143},  {1, 133, 148},   {6, 148, 151},   {14, 163, 153}, {5, 179, 151},  {39, 195, 143},
        {89, 207, 134}, {128, 217, 123}, {166, 227, 111}, {203, 235, 99}, {239, 241, 89}};
    if (!(t >= 0.0f)) t = 0.0f;   // NaN too
    t = std::min(t, 1.0f) * 16.0f;
    const int i = std::min(15, static_cast<int>(t));
    const float f = t - static_cast<float>(i);
    auto mix = [&](int ch) { return (stops[i][ch] + (stops[i + 1][ch] - stops[i][ch]) * f) / 255.0f; };
    return ImGui::ColorConvertFloat4ToU32(ImVec4(mix(0), mix(1), mix(2), 1.0f));
}

ImU32 textOn(ImU32 background)
{
    const ImU32 black = IM_COL32(0, 0, 0, 255), white = IM_COL32(255, 255, 255, 255);
    return contrastRatio(background, black) >= contrastRatio(background, white) ? black : white;
}

double relativeLuminance(ImU32 colour)
{
    // WCAG 2.1's definition (see the header); the sRGB transfer function linearises.
    auto channel = [](unsigned c) {
        const double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel((colour >> IM_COL32_R_SHIFT) & 0xFF) + 0.7152 * channel((colour >> IM_COL32_G_SHIFT) & 0xFF) +
           0.0722 * channel((colour >> IM_COL32_B_SHIFT) & 0xFF);
}

double contrastRatio(ImU32 a, ImU32 b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ImU32 over(ImU32 top, ImU32 below)
{
    const unsigned alpha = (top >> IM_COL32_A_SHIFT) & 0xFF;
    auto mix = [&](int shift) {
        const double t = (top >> shift) & 0xFF, u = (below >> shift) & 0xFF;
        return static_cast<unsigned>(std::lround(t * alpha / 255.0 + u * (1.0 - alpha / 255.0)));
    };
    return IM_COL32(mix(IM_COL32_R_SHIFT), mix(IM_COL32_G_SHIFT), mix(IM_COL32_B_SHIFT), 255);
}

}  // namespace ts::app
