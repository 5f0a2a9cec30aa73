// What the app does differently in a web browser (issue 28), behind one small interface the
// app calls everywhere: the desktop implementation does what the app always did (files,
// GLFW's full screen), the Emscripten one (built with __EMSCRIPTEN__) talks to the page:
//   (a) the view link in the page's address (location.hash, history.replaceState);
//   (b) settings.toml and imgui.ini in the browser's localStorage instead of files;
//   (c) a file the app wrote (a screenshot, an export) offered as a download;
//   (d) File > Open scenario and Open results through the browser's file chooser, the file
//       copied into the page's memory file system (MEMFS) and opened from there;
//   (e) presentation mode as the browser's full screen (Element.requestFullscreen).
// docs/view-links.md and docs/web.md say what a user sees of each.
#pragma once
#include <memory>
#include <optional>
#include <string>

struct GLFWwindow;

namespace ts::app {

/// Whether the app can start child processes: on the desktop a student's kernel is
/// compiled and run in one, and Export steps renders in one; a browser page has none, so
/// there those menu items are disabled and say why (docs/web.md).
#if defined(__EMSCRIPTEN__)
inline constexpr bool kStartsProcesses = false;
#else
inline constexpr bool kStartsProcesses = true;
#endif

/// Which File > Open... the user chose a file for.
enum class PickKind { Scenario, Results };

/// A file the user picked in the browser's file chooser: copied to `path` in the page's
/// memory file system, or `error`, one sentence, when it could not be read.
struct PickedFile {
    PickKind kind = PickKind::Scenario;
    std::string path;
    std::string error;
};

/// The desktop or the browser, as the app sees it. One per app (makePlatform()).
class Platform {
public:
    virtual ~Platform() = default;

    /// (a) The view link the app is opened with beyond its command line: the page's
    /// location.hash without its '#' on the web (read as if given to --view); "" on the
    /// desktop, where --view comes through the command line.
    virtual std::string startupViewLink() = 0;
    /// (a) The view shown is now `link` (formatViewLink's text): on the web the page's address
    /// follows it (history.replaceState, no new history entry); nothing on the desktop.
    virtual void viewChanged(const std::string& link) = 0;
    /// (a) On the web, a view link the user typed or pasted into the address bar since the
    /// last call (a hashchange the app did not make); std::nullopt otherwise, and always on
    /// the desktop.
    virtual std::optional<std::string> linkTyped() = 0;
    /// What "Copy view link" puts on the clipboard for `link`: on the web the page's whole
    /// address ending in '#' + link; on the desktop the link itself (for tilescope --view, or
    /// to put after the '#' of the web page's address).
    virtual std::string shareableLink(const std::string& link) = 0;
    /// Puts `text` on the clipboard (the desktop: GLFW's, through ImGui; the web: the
    /// browser's, navigator.clipboard).
    virtual void copyText(const std::string& text) = 0;

    /// (b) The stored text of `path` (settings.toml, imgui.ini): the file on the desktop, the
    /// localStorage entry named after the file's name on the web. std::nullopt when there is
    /// none yet, or when it cannot be read (then `error` is one sentence naming it).
    virtual std::optional<std::string> readStored(const std::string& path, std::string& error) = 0;
    /// (b) Stores `text` as `path`; returns "" or one sentence saying why it could not.
    virtual std::string writeStored(const std::string& path, const std::string& text) = 0;
    /// (b) Whether the settings are stored whenever they change (the web: a page is closed
    /// without an exit to save at) rather than when the app ends (the desktop).
    virtual bool storesOnChange() const = 0;

    /// (c) The app has written the file `path` (File > Screenshot, File > Save scenario, an
    /// export): on the web the browser downloads it (a Blob and a temporary <a download>;
    /// window.tilescopeDownloads lists each one's name and bytes for the browser tests) and
    /// the notice to show is returned ("Downloaded NAME (...)", or why not, one sentence);
    /// nothing on the desktop, where it is on the disk already: "" (the app says "Saved").
    virtual std::string offerFile(const std::string& path) = 0;

    /// (d) Whether File > Open scenario and Open results ask the browser's file chooser
    /// (the web) instead of a path typed into a dialog (the desktop).
    virtual bool picksFiles() const = 0;
    /// (d) Opens the browser's file chooser (<input type=file>) for `kind`; the file arrives
    /// later, through pickedFile(). Nothing on the desktop.
    virtual void startPick(PickKind kind) = 0;
    /// (d) A file the chooser has delivered since the last call (the app asks every frame),
    /// else std::nullopt; always std::nullopt on the desktop.
    virtual std::optional<PickedFile> pickedFile() = 0;

    /// (e) Presentation mode's full screen: the desktop puts `window` on its monitor (and
    /// back to its place and size), the web asks the browser (Element.requestFullscreen, which
    /// the browser may refuse without a key press or click shortly before).
    virtual void setFullScreen(GLFWwindow* window, bool on) = 0;
    /// (e) Whether full screen was last asked for (setFullScreen) and is still on.
    virtual bool fullScreen() const = 0;
    /// (e) True once after the browser left full screen on its own (the user pressed Esc,
    /// which the page does not see): the app leaves presentation mode. False on the desktop.
    virtual bool leftFullScreen() = 0;
};

/// The platform of this build: the web's under Emscripten, the desktop's otherwise.
std::unique_ptr<Platform> makePlatform();

/// The desktop's stored text: the whole of file `path`; std::nullopt when it does not exist,
/// or cannot be read (then `error` says "PATH: cannot be read.").
std::optional<std::string> readTextFile(const std::string& path, std::string& error);

/// Writes `text` as file `path`; "" or one sentence ("Cannot write 'PATH' (is the folder
/// writable?).").
std::string writeTextFile(const std::string& path, const std::string& text);

}  // namespace ts::app
