// Simulates colour-vision deficiency on a screenshot, to look at the state colours the way
// a colour-blind student sees them: each pixel goes to linear RGB, through the matrix of
// Machado, Oliveira and Fernandes (2009) at severity 1, and back to sRGB.
// Usage: png_cvd deuteranopia|protanopia|tritanopia IN.png OUT.png. Exit 0, or 1 with one
// sentence.
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using Matrix = double[3][3];

constexpr Matrix kDeuteranopia = {{0.367322, 0.860646, -0.227968},
                                  {0.280085, 0.672501, 0.047413},
                                  {-0.011820, 0.042940, 0.968881}};
constexpr Matrix kProtanopia = {{0.152286, 1.052583, -0.204868},
                                {0.114503, 0.786281, 0.099216},
                                {-0.003882, -0.048116, 1.051998}};
constexpr Matrix kTritanopia = {{1.255528, -0.076749, -0.178779},
                                {-0.078411, 0.930809, 0.147602},
                                {0.004733, 0.691367, 0.303900}};

double toLinear(unsigned char c)
{
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

unsigned char toSrgb(double v)
{
    v = std::clamp(v, 0.0, 1.0);
    const double s = v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055;
    return static_cast<unsigned char>(std::lround(s * 255));
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: png_cvd deuteranopia|protanopia|tritanopia IN.png OUT.png\n");
        return 2;
    }
    const Matrix* m = !std::strcmp(argv[1], "deuteranopia") ? &kDeuteranopia
                      : !std::strcmp(argv[1], "protanopia") ? &kProtanopia
                      : !std::strcmp(argv[1], "tritanopia") ? &kTritanopia
                                                            : nullptr;
    if (!m) {
        std::fprintf(stderr, "png_cvd: the deficiency must be deuteranopia, protanopia or tritanopia; got '%s'.\n", argv[1]);
        return 2;
    }
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[2], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "png_cvd: cannot read %s as PNG: %s.\n", argv[2], stbi_failure_reason());
        return 1;
    }
    std::vector<unsigned char> out(static_cast<size_t>(w) * h * 3);
    for (size_t i = 0; i < out.size(); i += 3) {
        const double r = toLinear(px[i]), g = toLinear(px[i + 1]), b = toLinear(px[i + 2]);
        for (int c = 0; c < 3; ++c) out[i + c] = toSrgb((*m)[c][0] * r + (*m)[c][1] * g + (*m)[c][2] * b);
    }
    stbi_image_free(px);
    if (!stbi_write_png(argv[3], w, h, 3, out.data(), w * 3)) {
        std::fprintf(stderr, "png_cvd: cannot write %s.\n", argv[3]);
        return 1;
    }
    std::printf("png_cvd: %s as seen with %s -> %s (%dx%d)\n", argv[2], argv[1], argv[3], w, h);
    return 0;
}
