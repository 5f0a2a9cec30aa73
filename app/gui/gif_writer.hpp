// Animated GIF of a range of steps, written with giflib (Debian's libgif): each frame is
// reduced to a 256-colour palette of its own by giflib's median-cut quantiser, and the
// file loops forever (NETSCAPE2.0 extension) so a slide can show it unattended.
#pragma once
#include <string>

#include "screenshot.hpp"

struct GifFileType;

namespace ts::app {

class GifWriter {
public:
    GifWriter() = default;
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Starts `path`, a GIF of w x h pixels whose frames show for `delayMs` milliseconds
    /// each (GIF counts in hundredths of a second). Returns "" or one sentence on failure.
    std::string open(const std::string& path, int w, int h, int delayMs);

    /// Appends one frame; `frame` must be w x h. Returns "" or one sentence on failure.
    std::string addFrame(const Image& frame);

    /// Finishes the file. Returns "" or one sentence on failure.
    std::string close();

private:
    GifFileType* gif_ = nullptr;
    std::string path_;
    int width_ = 0, height_ = 0, delayCs_ = 0;
};

}  // namespace ts::app
