// The App's runs and background jobs (app/gui/app.hpp): simulations started or refused, presets
// opened, scenarios saved, exports, occupancy and results files, the ladder, the jobs collected
// each frame, and a student's kernel file built, rebuilt and rewritten.
#include "app.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "layout.hpp"
#include "export_files.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/engine/wrong_reads.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/loaded_runner.hpp"

namespace ts::app {

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
    if (p.thread) {
        const sim::Dim3 b = sim::launchShape(p.scenario).block;
        pendingThread_ = (p.thread->z * b.y + p.thread->y) * b.x + p.thread->x;
    }
}

sim::Preset App::currentPreset() const
{
    sim::Preset p = loaded_.preset;
    p.scenario = loaded_.sim->scenario;
    p.step = view_.cursor;
    const unsigned bx = loaded_.sim->trace.blockDim.x, by = std::max(1u, loaded_.sim->trace.blockDim.y);
    const unsigned t = static_cast<unsigned>(view_.thread);
    p.thread = sim::Uint3{t % bx, t / bx % by, t / bx / by};
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
        if (was && &sim::problemOf(*was) != &sim::problemOf(*b.info)) {
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
        const bool keep = p.scenario.block.x == before.x && p.scenario.block.y == before.y && p.scenario.block.z == before.z && p.step == view_.cursor;
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

}  // namespace ts::app
