#include "app.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <unistd.h>

#include "gpu/gpu_occupancy.hpp"
#include "layout.hpp"
#include "screenshot.hpp"
#include "settings.hpp"
#include "sim/wrong_reads.hpp"

namespace ts::app {
namespace {

using Clock = std::chrono::steady_clock;

bool keyPressed(ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); }

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

float App::wantedScale() const
{
    const float ui = view_.presentation ? view_.presentationScale : view_.uiScale;
    return ui * (opt_.offscreen() ? opt_.scale : 1.0f);
}

void App::setFullScreen(bool on)
{
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (on && mode) {
        glfwGetWindowPos(window_, &windowedX_, &windowedY_);
        glfwGetWindowSize(window_, &windowedW_, &windowedH_);
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else if (!on && fullScreen_) {
        glfwSetWindowMonitor(window_, nullptr, windowedX_, windowedY_, windowedW_, windowedH_, GLFW_DONT_CARE);
    }
    fullScreen_ = on && mode;
}

void App::applyLook()
{
    // Full screen follows presentation mode (command-line modes keep their window size).
    if (!opt_.headless() && fullScreen_ != view_.presentation) setFullScreen(view_.presentation);
    // Fonts are re-rasterised at the new pixel size, not scaled, once no slider is held.
    if (ImGui::IsAnyItemActive()) return;
    if (theme_.scale == wantedScale() && theme_.kind == view_.themeKind) return;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    theme_ = makeTheme(wantedScale(), view_.themeKind);
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

void App::followPresentation()
{
    if (view_.presentation != slideLayout_) {
        slideLayout_ = view_.presentation;
        if (slideLayout_) {
            deskPanels_ = view_.open;
            view_.open = presentationPanels(loaded_.sim ? loaded_.preset : opt_.preset);
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
    const Settings saved = loadSettings(settingsPath_, settingsError);
    if (!settingsError.empty()) std::cerr << "tilescope: " << settingsError << "\n";
    view_.themeKind = opt_.theme.value_or(saved.theme);
    view_.uiScale = saved.uiScale;
    view_.presentationScale = saved.presentationScale;
    view_.open = saved.open;
    view_.caption = saved.caption;
    view_.presentation = opt_.presentation;
    if (opt_.uiScale) (opt_.presentation ? view_.presentationScale : view_.uiScale) = *opt_.uiScale;
    theme_ = makeTheme(wantedScale(), view_.themeKind);
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

void App::startSimulation(const sim::Preset& p, std::optional<int> step, bool keepCursor)
{
    if (simJob_.running()) {
        view_.notice = "A simulation is still running; wait until it has finished.";
        view_.noticeIsError = true;
        return;
    }
    pendingStep_ = step;
    pendingKeepCursor_ = keepCursor;
    simJob_.start([p](std::atomic<float>&) {
        const sim::SimOptions opt{true, p.schedule, p.scheduleSeed};
        auto s = std::make_shared<sim::Simulation>(sim::simulate(p.scenario, opt));
        std::vector<uint8_t> wrong;
        if (p.scenario.dropBarriers && s->error.empty()) {
            // The same run with every barrier in place says which reads went wrong.
            sim::Scenario intact = p.scenario;
            intact.dropBarriers = 0;
            wrong = sim::wrongReads(s->trace, sim::simulate(intact, opt).trace);
        }
        return SimOutcome{p, std::move(s), std::move(wrong)};
    });
}

void App::openPreset(const sim::Preset& p, std::optional<int> step)
{
    if (simJob_.running()) {
        startSimulation(p, step, false);   // refuses, with a notice saying why
        return;
    }
    startSimulation(p, step, false);
    openOccupancy(p);
    if (view_.presentation && slideLayout_) {
        view_.open = presentationPanels(p);
        relayoutFrames_ = 2;
    } else if (!p.panels.empty()) {
        view_.open = panelsNamed(p.panels);   // the preset shows only what its slide needs
    }
    pendingThread_.reset();
    if (p.thread) pendingThread_ = p.thread->y * sim::launchShape(p.scenario).block.x + p.thread->x;
}

sim::Preset App::currentPreset() const
{
    sim::Preset p = loaded_.preset;
    p.scenario = loaded_.sim->scenario;
    p.step = view_.cursor;
    const unsigned bx = loaded_.sim->trace.blockDim.x;
    p.thread = sim::Uint3{view_.thread % bx, view_.thread / bx, 0};
    p.panels = panelNames(view_.open);
    if (view_.open[panelId("occupancy")]) {
        sim::OccupancyQuestion q;
        q.profile = view_.occupancy.profile;
        q.input = view_.occupancy.input;
        p.occupancy = q;
    }
    return p;
}

void App::saveScenario(const std::string& path)
{
    if (!loaded_.sim) {
        view_.notice = "Nothing to save yet: the scenario is still being simulated.";
        view_.noticeIsError = true;
        return;
    }
    try {
        sim::saveScenarioFile(currentPreset(), path);
        view_.notice = "Saved the scenario as " + path + " (open it with tilescope --scenario " + path + ").";
        view_.noticeIsError = false;
    } catch (const std::exception& e) {
        view_.notice = e.what();
        view_.noticeIsError = true;
    }
}

void App::startExport(const ExportForm& e)
{
    if (!loaded_.sim || exportJob_.running()) return;
    ExportRequest r;
    r.scenarioFile = (std::filesystem::temp_directory_path() /
                      ("tilescope-export-" + std::to_string(::getpid()) + ".toml")).string();
    try {
        sim::saveScenarioFile(currentPreset(), r.scenarioFile);
    } catch (const std::exception& ex) {
        view_.notice = std::string("Cannot export: ") + ex.what();
        view_.noticeIsError = true;
        return;
    }
    static const char* const formats[] = {"png", "gif", "svg"};
    static const float scales[] = {1, 2, 4};
    r.format = formats[std::clamp(e.format, 0, 2)];
    r.scale = scales[std::clamp(e.scale, 0, 2)];
    r.panel = e.panel >= 0 ? panelTable()[e.panel].name : "";
    r.from = e.from;
    r.to = e.to;
    r.dir = e.dir;
    glfwGetWindowSize(window_, &r.width, &r.height);
    using namespace limits;
    if (r.width < kMinWindowWidth || r.height < kMinWindowHeight || r.width > kMaxWindowWidth ||
        r.height > kMaxWindowHeight) {
        view_.notice = "Cannot export a window of " + std::to_string(r.width) + " x " + std::to_string(r.height) +
                       " pixels: exports are made at " + std::to_string(kMinWindowWidth) + "x" +
                       std::to_string(kMinWindowHeight) + " to " + std::to_string(kMaxWindowWidth) + "x" +
                       std::to_string(kMaxWindowHeight) + "; resize the window.";
        view_.noticeIsError = true;
        std::error_code ec;
        std::filesystem::remove(r.scenarioFile, ec);
        return;
    }
    r.presentation = view_.presentation;
    r.uiScale = view_.presentation ? view_.presentationScale : view_.uiScale;
    r.light = view_.themeKind == ThemeKind::Light;
    exportJob_.start([r](std::atomic<float>& progress) {
        ExportOutcome out = runExport(r, progress);
        std::error_code ec;
        std::filesystem::remove(r.scenarioFile, ec);
        return out;
    });
    view_.notice = "Exporting steps " + std::to_string(r.from) + " to " + std::to_string(r.to) + " to " + r.dir + "...";
    view_.noticeIsError = false;
}

void App::openOccupancy(const sim::Preset& p)
{
    if (!p.occupancy) return;
    view_.occupancy.profile = p.occupancy->profile;
    view_.occupancy.input = p.occupancy->input;
    view_.occupancy.thisKernel = false;
    view_.open[panelId("occupancy")] = true;
    view_.focusOccupancy = 2;
}

void App::collectJobs()
{
    try {
        if (std::optional<SimOutcome> r = simJob_.poll()) {
            const int steps = static_cast<int>(r->sim->trace.steps.size());
            loaded_.preset = std::move(r->preset);
            loaded_.sim = std::move(r->sim);
            loaded_.wrongReads = std::move(r->wrongReads);
            ++loaded_.generation;
            const int threads = static_cast<int>(loaded_.sim->trace.blockDim.count());
            if (pendingThread_ && *pendingThread_ < threads) view_.thread = *pendingThread_;
            pendingThread_.reset();
            if (view_.thread >= threads) view_.thread = 0;
            if (!loaded_.sim->error.empty()) {
                view_.notice = "The simulated kernel faulted: " + loaded_.sim->error;
                view_.noticeIsError = true;
            }
            if (pendingKeepCursor_) {
                // Another block of the same problem: stay at the same step if it has one.
                if (view_.cursor >= steps) {
                    view_.notice = "This block's trace has " + std::to_string(steps) +
                                   " steps; showing its last one.";
                    view_.noticeIsError = false;
                    view_.cursor = steps - 1;
                }
            } else if (pendingStep_ && *pendingStep_ >= steps) {
                const std::string e = "Step " + std::to_string(*pendingStep_) + " is past the last step of '" +
                                      loaded_.preset.title + "' (its steps are 0 to " +
                                      std::to_string(steps - 1) + ").";
                // On the command line that is a bad argument; in the app a notice.
                if (firstLoad_) fatal_ = e;
                view_.notice = e;
                view_.noticeIsError = true;
                view_.cursor = 0;
            } else {
                view_.cursor = pendingStep_ && *pendingStep_ >= 0 ? *pendingStep_ : steps - 1;
                if (!pendingStep_) view_.cursor = 0;
            }
            if (steps == 0) view_.cursor = -1;
            view_.playing = false;
            firstLoad_ = false;
        }
    } catch (const std::exception& e) {
        view_.notice = std::string("The simulation failed: ") + e.what();
        view_.noticeIsError = true;
    }
    busy_.simulating = simJob_.running();
    busy_.simulatingSeconds = simJob_.running() ? simJob_.seconds() : 0;

    try {
        if (std::optional<GpuOutcome> g = gpuJob_.poll()) {
            if (g->device) loaded_.device = g->device;
            if (g->limits) loaded_.deviceLimits = g->limits;
            if (!g->limitsError.empty()) loaded_.deviceLimitsError = g->limitsError;
            if (!g->timings.empty() || !g->error.empty()) {
                loaded_.timings = std::move(g->timings);
                loaded_.timingError = std::move(g->error);
            }
        }
    } catch (const std::exception& e) {
        loaded_.timingError = e.what();
    }
    busy_.timing = gpuJob_.running() && loaded_.device.has_value();
    if (std::optional<ExportOutcome> x = exportJob_.poll()) {
        view_.notice = x->message;
        view_.noticeIsError = x->failed;
    }
    busy_.exporting = exportJob_.running();
    busy_.exportProgress = exportJob_.progress();
    busy_.timingProgress = gpuJob_.progress();
}

void App::handleKeys()
{
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    // ImGui 1.86 names no F keys; its GLFW backend indexes KeysDown by GLFW key code.
    if (ImGui::IsKeyPressed(GLFW_KEY_F5)) view_.presentation = !view_.presentation;
    // Esc leaves presentation mode, as in slide software (unless it closes a popup).
    if (view_.presentation && keyPressed(ImGuiKey_Escape) && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId))
        view_.presentation = false;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) view_.showOpen = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false)) view_.showSave = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_E, false) && !busy_.exporting) view_.showExport = true;
    if (!loaded_.sim) return;
    const int last = static_cast<int>(loaded_.sim->trace.steps.size()) - 1;
    if (last < 0) return;
    if (keyPressed(ImGuiKey_Space)) view_.playing = !view_.playing && view_.cursor < last;
    if (keyPressed(ImGuiKey_RightArrow) || keyPressed(ImGuiKey_PageDown))
        view_.cursor = std::min(last, view_.cursor + 1);
    if (keyPressed(ImGuiKey_LeftArrow) || keyPressed(ImGuiKey_PageUp))
        view_.cursor = std::max(0, view_.cursor - 1);
    if (keyPressed(ImGuiKey_Home)) view_.cursor = 0;
    if (keyPressed(ImGuiKey_End)) view_.cursor = last;
}

