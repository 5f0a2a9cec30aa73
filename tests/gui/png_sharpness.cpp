// Checks that a high-resolution screenshot was rendered at that resolution and not enlarged
// from a small one. FOUR_X must be exactly FACTOR times ONE_X in width and height, must show the
// same picture (box-filtered down to ONE_X's size, both blurred 3 x 3, mean abs difference at
// most 8), and must beat two enlargements of ONE_X made here in memory, the negative controls:
//  - "steep": among adjacent pixel pairs (across and down) whose luminance differs by >= 16, the
//    share that differ by >= 96. A bilinear enlargement spreads each edge over about FACTOR
//    pixels and has almost none; a nearest-neighbour one keeps ONE_X's own share. FOUR_X must be
//    at least halfway from the bilinear figure to the nearest-neighbour one.
//  - "blocky": among FACTORxFACTOR blocks whose neighbourhood (the block and a one-pixel ring) is
//    not one colour, the share that are one colour inside, at the block alignment where that is
//    largest. A nearest-neighbour enlargement scores 1; FOUR_X must score at least 0.3 less.
// Usage: png_sharpness ONE_X.png FOUR_X.png FACTOR (FACTOR an integer, 2 to 8). Prints the
// figures of all three images; exit 0 if it passes, 1 with one sentence if not, 2 on bad usage.
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Limits, from measuring the app's 2x, 3x and 4x screenshots (both themes, four scenarios,
// three window sizes) and enlargements of their 1x screenshots.
const double kMaxDownscaledDiff = 8;  // blurred; same step: measured 6.9; a neighbouring step 44
const double kBlockyMargin = 0.3;      // renders measured 0.28 to 0.45, nearest-neighbour 1.0
const double kMinSteepSpread = 0.05;   // below this the steepness cannot tell the two apart

/// An RGB picture, 3 bytes a pixel, rows top to bottom.
struct Image {
    int w = 0, h = 0;
    std::vector<unsigned char> px;
    const unsigned char* at(int x, int y) const { return &px[3 * (static_cast<size_t>(y) * w + x)]; }
};

/// Reads a PNG as RGB (alpha dropped); false if it cannot be read.
bool load(const char* path, Image& out)
{
    int n = 0;
    unsigned char* data = stbi_load(path, &out.w, &out.h, &n, 3);
    if (!data) return false;
    out.px.assign(data, data + 3 * static_cast<size_t>(out.w) * out.h);
    stbi_image_free(data);
    return true;
}

/// Luminance 0-255 of an RGB pixel (Rec. 709 weights in fixed point).
int luma(const unsigned char* p)
{
    return (54 * p[0] + 183 * p[1] + 19 * p[2] + 128) >> 8;
}

/// Enlarges by an integer factor, each source pixel becoming a factor x factor block.
Image nearestUpscale(const Image& src, int factor)
{
    Image out;
    out.w = src.w * factor;
    out.h = src.h * factor;
    out.px.resize(3 * static_cast<size_t>(out.w) * out.h);
    for (int y = 0; y < out.h; ++y)
        for (int x = 0; x < out.w; ++x)
            std::copy_n(src.at(x / factor, y / factor), 3, &out.px[3 * (static_cast<size_t>(y) * out.w + x)]);
    return out;
}

/// Enlarges by an integer factor with bilinear interpolation between source pixel centres
/// (edges clamped), the way an image viewer or a GPU texture sampler would.
Image bilinearUpscale(const Image& src, int factor)
{
    Image out;
    out.w = src.w * factor;
    out.h = src.h * factor;
    out.px.resize(3 * static_cast<size_t>(out.w) * out.h);
    for (int y = 0; y < out.h; ++y) {
        const double sy = (y + 0.5) / factor - 0.5;
        const int y0 = static_cast<int>(std::floor(sy));
        const double fy = sy - y0;
        const int ya = std::clamp(y0, 0, src.h - 1), yb = std::clamp(y0 + 1, 0, src.h - 1);
        for (int x = 0; x < out.w; ++x) {
            const double sx = (x + 0.5) / factor - 0.5;
            const int x0 = static_cast<int>(std::floor(sx));
            const double fx = sx - x0;
            const int xa = std::clamp(x0, 0, src.w - 1), xb = std::clamp(x0 + 1, 0, src.w - 1);
            for (int c = 0; c < 3; ++c) {
                const double top = src.at(xa, ya)[c] * (1 - fx) + src.at(xb, ya)[c] * fx;
                const double bottom = src.at(xa, yb)[c] * (1 - fx) + src.at(xb, yb)[c] * fx;
                out.px[3 * (static_cast<size_t>(y) * out.w + x) + c] =
                    static_cast<unsigned char>(std::lround(top * (1 - fy) + bottom * fy));
            }
        }
    }
    return out;
}

