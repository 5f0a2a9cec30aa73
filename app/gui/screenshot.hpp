// Screenshots: ImGui's draw data rendered into an offscreen framebuffer of the requested
// size, read back with glReadPixels, flipped to top-down rows and written as PNG with
// stb_image_write.
#pragma once
#include <string>

struct ImDrawData;

namespace ts::app {

/// Renders `data` into an offscreen RGBA framebuffer of w x h pixels and writes it to
/// `path` as PNG, over a background of colour `background` (RGBA, ImU32). Returns "" on
/// success, else one sentence saying what failed.
std::string saveScreenshot(ImDrawData* data, int w, int h, unsigned int background, const std::string& path);

}  // namespace ts::app
