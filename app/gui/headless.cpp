#include "headless.hpp"

#include "sim/files/output_target.hpp"
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "export_files.hpp"
#include "gif_writer.hpp"
#include "shown_text.hpp"
#include "layout.hpp"
#include "panels/diagnosis_report.hpp"
#include "screenshot.hpp"
#include "student_kernel.hpp"
#include "svg_export.hpp"
#include "glossary.hpp"
#include "welcome.hpp"

namespace ts::app {
namespace {

/// Frames drawn after the scenario is ready before a picture is taken: ImGui sizes
/// auto-fitted content over the first frames; then the picture waits until the layout
/// has placed every panel as in the frame before twice in a row (layout.hpp), at most 30
/// frames more.
constexpr int kSettleFrames = 3;

double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
    return v[i];
}

/// Throws RunError with `e` unless it is "".
void check(const std::string& e)
{
    if (!e.empty()) throw RunError(e);
}

/// One run of a command-line mode over the app's frames.
class Headless {
public:
    explicit Headless(App& app) : app_(app), opt_(app.options())
    {
        // Scripted clicks give the hidden window a mouse (it has none of its own).
        for (const ScriptedInput& in : opt_.keys)
            if (!in.click.empty()) {
                app_.inputHook = [this](ImGuiIO& io) {
                    io.MousePos = mousePos_;
                    io.MouseDown[0] = mouseDown_;
                };
                break;
            }
    }

    void run()
    {
        exportNext_ = opt_.exportFrom;
        if (exportNext_ >= 0) exportFiles_ = exportFiles(opt_.exportDir, opt_.exportFormat, opt_.exportFrom, opt_.exportTo);
        const std::optional<ImVec2> display =
            opt_.offscreen() ? std::optional<ImVec2>(ImVec2(opt_.width * opt_.scale, opt_.height * opt_.scale))
                             : std::nullopt;
        int settled = 0;
        while (!app_.closeRequested()) {
            app_.prepareFrame();
            if (opt_.exportFormat == ExportFormat::Svg && exportNext_ >= 0) {
                // Triangles of one colour each: SVG fills them and anti-aliases the edges itself.
                ImGuiStyle& st = ImGui::GetStyle();
                st.AntiAliasedLines = st.AntiAliasedLinesUseTex = st.AntiAliasedFill = false;
                app_.view().vectorOnly = true;   // no shader pictures: they would be left out
            }
            if (opt_.exportPanel >= 0) app_.view().open[opt_.exportPanel] = true;
            const bool typing = pressKeys();
            const double cpuMs = app_.renderFrame(display);
            if (typing) settled = 0;
            const bool steady = app_.ready() && ++settled > kSettleFrames &&
                                (layoutSteadyFrames() >= 2 || settled > kSettleFrames + 30);
            if (opt_.shotWhileSimulating && app_.simulatingSeconds() >= 0.3) {
                // The progress bar shows from 0.3 s on; ImGui sizes a new window in its
                // first frame and draws it from the next, so wait for a few frames of it.
                if (++progressFrames_ >= 3 && app_.simulatingSeconds() >= 1.0) {
                    screenshot(*display);
                    return;   // the App, destroyed, stops the run (Job's destructor cancels it)
                }
            }
            if (steady && !opt_.reloadFrom.empty() && !reloaded_) {
                // --reload-from: the first run is shown; save the other text over the kernel
                // file and wait for the app to rebuild and run it.
                app_.rewriteKernelFile(opt_.reloadFrom);
                reloaded_ = true;
                settled = 0;
            } else if (steady && opt_.offscreen() && exportNext_ >= 0) {
                if (exportFrame()) return;
                settled = 0;
            } else if (steady && opt_.offscreen()) {
                screenshot(*display);
                return;
            } else if (steady && opt_.frames > 0) {
                // --frames counts frames once the scenario is loaded and the layout has settled.
                if (frameMs_.empty()) firstFrame_ = app_.frameNumber();
                frameMs_.push_back(cpuMs);
                threadMs_.push_back(app_.lastFrameThreadMs());
                if (opt_.pan) panStep(static_cast<int>(frameMs_.size()));
                if (static_cast<int>(frameMs_.size()) == opt_.frames) {
                    // GPU time from the frames' timer queries (Mesa's llvmpipe under Xvfb).
                    const std::vector<double> gpu = app_.gpuFrameMs(firstFrame_, app_.frameNumber());
                    std::printf("frames %d cpu_ms_median %.3f cpu_ms_p99 %.3f gpu_ms_median %.3f gpu_ms_p99 %.3f "
                                "thread_cpu_ms_median %.3f thread_cpu_ms_p99 %.3f\n",
                                opt_.frames, percentile(frameMs_, 0.5), percentile(frameMs_, 0.99),
                                percentile(gpu, 0.5), percentile(gpu, 0.99), percentile(threadMs_, 0.5),
                                percentile(threadMs_, 0.99));
                    return;
                }
            }
            app_.swapBuffers();
        }
    }

private:
    int progressFrames_ = 0;   ///< --screenshot-while-simulating: frames drawn with the progress bar
    bool reloaded_ = false;    ///< --reload-from: the kernel file has been rewritten

