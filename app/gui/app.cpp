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
#include "glossary.hpp"
#include "sim/teaching/lessons.hpp"
#include "welcome.hpp"
#include "view_options.hpp"
#include "export_files.hpp"
#include "sim/teaching/warp_view.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/engine/wrong_reads.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/loaded_runner.hpp"

namespace ts::app {
namespace {

using Clock = std::chrono::steady_clock;

/// The most frames a shown frame is preceded by while the layout settles (App::renderFrame),
/// and the time each of them counts for ImGui (which wants some).
constexpr int kUnshownFrames = 12;
constexpr float kUnshownFrameSeconds = 1e-5f;

bool keyPressed(ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); }

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

bool App::startSimulation(const sim::Preset& p, std::optional<int> step, bool keepCursor, bool confirmed,
                          bool opening)
{
    if (simJob_.running()) {
        view_.notice = "A simulation is still running; wait until it has finished or cancel it.";
        view_.noticeIsError = true;
        return false;
    }
    // The work first: with a dropped barrier the same problem is simulated twice, the
    // intact twin while the first result is held (sim::wrongReads).
    sim::SimOptions opt{true, p.schedule, p.scheduleSeed};
    opt.threads = static_cast<unsigned>(view_.simThreads);
    sim::Scenario intact = p.scenario;
    intact.dropBarriers = 0;
    // Made once here: the runs below take these estimates rather than making them again.
    const sim::WorkEstimate first = sim::estimateWork(p.scenario, opt);
    const sim::WorkEstimate twin = p.scenario.dropBarriers ? sim::estimateWork(intact, opt) : sim::WorkEstimate{};
    sim::WorkEstimate work = first;
    if (p.scenario.dropBarriers) work += twin;
    const std::optional<uint64_t> available = sim::availableMemory();
    switch (sim::judgeWork(work, available)) {
    case sim::WorkVerdict::TooBig:
        refuseSimulation(sim::memorySentence(p.scenario, work, *available) + "; choose a smaller problem.", firstLoad_);
        return false;
    case sim::WorkVerdict::Ask:
        if (confirmed || opt_.yes) break;
        if (opt_.headless()) {
            refuseSimulation(sim::durationSentence(p.scenario, work) + "; add --yes to run it anyway.", true);
            return false;
        }
        pendingRun_ = PendingRun{p, step, keepCursor, opening, sim::durationSentence(p.scenario, work)};
        return false;
    case sim::WorkVerdict::Run:
        break;
    }
    pendingStep_ = step;
    pendingKeepCursor_ = keepCursor;
    simEstimate_ = work.seconds();
    simWhat_ = sim::problemWords(p.scenario);
    busy_.simulatingScenario = p.scenario;
    busy_.simulatingSchedule = p.schedule;
    busy_.simulatingScheduleSeed = p.scheduleSeed;
    ++busy_.simulatingRun;
    const double share = work.seconds() > 0 ? first.seconds() / work.seconds() : 1.0;
    const std::atomic<bool>* cancel = simJob_.cancelFlag();
    const unsigned threads = opt.threads;
    // A student's kernel runs only in its confined runner (student/confined_run.hpp): the
    // module is never opened in this process, and a crash, an endless loop or a hostile
    // kernel ends there with one sentence, leaving the view as it was.
    const std::string kernelFile = kernelFileOf(p.scenario);
    if (!kernelFile.empty()) probeLimit_ = static_cast<int>(std::ceil(5 + 10 * first.seconds()));
    std::shared_ptr<const std::string> kernelText;
    if (!kernelFile.empty())
        if (const std::string* t = sim::loadedKernelSource(kernelFile)) kernelText = std::make_shared<const std::string>(*t);
    simJob_.start([p, intact, first, twin, cancel, share, threads, kernelFile, kernelText,
                   probing = probing_](std::atomic<float>& progress) {
        sim::SimOptions o{true, p.schedule, p.scheduleSeed};
        o.threads = threads;
        o.cancel = cancel;
        o.progress = &progress;
        o.progressTo = p.scenario.dropBarriers ? share : 1.0;
        *probing = !kernelFile.empty();
        std::shared_ptr<sim::Simulation> s;
        try {
            s = std::make_shared<sim::Simulation>(sim::simulate(p.scenario, o, first));
        } catch (const sim::RunStopped& stopped) {
            *probing = false;
            std::string why = stopped.what();
            if (!why.empty()) why[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(why[0])));
            if (why.back() != '.') why += '.';
            return SimOutcome{p, std::make_shared<sim::Simulation>(), {}, std::move(why), nullptr};
        }
        *probing = false;
        std::vector<uint8_t> wrong;
        if (p.scenario.dropBarriers && s->error.empty()) {
            // The same run with every barrier in place says which reads went wrong.
            o.progressFrom = share;
            o.progressTo = 1.0;
            const sim::Simulation intactRun = sim::simulate(intact, o, twin);
            if (intactRun.cancelled) {
                s->cancelled = true;
                s->error = intactRun.error;
            } else {
                wrong = sim::wrongReads(s->trace, intactRun.trace);
            }
        }
        return SimOutcome{p, std::move(s), std::move(wrong), {}, kernelText};
    });
    return true;
}

