#include "help_keys.hpp"

#include <array>

namespace ts::app {
namespace {

constexpr std::array<KeyHelp, 17> kKeys{{
    {"Space", "play / pause"},
    {"Right, Page Down", "next step"},
    {"Left, Page Up", "previous step"},
    {"Home", "first step"},
    {"End", "last step"},
    {"[ and ]", "previous / next warp (Memory panel)"},
    {"F5", "presentation mode (full screen, large text)"},
    {"Esc", "leave presentation mode; stop a simulation that runs"},
    {"Ctrl+O", "open a scenario (a lesson or a TOML file)"},
    {"Ctrl+K", "open your own kernel file (.cu), or an exercise's starter"},
    {"Ctrl+S", "save the state on screen as a scenario"},
    {"Ctrl+E", "export steps as PNG, GIF or SVG"},
    {"Ctrl+L", "copy the view link (scenario, step, block, panels)"},
    {"F1", "Getting started: the lessons in chapter order"},
    {"P", "practice mode: a question before each step"},
    {"Enter", "practice: reveal the answer (digits, minus, Backspace: type it)"},
    {"R", "practice: restart (score 0 of 0, first step)"},
}};

}  // namespace

std::span<const KeyHelp> keyHelp() { return kKeys; }

const char* mouseHelp()
{
    return "Click a tile of P to trace that block; click a thread to select it.\n"
           "In practice mode a click on a cell adds it to the answer, or takes it back.\n"
           "Click a legend's words to read the term in the glossary.";
}

}  // namespace ts::app