    /// --pan: the Matrices view, fitted, moves round a circle of 60 pixels by 4 pixels a
    /// frame (the first counted frame is drawn fitted), so that every frame draws the
    /// matrices at a new place.
    void panStep(int counted)
    {
        View& v = app_.view();
        const double radius = 60, angle = counted * 4.0 / radius;
        v.zoom = 1.0f;
        v.panX = static_cast<float>(radius * std::sin(angle));
        v.panY = static_cast<float>(radius * (1 - std::cos(angle)));
    }

    /// --keys: once the scenario has loaded, each key goes down for one frame and up the
    /// next, through the same ImGui key state the GLFW backend fills from real presses. A
    /// click:CELL waits until the layout stands still (at most 30 frames), then presses the
    /// mouse button for one frame over the middle of the cell where a panel drew it in the
    /// frame before and lets it go over the same place the next, through App::inputHook; a
    /// cell no panel draws (one outside its array, say) is handed to practice mode's answer
    /// as such a click would be, so that its refusal shows. type:TEXT sets practice mode's
    /// answer text. Returns whether input is still being given.
    bool pressKeys()
    {
        const bool typing = opt_.offscreen() && keyNext_ < opt_.keys.size();
        if (!clickHeld_) mousePos_ = ImVec2(-FLT_MAX, -FLT_MAX);   // no hover left behind after a click
        if (typing && app_.loaded().sim && !app_.simulating()) {
            const ScriptedInput& in = opt_.keys[keyNext_];
            Practice& practice = app_.view().practice;
            if (in.key) {
                ImGui::GetIO().KeysDown[in.key] = !keyHeld_;
                ImGui::GetIO().KeyCtrl = in.ctrl && !keyHeld_;
                if (keyHeld_) ++keyNext_;
                keyHeld_ = !keyHeld_;
            } else if (in.type) {
                practiceType(practice, *in.type);
                ++keyNext_;
            } else if (clickHeld_) {
                mouseDown_ = false;   // released over the cell
                clickHeld_ = false;
                waited_ = 0;
                ++keyNext_;
            } else if (layoutSteadyFrames() >= 2 || ++waited_ > 30) {
                const CellRef ref = *parseCellRef(in.click);
                if (const auto it = practice.drawn.find(ref); it != practice.drawn.end()) {
                    mousePos_ = it->second.centre();
                    mouseDown_ = clickHeld_ = true;
                } else {
                    practiceClickCell(practice, app_.loaded(), ref);
                    waited_ = 0;
                    ++keyNext_;
                }
            }
        }
        return typing;
    }

