// Checks an animated GIF: read with giflib, its logical screen is WIDTHxHEIGHT, it holds FRAMES
// images, it loops (a NETSCAPE2.0 application extension), every frame has a graphics control
// block with a delay above 0, and the frames are not all the same picture. Frames are composed
// the way a viewer shows them: each image (which may cover only part of the screen) is drawn
// over the previous picture, its transparent index left out, then disposed of as its graphics
// control block says (keep, restore to background, or restore to the previous picture). Where
// PNGs are given, one per frame and WIDTHxHEIGHT each, composed frame i is compared with PNG i:
// per pixel the largest absolute difference over R, G and B; the mean must be at most 8 and at
// least 95% of the pixels within 48.
// Usage: gif_check FILE.gif WIDTH HEIGHT FRAMES [FRAME0.png FRAME1.png ...]. Prints figures for
// each frame; exit 0 if it passes, 1 with one sentence if not, 2 on bad usage.
#include <gif_lib.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kUsage = "usage: gif_check FILE.gif WIDTH HEIGHT FRAMES [FRAME0.png FRAME1.png ...]\n";
const double kMaxMeanDiff = 8;      // colour quantisation to 256 colours stays well below this
const double kMinCloseShare = 0.95;
const int kCloseTolerance = 48;

/// Parses a whole positive integer (at most 100000); false if the text is not one.
bool parsePositive(const char* text, int& out)
{
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > 100000) return false;
    out = static_cast<int>(v);
    return true;
}

/// The loop count from a NETSCAPE2.0 application extension among these blocks (0 means
/// forever), or -1 if there is none.
int findLoopCount(const ExtensionBlock* blocks, int count)
{
    for (int i = 0; i < count; ++i) {
        const ExtensionBlock& b = blocks[i];
        if (b.Function != APPLICATION_EXT_FUNC_CODE || b.ByteCount < 11 ||
            std::memcmp(b.Bytes, "NETSCAPE2.0", 11) != 0)
            continue;
        // The loop count is in the sub-block that follows: 1, then a little-endian 16-bit count.
        if (i + 1 < count && blocks[i + 1].Function == CONTINUE_EXT_FUNC_CODE && blocks[i + 1].ByteCount >= 3 &&
            blocks[i + 1].Bytes[0] == 1)
            return blocks[i + 1].Bytes[1] | (blocks[i + 1].Bytes[2] << 8);
        return 0;
    }
    return -1;
}

/// Mean and close share of the per-pixel difference (largest over R, G, B) of two RGB buffers.
void compareRgb(const unsigned char* a, const unsigned char* b, long pixels, double& mean, double& closeShare)
{
    double sum = 0;
    long close = 0;
    for (long i = 0; i < pixels; ++i) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(a[3 * i + c] - b[3 * i + c]));
        sum += d;
        if (d <= kCloseTolerance) ++close;
    }
    mean = pixels ? sum / pixels : 0;
    closeShare = pixels ? static_cast<double>(close) / pixels : 1;
}

/// Closes the GIF on every way out of main.
struct GifCloser {
    GifFileType* gif;
    ~GifCloser()
    {
        int err = 0;
        if (gif) DGifCloseFile(gif, &err);
    }
};

}  // namespace