void App::refuseSimulation(const std::string& sentence, bool fatal)
{
    view_.notice = sentence;
    view_.noticeIsError = true;
    view_.form.error = sentence;
    if (fatal) fatal_ = sentence;
}

void App::openPreset(const sim::Preset& p, std::optional<int> step, bool confirmed)
{
    // Busy, refused or asking first: the view changes wait for the simulation to start.
    if (!startSimulation(p, step, false, confirmed, true)) return;
    openOccupancy(p);
    if (view_.presentation && slideLayout_) {
        view_.open = presentationPanels(p);
        relayoutFrames_ = 2;
    } else {
        // The preset shows only what its slide needs, and at least its lesson's panels.
        view_.open = withLesson(p, p.panels.empty() ? view_.open : panelsNamed(p.panels));
    }
    // --panel NAME: the panel exported is shown even where the preset leaves it out, and
    // never folded.
    if (opt_.exportPanel >= 0) {
        view_.open[opt_.exportPanel] = true;
        view_.keepOpen = opt_.exportPanel;
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
    // The lesson's panels the user has closed are no longer the lesson (a file names only
    // shown panels there).
    std::erase_if(p.lesson, [&](const std::string& name) {
        return std::find(p.panels.begin(), p.panels.end(), name) == p.panels.end();
    });
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
        // On the web the file is offered as a download (File > Open scenario reads it back).
        if (const std::string offered = platform_->offerFile(path); !offered.empty()) view_.notice = offered + ".";
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
    lastExport_ = r;
    exportJob_.start([r, cancel = exportJob_.cancelFlag()](std::atomic<float>& progress) {
        ExportOutcome out = runExport(r, progress, cancel);
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

void App::setResults(std::shared_ptr<const sim::ResultsFile> f, bool showPanels)
{
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(f->path, ec);
    resultsFile_ = ec ? f->path : absolute.lexically_normal().string();
    loaded_.results = std::move(f);
    ++loaded_.resultsGeneration;
    if (showPanels) {
        // On a slide the results are the slide (followPresentation()).
        if (view_.presentation) view_.open.assign(panelCount(), false);
        for (const char* name : {"ladder", "roofline"}) view_.open[panelId(name)] = view_.subject[panelId(name)] = true;
    }
}

bool App::resultsOnSlide() const
{
    return view_.subject[panelId("ladder")] || view_.subject[panelId("roofline")];
}

void App::openResults(const std::string& path)
{
    try {
        auto f = std::make_shared<const sim::ResultsFile>(sim::loadResultsFile(path));
        // The file's name, not its whole path: the caption bar says it on a slide too.
        view_.notice = "Opened " + std::filesystem::path(path).filename().string() + ": " +
                       std::to_string(f->results.size()) + " timings " + f->measuredOn() + ".";
        view_.noticeIsError = false;
        setResults(std::move(f), true);
    } catch (const sim::ResultsFileError& e) {
        // The results shown before stay.
        view_.notice = e.what();
        view_.noticeIsError = true;
    }
}

bool App::ladderWanted() const { return view_.open[panelId("ladder")] || view_.open[panelId("roofline")]; }

bool App::ladderPending() const
{
    return ladderJob_.running() ||
           (ladderWanted() && (!loaded_.ladder || loaded_.ladder->resultsGeneration != loaded_.resultsGeneration));
}

void App::updateLadder()
{
    try {
        if (std::optional<LadderModel> m = ladderJob_.poll()) loaded_.ladder = std::make_shared<const LadderModel>(std::move(*m));
    } catch (const std::exception& e) {
        view_.notice = std::string("Counting the ladder's kernels failed: ") + e.what();
        view_.noticeIsError = true;
        loaded_.ladder = std::make_shared<const LadderModel>(LadderModel{{}, {}, loaded_.resultsGeneration});
    }
    if (!ladderWanted() || ladderJob_.running() || (loaded_.ladder && loaded_.ladder->resultsGeneration == loaded_.resultsGeneration))
        return;
    // A few small simulations (a 128^3 product per kernel, well under a second in all).
    ladderJob_.start([rungs = sim::rungsToCount(loaded_.results.get()), generation = loaded_.resultsGeneration,
                      cancel = ladderJob_.cancelFlag()](std::atomic<float>& progress) {
        LadderModel m;
        m.resultsGeneration = generation;
        for (size_t i = 0; i < rungs.size() && !*cancel; ++i) {
            m.counts.push_back(sim::countRung(rungs[i].first, rungs[i].second, 0, cancel));
            progress = static_cast<float>(i + 1) / static_cast<float>(rungs.size() + 1);
        }
        m.textbook = sim::textbookRoofline();
        return m;
    });
}

void App::collectJobs()
{
    try {
        std::optional<SimOutcome> r = simJob_.poll();
        if (r && !r->refused.empty()) {
            // The sandboxed run stopped the student's kernel or saw it crash: the
            // sentence says which, and the previous simulation stays.
            loaded_.kernelProblem = r->refused;
            view_.notice = r->refused + (loaded_.sim ? " Still showing the previous run." : "");
            view_.noticeIsError = true;
            pendingThread_.reset();
            reloadNote_.clear();
            if (firstLoad_ && opt_.headless()) fatalRun_ = r->refused;
            firstLoad_ = false;
        } else if (r && r->sim->cancelled) {
            // Nothing of a cancelled run is shown: the previous simulation stays.
            view_.notice = "Cancelled the simulation of " + simWhat_ +
                           (loaded_.sim ? "; still showing the previous one." : ".");
            view_.noticeIsError = false;
            pendingThread_.reset();
            firstLoad_ = false;
        } else if (r) {
            const int steps = static_cast<int>(r->sim->trace.steps.size());
            if (!kernelFileOf(r->preset.scenario).empty()) loaded_.kernelProblem.clear();
            loaded_.preset = std::move(r->preset);
            loaded_.sim = std::move(r->sim);
            loaded_.wrongReads = std::move(r->wrongReads);
            loaded_.kernelText = std::move(r->kernelText);
            ++loaded_.generation;
            // A run with a mistake opens the panels that explain it (the layout keeps them open).
            loaded_.diagnosis = diagnose(*loaded_.sim);
            if (loaded_.diagnosis.kind != Diagnosis::Kind::None) {
                view_.open[panelId("code")] = true;
                if (loaded_.diagnosis.hazards()) view_.open[panelId("hazards")] = true;
            }
            const int threads = static_cast<int>(loaded_.sim->trace.blockDim.count());
            if (pendingThread_ && *pendingThread_ < threads) view_.thread = *pendingThread_;
            pendingThread_.reset();
            if (view_.thread >= threads) view_.thread = 0;
            if (!reloadNote_.empty()) {
                view_.notice = reloadNote_;
                view_.noticeIsError = false;
                reloadNote_.clear();
            }
            if (!loaded_.sim->error.empty()) {
                view_.notice = "The simulated kernel faulted: " + loaded_.sim->error;
                view_.noticeIsError = true;
            }
            if (pendingKeepCursor_) {
                // Another block of the same problem, or the student's kernel saved again:
                // stay at the same step if it has one.
                if (view_.cursor >= steps && steps > 0) {
                    // After a fault's sentence, which stays first.
                    const std::string fewer = "This block's trace has " + std::to_string(steps) +
                                              " steps, fewer than before; showing its last one, step " +
                                              std::to_string(steps - 1) + ".";
                    view_.notice = loaded_.sim->error.empty() ? fewer : view_.notice + " " + fewer;
                    view_.noticeIsError = !loaded_.sim->error.empty();
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
    busy_.probing = simJob_.running() && *probing_;
    busy_.simulatingSeconds = simJob_.running() ? simJob_.seconds() : 0;

    try {
        if (std::optional<GpuOutcome> g = gpuJob_.poll()) {
            if (g->device) loaded_.device = g->device;
            if (g->limits) loaded_.deviceLimits = g->limits;
            if (!g->limitsError.empty()) loaded_.deviceLimitsError = g->limitsError;
            if (g->cancelled) {
                view_.notice = "Cancelled the GPU timings; the timings shown before stay.";
                view_.noticeIsError = false;
            } else if (!g->timings.empty() || !g->error.empty()) {
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
        // On the web the files written are offered as downloads.
        if (!x->failed && lastExport_) {
            const ExportFormat format = lastExport_->format == "gif"   ? ExportFormat::Gif
                                        : lastExport_->format == "svg" ? ExportFormat::Svg
                                                                       : ExportFormat::Png;
            std::string offered;
            for (const std::string& file : exportFiles(lastExport_->dir, format, lastExport_->from, lastExport_->to))
                if (std::error_code ec; std::filesystem::exists(file, ec)) offered = platform_->offerFile(file);
            if (!offered.empty()) view_.notice += " " + offered + ".";
        }
    }
    busy_.exporting = exportJob_.running();
    busy_.timingProgress = gpuJob_.progress();
    updateLadder();
}

void App::updateKernelFile()
{
    if (std::optional<KernelBuild> b = buildJob_.poll()) builtWaiting_ = std::move(b);
    // A build is shown once no simulation runs (one started meanwhile, from the Scenario
    // panel say, finishes or is cancelled first).
    if (builtWaiting_ && !simJob_.running()) {
        const KernelBuild b = std::move(*builtWaiting_);
        builtWaiting_.reset();
        finishKernelBuild(b, buildIsReload_);
    }
    busy_.compiling = buildJob_.running() || builtWaiting_.has_value();
    const bool saved = kernelWatch_.changed();
    if (buildJob_.running()) {
        rebuildWanted_ = rebuildWanted_ || saved;
        return;
    }
    if (saved || rebuildWanted_) {
        rebuildWanted_ = false;
        startKernelBuild(kernelWatch_.path(), true);
    }
}

void App::startKernelBuild(const std::string& path, bool reload)
{
    buildIsReload_ = reload;
    if (!reload) kernelWatch_.watch(path);
    const std::string name = std::filesystem::path(path).filename().string();
    view_.notice = "Compiling your kernel " + name + "...";
    view_.noticeIsError = false;
    buildJob_.start([path](std::atomic<float>&) { return buildKernelFile(path); });
    busy_.compiling = true;
}

void App::finishKernelBuild(const KernelBuild& b, bool reload)
{
    const std::string name = std::filesystem::path(b.path).filename().string();
    loaded_.kernelFile = b.path;
    view_.subject[panelId("code")] = true;
    if (!b.ok()) {
        // The errors go beside the last good run, which stays.
        loaded_.kernelErrors = errorsByName(b.errors, b.path);
        view_.notice = "Your kernel did not compile: " + loaded_.kernelErrors.front() +
                       (loaded_.sim ? " (the last good run stays shown)." : ".");
        view_.noticeIsError = true;
        if (!reload) view_.kernelOpenError = view_.notice;
        return;
    }
    loaded_.kernelErrors.clear();
    view_.kernelPath = b.path;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", b.seconds);
    const bool sameFile = loaded_.sim && kernelFileOf(loaded_.sim->scenario) == b.path;
    if (reload && sameFile) {
        // The file saved again: the same problem, block, step and thread, where the new run
        // still has them (collectJobs says so when it has fewer steps).
        sim::Preset p = currentPreset();
        p.scenario.kernel = b.info->name;
        p.scenario.info = nullptr;
        p.title = b.info->summary;   // the kernel's name may have changed with the file
        p.name = b.info->name;
        std::string kept = "step " + std::to_string(view_.cursor) + " and block (" +
                           std::to_string(p.scenario.block.x) + ", " + std::to_string(p.scenario.block.y) + ") kept";
        const int tile = b.info->tiles.empty() ? p.scenario.tile : b.info->tiles.front();
        const sim::KernelInfo* was = loaded_.sim->scenario.kernelInfo();
        if (was && was->family != b.info->family) {
            p = studentPreset(p, *b.info, opt_.kernelProblem);
            kept = "it is another kind of problem now, so it runs on its own from step 0 and block (0, 0)";
        } else if (tile != p.scenario.tile) {
            p = studentPreset(p, *b.info);
            kept = "its TILE_WIDTH is now " + std::to_string(tile) + ", so it runs on " + std::to_string(p.scenario.j) +
                   " x " + std::to_string(p.scenario.j) + " from step 0 and block (0, 0)";
        } else if (!sim::validate(p.scenario).empty()) {
            p.scenario.block = {};
            kept = "block (0, 0) shown: the block before is no longer in the grid";
        }
        if (!sim::validate(p.scenario).empty()) p = studentPreset(p, *b.info, opt_.kernelProblem);
        reloadNote_ = "Reloaded " + name + " (compiled in " + seconds + " s): " + kept + ".";
        pendingThread_ = view_.thread;
        const sim::Uint3 before = loaded_.sim->scenario.block;
        const bool keep = p.scenario.block.x == before.x && p.scenario.block.y == before.y && p.step == view_.cursor;
        startSimulation(p, keep ? std::nullopt : std::optional<int>(0), keep);
        return;
    }
    reloadNote_ = "Opened your kernel " + name + " (compiled in " + std::string(seconds) + " s).";
    openPreset(studentPreset(loaded_.sim ? loaded_.preset : opt_.preset, *b.info, opt_.kernelProblem), 0);
}

void App::rewriteKernelFile(const std::string& from)
{
    std::ifstream in(from, std::ios::binary);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf())) throw RunError("Cannot read --reload-from file '" + from + "'.");
    std::ofstream out(kernelWatch_.path(), std::ios::binary | std::ios::trunc);
    if (!(out << text.str()) || !out.flush())
        throw RunError("Cannot write the kernel file '" + kernelWatch_.path() + "' for --reload-from.");
    kernelWatch_.pollNow();
}

void App::handleKeys()
{
    const ImGuiIO& io = ImGui::GetIO();
    // The Memory panel's warp follows the selected thread: a thread chosen in a panel, a link
    // or a scenario shows its warp from this frame on, before this frame's [ and ] move it.
    if (view_.thread != view_.warpThread) {
        view_.warpThread = view_.thread;
        view_.warp = view_.thread / static_cast<int>(sim::kWarpLanes);
    }
    if (io.WantTextInput) return;
    // ImGui 1.86 names no F keys; its GLFW backend indexes KeysDown by GLFW key code.
    if (ImGui::IsKeyPressed(GLFW_KEY_F5)) view_.presentation = !view_.presentation;
    // Esc stops a running simulation; otherwise it leaves presentation mode, as in slide
    // software (unless it closes a popup).
    const bool escape = keyPressed(ImGuiKey_Escape) && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
    if (escape && simJob_.running() && !simJob_.cancelRequested()) simJob_.cancel();
    else if (escape && view_.presentation) view_.presentation = false;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) view_.showOpen = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false)) view_.showSave = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_K, false) && kStartsProcesses) view_.showOpenKernel = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_E, false) && !busy_.exporting && kStartsProcesses)
        view_.showExport = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_L, false)) requests_.copyViewLink = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) view_.showWelcome = !view_.showWelcome;   // Help > Getting started
    if (!loaded_.sim) return;
    const int last = static_cast<int>(loaded_.sim->trace.steps.size()) - 1;
    if (last < 0) return;
    if (keyPressed(ImGuiKey_Space)) view_.playing = !view_.playing && view_.cursor < last;
    // Practice mode (docs/practice.md): P switches it, R restarts it; while a question waits,
    // the digit keys, minus and Backspace type a number, Enter reveals, the next-step keys
    // hold and the previous-step keys skip the question.
    Practice& practice = view_.practice;
    if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_P, false)) {
        practiceToggle(practice);
        if (practice.on && !view_.presentation) view_.open[panelId("practice")] = true;
    }
    if (practice.on && !io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_R, false)) practiceRestart(practice, view_);
    if (practiceWaiting(practice)) {
        for (int d = 0; d <= 9; ++d)
            if (ImGui::IsKeyPressed(GLFW_KEY_0 + d) || ImGui::IsKeyPressed(GLFW_KEY_KP_0 + d))
                practice.typed += static_cast<char>('0' + d);
        if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT)) practice.typed += '-';
        if (keyPressed(ImGuiKey_Backspace) && !practice.typed.empty()) practice.typed.pop_back();
        if (keyPressed(ImGuiKey_Enter) || keyPressed(ImGuiKey_KeyPadEnter)) practiceReveal(practice, loaded_, view_);
    }
    if (keyPressed(ImGuiKey_RightArrow) || keyPressed(ImGuiKey_PageDown))
        if (!practiceNext(practice, loaded_, view_)) view_.cursor = std::min(last, view_.cursor + 1);
    if (keyPressed(ImGuiKey_LeftArrow) || keyPressed(ImGuiKey_PageUp)) {
        if (practiceWaiting(practice)) practiceSkip(practice);
        else view_.cursor = std::max(0, view_.cursor - 1);
    }
    // G: to the step of the run's mistake (the caption bar's "Go to step" button).
    if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_G, false) && loaded_.diagnosis.step >= 0 &&
        loaded_.diagnosis.step <= last && !practiceWaiting(practice))
        view_.cursor = loaded_.diagnosis.step;
    if (keyPressed(ImGuiKey_Home)) view_.cursor = 0;
    if (keyPressed(ImGuiKey_End)) view_.cursor = last;
    // [ and ]: the previous and the next warp of the traced block (Memory panel). ImGui 1.86's
    // GLFW backend indexes KeysDown by GLFW key code.
    const int warps = static_cast<int>(sim::warpCount(loaded_.sim->trace));
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET)) view_.warp = std::max(0, view_.warp - 1);
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET)) view_.warp = std::min(warps - 1, view_.warp + 1);
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
    view_.browserFiles = platform_->picksFiles();
    Frame f{loaded_, replay_, busy_, theme_, view_, requests_};
    // Practice mode: the cells the panels draw are collected for scripted clicks (Practice::drawn
    // once the frame is drawn), a question of another simulation is dropped, and the
    // Practice panel is shown while the mode is on, on a slide too (its verdict and "Why:"
    // line are what the class reads after a reveal; the caption keeps the question large).
    Practice& practice = view_.practice;
    practice.drawing.clear();
    practice.smallMarksDrawing = false;
    practiceFollow(practice, loaded_, view_);
    if (practice.on) view_.open[panelId("practice")] = true;
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
    drawWelcome(f);    // Help > Getting started, over the panels
    drawGlossary(f);   // Help > Glossary, and a legend's term clicked
    drawSimulationControls();
    practice.drawn.swap(practice.drawing);
    practice.smallMarks = practice.smallMarksDrawing;
}

