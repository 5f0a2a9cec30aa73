#include "web_platform.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace ts::app {

std::optional<std::string> readTextFile(const std::string& path, std::string& error)
{
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot be read.";
        return std::nullopt;
    }
    return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string writeTextFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return "Cannot write '" + path + "' (is the folder writable?).";
    return {};
}

namespace {

/// The desktop: what the app has always done.
class DesktopPlatform final : public Platform {
public:
    std::string startupViewLink() override { return {}; }
    void viewChanged(const std::string&) override {}
    std::optional<std::string> linkTyped() override { return std::nullopt; }
    std::string shareableLink(const std::string& link) override { return link; }
    void copyText(const std::string& text) override { ImGui::SetClipboardText(text.c_str()); }

    std::optional<std::string> readStored(const std::string& path, std::string& error) override
    {
        return readTextFile(path, error);
    }
    std::string writeStored(const std::string& path, const std::string& text) override { return writeTextFile(path, text); }
    bool storesOnChange() const override { return false; }

    std::string offerFile(const std::string&) override { return {}; }

    bool picksFiles() const override { return false; }
    void startPick(PickKind) override {}
    std::optional<PickedFile> pickedFile() override { return std::nullopt; }

    void setFullScreen(GLFWwindow* window, bool on) override
    {
        // The monitor the window is on would be better; GLFW 3.3 gives the primary one simply.
        GLFWmonitor* monitor = on ? glfwGetPrimaryMonitor() : nullptr;
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (on && mode) {
            glfwGetWindowPos(window, &x_, &y_);
            glfwGetWindowSize(window, &w_, &h_);
            glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        } else if (!on && full_) {
            glfwSetWindowMonitor(window, nullptr, x_, y_, w_, h_, GLFW_DONT_CARE);
        }
        full_ = on && mode;
    }
    bool fullScreen() const override { return full_; }
    bool leftFullScreen() override { return false; }

private:
    bool full_ = false;
    int x_ = 0, y_ = 0, w_ = 0, h_ = 0;   ///< the window's place and size before full screen
};

}  // namespace
}  // namespace ts::app

#ifdef __EMSCRIPTEN__

// The page's side. Strings come back through a buffer the C++ side sizes: each function
// returns the bytes needed (with the terminating zero) and fills `out` when `size` is enough.
// Module.tilescope* hold the page's state between calls.

EM_JS(int, ts_web_hash, (char* out, int size), {
    var h = window.location.hash;
    if (h.charAt(0) == '#') h = h.substring(1);
    var n = lengthBytesUTF8(h) + 1;
    if (out && size >= n) stringToUTF8(h, out, size);
    return n;
});

EM_JS(void, ts_web_replace_hash, (const char* link), {
    var s = UTF8ToString(link);
    Module.tilescopeHash = s;
    if (window.location.hash.substring(1) === s) return;
    var base = window.location.href.split('#')[0];
    window.history.replaceState(window.history.state, "", base + '#' + s);
});

EM_JS(void, ts_web_watch_hash, (), {
    if (Module.tilescopeWatchingHash) return;
    Module.tilescopeWatchingHash = true;
    Module.tilescopeTyped = null;
    window.addEventListener('hashchange', function() {
        var h = window.location.hash.substring(1);
        if (h !== Module.tilescopeHash) Module.tilescopeTyped = h;
    });
});

EM_JS(int, ts_web_take_typed, (char* out, int size), {
    var h = Module.tilescopeTyped;
    if (h === null || h === undefined) return 0;
    var n = lengthBytesUTF8(h) + 1;
    if (out && size >= n) {
        stringToUTF8(h, out, size);
        Module.tilescopeTyped = null;
    }
    return n;
});

EM_JS(int, ts_web_page_address, (char* out, int size), {
    var s = window.location.href.split('#')[0];
    var n = lengthBytesUTF8(s) + 1;
    if (out && size >= n) stringToUTF8(s, out, size);
    return n;
});

