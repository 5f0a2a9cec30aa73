#include "app.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <time.h>
#include <unistd.h>
#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#endif

#include "gpu/gpu_occupancy.hpp"
#include "figure_notes.hpp"
#include "layout.hpp"
#include "screenshot.hpp"
#include "settings.hpp"
#include "shown_text.hpp"
#include "sim/teaching/lessons.hpp"
#include "view_options.hpp"
#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::app {
namespace {

using Clock = std::chrono::steady_clock;

/// The most frames a shown frame is preceded by while the layout settles (App::renderFrame),
/// and the time each of them counts for ImGui (which wants some).
constexpr int kUnshownFrames = 12;
constexpr float kUnshownFrameSeconds = 1e-5f;

/// Milliseconds of CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID): what
/// --frames reports beside the wall time, unaffected by other processes on the machine.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

void onGlfwError(int code, const char* what)
{
    std::fprintf(stderr, "tilescope: GLFW error %d: %s\n", code, what);
}

}  // namespace

int exitStatus(const std::exception& e)
{
    if (dynamic_cast<const UsageError*>(&e) || dynamic_cast<const sim::ScenarioFileError*>(&e)) return 2;
    return 1;
}

App::App(Options o) : opt_(std::move(o)) {}

App::~App()
{
    if (window_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window_);
    }
    glfwTerminate();
}

float App::screenHeight() const
{
    // The display the UI was laid out at last (the window, or the size an offscreen picture
    // or a check draws at, --scale times --window, which wantedScale() applies); before the
    // first frame the window's size.
    const float pixel = opt_.offscreen() ? opt_.scale : 1.0f;
    if (ImGui::GetCurrentContext() && ImGui::GetIO().DisplaySize.y > 0) return ImGui::GetIO().DisplaySize.y / pixel;
    if (opt_.offscreen()) return static_cast<float>(opt_.height);
    int w = 0, h = 0;
    if (window_) glfwGetWindowSize(window_, &w, &h);
    return h > 0 ? static_cast<float>(h) : kPresentationScreenHeight;
}

float App::wantedScale() const
{
    // A slide follows the screen's height (the setting is its scale at 1080 pixels).
    const float ui = view_.presentation ? presentationScaleFor(view_.presentationScale, screenHeight()) : view_.uiScale;
    return ui * (opt_.offscreen() ? opt_.scale : 1.0f);
}

