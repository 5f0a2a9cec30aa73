// The heatmap's colours: one fragment per screen pixel of a matrix (M, N or P of a matrix
// multiplication, N or P of a convolution), coloured from two textures of that matrix:
//   uFlags  (R8UI)  what the traced block did with the element at the cursor (bits below)
//   uScalar (R32F)  the element's value or its global-load count, by uMode
// Both come as a pyramid (app/gui/heatmap.cpp): level L holds blocks of 2^L x 2^L elements,
// the flags OR-ed, the scalar's maximum (load counts) or mean (values). Where a pixel spans
// more than one element the shader reads the smallest level whose texels are at least as
// large as the pixel and combines the at most 2 x 2 texels under it, so that a single
// element loaded this phase still colours its pixel.
#version 330 core

// Flag bits: the same as HeatFlag in app/gui/heatmap.hpp.
const uint kLoadedThisPhase = 1u;   // read from global memory by the traced block in this phase
const uint kInBlock = 2u;           // P: computed by the traced block (its value shows once stored)
const uint kReadNow = 4u;           // touched by the cursor step
const uint kInShared = 8u;          // the element's value sits in Mds / Nds now
const uint kLoadedEarlier = 16u;    // loaded by the traced block in an earlier phase
const uint kStored = 32u;           // P: stored by the traced block
const uint kWrong = 64u;            // P: differs from the CPU reference

uniform usampler2D uFlags;
uniform sampler2D uScalar;
uniform ivec2 uLevelSize;   // texels of the bound level (columns, rows)
uniform int uLevel;         // the bound level: a texel is 2^uLevel elements on a side
uniform ivec2 uSize;        // elements of the matrix (columns, rows)
uniform vec2 uFirst;        // element coordinate (column, row) at the top-left pixel corner
uniform vec2 uCell;         // an element's width and height in pixels
uniform float uHeight;      // pixels of the viewport (rows count from the top)
uniform int uMode;          // 0 state colours, 1 load counts, 2 values (through the map)
uniform bool uIsP;          // P: no load counts; value hidden in the block until stored
uniform vec2 uRange;        // scalar values mapped to 0 and 1
uniform float uBand;        // pixels of the frames drawn for flags (0: fills, cells under 4 px)
uniform vec3 uMap[17];      // the colour map, equally spaced stops (Palette's heat ramp)
// cell, in Mds/Nds, loaded earlier, loaded this phase, this step, P finished, wrong P, and
// the edge round the outline of this step (Palette::stepOutline)
uniform vec4 uColours[8];

out vec4 fragColour;

vec3 mapped(float t)
{
    float x = clamp(t, 0.0, 1.0) * 16.0;
    int i = min(15, int(x));
    return mix(uMap[i], uMap[i + 1], x - float(i));
}

// Whether the element at element coordinate `e` (column, row) is touched by the cursor step,
// read from the bound level (a texel of 2^uLevel elements).
bool nowAt(vec2 e)
{
    if (e.x < 0.0 || e.y < 0.0 || e.x >= float(uSize.x) || e.y >= float(uSize.y)) return false;
    ivec2 t = clamp(ivec2(floor(e)) >> uLevel, ivec2(0), uLevelSize - 1);
    return (texelFetch(uFlags, t, 0).r & kReadNow) != 0u;
}