void App::play(double dt)
{
    if (!view_.playing || !loaded_.sim) {
        view_.playClock = 0;
        return;
    }
    const int last = static_cast<int>(loaded_.sim->trace.steps.size()) - 1;
    view_.playClock += dt * view_.speed;
    while (view_.playClock >= 1.0 && view_.cursor < last) {
        view_.playClock -= 1.0;
        ++view_.cursor;
    }
    if (view_.cursor >= last) view_.playing = false;
}

void App::updateReplay()
{
    if (!loaded_.sim) return;
    const sim::Trace& t = loaded_.sim->trace;
    if (replayGeneration_ != loaded_.generation) {
        replay_ = sim::replay(t, view_.cursor);
        replayGeneration_ = loaded_.generation;
    } else if (replay_.cursor != view_.cursor) {
        sim::moveTo(replay_, t, view_.cursor);
    }
}

void App::drawUi()
{
    Frame f{loaded_, replay_, busy_, theme_, view_, requests_};
    for (const std::unique_ptr<Panel>& p : panels_) p->update(f);
    // Presentation mode gives the menu bar's line to the slide: the bar comes back over the
    // caption while the mouse is at the top edge of the screen or a menu is open.
    const bool slide = view_.presentation;
    const bool menuWanted = !slide || (!opt_.offscreen() && ImGui::IsMousePosValid() &&
                                       ImGui::GetIO().MousePos.y < ImGui::GetFrameHeight() * 1.5f) ||
                            ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
    if (!slide) drawMainMenu(f);
    const float menu = slide ? 0.0f : ImGui::GetFrameHeight();
    const float caption = view_.caption ? captionBar_.height(f) : 0;
    if (view_.caption) captionBar_.draw(f, menu, caption);
    if (slide && menuWanted) drawMainMenu(f);
    f.top = menu + caption;
    for (const std::unique_ptr<Panel>& p : panels_)
        if (view_.open[p->id]) p->draw(f);
    view_.resetLayout = false;
}