int main(int argc, char** argv)
{
    int wantW = 0, wantH = 0, wantFrames = 0;
    if (argc < 5 || !parsePositive(argv[2], wantW) || !parsePositive(argv[3], wantH) ||
        !parsePositive(argv[4], wantFrames)) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    const int pngCount = argc - 5;
    if (pngCount != 0 && pngCount != wantFrames) {
        std::fprintf(stderr, "gif_check: give no PNG or one per frame (%d), not %d.\n%s", wantFrames, pngCount,
                     kUsage);
        return 2;
    }

    int err = 0;
    GifCloser file{DGifOpenFileName(argv[1], &err)};
    GifFileType* gif = file.gif;
    if (!gif) {
        std::fprintf(stderr, "gif_check: cannot open %s as GIF: %s.\n", argv[1], GifErrorString(err));
        return 1;
    }
    if (DGifSlurp(gif) != GIF_OK) {  // DGifSlurp also puts the rows of interlaced images in order
        std::fprintf(stderr, "gif_check: cannot read %s: %s.\n", argv[1], GifErrorString(gif->Error));
        return 1;
    }

    const int w = gif->SWidth, h = gif->SHeight, frames = gif->ImageCount;
    int loop = -1;
    for (int i = 0; i < frames && loop < 0; ++i)
        loop = findLoopCount(gif->SavedImages[i].ExtensionBlocks, gif->SavedImages[i].ExtensionBlockCount);
    if (loop < 0) loop = findLoopCount(gif->ExtensionBlocks, gif->ExtensionBlockCount);
    std::printf("gif_check: %s is %dx%d, %d frames, %s\n", argv[1], w, h, frames,
                loop < 0 ? "no NETSCAPE2.0 loop extension"
                         : loop == 0 ? "loops forever" : ("loops " + std::to_string(loop) + " times").c_str());

    // The first failure found, reported after all the figures are printed.
    std::string failure;
    auto fail = [&failure](const std::string& sentence) {
        if (failure.empty()) failure = sentence;
    };
    if (w != wantW || h != wantH)
        fail("the logical screen is " + std::to_string(w) + "x" + std::to_string(h) + ", expected " +
             std::to_string(wantW) + "x" + std::to_string(wantH) + ".");
    if (frames != wantFrames)
        fail("it holds " + std::to_string(frames) + " frames, expected " + std::to_string(wantFrames) + ".");
    if (loop < 0) fail("it does not loop (no NETSCAPE2.0 application extension).");

    // The screen starts as the background colour of the global colour map (black without one).
    unsigned char background[3] = {0, 0, 0};
    if (gif->SColorMap && gif->SBackGroundColor < gif->SColorMap->ColorCount) {
        const GifColorType& bg = gif->SColorMap->Colors[gif->SBackGroundColor];
        background[0] = bg.Red;
        background[1] = bg.Green;
        background[2] = bg.Blue;
    }
    const long pixels = 1L * w * h;
    std::vector<unsigned char> canvas(3 * static_cast<size_t>(pixels));
    for (long i = 0; i < pixels; ++i) std::copy_n(background, 3, &canvas[3 * i]);
    std::vector<std::vector<unsigned char>> composed;
    int differingPairs = 0;

    for (int f = 0; f < frames; ++f) {
        const SavedImage& img = gif->SavedImages[f];
        const GifImageDesc& d = img.ImageDesc;
        GraphicsControlBlock gcb{};
        const bool hasGcb = DGifSavedExtensionToGCB(gif, f, &gcb) == GIF_OK;
        if (!hasGcb) {
            gcb.DisposalMode = DISPOSAL_UNSPECIFIED;
            gcb.DelayTime = 0;
            gcb.TransparentColor = NO_TRANSPARENT_COLOR;
            fail("frame " + std::to_string(f) + " has no graphics control block.");
        } else if (gcb.DelayTime <= 0) {
            fail("frame " + std::to_string(f) + " has a delay of 0.");
        }
        const ColorMapObject* map = d.ColorMap ? d.ColorMap : gif->SColorMap;
        const std::string name = "frame " + std::to_string(f);
        if (!map) {
            fail(name + " has no colour map (neither its own nor a global one).");
            break;
        }
        if (d.Left < 0 || d.Top < 0 || d.Left + d.Width > w || d.Top + d.Height > h) {
            fail(name + "'s rectangle " + std::to_string(d.Width) + "x" + std::to_string(d.Height) + " at (" +
                 std::to_string(d.Left) + ", " + std::to_string(d.Top) + ") reaches past the " + std::to_string(w) +
                 "x" + std::to_string(h) + " screen.");
            break;
        }

        const std::vector<unsigned char> before = canvas;
        long badIndex = 0;
        for (int y = 0; y < d.Height; ++y)
            for (int x = 0; x < d.Width; ++x) {
                const int index = img.RasterBits[static_cast<size_t>(y) * d.Width + x];
                if (index == gcb.TransparentColor) continue;
                if (index >= map->ColorCount) {
                    ++badIndex;
                    continue;
                }
                const GifColorType& c = map->Colors[index];
                unsigned char* p = &canvas[3 * (static_cast<size_t>(d.Top + y) * w + d.Left + x)];
                p[0] = c.Red;
                p[1] = c.Green;
                p[2] = c.Blue;
            }
        if (badIndex) fail(name + " uses colour indices past the end of its colour map.");
        composed.push_back(canvas);
        // Pixels that differ from the frame shown before (from the background for the first).
        const std::vector<unsigned char>& shownBefore = f > 0 ? composed[f - 1] : before;
        long changed = 0;
        for (long i = 0; i < pixels; ++i)
            if (std::memcmp(&shownBefore[3 * i], &canvas[3 * i], 3) != 0) ++changed;
        if (f > 0 && changed > 0) ++differingPairs;
        std::printf("frame %d: %dx%d at (%d,%d)%s, delay %d cs, transparent %s, disposal %d, %ld pixels changed%s\n",
                    f, d.Width, d.Height, d.Left, d.Top, d.Interlace ? " interlaced" : "", gcb.DelayTime,
                    gcb.TransparentColor == NO_TRANSPARENT_COLOR ? "none"
                                                                 : std::to_string(gcb.TransparentColor).c_str(),
                    gcb.DisposalMode, changed, f == 0 ? " (from the background)" : "");

        // Disposal, before the next frame is drawn.
        if (gcb.DisposalMode == DISPOSE_BACKGROUND) {
            for (int y = 0; y < d.Height; ++y)
                for (int x = 0; x < d.Width; ++x)
                    std::copy_n(background, 3, &canvas[3 * (static_cast<size_t>(d.Top + y) * w + d.Left + x)]);
        } else if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
            canvas = before;
        }
    }
    if (frames >= 2 && static_cast<int>(composed.size()) == frames) {
        std::printf("frames that differ from the one before: %d of %d\n", differingPairs, frames - 1);
        if (differingPairs == 0) fail("all " + std::to_string(frames) + " frames show the same picture.");
    }

    // Composed frames against the PNGs given: each frame must match its own PNG, and match
    // it better than any other PNG given, so that frames in the wrong order fail even when
    // neighbouring steps differ by less than the quantisation noise.
    const int compared = std::min(pngCount, static_cast<int>(composed.size()));
    std::vector<std::vector<unsigned char>> pngs;
    for (int f = 0; f < compared; ++f) {
        const char* path = argv[5 + f];
        int pw = 0, ph = 0, n = 0;
        unsigned char* png = stbi_load(path, &pw, &ph, &n, 3);
        if (!png) {
            std::printf("frame %d vs %s: unreadable\n", f, path);
            fail(std::string("cannot read ") + path + " as PNG: " + stbi_failure_reason() + ".");
            break;
        }
        if (pw != w || ph != h) {
            std::printf("frame %d vs %s: PNG is %dx%d\n", f, path, pw, ph);
            fail(std::string(path) + " is " + std::to_string(pw) + "x" + std::to_string(ph) + " but the GIF is " +
                 std::to_string(w) + "x" + std::to_string(h) + ".");
            stbi_image_free(png);
            break;
        }
        pngs.emplace_back(png, png + 3 * pixels);
        stbi_image_free(png);
    }
    if (static_cast<int>(pngs.size()) == compared) {
        for (int f = 0; f < compared; ++f) {
            const char* path = argv[5 + f];
            double mean = 0, close = 0;
            compareRgb(composed[f].data(), pngs[f].data(), pixels, mean, close);
            std::printf("frame %d vs %s: mean_abs_diff %.3f close_fraction %.4f", f, path, mean, close);
            if (mean > kMaxMeanDiff || close < kMinCloseShare) {
                char sentence[512];
                std::snprintf(sentence, sizeof sentence,
                              "frame %d differs from %s (mean abs diff %.3f, limit %g; %.4f of pixels within %d, "
                              "need %g).",
                              f, path, mean, kMaxMeanDiff, close, kCloseTolerance, kMinCloseShare);
                fail(sentence);
            }
            for (int g = 0; g < compared; ++g) {
                if (g == f || pngs[g] == pngs[f]) continue;
                double other = 0, otherClose = 0;
                compareRgb(composed[f].data(), pngs[g].data(), pixels, other, otherClose);
                std::printf("; vs frame %d's PNG %.3f", g, other);
                if (other <= mean)
                    fail("frame " + std::to_string(f) + " is as close to " + argv[5 + g] + " as to " + path +
                         ": the frames are not the steps in order.");
            }
            std::printf("\n");
        }
    }

    if (!failure.empty()) {
        std::fprintf(stderr, "gif_check: %s: %s\n", argv[1], failure.c_str());
        return 1;
    }
    return 0;
}