void App::applyLook()
{
    // Full screen follows presentation mode (command-line modes keep their window size); a
    // browser that left full screen on its own (its Esc) ends presentation mode.
    if (platform_->leftFullScreen()) view_.presentation = false;
    if (!opt_.headless() && platform_->fullScreen() != view_.presentation) platform_->setFullScreen(window_, view_.presentation);
    view_.screenHeight = screenHeight();
    view_.presentationDrawn = presentationScaleFor(view_.presentationScale, view_.screenHeight);
    // Fonts are re-rasterised at the new pixel size, not scaled, once no slider is held.
    if (ImGui::IsAnyItemActive()) return;
    if (theme_.scale == wantedScale() && theme_.kind == view_.themeKind && theme_.slides == view_.presentation) return;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    theme_ = makeTheme(wantedScale(), view_.themeKind, view_.presentation);
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

void App::followPresentation()
{
    if (view_.presentation != slideLayout_) {
        slideLayout_ = view_.presentation;
        if (slideLayout_) {
            deskPanels_ = view_.open;
            view_.open = presentationPanels(loaded_.sim ? loaded_.preset : opt_.preset);
            // The panels opened for a results file (--results, File > Open results...) stay,
            // and are the slide: the preset's panels beside them would fold to title bars
            // (a slide's Roofline needs the text column's height).
            if (resultsOnSlide()) view_.open.assign(panelCount(), false);
            for (int i = 0; i < panelCount(); ++i)
                if (view_.subject[i]) view_.open[i] = true;
            // So do those that explain the run's mistake.
            if (loaded_.sim && loaded_.diagnosis.kind != Diagnosis::Kind::None) {
                view_.open[panelId("code")] = true;
                if (loaded_.diagnosis.hazards()) view_.open[panelId("hazards")] = true;
            }
            // --panel NAME: the panel exported is shown even where the slide leaves it out.
            if (opt_.exportPanel >= 0) view_.open[opt_.exportPanel] = true;
        } else {
            view_.open = deskPanels_;
        }
        // A few frames: the fonts and the full-screen window settle first.
        relayoutFrames_ = 3;
    }
    if (relayoutFrames_ > 0) {
        --relayoutFrames_;
        view_.resetLayout = true;
    }
}

void App::openWindow()
{
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit())
        throw RunError("Cannot open a window: GLFW could not start (is there a display? Use xvfb-run on a machine "
                       "without one).");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (opt_.offscreen()) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    window_ = glfwCreateWindow(opt_.width, opt_.height, "TileScope", nullptr, nullptr);
    if (!window_) throw RunError("Cannot open a window with an OpenGL 3.3 core context (the driver refused it).");
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(opt_.headless() ? 0 : 1);
    if (!gladLoadGL(glfwGetProcAddress)) throw RunError("Cannot load the OpenGL 3.3 functions (glad found no usable driver).");
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // Command-line modes draw the default layout and look, whatever the user's imgui.ini
    // and settings.toml say.
    const std::string dir = opt_.headless() ? std::string() : configDir();
    ini_ = dir.empty() ? std::string() : dir + "/imgui.ini";
    settingsPath_ = dir.empty() ? std::string() : dir + "/settings.toml";
    io.IniFilename = ini_.empty() ? nullptr : ini_.c_str();
    std::string settingsError;
    Settings saved;
    if (!settingsPath_.empty())
        if (const std::optional<std::string> text = platform_->readStored(settingsPath_, settingsError)) {
            saved = settingsFromText(*text, settingsPath_, settingsError);
            storedSettings_ = *text;
        }
    // Where files do not outlive the page (a browser), the layout is kept beside the settings
    // in the platform's storage, not in the file ImGui would write.
    if (!ini_.empty() && platform_->storesOnChange()) {
        io.IniFilename = nullptr;
        std::string iniError;
        if (const std::optional<std::string> layout = platform_->readStored(ini_, iniError))
            ImGui::LoadIniSettingsFromMemory(layout->c_str(), layout->size());
    }
    if (!settingsError.empty()) std::cerr << "tilescope: " << settingsError << "\n";
    view_.themeKind = opt_.theme.value_or(saved.theme);
    view_.uiScale = saved.uiScale;
    view_.presentationScale = saved.presentationScale;
    view_.open = saved.open;
    view_.caption = saved.caption;
    view_.simThreads = saved.simThreads;
    resultsFile_ = saved.resultsFile;
    view_.kernelPath = saved.kernelFile;
    // The welcome: at the first start (nothing in settings.toml says it was seen), and with
    // --welcome; never otherwise in the command-line modes, which read no settings.
    view_.welcomeSeen = saved.welcomeSeen;
    view_.showWelcome = opt_.welcome || (!settingsPath_.empty() && !saved.welcomeSeen && !opt_.linked);
    if (!resultsFile_.empty()) view_.resultsPath = resultsFile_;
    view_.presentation = opt_.presentation;
    view_.heatmap = opt_.heatmap == "loads";
    view_.values = opt_.heatmap == "values";
    if (opt_.uiScale) (opt_.presentation ? view_.presentationScale : view_.uiScale) = *opt_.uiScale;
    view_.screenHeight = screenHeight();
    view_.presentationDrawn = presentationScaleFor(view_.presentationScale, view_.screenHeight);
    theme_ = makeTheme(wantedScale(), view_.themeKind, view_.presentation);
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
#if defined(__EMSCRIPTEN__)
    ImGui_ImplOpenGL3_Init("#version 300 es");   // WebGL 2
#else
    ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
}