void App::drawSimulationControls()
{
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    if (pendingRun_ && pendingRun_->answer == PendingRun::Answer::None) {
        const char* title = "Long simulation";
        if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
        ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always,
                                ImVec2(0.5f, 0.5f));
        if (ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
            ImGui::PushTextWrapPos(em * 32);
            ImGui::TextUnformatted((pendingRun_->sentence + ".").c_str());
            ImGui::Spacing();
            ImGui::TextUnformatted("Run it? While it runs, Cancel (or Esc) stops it and keeps what is shown now.");
            ImGui::PopTextWrapPos();
            ImGui::Spacing();
            if (ImGui::Button("Run", ImVec2(em * 6, 0))) {
                pendingRun_->answer = PendingRun::Answer::Run;
                ImGui::CloseCurrentPopup();
            }
            ImGui::SameLine();
            if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || keyPressed(ImGuiKey_Escape)) {
                pendingRun_->answer = PendingRun::Answer::Cancel;
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndPopup();
        }
    }
    // Progress and Cancel, in a corner, for each long job that has run for a moment: the
    // simulation, the GPU timings, an export.
    struct Row {
        std::string what;
        float done;
        double elapsed, estimate, busyEstimate;   ///< seconds (estimates 0: none)
        bool cancelling;
        std::function<void()> cancel;
        const char* tip;
    };
    std::vector<Row> rows;
    if (buildJob_.running() && buildJob_.seconds() >= 0.3)
        rows.push_back({"Compiling your kernel " + std::filesystem::path(kernelWatch_.path()).filename().string() + "...",
                        0.0f, buildJob_.seconds(), 0, 0, false, nullptr, nullptr});
    if (simJob_.running() && simJob_.seconds() >= 0.3 && busy_.probing)
        rows.push_back({"Running your kernel in its sandbox (stopped if still running at " + std::to_string(probeLimit_) + " s)",
                        simJob_.progress(), simJob_.seconds(), 0, 0,
                        simJob_.cancelRequested(), [this] { simJob_.cancel(); },
                        "Stop your kernel's run (Esc); the run shown now stays"});
    else if (simJob_.running() && simJob_.seconds() >= 0.3)
        rows.push_back({"Simulating " + simWhat_, simJob_.progress(), simJob_.seconds(), simEstimate_,
                        simEstimate_ * sim::kBusySlowdown, simJob_.cancelRequested(), [this] { simJob_.cancel(); },
                        "Stop the simulation (Esc); the scenario shown now stays"});
    if (busy_.timing && gpuJob_.seconds() >= 0.3)
        rows.push_back({"Timing on the GPU", gpuJob_.progress(), gpuJob_.seconds(), 0, 0, gpuJob_.cancelRequested(),
                        [this] { gpuJob_.cancel(); }, "Stop the GPU timings; the timings shown before stay"});
    if (exportJob_.running() && exportJob_.seconds() >= 0.3)
        rows.push_back({"Exporting steps", exportJob_.progress(), exportJob_.seconds(), 0, 0,
                        exportJob_.cancelRequested(), [this] { exportJob_.cancel(); },
                        "Stop the export; the pictures written so far stay"});
    if (rows.empty()) return;
    const float pad = em * 0.75f;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - pad, vp->Pos.y + vp->Size.y - pad), ImGuiCond_Always,
                            ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    const bool progressShown = ImGui::Begin("##simulation-progress", nullptr, flags);
    logWindowText("Progress");   // --print-text
    if (progressShown) {
        for (size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            ImGui::PushID(static_cast<int>(i));
            const float done = std::clamp(r.done, 0.0f, 1.0f);
            // What is left: from the pace measured so far once there is one (it follows a
            // busy machine), else the estimate's range, the machine idle to busy.
            const bool paced = done > 0.02f;
            const double left = paced ? r.elapsed * (1 - done) / done : std::max(0.0, r.estimate - r.elapsed);
            const double most = std::max(0.0, r.busyEstimate - r.elapsed);
            ImGui::TextUnformatted(r.what.c_str());
            std::string when;
            if (paced || r.estimate > 0) {
                if (paced ? left < 1 : most < 1) when = ", almost done";
                else if (paced) when = ", about " + sim::durationWords(left) + " left";
                else if (sim::durationWords(left) == sim::durationWords(most)) when = ", about " + sim::durationWords(most) + " left";
                else when = ", " + sim::durationWords(left) + " to " + sim::durationWords(most) + " left";
            }
            // Work with no measure of its progress (a compile) shows its time.
            const std::string overlay = !paced && r.estimate <= 0 && done <= 0
                                            ? sim::durationWords(r.elapsed) + " so far"
                                            : std::to_string(static_cast<int>(done * 100)) + "%" + when;
            ImGui::ProgressBar(done, ImVec2(em * 20, 0), overlay.c_str());
            // A compile cannot be stopped half way: no Cancel for it.
            if (r.cancel) {
                ImGui::SameLine();
                ImGui::BeginDisabled(r.cancelling);
                if (ImGui::Button(r.cancelling ? "Cancelling..." : "Cancel")) r.cancel();
                ImGui::EndDisabled();
                if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", r.tip);
            }
            ImGui::PopID();
        }
    }
    ImGui::End();
}