    /// --screenshot: the frame just drawn as a PNG, and with --print-caption the caption.
    void screenshot(ImVec2 size)
    {
        check(saveScreenshot(ImGui::GetDrawData(), static_cast<int>(size.x), static_cast<int>(size.y),
                             app_.theme().palette.clear, opt_.screenshot));
        // --print-view: the view link of what the picture shows (after --keys).
        if (opt_.printView) std::cout << app_.viewLink() << "\n";
        if (opt_.printLayout) std::cout << layoutReport() << welcomeReport() << glossaryReport();
        if (opt_.printCode) std::cout << codeReport();
        if (opt_.printText) std::cout << shownText() << "\n";
        if (!opt_.printCaption) return;
        std::cout << captionLine(captionText(app_.loaded(), app_.view())) << "\n";
        // The sentences a student's kernel gets besides the caption: the caption bar's
        // notice, and what the Code panel says is wrong with the run.
        const Loaded& l = app_.loaded();
        if (!app_.view().notice.empty()) std::cout << "notice: " << app_.view().notice << "\n";
        // The run's mistake as the caption bar drew it (else as the Code panel gives a student's),
        // with the step G moves to and the line the Code panel scrolls to.
        if (const std::string d = captionDiagnosisDrawn(); !d.empty()) {
            std::cout << "diagnosis: " << d << "\n";
            std::cout << "diagnosis-in-caption: step " << l.diagnosis.step << " line " << l.diagnosis.line << "\n";
        } else if (!l.kernelFile.empty() && l.sim && kernelFileOf(l.sim->scenario) == l.kernelFile) {
            if (const std::string r = runDiagnosis(*l.sim); !r.empty()) std::cout << "diagnosis: " << r << "\n";
        }
    }

    /// --export-steps: writes the frame just drawn as step exportNext_ and moves the cursor to
    /// the next step. Returns true when the last step has been written.
    bool exportFrame()
    {
        const sim::Preset& p = app_.loaded().preset;
        const int last = static_cast<int>(app_.loaded().sim->trace.steps.size()) - 1;
        if (opt_.exportTo > last)
            throw UsageError("--export-steps ends at step " + std::to_string(opt_.exportTo) + ", past the last step of '" +
                             p.title + "' (its steps are 0 to " + std::to_string(last) + ").");
        const int w = static_cast<int>(opt_.width * opt_.scale), h = static_cast<int>(opt_.height * opt_.scale);
        exportStep(ImGui::GetDrawData(), exportNext_, w, h);
        if (exportNext_ == opt_.exportTo && gif_) check(gif_->close());
        if (++exportNext_ > opt_.exportTo) {
            std::cout << exportReport(exportFiles_, opt_.exportDirCreated, opt_.exportDir) << std::flush;
            return true;
        }
        app_.view().cursor = exportNext_;
        return false;
    }