EM_JS(void, ts_web_copy, (const char* text), {
    var s = UTF8ToString(text);
    var fallback = function() {
        var t = document.createElement('textarea');
        t.value = s;
        t.style.position = 'fixed';
        t.style.opacity = '0';
        document.body.appendChild(t);
        t.select();
        try { document.execCommand('copy'); } catch (e) {}
        document.body.removeChild(t);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(fallback);
    else fallback();
});

// -1: no entry; -2: storage refused (private mode, a blocked origin).
EM_JS(int, ts_web_storage_get, (const char* key, char* out, int size), {
    var v = null;
    try { v = window.localStorage.getItem(UTF8ToString(key)); } catch (e) { return -2; }
    if (v === null) return -1;
    var n = lengthBytesUTF8(v) + 1;
    if (out && size >= n) stringToUTF8(v, out, size);
    return n;
});

EM_JS(int, ts_web_storage_set, (const char* key, const char* text), {
    try {
        window.localStorage.setItem(UTF8ToString(key), UTF8ToString(text));
        return 1;
    } catch (e) {
        return 0;
    }
});

// A download of `n` bytes at `data`, named `name`; window.tilescopeDownloads lists them
// (name and bytes) for the browser tests.
EM_JS(void, ts_web_download, (const char* name, const char* mime, const unsigned char* data, int n), {
    var file = UTF8ToString(name);
    var blob = new Blob([HEAPU8.slice(data, data + n)], {type: UTF8ToString(mime)});
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = file;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function() { URL.revokeObjectURL(url); }, 60000);
    window.tilescopeDownloads = (window.tilescopeDownloads || []).concat([{name: file, bytes: n}]);
});

// The file chooser: the chosen file's bytes wait in Module.tilescopePicked until the app
// takes them (ts_web_picked_*).
EM_JS(void, ts_web_pick, (int kind, const char* accept), {
    var input = document.createElement('input');
    input.type = 'file';
    input.accept = UTF8ToString(accept);
    input.style.display = 'none';
    input.addEventListener('change', function() {
        var f = input.files && input.files[0];
        document.body.removeChild(input);
        if (!f) return;
        f.arrayBuffer().then(function(buf) {
            Module.tilescopePicked = {kind: kind, name: f.name, data: new Uint8Array(buf), error: ""};
        }, function(err) {
            Module.tilescopePicked = {kind: kind, name: f.name, data: new Uint8Array(0), error: String(err)};
        });
    });
    document.body.appendChild(input);
    input.click();
});

// -1 when no file waits; else its kind, and the sizes of its name and bytes.
EM_JS(int, ts_web_picked_sizes, (int* nameBytes, int* dataBytes, int* errorBytes), {
    var p = Module.tilescopePicked;
    if (!p) return -1;
    HEAP32[nameBytes >> 2] = lengthBytesUTF8(p.name) + 1;
    HEAP32[dataBytes >> 2] = p.data.length;
    HEAP32[errorBytes >> 2] = lengthBytesUTF8(p.error) + 1;
    return p.kind;
});

EM_JS(void, ts_web_picked_take, (char* name, int nameSize, unsigned char* data, char* error, int errorSize), {
    var p = Module.tilescopePicked;
    Module.tilescopePicked = null;
    stringToUTF8(p.name, name, nameSize);
    HEAPU8.set(p.data, data);
    stringToUTF8(p.error, error, errorSize);
});

EM_JS(void, ts_web_fullscreen, (int on), {
    if (!Module.tilescopeFullWatch) {
        Module.tilescopeFullWatch = true;
        document.addEventListener('fullscreenchange', function() {
            if (document.fullscreenElement) {
                Module.tilescopeWasFull = true;
            } else if (Module.tilescopeWasFull) {
                Module.tilescopeWasFull = false;
                if (Module.tilescopeWantFull) Module.tilescopeLeft = true;
            }
        });
    }
    Module.tilescopeWantFull = !!on;
    var el = document.documentElement;
    if (on && !document.fullscreenElement && el.requestFullscreen)
        el.requestFullscreen().catch(function(e) { console.log('TileScope: full screen refused: ' + e); });
    else if (!on && document.fullscreenElement && document.exitFullscreen)
        document.exitFullscreen().catch(function(e) {});
});

EM_JS(int, ts_web_take_left_fullscreen, (), {
    if (!Module.tilescopeLeft) return 0;
    Module.tilescopeLeft = false;
    Module.tilescopeWantFull = false;
    return 1;
});

namespace ts::app {
namespace {

/// A string the page hands over through `get(out, size)` (see above).
template <class Get>
std::string pageString(Get get)
{
    const int n = get(nullptr, 0);
    if (n <= 1) return {};
    std::vector<char> buf(static_cast<size_t>(n));
    get(buf.data(), n);
    return std::string(buf.data());
}

/// The localStorage key of a stored file: "tilescope/" and the file's name.
std::string storageKey(const std::string& path)
{
    return "tilescope/" + std::filesystem::path(path).filename().string();
}

/// The MIME type of a file the app writes, by its ending.
const char* mimeOf(const std::string& path)
{
    const std::string ext = std::filesystem::path(path).extension().string();
    return ext == ".png" ? "image/png" : ext == ".gif" ? "image/gif" : ext == ".svg" ? "image/svg+xml"
         : ext == ".toml" ? "application/toml" : "application/octet-stream";
}

/// The browser: the page's address, localStorage, downloads, the file chooser, full screen.
class WebPlatform final : public Platform {
public:
    WebPlatform() { ts_web_watch_hash(); }