void main()
{
    vec2 px = vec2(gl_FragCoord.x - 0.5, uHeight - gl_FragCoord.y - 0.5);   // pixel corner, from the top
    vec2 e0 = uFirst + px / uCell;              // the pixel's footprint in elements
    vec2 e1 = uFirst + (px + 1.0) / uCell;
    vec2 centre = 0.5 * (e0 + e1);
    if (centre.x < 0.0 || centre.y < 0.0 || centre.x >= float(uSize.x) || centre.y >= float(uSize.y)) {
        fragColour = vec4(0.0);
        return;
    }
    ivec2 first, last;
    if (uLevel == 0 && min(uCell.x, uCell.y) >= 1.0) {
        first = last = ivec2(floor(centre));
    } else {
        first = ivec2(floor(max(e0, vec2(0.0)))) >> uLevel;
        last = ivec2(floor(min(e1 - 1e-4, vec2(uSize) - 1e-4))) >> uLevel;
        first = clamp(first, ivec2(0), uLevelSize - 1);
        last = clamp(last, first, min(first + 1, uLevelSize - 1));
    }
    uint flags = 0u;
    float top = -3.4e38, sum = 0.0;
    int n = 0;
    for (int y = first.y; y <= last.y; ++y)
        for (int x = first.x; x <= last.x; ++x) {
            flags |= texelFetch(uFlags, ivec2(x, y), 0).r;
            if (uMode != 0) {
                float v = texelFetch(uScalar, ivec2(x, y), 0).r;
                top = max(top, v);
                sum += v;
            }
            ++n;
        }
    float scalar = uMode == 1 ? top : sum / float(n);
    float t = (scalar - uRange.x) / max(uRange.y - uRange.x, 1e-30);

    // The fill: the most telling state first, as the binned drawing of the Matrices panel
    // ranks them; with frames (cells of 4 px or more), the fill and a frame for this step,
    // loaded this phase or a wrong P, so that "this step" never hides "in Mds/Nds".
    vec4 base = uColours[0];
    bool showScalar = (uMode == 1 && !uIsP) || (uMode == 2 && (flags & kInBlock) == 0u) ||
                      (uMode == 2 && (flags & kStored) != 0u);
    if (showScalar) base = vec4(mapped(t), 1.0);
    else if ((flags & kStored) != 0u) base = uColours[5];
    else if ((flags & kInShared) != 0u && uMode != 2) base = uColours[1];
    else if ((flags & kLoadedEarlier) != 0u && uMode == 0) base = uColours[2];

    if (uBand > 0.0) {
        // Frames inside the cell, uBand pixels wide: this step, loaded this phase, wrong P.
        vec2 inCell = (centre - floor(centre)) * uCell;
        float edge = min(min(inCell.x, inCell.y), min(uCell.x - inCell.x, uCell.y - inCell.y));
        vec4 frame = vec4(0.0);
        if ((flags & kWrong) != 0u) frame = uColours[6];
        else if ((flags & kReadNow) != 0u) frame = uColours[4];
        else if ((flags & kLoadedThisPhase) != 0u) frame = uColours[3];
        fragColour = frame.a > 0.0 && edge < uBand ? frame : base;
        return;
    }
    // Cells too small for a frame each: "this step" is one outline round the elements it
    // touches, 2 px of yellow inside with 1 px of the edge colour outside, so that the fill
    // under it (in Mds/Nds, say) stays visible, as the legend's frame says.
    vec4 fill = base;
    if ((flags & kStored) != 0u) fill = uColours[5];
    else if ((flags & kInShared) != 0u) fill = uColours[1];
    else if ((flags & kLoadedThisPhase) != 0u) fill = uColours[3];
    vec2 d1 = 1.0 / uCell, d2 = 2.0 / uCell;   // 1 and 2 pixels, in elements (across, down)
    bool now = (flags & kReadNow) != 0u && nowAt(centre);
    bool inner = now && !(nowAt(centre + vec2(d2.x, 0.0)) && nowAt(centre - vec2(d2.x, 0.0)) &&
                          nowAt(centre + vec2(0.0, d2.y)) && nowAt(centre - vec2(0.0, d2.y)));
    bool outer = !now && (nowAt(centre + vec2(d1.x, 0.0)) || nowAt(centre - vec2(d1.x, 0.0)) ||
                          nowAt(centre + vec2(0.0, d1.y)) || nowAt(centre - vec2(0.0, d1.y)));
    if ((flags & kWrong) != 0u) fragColour = uColours[6];
    else if (inner) fragColour = uColours[4];
    else if (outer && uColours[7].a > 0.0) fragColour = uColours[7];
    else fragColour = fill;
}