    /// Writes the frame `data` as step `step` (a numbered PNG or SVG, or the next GIF frame)
    /// at `w` x `h` pixels: the whole window, or the --panel's window.
    void exportStep(ImDrawData* data, int step, int w, int h)
    {
        float x0 = 0, y0 = 0, x1 = static_cast<float>(w), y1 = static_cast<float>(h);
        const ImGuiWindow* panel = nullptr;
        if (opt_.exportPanel >= 0) {
            panel = ImGui::FindWindowByName(panelTable()[opt_.exportPanel].title);
            if (!panel || !panel->WasActive)
                throw UsageError(std::string("The panel '") + panelTable()[opt_.exportPanel].name +
                                 "' is not shown with this scenario (the Matrices panel shows matrix multiplication, "
                                 "the Convolution panel convolution); --panel cannot export it.");
            x0 = std::max(0.0f, std::floor(panel->Pos.x));
            y0 = std::max(0.0f, std::floor(panel->Pos.y));
            x1 = std::min(x1, std::ceil(panel->Pos.x + panel->Size.x));
            y1 = std::min(y1, std::ceil(panel->Pos.y + panel->Size.y));
        }
        const ImU32 clear = app_.theme().palette.clear;
        // The file names of exportFiles(), which main() checked against overwriting.
        const std::string& path = exportFiles_[opt_.exportFormat == ExportFormat::Gif ? 0 : step - opt_.exportFrom];
        if (opt_.exportFormat == ExportFormat::Svg) {
            // The draw lists in drawing order: all, or the panel's own and its child windows'
            // (scrolling canvases).
            std::vector<const ImDrawList*> lists;
            for (int i = 0; i < data->CmdListsCount; ++i) {
                const ImDrawList* dl = data->CmdLists[i];
                const bool mine = !panel || std::any_of(GImGui->Windows.begin(), GImGui->Windows.end(), [&](const ImGuiWindow* win) {
                    return win->WasActive && win->RootWindow == panel && win->DrawList == dl;
                });
                if (mine) lists.push_back(dl);
            }
            const std::string svg = drawListsToSvg(lists, ImVec2(x0, y0), ImVec2(x1 - x0, y1 - y0), clear);
            // Beside its name first, then renamed (as savePng does); a device or a pipe
            // (/dev/null) is written into, never renamed over.
            std::string why;
            const sim::OutputTarget target = sim::outputTarget(path, why);
            if (target == sim::OutputTarget::Refused) throw RunError("Cannot write the SVG: " + why);
            if (target == sim::OutputTarget::Direct) {
                std::ofstream out(path, std::ios::binary);
                if (!(out << svg) || !out.flush()) throw RunError("Cannot write the SVG to '" + path + "'.");
                return;
            }
            const std::string part = path + ".part";
            {
                std::ofstream out(part, std::ios::binary | std::ios::trunc);
                if (!(out << svg) || !out.flush()) {
                    std::remove(part.c_str());
                    throw RunError("Cannot write the SVG '" + path + "' (is the folder there and writable?).");
                }
            }
            if (std::rename(part.c_str(), path.c_str()) != 0) {
                std::remove(part.c_str());
                throw RunError("Cannot write the SVG '" + path + "' (renaming it into place failed).");
            }
            return;
        }
        Image img;
        check(renderImage(data, w, h, clear, img));
        if (panel)
            img = cropImage(img, static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0),
                            static_cast<int>(y1 - y0));
        if (opt_.exportFormat == ExportFormat::Gif) {
            if (!gif_) {
                gif_ = std::make_unique<GifWriter>();
                check(gif_->open(path, img.width, img.height, opt_.gifDelayMs));
            }
            check(gif_->addFrame(img));
            return;
        }
        check(savePng(img, path));
    }

    App& app_;
    const Options& opt_;
    int exportNext_ = -1;               ///< next step --export-steps writes
    std::vector<std::string> exportFiles_;   ///< --export-steps: the files, in the order written
    size_t keyNext_ = 0;                ///< next of opt_.keys to press
    bool keyHeld_ = false;              ///< opt_.keys[keyNext_] is down this frame
    ImVec2 mousePos_{-FLT_MAX, -FLT_MAX};   ///< a scripted click's mouse, for App::inputHook
    bool mouseDown_ = false;
    bool clickHeld_ = false;            ///< a scripted click's button is down this frame
    int waited_ = 0;                    ///< frames a click has waited for the layout
    std::unique_ptr<GifWriter> gif_;    ///< --format gif: the file being written
    std::vector<double> frameMs_;       ///< --frames: CPU milliseconds of the frames counted (wall time)
    std::vector<double> threadMs_;      ///< --frames: the app thread's CPU time of the same frames
    uint64_t firstFrame_ = 0;           ///< --frames: the app's number of the first frame counted
};

}  // namespace

void runHeadless(App& app) { Headless(app).run(); }

}  // namespace ts::app
