// GifWriter in the web build, which has no giflib: every call says so in one sentence
// (app/gui/CMakeLists.txt picks this file instead of gif_writer.cpp under Emscripten).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunused-private-field"   // the members giflib would fill
#endif
#include "gif_writer.hpp"

namespace ts::app {
namespace {
const char* const kNoGif = "GIF export is not in the web build (it has no giflib); export PNG frames instead.";
}

GifWriter::~GifWriter() = default;

std::string GifWriter::open(const std::string&, int, int, int) { return kNoGif; }

std::string GifWriter::addFrame(const Image&) { return kNoGif; }

std::string GifWriter::close() { return kNoGif; }

}  // namespace ts::app
