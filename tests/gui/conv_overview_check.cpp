// Checks the Convolution panel's overview of a large input in a screenshot (the heatmap on):
// the largest patch of one colour, 4-connected (with the patches beside it that a frame across
// a strip cuts off), must be at least MIN_W x MIN_H pixels and
// fill most of its bounding box (the whole N in the colour map, which covers no other
// picture of the window so widely: the close-up's cells are a few pixels each with gaps),
// and inside it a white frame (the palette's `selected`) at least 14 pixels a side must mark
// the close-up's part.
// Usage: conv_overview_check FILE.png R G B MIN_W MIN_H. Exit 0 if it passes, 1 with one
// sentence if not, 2 for bad arguments.
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 7) {
        std::fprintf(stderr, "usage: conv_overview_check FILE.png R G B MIN_W MIN_H\n");
        return 2;
    }
    const int want[3] = {std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4])};
    const int minW = std::atoi(argv[5]), minH = std::atoi(argv[6]);
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "conv_overview_check: cannot read %s as PNG: %s.\n", argv[1], stbi_failure_reason());
        return 1;
    }
    auto near = [&](long i, const int* rgb, int tol) {
        for (int c = 0; c < 3; ++c)
            if (std::abs(px[3 * i + c] - rgb[c]) > tol) return false;
        return true;
    };
    // The largest 4-connected patch of the colour.
    std::vector<int> label(static_cast<size_t>(w) * h, -1);
    struct Patch {
        long count = 0;
        int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    } best;
    std::vector<long> stack;
    std::vector<Patch> patches;
    for (long start = 0; start < 1L * w * h; ++start) {
        if (label[start] >= 0 || !near(start, want, 3)) continue;
        Patch p{0, w, h, -1, -1};
        stack.assign(1, start);
        label[start] = 1;
        while (!stack.empty()) {
            const long i = stack.back();
            stack.pop_back();
            const int x = static_cast<int>(i % w), y = static_cast<int>(i / w);
            ++p.count;
            p.x0 = std::min(p.x0, x);
            p.y0 = std::min(p.y0, y);
            p.x1 = std::max(p.x1, x);
            p.y1 = std::max(p.y1, y);
            const long next[4] = {x > 0 ? i - 1 : -1, x + 1 < w ? i + 1 : -1, y > 0 ? i - w : -1, y + 1 < h ? i + w : -1};
            for (long j : next)
                if (j >= 0 && label[j] < 0 && near(j, want, 3)) {
                    label[j] = 1;
                    stack.push_back(j);
                }
        }
        if (p.count >= 50) patches.push_back(p);
        if (p.count > best.count) best = p;
    }
    // A frame across a 1D strip cuts it in two: patches beside the largest, on the same rows
    // (or columns) and at most 40 pixels from it, count as part of it.
    for (bool merged = true; merged;) {
        merged = false;
        for (Patch& q : patches) {
            if (q.count == 0 || (q.x0 >= best.x0 && q.x1 <= best.x1 && q.y0 >= best.y0 && q.y1 <= best.y1)) continue;
            const bool rows = q.y0 >= best.y0 - 2 && q.y1 <= best.y1 + 2 && std::max(q.x0 - best.x1, best.x0 - q.x1) <= 40;
            const bool cols = q.x0 >= best.x0 - 2 && q.x1 <= best.x1 + 2 && std::max(q.y0 - best.y1, best.y0 - q.y1) <= 40;
            if (!rows && !cols) continue;
            best = Patch{best.count + q.count, std::min(best.x0, q.x0), std::min(best.y0, q.y0), std::max(best.x1, q.x1),
                         std::max(best.y1, q.y1)};
            q.count = 0;
            merged = true;
        }
    }
    const int bw = best.x1 - best.x0 + 1, bh = best.y1 - best.y0 + 1;
    std::printf("conv_overview_check: largest patch of (%d, %d, %d): %ld pixels, %d x %d at (%d, %d)\n", want[0], want[1],
                want[2], best.count, bw, bh, best.x0, best.y0);
    if (bw < minW || bh < minH || best.count < 0.7 * bw * bh) {
        std::fprintf(stderr, "conv_overview_check: no overview in the colour: the largest patch is %d x %d pixels "
                             "(%ld of them), expected at least %d x %d, mostly filled.\n", bw, bh, best.count, minW, minH);
        stbi_image_free(px);
        return 1;
    }
    // The white frame inside the patch's box (the frame may stand 4 pixels out of a strip).
    const int white[3] = {255, 255, 255};
    int fx0 = w, fy0 = h, fx1 = -1, fy1 = -1;
    long whites = 0;
    for (int y = std::max(0, best.y0 - 4); y <= std::min(h - 1, best.y1 + 4); ++y)
        for (int x = best.x0; x <= best.x1; ++x)
            if (near(1L * y * w + x, white, 8)) {
                ++whites;
                fx0 = std::min(fx0, x);
                fy0 = std::min(fy0, y);
                fx1 = std::max(fx1, x);
                fy1 = std::max(fy1, y);
            }
    stbi_image_free(px);
    const int fw = fx1 - fx0 + 1, fh = fy1 - fy0 + 1;
    std::printf("conv_overview_check: white frame %d x %d at (%d, %d), %ld pixels\n", fw, fh, fx0, fy0, whites);
    if (whites < 40 || fw < 14 || fh < 14 || fw > bw / 2) {
        std::fprintf(stderr, "conv_overview_check: no white frame of at least 14 x 14 pixels on the overview "
                             "(%ld white pixels, %d x %d).\n", whites, fw, fh);
        return 1;
    }
    std::printf("conv_overview_check: overview and frame found\n");
    return 0;
}
