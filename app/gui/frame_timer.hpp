// GPU time per frame for `tilescope --frames N`: an OpenGL timer query (GL_TIME_ELAPSED,
// core in OpenGL 3.3) around each frame's GL work (the heatmap's offscreen pictures drawn
// while the panels are built, and ImGui's draw lists), read back a few frames later so that
// the CPU never waits for the GPU while frames are counted. Under Xvfb the "GPU" is Mesa's
// llvmpipe, which rasterises on the CPU's other threads.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

namespace ts::app {

class GpuFrameTimer {
public:
    /// Starts timing frame `frame` (the app's frame counter). Needs the GL context current.
    void begin(uint64_t frame);
    /// Ends the frame begun last.
    void end();
    /// Milliseconds of GPU time of frames [first, last], in frame order, for the frames whose
    /// queries were made; waits for the ones not finished yet.
    std::vector<double> millis(uint64_t first, uint64_t last);

private:
    void collect(bool wait);
    struct Pending {
        unsigned query = 0;
        uint64_t frame = 0;
    };
    std::vector<Pending> pending_;        ///< queries issued, not read yet, oldest first
    std::vector<unsigned> free_;          ///< query objects to reuse
    std::map<uint64_t, double> done_;     ///< frame -> milliseconds
    bool open_ = false;
};

}  // namespace ts::app