void App::open()
{
    openWindow();
    if (!theme_.fonts.note.empty()) {
        view_.notice = theme_.fonts.note;
        std::cerr << "tilescope: " << theme_.fonts.note << "\n";
    }
    try {
        loaded_.presets = sim::inChapterOrder(sim::listPresets(panelNameList()));   // the order of PMPP's chapters
    } catch (const std::exception& e) {
        loaded_.presetsError = e.what();
    }
    if (!opt_.kernelFile.empty()) {
        // The student's kernel: watched for saves from now on; errors of its first build
        // (interactive only: the command-line modes end on them) shown until it builds.
        loaded_.kernelFile = opt_.kernelFile;
        view_.kernelPath = opt_.kernelFile;
        // The Code panel names what is wrong with it: it folds last in a small window.
        view_.subject[panelId("code")] = true;
        kernelWatch_.watch(opt_.kernelFile);
        loaded_.kernelErrors = errorsByName(opt_.kernelErrors, opt_.kernelFile);
        if (!opt_.kernelErrors.empty()) {
            view_.notice = "Your kernel did not compile: " + loaded_.kernelErrors.front() +
                           " (fix it and save: TileScope compiles it again).";
            view_.noticeIsError = true;
        }
    }
    if (!opt_.startNotice.empty()) {
        view_.notice = opt_.startNotice;
        view_.noticeIsError = true;
    }
    openPreset(opt_.preset, opt_.step ? opt_.step : std::optional<int>(opt_.preset.step));
    if (opt_.results) {
        setResults(opt_.results, true);
    } else if (!resultsFile_.empty()) {
        // The file opened last time, from settings.toml; the panels shown are the settings' too.
        try {
            setResults(std::make_shared<const sim::ResultsFile>(sim::loadResultsFile(resultsFile_)), false);
        } catch (const sim::ResultsFileError& e) {
            view_.notice = std::string("Not reopened: ") + e.what();
            view_.noticeIsError = true;
            resultsFile_.clear();
        }
    }
    gpuJob_.start([](std::atomic<float>&) {
        GpuOutcome out;
        out.device = gpu::queryDevice();
        try {
            out.limits = gpu::deviceOccupancyLimits();
        } catch (const std::exception& e) {
            out.limitsError = e.what();
        }
        return out;
    });
    lastFrame_ = Clock::now();
}

void App::prepareFrame()
{
    frameStart_ = Clock::now();
    frameThreadStart_ = threadCpuMs();
    dt_ = std::chrono::duration<double>(frameStart_ - lastFrame_).count();
    lastFrame_ = frameStart_;
    glfwPollEvents();
    collectJobs();
    updateKernelFile();
    if (!fatal_.empty()) throw UsageError(fatal_);
    if (!fatalRun_.empty()) throw RunError(fatalRun_);
    applyLook();
    followPresentation();
}

double App::renderFrame(std::optional<ImVec2> display)
{
    if (opt_.frames > 0) gpuTimer_.begin(++frameCount_);
    else ++frameCount_;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (inputHook) inputHook(ImGui::GetIO());
    if (display) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = *display;
        io.DisplayFramebufferScale = ImVec2(1, 1);
    }
    // The layout is a function of what the panels hold (layout.hpp): when the view changes, it
    // measures the panels where it puts them and places them again until they stay put. Those
    // frames are built and not shown (a key or click counts in the first of them only, and no
    // time passes in them), so the picture shown is the same however the view was reached.
    for (int pass = 0;; ++pass) {
        if (pass > 0) ImGui::GetIO().DeltaTime = kUnshownFrameSeconds;
        ImGui::NewFrame();
        beginShownText(opt_.printText);   // --print-text (shown_text.hpp)
        clearFigureNotes();
        handleKeys();
        play(pass == 0 ? dt_ : 0.0);
        updateReplay();
        drawUi();
        ImGui::Render();
        carryOut();
        if (layoutSteadyFrames() >= 2 || pass >= kUnshownFrames) break;
    }
    const double cpuMs = std::chrono::duration<double, std::milli>(Clock::now() - frameStart_).count();
    lastFrameThreadMs_ = threadCpuMs() - frameThreadStart_;
    // The page's address follows the view (a no-op on the desktop).
    if (loaded_.sim && !busy_.simulating)
        if (std::string link = viewLink(); !link.empty() && link != lastLink_) {
            platform_->viewChanged(link);
            lastLink_ = std::move(link);
        }
    if (platform_->storesOnChange()) storeSettings(false);

    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(window_, &fbw, &fbh);
    glViewport(0, 0, fbw, fbh);
    const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(theme_.palette.clear);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    menuScreenshot(fbw, fbh);
    if (opt_.frames > 0) gpuTimer_.end();
    return cpuMs;
}

