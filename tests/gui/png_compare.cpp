// Checks that two PNGs of the same size show the same picture, within a tolerance: for each
// pixel the difference is the largest absolute difference over R, G and B (alpha is ignored);
// the images are close when the mean of that difference is at most M and at least a fraction F
// of the pixels differ by at most T. With --expect-different the verdict is turned round (the
// negative control: the comparison can fail), and pictures up to 2 px apart in width or
// height are compared over their common top-left part.
// Usage: png_compare A.png B.png [--max-mean M] [--min-close F] [--tol T] [--expect-different]
// (defaults M 6, F 0.97, T 48). Prints "mean_abs_diff X close_fraction Y"; exit 0 if it passes,
// 1 with one sentence if not, 2 on bad usage.
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

const char* const kUsage =
    "usage: png_compare A.png B.png [--max-mean M] [--min-close F] [--tol T] [--expect-different]\n";

/// Parses a non-negative finite number; false if the text is not entirely one.
bool parseNumber(const char* text, double& out)
{
    char* end = nullptr;
    out = std::strtod(text, &end);
    return end != text && *end == '\0' && std::isfinite(out) && out >= 0;
}

/// An RGB picture read with stb_image (3 bytes a pixel), freed on destruction.
struct Rgb {
    int w = 0, h = 0;
    unsigned char* px = nullptr;
    ~Rgb() { stbi_image_free(px); }
};

}  // namespace

int main(int argc, char** argv)
{
    const char* paths[2] = {nullptr, nullptr};
    int npaths = 0;
    double maxMean = 6, minClose = 0.97, tol = 48;
    bool expectDifferent = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        double* target = a == "--max-mean" ? &maxMean : a == "--min-close" ? &minClose : a == "--tol" ? &tol : nullptr;
        if (target) {
            if (i + 1 >= argc || !parseNumber(argv[i + 1], *target)) {
                std::fprintf(stderr, "png_compare: %s needs a non-negative number.\n%s", a.c_str(), kUsage);
                return 2;
            }
            ++i;
        } else if (a == "--expect-different") {
            expectDifferent = true;
        } else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "png_compare: unknown option %s.\n%s", a.c_str(), kUsage);
            return 2;
        } else if (npaths < 2) {
            paths[npaths++] = argv[i];
        } else {
            std::fprintf(stderr, "png_compare: too many files.\n%s", kUsage);
            return 2;
        }
    }
    if (npaths != 2) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    if (minClose > 1) {
        std::fprintf(stderr, "png_compare: --min-close is a fraction between 0 and 1.\n%s", kUsage);
        return 2;
    }

    Rgb img[2];
    for (int k = 0; k < 2; ++k) {
        int n = 0;
        img[k].px = stbi_load(paths[k], &img[k].w, &img[k].h, &n, 3);
        if (!img[k].px) {
            std::fprintf(stderr, "png_compare: cannot read %s as PNG: %s.\n", paths[k], stbi_failure_reason());
            return 1;
        }
    }
    std::printf("png_compare: %s is %dx%d, %s is %dx%d\n", paths[0], img[0].w, img[0].h, paths[1], img[1].w,
                img[1].h);
    // The negative control compares two steps' pictures of one panel, whose heights may differ
    // by a pixel of rounding: it compares their common top-left part, which must differ.
    const bool nearSize = std::abs(img[0].w - img[1].w) <= 2 && std::abs(img[0].h - img[1].h) <= 2;
    if ((img[0].w != img[1].w || img[0].h != img[1].h) && !(expectDifferent && nearSize)) {
        std::fprintf(stderr, "png_compare: %s is %dx%d but %s is %dx%d; the sizes must match.\n", paths[0],
                     img[0].w, img[0].h, paths[1], img[1].w, img[1].h);
        return 1;
    }

    const int w = std::min(img[0].w, img[1].w), h = std::min(img[0].h, img[1].h);
    const long pixels = 1L * w * h;
    double sum = 0;
    long close = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* a = img[0].px + 3 * (1L * y * img[0].w + x);
            const unsigned char* b = img[1].px + 3 * (1L * y * img[1].w + x);
            int d = 0;
            for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(a[c] - b[c]));
            sum += d;
            if (d <= tol) ++close;
        }
    const double mean = pixels ? sum / pixels : 0;
    const double closeFraction = pixels ? static_cast<double>(close) / pixels : 1;
    std::printf("mean_abs_diff %.3f close_fraction %.4f (tol %g; pass needs mean <= %g and close >= %g%s)\n", mean,
                closeFraction, tol, maxMean, minClose, expectDifferent ? ", inverted by --expect-different" : "");

    const bool isClose = mean <= maxMean && closeFraction >= minClose;
    if (isClose && expectDifferent) {
        std::fprintf(stderr,
                     "png_compare: the images were expected to differ but are close (mean %.3f <= %g, close "
                     "fraction %.4f >= %g).\n",
                     mean, maxMean, closeFraction, minClose);
        return 1;
    }
    if (!isClose && !expectDifferent) {
        std::fprintf(stderr,
                     "png_compare: the images differ too much (mean abs diff %.3f, limit %g; close fraction %.4f, "
                     "need %g).\n",
                     mean, maxMean, closeFraction, minClose);
        return 1;
    }
    return 0;
}
