// The App's controls (app/gui/app.hpp): its keys, playing and replaying the steps, a frame's UI
// (menu, caption bar, panels, welcome, glossary, simulation controls) and the requests it made
// carried out.
#include "app.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "shown_text.hpp"
#include "glossary.hpp"
#include "welcome.hpp"
#include "sim/teaching/warp_view.hpp"
#include "sim/engine/work_estimate.hpp"

namespace ts::app {
namespace {

bool keyPressed(ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); }

}  // namespace

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

}  // namespace ts::app