void App::menuScreenshot(int fbw, int fbh)
{
    if (requests_.screenshot) {
        pendingScreenshot_ = std::move(*requests_.screenshot);
        screenshotDelay_ = 2;
        requests_.screenshot.reset();
    } else if (!pendingScreenshot_.empty() && --screenshotDelay_ <= 0) {
        const std::string e = saveScreenshot(ImGui::GetDrawData(), fbw, fbh, theme_.palette.clear, pendingScreenshot_);
        // On the web the picture is offered as a download.
        const std::string offered = e.empty() ? platform_->offerFile(pendingScreenshot_) : "";
        view_.notice = !e.empty() ? e : offered.empty() ? "Saved " + pendingScreenshot_ : offered + ".";
        view_.noticeIsError = !e.empty();
        pendingScreenshot_.clear();
    }
}

void App::swapBuffers() { glfwSwapBuffers(window_); }

bool App::closeRequested() const { return glfwWindowShouldClose(window_); }

bool App::ready() const
{
    return loaded_.sim && !busy_.simulating && !gpuJob_.running() && !ladderPending() && !buildJob_.running() &&
           !rebuildWanted_ && !builtWaiting_;
}

#if defined(__EMSCRIPTEN__)
namespace {
/// One frame of the page's main loop; window.tilescopeFrames counts the frames drawn
/// (the browser tests wait for it, docs/web.md). An error stops the loop and says why.
void webFrame(void* self)
{
    App& app = *static_cast<App*>(self);
    try {
        app.prepareFrame();
        app.renderFrame(std::nullopt);
        app.swapBuffers();
        EM_ASM(window.tilescopeFrames = (window.tilescopeFrames | 0) + 1;);
    } catch (const std::exception& e) {
        std::cerr << "tilescope: " << e.what() << "\n";
        emscripten_cancel_main_loop();
    }
}
}  // namespace
#endif

void App::run()
{
#if defined(__EMSCRIPTEN__)
    // The browser calls the frames (requestAnimationFrame); run() returns at once, and the
    // App must outlive main() (main.cpp keeps it on the heap).
    emscripten_set_main_loop_arg(webFrame, this, 0, 0);
    return;
#endif
    while (!closeRequested()) {
        prepareFrame();
        renderFrame(std::nullopt);
        swapBuffers();
    }
    storeSettings(true);
}

Settings App::currentSettings() const
{
    // The desk's panels, not the slide's, are the ones to come back to.
    return Settings{view_.themeKind, view_.uiScale,  view_.presentationScale, slideLayout_ ? deskPanels_ : view_.open,
                    view_.caption,   view_.simThreads, resultsFile_, view_.kernelPath, view_.welcomeSeen};
}

void App::storeSettings(bool atExit)
{
    if (settingsPath_.empty()) return;
    const std::string text = settingsText(currentSettings());
    // At exit the file is written whatever it held (another run may have changed it since).
    if (atExit || text != storedSettings_) {
        if (std::string e = platform_->writeStored(settingsPath_, text); !e.empty()) {
            if (atExit) e = "Cannot write the settings to '" + settingsPath_ + "' (is the folder writable?).";
            std::cerr << "tilescope: " << e << "\n";
        }
        storedSettings_ = text;
    }
    if (platform_->storesOnChange() && !ini_.empty() && ImGui::GetIO().WantSaveIniSettings) {
        size_t size = 0;
        const char* layout = ImGui::SaveIniSettingsToMemory(&size);
        platform_->writeStored(ini_, std::string(layout, size));
        ImGui::GetIO().WantSaveIniSettings = false;
    }
}