    std::string startupViewLink() override { return pageString(ts_web_hash); }
    void viewChanged(const std::string& link) override { ts_web_replace_hash(link.c_str()); }
    std::optional<std::string> linkTyped() override
    {
        if (ts_web_take_typed(nullptr, 0) == 0) return std::nullopt;
        const int n = ts_web_take_typed(nullptr, 0);
        std::vector<char> buf(static_cast<size_t>(n));
        ts_web_take_typed(buf.data(), n);
        return std::string(buf.data());
    }
    std::string shareableLink(const std::string& link) override { return pageString(ts_web_page_address) + "#" + link; }
    void copyText(const std::string& text) override { ts_web_copy(text.c_str()); }

    std::optional<std::string> readStored(const std::string& path, std::string& error) override
    {
        const std::string key = storageKey(path);
        const int n = ts_web_storage_get(key.c_str(), nullptr, 0);
        if (n == -1) return std::nullopt;
        if (n < 0) {
            error = "The browser refuses this page its storage, so " + std::filesystem::path(path).filename().string() +
                    " cannot be read (the defaults are used).";
            return std::nullopt;
        }
        std::vector<char> buf(static_cast<size_t>(n));
        ts_web_storage_get(key.c_str(), buf.data(), n);
        return std::string(buf.data());
    }
    std::string writeStored(const std::string& path, const std::string& text) override
    {
        if (ts_web_storage_set(storageKey(path).c_str(), text.c_str())) return {};
        return "The browser refuses this page its storage, so " + std::filesystem::path(path).filename().string() +
               " is not kept (private browsing, or the storage is full).";
    }
    bool storesOnChange() const override { return true; }

    std::string offerFile(const std::string& path) override
    {
        std::ifstream in(path, std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (!in && !in.eof()) return "Cannot offer " + path + " as a download: it cannot be read back.";
        const std::string name = std::filesystem::path(path).filename().string();
        ts_web_download(name.c_str(), mimeOf(path), reinterpret_cast<const unsigned char*>(bytes.data()),
                        static_cast<int>(bytes.size()));
        return "Downloaded " + name + " (the browser keeps it in its downloads folder)";
    }

    bool picksFiles() const override { return true; }
    void startPick(PickKind kind) override { ts_web_pick(static_cast<int>(kind), kind == PickKind::Scenario ? ".toml" : ".json"); }
    std::optional<PickedFile> pickedFile() override
    {
        int nameBytes = 0, dataBytes = 0, errorBytes = 0;
        const int kind = ts_web_picked_sizes(&nameBytes, &dataBytes, &errorBytes);
        if (kind < 0) return std::nullopt;
        std::vector<char> name(static_cast<size_t>(nameBytes)), error(static_cast<size_t>(errorBytes));
        std::vector<unsigned char> data(static_cast<size_t>(dataBytes) + 1);
        ts_web_picked_take(name.data(), nameBytes, data.data(), error.data(), errorBytes);
        PickedFile f;
        f.kind = kind == static_cast<int>(PickKind::Results) ? PickKind::Results : PickKind::Scenario;
        const std::string base = std::filesystem::path(name.data()).filename().string();
        if (error[0]) {
            f.error = "The browser could not read " + base + ": " + std::string(error.data()) + ".";
            return f;
        }
        // Into the page's memory file system, where the desktop's code opens it.
        const std::filesystem::path dir = "/tmp/tilescope-opened";
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        f.path = (dir / (base.empty() ? std::string("file") : base)).string();
        std::ofstream out(f.path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data.data()), dataBytes);
        if (!out.flush()) f.error = "Cannot copy " + base + " into the page's memory.";
        return f;
    }

    void setFullScreen(GLFWwindow*, bool on) override
    {
        full_ = on;
        ts_web_fullscreen(on ? 1 : 0);
    }
    bool fullScreen() const override { return full_; }
    bool leftFullScreen() override
    {
        if (!ts_web_take_left_fullscreen()) return false;
        full_ = false;
        return true;
    }

private:
    bool full_ = false;   ///< full screen asked for (the browser may have refused it)
};

}  // namespace

std::unique_ptr<Platform> makePlatform() { return std::make_unique<WebPlatform>(); }

}  // namespace ts::app

#else

namespace ts::app {

std::unique_ptr<Platform> makePlatform() { return std::make_unique<DesktopPlatform>(); }

}  // namespace ts::app

#endif