/// Shrinks by an integer factor, each output pixel the mean of a factor x factor block.
Image boxDownscale(const Image& src, int factor)
{
    Image out;
    out.w = src.w / factor;
    out.h = src.h / factor;
    out.px.resize(3 * static_cast<size_t>(out.w) * out.h);
    for (int y = 0; y < out.h; ++y)
        for (int x = 0; x < out.w; ++x)
            for (int c = 0; c < 3; ++c) {
                int sum = 0;
                for (int dy = 0; dy < factor; ++dy)
                    for (int dx = 0; dx < factor; ++dx) sum += src.at(x * factor + dx, y * factor + dy)[c];
                out.px[3 * (static_cast<size_t>(y) * out.w + x) + c] =
                    static_cast<unsigned char>((sum + factor * factor / 2) / (factor * factor));
            }
    return out;
}

/// A 3 x 3 box blur (the edge pixels average what they have): the picture at the scale of
/// frames, cells and lines of text, without the glyphs' antialiasing, which differs between
/// text rasterised at 1x and at 4x and shrunk.
Image boxBlur3(const Image& src)
{
    Image out = src;
    for (int y = 0; y < src.h; ++y)
        for (int x = 0; x < src.w; ++x)
            for (int c = 0; c < 3; ++c) {
                int sum = 0, n = 0;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int xx = x + dx, yy = y + dy;
                        if (xx < 0 || yy < 0 || xx >= src.w || yy >= src.h) continue;
                        sum += src.at(xx, yy)[c];
                        ++n;
                    }
                out.px[3 * (static_cast<size_t>(y) * src.w + x) + c] = static_cast<unsigned char>((sum + n / 2) / n);
            }
    return out;
}

/// The figures of one image: how steep its edges are and how blocky it is.
struct Measure {
    long edgePairs = 0;    ///< adjacent pixel pairs whose luminance differs by >= 16
    double steep = 0;      ///< share of those pairs whose luminance differs by >= 96
    long edgeBlocks = 0;   ///< aligned factor x factor blocks whose neighbourhood is not one colour
    double blocky = 0;     ///< share of those blocks that are one colour inside
    int phaseX = 0, phaseY = 0;  ///< the block alignment where that share is largest
};

