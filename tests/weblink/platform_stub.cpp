// A stand-in for the app around the web Platform (app/gui/web_platform.cpp), built with em++
// by web_platform_check.py: it reads the page's address, writes a view link into it, offers a
// file as a download, waits for a link typed into the address bar and for a file from the
// chooser (handed over by the page as its change handler would), printing what it saw.
#include <emscripten.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

#include "web_platform.hpp"

namespace ImGui {
void SetClipboardText(const char*) {}   // the desktop's copy, unused on the web
}

namespace {

std::unique_ptr<ts::app::Platform> platform;
int frames = 0;

void frame()
{
    if (std::optional<std::string> typed = platform->linkTyped()) std::printf("typed %s\n", typed->c_str());
    if (std::optional<ts::app::PickedFile> f = platform->pickedFile()) {
        std::ifstream in(f->path, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        std::printf("picked %d %s [%s] [%s]\n", static_cast<int>(f->kind), f->path.c_str(), text.c_str(), f->error.c_str());
    }
    if (++frames == 120) {
        std::string error;
        const std::optional<std::string> stored = platform->readStored("/home/web_user/.config/tilescope/settings.toml", error);
        std::printf("stored %s\n", stored ? stored->c_str() : "(none)");
        std::printf("done\n");
        emscripten_cancel_main_loop();
    }
}

}  // namespace

int main()
{
    platform = ts::app::makePlatform();
    std::printf("start %s\n", platform->startupViewLink().c_str());
    std::printf("picks %d stores %d\n", platform->picksFiles() ? 1 : 0, platform->storesOnChange() ? 1 : 0);
    platform->viewChanged("preset=tiled-4x4&step=7");   // the app's own change: never "typed"
    std::printf("share %s\n", platform->shareableLink("preset=tiled-4x4&step=7").c_str());
    const std::string e = platform->writeStored("/home/web_user/.config/tilescope/settings.toml", "theme = \"light\"\n");
    std::printf("write [%s]\n", e.c_str());
    {
        std::ofstream png("/tmp/shot.png", std::ios::binary);
        png << "\x89PNG not a picture";
    }
    std::printf("offer %s\n", platform->offerFile("/tmp/shot.png").c_str());
    emscripten_set_main_loop(frame, 60, 0);
}
