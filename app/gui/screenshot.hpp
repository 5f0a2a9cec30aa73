// Pictures of the window: ImGui's draw data rendered into an offscreen framebuffer of the
// requested size (so a 4x export is drawn at 4x, not upscaled), read back with
// glReadPixels as top-down RGBA rows, optionally cut to one panel, and written as PNG with
// stb_image_write.
#pragma once
#include <string>
#include <vector>

struct ImDrawData;

namespace ts::app {

/// An opaque RGBA picture, rows top-down, 4 bytes per pixel.
struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;
};

/// Renders `data` into an offscreen framebuffer of w x h pixels over `background` (RGBA,
/// ImU32) and reads it into `out`. Returns "" on success, else one sentence saying what
/// failed (the driver refused the framebuffer).
std::string renderImage(ImDrawData* data, int w, int h, unsigned int background, Image& out);

/// The part of `img` from pixel (x, y), w x h pixels, clipped to the picture.
Image cropImage(const Image& img, int x, int y, int w, int h);

/// Writes `img` as PNG. Returns "" or one sentence naming the file that could not be written.
std::string savePng(const Image& img, const std::string& path);

/// renderImage then savePng: the window as a PNG of w x h pixels.
std::string saveScreenshot(ImDrawData* data, int w, int h, unsigned int background, const std::string& path);

}  // namespace ts::app