/// True when two RGB pixels are exactly the same colour.
bool sameRgb(const unsigned char* a, const unsigned char* b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/// Measures edge steepness over all horizontal and vertical neighbours, and blockiness over
/// the aligned factor x factor blocks (the neighbourhood is the block plus a one-pixel ring).
Measure measure(const Image& img, int factor)
{
    Measure m;
    long steepPairs = 0;
    for (int y = 0; y < img.h; ++y)
        for (int x = 0; x < img.w; ++x) {
            const int l = luma(img.at(x, y));
            const int right = x + 1 < img.w ? std::abs(l - luma(img.at(x + 1, y))) : 0;
            const int down = y + 1 < img.h ? std::abs(l - luma(img.at(x, y + 1))) : 0;
            for (int d : {right, down})
                if (d >= 16) {
                    ++m.edgePairs;
                    if (d >= 96) ++steepPairs;
                }
        }
    m.steep = m.edgePairs ? static_cast<double>(steepPairs) / m.edgePairs : 0;

    // Blocks at every alignment: an enlargement shifted by a few pixels is as blocky as one
    // that is not, only at another phase. The phase that looks blockiest counts.
    for (int oy = 0; oy < factor; ++oy)
        for (int ox = 0; ox < factor; ++ox) {
            long edgeBlocks = 0, uniformBlocks = 0;
            for (int by = oy; by + factor <= img.h; by += factor)
                for (int bx = ox; bx + factor <= img.w; bx += factor) {
                    const unsigned char* first = img.at(bx, by);
                    bool inside = true;
                    for (int y = by; y < by + factor && inside; ++y)
                        for (int x = bx; x < bx + factor && inside; ++x) inside = sameRgb(img.at(x, y), first);
                    bool around = inside;
                    for (int y = std::max(by - 1, 0); y <= std::min(by + factor, img.h - 1) && around; ++y)
                        for (int x = std::max(bx - 1, 0); x <= std::min(bx + factor, img.w - 1) && around; ++x)
                            around = sameRgb(img.at(x, y), first);
                    if (around) continue;  // a flat area says nothing about how the image was made
                    ++edgeBlocks;
                    if (inside) ++uniformBlocks;
                }
            const double share = edgeBlocks ? static_cast<double>(uniformBlocks) / edgeBlocks : 0;
            if (ox + oy == 0 || share > m.blocky) {
                m.blocky = share;
                m.edgeBlocks = edgeBlocks;
                m.phaseX = ox;
                m.phaseY = oy;
            }
        }
    return m;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: png_sharpness ONE_X.png FOUR_X.png FACTOR\n");
        return 2;
    }
    char* end = nullptr;
    const long factor = std::strtol(argv[3], &end, 10);
    if (end == argv[3] || *end != '\0' || factor < 2 || factor > 8) {
        std::fprintf(stderr, "png_sharpness: FACTOR must be an integer from 2 to 8, not '%s'.\n"
                             "usage: png_sharpness ONE_X.png FOUR_X.png FACTOR\n", argv[3]);
        return 2;
    }
    const int f = static_cast<int>(factor);
    Image one, big;
    for (auto [path, img] : {std::pair{argv[1], &one}, std::pair{argv[2], &big}})
        if (!load(path, *img)) {
            std::fprintf(stderr, "png_sharpness: cannot read %s as PNG: %s.\n", path, stbi_failure_reason());
            return 1;
        }
    std::printf("png_sharpness: %s is %dx%d, %s is %dx%d, factor %d\n", argv[1], one.w, one.h, argv[2], big.w,
                big.h, f);
    if (big.w != one.w * f || big.h != one.h * f) {
        std::fprintf(stderr, "png_sharpness: %s is %dx%d but %d times %s (%dx%d) is %dx%d.\n", argv[2], big.w,
                     big.h, f, argv[1], one.w, one.h, one.w * f, one.h * f);
        return 1;
    }

    // Same picture: the large one, shrunk back, against the small one, both blurred 3 x 3.
    // Text rasterised at 4x and averaged down is not the 1x rasterisation; the blur takes
    // most of that away (tiled-4x4 at 800x500, step 4: 10.8 unblurred, 6.9 blurred), while a
    // neighbouring step of the same scenario still differs by 44 blurred.
    const Image shrunk = boxBlur3(boxDownscale(big, f)), oneBlurred = boxBlur3(one);
    double sum = 0;
    const long pixels = 1L * one.w * one.h;
    for (long i = 0; i < pixels; ++i) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(shrunk.px[3 * i + c] - oneBlurred.px[3 * i + c]));
        sum += d;
    }
    const double downMean = pixels ? sum / pixels : 0;
    std::printf("downscaled vs 1x: mean_abs_diff %.3f (limit %g)\n", downMean, kMaxDownscaledDiff);

    const Measure mBig = measure(big, f);
    const Measure mBil = measure(bilinearUpscale(one, f), f);
    const Measure mNn = measure(nearestUpscale(one, f), f);
    for (auto [name, m] : {std::pair{"FOUR_X", &mBig}, std::pair{"bilinear", &mBil}, std::pair{"nearest", &mNn}})
        std::printf("%-8s steep %.4f (of %ld edge pairs) blocky %.4f (of %ld edge blocks, phase %d,%d)\n", name,
                    m->steep, m->edgePairs, m->blocky, m->edgeBlocks, m->phaseX, m->phaseY);
    // The nearest-neighbour control keeps ONE_X's own steepness, the bilinear one shows how
    // steep a blurred enlargement is: FOUR_X must be at least halfway from the second to the first.
    const double needSteep = mBil.steep + 0.5 * (mNn.steep - mBil.steep);
    const double maxBlocky = mNn.blocky - kBlockyMargin;
    std::printf("need steep >= %.4f and blocky <= %.4f\n", needSteep, maxBlocky);

    if (downMean > kMaxDownscaledDiff) {
        std::fprintf(stderr,
                     "png_sharpness: %s shrunk to %dx%d differs from %s by %.3f on average (limit %g), so it is "
                     "not the same picture.\n",
                     argv[2], one.w, one.h, argv[1], downMean, kMaxDownscaledDiff);
        return 1;
    }
    if (mNn.steep - mBil.steep < kMinSteepSpread) {
        std::fprintf(stderr,
                     "png_sharpness: %s has too few steep edges to tell a rendering from an enlargement (its "
                     "steep share %.4f, bilinear enlargement %.4f).\n",
                     argv[1], mNn.steep, mBil.steep);
        return 1;
    }
    if (mBig.steep < needSteep) {
        std::fprintf(stderr,
                     "png_sharpness: %s looks like a smooth enlargement: its steep-edge share %.4f is below %.4f "
                     "(bilinear enlargement %.4f, 1x image %.4f).\n",
                     argv[2], mBig.steep, needSteep, mBil.steep, mNn.steep);
        return 1;
    }
    if (mBig.blocky > maxBlocky) {
        std::fprintf(stderr,
                     "png_sharpness: %s looks like a nearest-neighbour enlargement: %.4f of its edge blocks are one "
                     "colour (limit %.4f, nearest-neighbour enlargement %.4f).\n",
                     argv[2], mBig.blocky, maxBlocky, mNn.blocky);
        return 1;
    }
    return 0;
}
