// Checks that a screenshot is a real picture: the PNG reads back, has the expected size,
// and is not blank (many distinct colours, no single colour covering almost everything).
// Usage: png_check FILE.png WIDTH HEIGHT (0 0: any size). Exit 0 if it passes, 1 with one
// sentence if not.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <map>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: png_check FILE.png WIDTH HEIGHT\n");
        return 2;
    }
    const int wantW = std::atoi(argv[2]), wantH = std::atoi(argv[3]);
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "png_check: cannot read %s as PNG: %s.\n", argv[1], stbi_failure_reason());
        return 1;
    }
    std::map<unsigned, long> count;
    for (long i = 0; i < 1L * w * h; ++i)
        ++count[(px[3 * i] << 16) | (px[3 * i + 1] << 8) | px[3 * i + 2]];
    stbi_image_free(px);
    long most = 0;
    for (auto& [c, k] : count) most = std::max(most, k);
    const double share = static_cast<double>(most) / (static_cast<double>(w) * h);
    std::printf("png_check: %s is %dx%d, %zu distinct colours, the commonest covers %.1f%%\n", argv[1], w, h,
                count.size(), 100 * share);
    if ((wantW || wantH) && (w != wantW || h != wantH)) {
        std::fprintf(stderr, "png_check: expected %dx%d pixels, got %dx%d.\n", wantW, wantH, w, h);
        return 1;
    }
    if (count.size() < 64 || share > 0.9) {
        std::fprintf(stderr, "png_check: the picture looks blank (%zu colours, one covers %.1f%%).\n",
                     count.size(), 100 * share);
        return 1;
    }
    return 0;
}