void App::carryOut()
{
    if (requests_.open) {
        try {
            sim::Preset p = sim::findPreset(*requests_.open, panelNameList());
            if (std::string e = sim::validate(p.scenario); !e.empty())
                throw sim::ScenarioFileError(p.file + ": " + e);
            openPreset(p, p.step);
            view_.form.error.clear();
        } catch (const std::exception& e) {
            view_.form.error = e.what();
            view_.notice = e.what();
            view_.noticeIsError = true;
        }
        requests_.open.reset();
    }
    if (requests_.load) {
        // Another block of the same problem keeps the step; another problem starts at step 0.
        const bool same = loaded_.sim && sameProblem(requests_.load->scenario, loaded_.sim->scenario);
        startSimulation(*requests_.load, same ? std::nullopt : std::optional<int>(0), same);
        requests_.load.reset();
    }
    if (requests_.bench && !gpuJob_.running()) {
        std::vector<gpu::BenchRequest> reqs = std::move(*requests_.bench);
        gpuJob_.start([reqs](std::atomic<float>& progress) {
            GpuOutcome out;
            const float n = static_cast<float>(reqs.size());
            for (size_t i = 0; i < reqs.size(); ++i) {
                try {
                    out.timings.push_back(gpu::bench(reqs[i], [&](double p) {
                        progress = (static_cast<float>(i) + static_cast<float>(p)) / n;
                    }));
                } catch (const std::exception& e) {
                    out.error = reqs[i].kernel + ": " + e.what();
                    break;
                }
            }
            progress = 1.0f;
            return out;
        });
    }
    requests_.bench.reset();
    if (requests_.exportSteps) {
        startExport(*requests_.exportSteps);
        requests_.exportSteps.reset();
    }
    if (requests_.saveScenario) {
        saveScenario(*requests_.saveScenario);
        requests_.saveScenario.reset();
    }
    if (requests_.quit) glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void App::open()
{
    openWindow();
    if (!theme_.fonts.note.empty()) {
        view_.notice = theme_.fonts.note;
        std::cerr << "tilescope: " << theme_.fonts.note << "\n";
    }
    try {
        loaded_.presets = sim::listPresets(panelNameList());
    } catch (const std::exception& e) {
        loaded_.presetsError = e.what();
    }
    openPreset(opt_.preset, opt_.step ? opt_.step : std::optional<int>(opt_.preset.step));
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
    dt_ = std::chrono::duration<double>(frameStart_ - lastFrame_).count();
    lastFrame_ = frameStart_;
    glfwPollEvents();
    collectJobs();
    if (!fatal_.empty()) throw UsageError(fatal_);
    applyLook();
    followPresentation();
}

double App::renderFrame(std::optional<ImVec2> display)
{
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (display) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = *display;
        io.DisplayFramebufferScale = ImVec2(1, 1);
    }
    ImGui::NewFrame();
    handleKeys();
    play(dt_);
    updateReplay();
    drawUi();
    ImGui::Render();
    const double cpuMs = std::chrono::duration<double, std::milli>(Clock::now() - frameStart_).count();
    carryOut();

    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(window_, &fbw, &fbh);
    glViewport(0, 0, fbw, fbh);
    const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(theme_.palette.clear);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    menuScreenshot(fbw, fbh);
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
        view_.notice = e.empty() ? "Saved " + pendingScreenshot_ : e;
        view_.noticeIsError = !e.empty();
        pendingScreenshot_.clear();
    }
}

void App::swapBuffers() { glfwSwapBuffers(window_); }

bool App::closeRequested() const { return glfwWindowShouldClose(window_); }

bool App::ready() const { return loaded_.sim && !busy_.simulating && !gpuJob_.running(); }

void App::run()
{
    while (!closeRequested()) {
        prepareFrame();
        renderFrame(std::nullopt);
        swapBuffers();
    }
    if (!settingsPath_.empty()) {
        // The desk's panels, not the slide's, are the ones to come back to.
        const Settings s{view_.themeKind, view_.uiScale, view_.presentationScale,
                         slideLayout_ ? deskPanels_ : view_.open, view_.caption};
        if (std::string e = saveSettings(s, settingsPath_); !e.empty()) std::cerr << "tilescope: " << e << "\n";
    }
}

}  // namespace ts::app
