// The heatmap: a matrix drawn by the GPU, one fragment per screen pixel, for matrices too
// large for a shape per element (a 4096 x 4096 P has 16.8 million elements). Per element,
// what the traced block did with it at the cursor (flags, R8UI) and a scalar (its value or
// its global-load count, R32F) go to the GPU as textures; the fragment shader of
// shaders/heatmap.frag turns them into colours, through the palette's colour map
// (heatColour) for the scalar and the palette's state colours for the flags, into an
// offscreen framebuffer that a panel shows with ImDrawList::AddImage. The shaders are
// embedded into the binary at build time (app/gui/CMakeLists.txt, cmake/embed_shaders.cmake).
//
// Every function that touches OpenGL needs the app's OpenGL 3.3 core context current. GL
// objects are not deleted by destructors (a panel outlives the context at exit); they go
// with the context, or with release().
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "theme.hpp"

namespace ts::app {

/// What the traced block did with an element at the cursor: the bits of its flag byte.
/// The same values are constants of shaders/heatmap.frag.
enum HeatFlag : uint8_t {
    kLoadedThisPhase = 1,   ///< read from global memory by the traced block in this phase
    kInBlock = 2,           ///< P: computed by the traced block (its value shows once stored)
    kReadNow = 4,           ///< touched by the cursor step
    kInShared = 8,          ///< its value sits in a shared-memory slot of the block now
    kLoadedEarlier = 16,    ///< loaded by the traced block in an earlier phase
    kStored = 32,           ///< P: stored by the traced block at the cursor or before
    kWrong = 64,            ///< P: differs from the CPU reference (a race), once shown
};

/// What colours an element's fill (View::heatmap, View::values).
enum class HeatMode {
    State = 0,    ///< the state colours only, as the cells at the same size
    Loads = 1,    ///< global loads of the whole grid through the colour map (M and N; P by state)
    Values = 2,   ///< the element's value through the colour map; states as frames or fills
};

/// The state colours the shader uses, from the palette (ImU32, RGBA).
struct HeatColours {
    ImU32 cell = 0, inShared = 0, loadedEarlier = 0, loadedThisPhase = 0, readNow = 0, finished = 0, error = 0;
    ImU32 edge = 0;   ///< Palette::stepOutline: round the outline of "this step" on small cells
    bool operator==(const HeatColours&) const = default;
};

/// The heatmap's state colours in `pal`: the same the panels' cells are filled with.
HeatColours heatColours(const Palette& pal);

/// A level pyramid of one matrix, rows x cols at level 0: level L holds one texel per
/// block of 2^L x 2^L elements, ceil(rows / 2^L) x ceil(cols / 2^L) texels (row-major), down
/// to 1 x 1. Flags are OR-ed, so a pixel over many elements shows any state one of them has.
std::vector<std::vector<uint8_t>> flagPyramid(const std::vector<uint8_t>& level0, int rows, int cols);

/// The same for scalars: each texel the largest (`largest`, for load counts) or the mean of
/// the elements it covers (values; partial blocks at the edges average what they hold).
std::vector<std::vector<float>> scalarPyramid(const std::vector<float>& level0, int rows, int cols, bool largest);

/// Which part of a matrix to draw and how.
struct HeatView {
    float firstCol = 0, firstRow = 0;   ///< element coordinate at the picture's top-left corner
    float cellW = 1, cellH = 1;         ///< an element's width and height in pixels (any size above 0)
    int width = 1, height = 1;          ///< pixels of the picture
    HeatMode mode = HeatMode::State;
    bool isP = false;                   ///< P: no load counts; its value shows once stored
    float lo = 0, hi = 1;               ///< scalars mapped to the colour map's 0 and 1
    float band = 0;                     ///< pixels of the state frames (0: fills, "this step" dotted)
    bool operator==(const HeatView&) const = default;
};

/// One matrix on the GPU: its flag and scalar pyramids as textures (one texture per level,
/// so that every level has the exact size flagPyramid gives it) and the two framebuffers its
/// picture is drawn into in turn (a new picture never waits for the frame before, which may
/// still be reading the last one).
class HeatImage {
public:
    /// Uploads the flags of a rows x cols matrix (row-major, one HeatFlag byte per element)
    /// with their pyramid. A new size also drops the scalars (call setScalars again).
    /// Returns false, uploading nothing, when a side is larger than the driver's largest
    /// texture (GL_MAX_TEXTURE_SIZE).
    bool setFlags(int rows, int cols, const std::vector<uint8_t>& flags);
    /// Uploads a scalar per element (row-major) with its pyramid of maxima (`largest`) or
    /// means. The size must be that of the last setFlags.
    void setScalars(const std::vector<float>& values, bool largest);
    /// Whether flags (and scalars) of rows x cols elements are on the GPU.
    bool holds(int rows, int cols) const { return rows == rows_ && cols == cols_ && !flagTex_.empty(); }
    bool hasScalars() const { return !scalarTex_.empty(); }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    /// Deletes the GL objects (the context must be current).
    void release();

private:
    friend class HeatmapRenderer;
    int rows_ = 0, cols_ = 0;
    std::vector<unsigned> flagTex_, scalarTex_;   ///< one texture per level
    /// A framebuffer and its colour texture, w x h pixels.
    struct Target {
        unsigned fbo = 0, colour = 0;
        int w = 0, h = 0;
    };
    Target targets_[2];
    int current_ = 0;                             ///< the target holding the last picture
    uint64_t version_ = 0;                        ///< bumped by every upload
    /// What the framebuffer holds: a picture is drawn again only when one of these changed.
    struct Drawn {
        HeatView view;
        HeatColours colours;
        uint64_t version = 0;
        bool valid = false;
    } drawn_;
};

/// A picture drawn into a HeatImage's framebuffer: the texture to hand to ImGui and the
/// texture coordinates of the picture's top-left and bottom-right corners.
struct HeatPicture {
    ImTextureID texture = nullptr;
    ImVec2 uv0, uv1;
};

/// The shader program and what every draw needs.
class HeatmapRenderer {
public:
    /// Compiles and links the embedded shaders (shaders/heatmap.vert and .frag) and checks
    /// that an offscreen framebuffer can be drawn into. Returns "" when the renderer works,
    /// else one sentence saying why not (the shader compiler's first line included).
    std::string init();
    /// The same with other shader sources (tests).
    std::string init(const std::string& vertex, const std::string& fragment);
    bool ready() const { return program_ != 0; }
    /// Draws `view` of `image` (which must hold flags, and scalars unless view.mode is State)
    /// into the image's framebuffer, grown to the picture's size when needed; when the image,
    /// the view and the colours are those of the picture it holds, draws nothing. Saves and
    /// restores the GL state it changes (framebuffer, viewport, program, textures, blending,
    /// scissor). Returns nothing, with `error` set to one sentence, when the framebuffer is
    /// refused.
    std::optional<HeatPicture> draw(HeatImage& image, const HeatView& view, const HeatColours& colours,
                                    std::string* error = nullptr);
    /// Reads back the last picture drawn for `image`: RGBA bytes, top row first, the
    /// picture's width x height (tests).
    std::vector<uint8_t> readBack(const HeatImage& image, int width, int height) const;
    void release();

private:
    unsigned program_ = 0, vao_ = 0;
};

/// The renderer the app's panels share, initialised on first use in the app's context:
/// null when OpenGL 3.3 cannot run the shaders, with `why` set to one sentence the first
/// time (later calls leave it alone, so a panel says so once).
HeatmapRenderer* sharedHeatmapRenderer(std::string* why);

/// The text of an embedded shader file of shaders/ ("heatmap.vert"), or "" if there is none
/// (generated at build time from the files, see cmake/embed_shaders.cmake).
const std::string& embeddedShader(const std::string& name);

}  // namespace ts::app
