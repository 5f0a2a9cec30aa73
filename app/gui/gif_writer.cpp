#include "gif_writer.hpp"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace ts::app {
namespace {

std::string gifError(const std::string& path, const char* what, int code)
{
    const char* why = GifErrorString(code);
    return "Cannot write the GIF '" + path + "': " + what + " failed (" + (why ? why : "unknown giflib error") + ").";
}

}  // namespace

GifWriter::~GifWriter()
{
    if (gif_) {
        int err = 0;
        EGifCloseFile(gif_, &err);
    }
}

std::string GifWriter::open(const std::string& path, int w, int h, int delayMs)
{
    // Opened here rather than by EGifOpenFileName, which makes the file readable by its
    // owner only; giflib closes the descriptor with the file.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return "Cannot create the GIF '" + path + "' (is the folder there and writable?).";
    int err = 0;
    gif_ = EGifOpenFileHandle(fd, &err);
    if (!gif_) {
        ::close(fd);
        return gifError(path, "opening the file", err);
    }
    path_ = path;
    width_ = w;
    height_ = h;
    delayCs_ = std::max(1, (delayMs + 5) / 10);
    EGifSetGifVersion(gif_, true);   // GIF89a: delays and the loop extension
    if (EGifPutScreenDesc(gif_, w, h, 8, 0, nullptr) == GIF_ERROR) return gifError(path_, "the screen descriptor", gif_->Error);
    // NETSCAPE2.0: loop count 0, i.e. forever.
    const unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_) == GIF_ERROR)
        return gifError(path_, "the loop extension", gif_->Error);
    return "";
}

std::string GifWriter::addFrame(const Image& frame)
{
    if (!gif_) return "Cannot add a GIF frame: no file is open.";
    if (frame.width != width_ || frame.height != height_)
        return "Cannot add a " + std::to_string(frame.width) + " x " + std::to_string(frame.height) +
               " frame to the GIF '" + path_ + "' of " + std::to_string(width_) + " x " + std::to_string(height_) + ".";
    const size_t n = static_cast<size_t>(width_) * height_;
    std::vector<GifByteType> r(n), g(n), b(n), index(n);
    for (size_t i = 0; i < n; ++i) {
        r[i] = frame.rgba[4 * i];
        g[i] = frame.rgba[4 * i + 1];
        b[i] = frame.rgba[4 * i + 2];
    }
    int colours = 256;
    std::vector<GifColorType> palette(256);
    if (GifQuantizeBuffer(width_, height_, &colours, r.data(), g.data(), b.data(), index.data(), palette.data()) ==
        GIF_ERROR)
        return "Cannot reduce a frame of '" + path_ + "' to 256 colours (giflib's quantiser failed).";
    // giflib wants a power-of-two palette size.
    int size = 2;
    while (size < colours) size *= 2;
    ColorMapObject* map = GifMakeMapObject(size, palette.data());
    if (!map) return "Cannot make the GIF palette for '" + path_ + "'.";

    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = delayCs_;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    const size_t extLen = EGifGCBToExtension(&gcb, ext);
    std::string error;
    if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(extLen), ext) == GIF_ERROR)
        error = gifError(path_, "a frame's delay", gif_->Error);
    else if (EGifPutImageDesc(gif_, 0, 0, width_, height_, false, map) == GIF_ERROR)
        error = gifError(path_, "a frame's descriptor", gif_->Error);
    else
        for (int y = 0; y < height_ && error.empty(); ++y)
            if (EGifPutLine(gif_, index.data() + static_cast<size_t>(y) * width_, width_) == GIF_ERROR)
                error = gifError(path_, "a frame's pixels", gif_->Error);
    GifFreeMapObject(map);
    return error;
}

std::string GifWriter::close()
{
    if (!gif_) return "";
    int err = 0;
    const int rc = EGifCloseFile(gif_, &err);
    gif_ = nullptr;
    return rc == GIF_ERROR ? gifError(path_, "closing the file", err) : "";
}

}  // namespace ts::app