std::string App::viewLink() const
{
    if (!loaded_.sim || !kernelFileOf(loaded_.sim->scenario).empty()) return {};
    const sim::Scenario& s = loaded_.sim->scenario;
    const sim::Preset& p = loaded_.preset;
    const sim::Preset* lecture = lecturePresetOf(s, p.schedule, p.scheduleSeed, p.name, loaded_.presets);
    ShownView v;
    v.scenario = s;
    v.schedule = p.schedule;
    v.scheduleSeed = p.scheduleSeed;
    v.step = view_.cursor;
    const unsigned bx = std::max(1u, loaded_.sim->trace.blockDim.x);
    v.thread = sim::Uint3{static_cast<unsigned>(view_.thread) % bx, static_cast<unsigned>(view_.thread) / bx, 0};
    // The panels are written when they are not what opening the link without them shows:
    // the preset's own (or the default panels) with its lesson's, at the desk.
    sim::Preset base;
    if (lecture && lecture->scenario.block.x == s.block.x && lecture->scenario.block.y == s.block.y && lecture->scenario.block.z == s.block.z) base = *lecture;
    else base.scenario = s;
    const PanelFlags opened = withLesson(base, base.panels.empty() ? defaultPanels() : panelsNamed(base.panels));
    const PanelFlags& desk = slideLayout_ ? deskPanels_ : view_.open;
    if (desk != opened) v.panels = panelNames(desk);
    v.presentation = view_.presentation;
    v.light = view_.themeKind == ThemeKind::Light;
    v.heatmap = view_.heatmap ? "loads" : view_.values ? "values" : "";
    return formatViewLink(viewLinkOf(v, lecture));
}

void App::copyViewLink()
{
    const std::string link = viewLink();
    if (link.empty()) {
        view_.notice = loaded_.sim ? "A view of your own kernel file has no link: a link names lecture presets and the "
                                     "registry's kernels, not a file on this computer."
                                   : "Nothing to link to yet: the scenario is still being simulated.";
        view_.noticeIsError = true;
        return;
    }
    const std::string shared = platform_->shareableLink(link);
    platform_->copyText(shared);
    view_.notice = "Copied the view link " + shared + (shared == link ? " (tilescope --view opens it)." : ".");
    view_.noticeIsError = false;
}

void App::openViewLink(const std::string& text)
{
    try {
        const ViewLink v = parseViewLink(text, panelNameList());
        sim::Preset base = loaded_.sim ? currentPreset() : opt_.preset;
        if (std::optional<sim::Preset> linked = linkedPreset(v, panelNameList())) base = std::move(*linked);
        const sim::Preset p = presetOfView(v, std::move(base));
        if (v.theme) view_.themeKind = *v.theme == "light" ? ThemeKind::Light : ThemeKind::Dark;
        if (v.presentation) view_.presentation = *v.presentation;
        if (v.heatmap) {
            view_.heatmap = *v.heatmap == "loads";
            view_.values = *v.heatmap == "values";
        }
        const sim::Scenario* shown = loaded_.sim ? &loaded_.sim->scenario : nullptr;
        const bool sameRun = shown && sameProblem(p.scenario, *shown) && p.scenario.block.x == shown->block.x &&
                             p.scenario.block.y == shown->block.y && p.scenario.block.z == shown->block.z &&
                             p.schedule == loaded_.preset.schedule &&
                             (p.schedule != sim::Schedule::Random || p.scheduleSeed == loaded_.preset.scheduleSeed);
        if (!sameRun) {
            openPreset(p, p.step);
            return;
        }
        // The problem and block shown already: the step, thread and panels change, no new run.
        const int last = static_cast<int>(loaded_.sim->trace.steps.size()) - 1;
        if (v.step && *v.step > last) {
            view_.notice = "Step " + std::to_string(*v.step) + " is past the last step of '" + loaded_.preset.title +
                           "' (its steps are 0 to " + std::to_string(last) + ").";
            view_.noticeIsError = true;
        } else if (v.step) {
            view_.cursor = *v.step < 0 ? last : *v.step;
            view_.playing = false;
        }
        if (p.thread) view_.thread = static_cast<int>((p.thread->z * loaded_.sim->trace.blockDim.y + p.thread->y) * loaded_.sim->trace.blockDim.x + p.thread->x);
        if (v.panels) {
            PanelFlags open = withLesson(p, panelsNamed(*v.panels));
            (slideLayout_ ? deskPanels_ : view_.open) = open;
            if (slideLayout_) {
                view_.open = presentationPanels(p);
                relayoutFrames_ = 2;
            }
        }
    } catch (const std::exception& e) {
        view_.notice = e.what();
        view_.noticeIsError = true;
    }
}

}  // namespace ts::app
