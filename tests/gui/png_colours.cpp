// Counts the pixels of a screenshot that have one colour, for GUI tests that check what a
// panel draws (the heatmap's colours in the Matrices panel).
// Usage: png_colours FILE.png R G B TOLERANCE LEAST [MOST]: the pixels whose red, green and
// blue each lie within TOLERANCE (0-255) of R G B; prints their number and exits 0 if it is
// at least LEAST (and at most MOST, when given), 1 with one sentence if not, 2 for bad
// arguments.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc != 7 && argc != 8) {
        std::fprintf(stderr, "usage: png_colours FILE.png R G B TOLERANCE LEAST [MOST]\n");
        return 2;
    }
    const int want[3] = {std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4])};
    const int tol = std::atoi(argv[5]);
    const long least = std::atol(argv[6]), most = argc == 8 ? std::atol(argv[7]) : -1;
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "png_colours: cannot read %s as PNG: %s.\n", argv[1], stbi_failure_reason());
        return 1;
    }
    long count = 0;
    for (long i = 0; i < 1L * w * h; ++i) {
        bool close = true;
        for (int c = 0; c < 3; ++c) close = close && std::abs(px[3 * i + c] - want[c]) <= tol;
        count += close ? 1 : 0;
    }
    stbi_image_free(px);
    std::printf("png_colours: %ld pixels of (%d, %d, %d) within %d in %s\n", count, want[0], want[1], want[2], tol, argv[1]);
    if (count < least || (most >= 0 && count > most)) {
        std::fprintf(stderr, "png_colours: %ld pixels of that colour, expected %ld%s%s.\n", count, least,
                     most >= 0 ? " to " : " or more", most >= 0 ? argv[7] : "");
        return 1;
    }
    return 0;
}