void App::carryOut()
{
    // The web: a file from the browser's file chooser, copied into the page's memory, opens
    // as a path typed on the desktop does; a link typed into the address bar opens its view.
    if (std::optional<PickedFile> picked = platform_->pickedFile()) {
        if (!picked->error.empty()) {
            view_.notice = picked->error;
            view_.noticeIsError = true;
        } else if (picked->kind == PickKind::Results) {
            requests_.openResults = picked->path;
        } else {
            requests_.open = picked->path;
        }
    }
    if (std::optional<std::string> typed = platform_->linkTyped()) openViewLink(*typed);
    if (requests_.pickFile) {
        platform_->startPick(*requests_.pickFile);
        requests_.pickFile.reset();
    }
    if (requests_.copyViewLink) {
        copyViewLink();
        requests_.copyViewLink = false;
    }
    if (pendingRun_ && pendingRun_->answer != PendingRun::Answer::None) {
        const PendingRun run = std::move(*pendingRun_);
        pendingRun_.reset();
        if (run.answer == PendingRun::Answer::Cancel) {
            view_.notice = "Not simulated: " + sim::problemWords(run.preset.scenario) + ".";
            view_.noticeIsError = false;
            firstLoad_ = false;
        } else if (run.opening) {
            openPreset(run.preset, run.step, true);
        } else {
            startSimulation(run.preset, run.step, run.keepCursor, true);
        }
    }
    if (requests_.open) {
        try {
            sim::Preset p = sim::findPreset(*requests_.open, panelNameList());
            if (std::string e = sim::validate(p.scenario); !e.empty())
                throw sim::ScenarioFileError(p.file + ": " + e);
            view_.form.error.clear();
            openPreset(p, p.step);
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
        gpuJob_.start([reqs, cancel = gpuJob_.cancelFlag()](std::atomic<float>& progress) {
            GpuOutcome out;
            const float n = static_cast<float>(reqs.size());
            // Thrown from the progress report (between timed runs) when Cancel was pressed;
            // the device buffers and events free themselves on the way out.
            struct Stopped {};
            for (size_t i = 0; i < reqs.size(); ++i) {
                try {
                    if (*cancel) throw Stopped{};
                    out.timings.push_back(gpu::bench(reqs[i], [&](double p) {
                        progress = (static_cast<float>(i) + static_cast<float>(p)) / n;
                        if (*cancel) throw Stopped{};
                    }));
                } catch (const Stopped&) {
                    out.cancelled = true;
                    out.timings.clear();
                    break;
                } catch (const std::exception& e) {
                    out.error = reqs[i].scenario.kernel + ": " + e.what();
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
    if (requests_.openResults) {
        openResults(*requests_.openResults);
        requests_.openResults.reset();
    }
    if (requests_.openKernel) {
        if (buildJob_.running()) {
            view_.kernelOpenError = "A kernel file is still being compiled; wait a moment and open it again.";
        } else if (!canLoadKernelFiles()) {
            view_.kernelOpenError = "This build cannot load a kernel file: it was built without libclang.";
        } else if (std::error_code ec; !std::filesystem::is_regular_file(*requests_.openKernel, ec)) {
            view_.kernelOpenError = "There is no file '" + *requests_.openKernel + "'.";
        } else {
            view_.kernelOpenError.clear();
            startKernelBuild(*requests_.openKernel, false);
        }
        if (!view_.kernelOpenError.empty()) {
            view_.notice = view_.kernelOpenError;
            view_.noticeIsError = true;
        }
        requests_.openKernel.reset();
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
    if (lecture && lecture->scenario.block.x == s.block.x && lecture->scenario.block.y == s.block.y) base = *lecture;
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
                             p.scenario.block.y == shown->block.y && p.schedule == loaded_.preset.schedule &&
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
        if (p.thread) view_.thread = static_cast<int>(p.thread->y * loaded_.sim->trace.blockDim.x + p.thread->x);
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
