// export_cancel_check: Cancel stops an export from the app (runExport with its cancel flag,
// as the progress corner's Cancel button sets it) and leaves only whole pictures behind.
//
// Exports steps 0..79 of the tiled-64-tile16 preset as PNGs by running the tilescope binary
// given, sets the flag once two pictures are written, and checks: the export ends long before
// 80 pictures, the message names how many were kept, that many step-*.png files are there,
// each one decodes as a whole PNG of the export's size, and no NAME.part file (a picture
// being written when the child was stopped) is left.
//
// Usage: export_cancel_check TILESCOPE DIR. Prints "FAIL: ..." per failed check, else
// "export_cancel_check: N checks passed".
#include <stb_image.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "export_job.hpp"
#include "gui_check.hpp"

namespace fs = std::filesystem;
using namespace ts::test::gui;

namespace {

int count(const fs::path& dir, const std::string& ext)
{
    int n = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.path().extension() == ext) ++n;
    return n;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: export_cancel_check TILESCOPE DIR\n");
        return 2;
    }
    const fs::path dir = argv[2];
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path scenario = dir / "scenario.toml";
    std::ofstream(scenario) << "title = \"Export cancel\"\nkernel = \"matmul-tiled\"\nwidth = 64\ntile = 16\n";

    ts::app::ExportRequest r;
    r.program = argv[1];
    r.scenarioFile = scenario.string();
    r.from = 0;
    r.to = 79;
    r.dir = (dir / "out").string();
    r.width = 1280;
    r.height = 720;
    std::atomic<float> progress{0};
    std::atomic<bool> cancel{false};
    ts::app::ExportOutcome outcome;
    const auto t0 = std::chrono::steady_clock::now();
    std::thread worker([&] { outcome = ts::app::runExport(r, progress, &cancel); });
    // Two pictures written (or a minute gone), then Cancel.
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
        if (fs::is_directory(r.dir) && count(r.dir, ".png") >= 2) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    cancel = true;
    worker.join();

    const int kept = count(r.dir, ".png");
    std::printf("export_cancel_check: %s (%d pictures kept)\n", outcome.message.c_str(), kept);
    expect(!outcome.failed, "a cancelled export is not reported as an error");
    expect(kept >= 2 && kept < 80, "the export stopped early: " + std::to_string(kept) + " of 80 pictures");
    expect(outcome.message == "Export cancelled after " + std::to_string(kept) + " of 80 steps; the " +
                                  std::to_string(kept) + " files in " + r.dir + " stay.",
           "the message names the pictures kept: '" + outcome.message + "'");
    expect(count(r.dir, ".part") == 0, "no half-written picture (NAME.part) is left");
    for (const fs::directory_entry& e : fs::directory_iterator(r.dir)) {
        int w = 0, h = 0, n = 0;
        unsigned char* px = stbi_load(e.path().c_str(), &w, &h, &n, 4);
        expect(px && w == 1280 && h == 720, e.path().filename().string() + " decodes as a whole 1280x720 PNG");
        stbi_image_free(px);
    }
    return finish("export_cancel_check");
}
