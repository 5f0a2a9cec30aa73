#include "heatmap.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ts::app {
namespace {

/// The uniform colour map of shaders/heatmap.frag has this many stops.
constexpr int kMapStops = 17;

/// One shader stage compiled from `source`; 0 with `error` set when the compiler refuses it.
GLuint compile(GLenum stage, const std::string& source, std::string& error)
{
    const GLuint s = glCreateShader(stage);
    const char* text = source.c_str();
    glShaderSource(s, 1, &text, nullptr);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return s;
    char log[512] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::string first = log;
    first = first.substr(0, first.find('\n'));
    error = std::string("the ") + (stage == GL_VERTEX_SHADER ? "vertex" : "fragment") +
            " shader does not compile (" + (first.empty() ? "no message" : first) + ")";
    glDeleteShader(s);
    return 0;
}

/// Level sizes of the pyramid of a rows x cols matrix, level 0 first, down to 1 x 1.
std::vector<std::pair<int, int>> levelSizes(int rows, int cols)
{
    std::vector<std::pair<int, int>> out{{rows, cols}};
    while (out.back().first > 1 || out.back().second > 1)
        out.emplace_back((out.back().first + 1) / 2, (out.back().second + 1) / 2);
    return out;
}

/// (Re)defines the textures `tex` as one texture per level of `levels`, with `upload`
/// filling level i.
template <typename Upload>
void defineLevels(std::vector<unsigned>& tex, size_t count, Upload upload)
{
    if (tex.size() > count) {
        glDeleteTextures(static_cast<GLsizei>(tex.size() - count), tex.data() + count);
        tex.resize(count);
    }
    while (tex.size() < count) {
        GLuint t = 0;
        glGenTextures(1, &t);
        glBindTexture(GL_TEXTURE_2D, t);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        tex.push_back(t);
    }
    GLint oldTex = 0, oldAlign = 4;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &oldTex);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &oldAlign);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (size_t i = 0; i < count; ++i) {
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        upload(i);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, oldAlign);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(oldTex));
}

}  // namespace

HeatColours heatColours(const Palette& pal)
{
    return HeatColours{pal.cell,     pal.inShared, pal.loadedEarlier, pal.loadedThisPhase,
                       pal.readNow,  pal.finished, pal.error,         pal.stepOutline};
}

std::vector<std::vector<uint8_t>> flagPyramid(const std::vector<uint8_t>& level0, int rows, int cols)
{
    const auto sizes = levelSizes(rows, cols);
    std::vector<std::vector<uint8_t>> out;
    out.reserve(sizes.size());
    out.push_back(level0);
    for (size_t l = 1; l < sizes.size(); ++l) {
        const auto [pr, pc] = sizes[l - 1];
        const auto [r, c] = sizes[l];
        const std::vector<uint8_t>& in = out.back();
        std::vector<uint8_t> next(static_cast<size_t>(r) * c, 0);
        for (int y = 0; y < pr; ++y) {
            const uint8_t* src = in.data() + static_cast<size_t>(y) * pc;
            uint8_t* dst = next.data() + static_cast<size_t>(y / 2) * c;
            for (int x = 0; x < pc; ++x) dst[x / 2] |= src[x];
        }
        out.push_back(std::move(next));
    }
    return out;
}

std::vector<std::vector<float>> scalarPyramid(const std::vector<float>& level0, int rows, int cols, bool largest)
{
    const auto sizes = levelSizes(rows, cols);
    std::vector<std::vector<float>> out;
    out.reserve(sizes.size());
    out.push_back(level0);
    for (size_t l = 1; l < sizes.size(); ++l) {
        const auto [pr, pc] = sizes[l - 1];
        const auto [r, c] = sizes[l];
        const std::vector<float>& in = out.back();
        std::vector<float> next(static_cast<size_t>(r) * c, largest ? -INFINITY : 0.0f);
        std::vector<float> count(largest ? 0 : next.size(), 0.0f);
        for (int y = 0; y < pr; ++y) {
            const float* src = in.data() + static_cast<size_t>(y) * pc;
            const size_t row = static_cast<size_t>(y / 2) * c;
            for (int x = 0; x < pc; ++x) {
                float& d = next[row + x / 2];
                if (largest) {
                    d = std::max(d, src[x]);
                } else {
                    d += src[x];
                    count[row + x / 2] += 1;
                }
            }
        }
        if (!largest)
            for (size_t i = 0; i < next.size(); ++i) next[i] /= count[i];
        out.push_back(std::move(next));
    }
    return out;
}

bool HeatImage::setFlags(int rows, int cols, const std::vector<uint8_t>& flags)
{
    GLint most = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &most);
    if (rows > most || cols > most) return false;
    if (rows != rows_ || cols != cols_) {
        if (!scalarTex_.empty()) glDeleteTextures(static_cast<GLsizei>(scalarTex_.size()), scalarTex_.data());
        scalarTex_.clear();
        rows_ = rows;
        cols_ = cols;
    }
    ++version_;
    const auto levels = flagPyramid(flags, rows, cols);
    const auto sizes = levelSizes(rows, cols);
    defineLevels(flagTex_, levels.size(), [&](size_t i) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, sizes[i].second, sizes[i].first, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                     levels[i].data());
    });
    return true;
}

void HeatImage::setScalars(const std::vector<float>& values, bool largest)
{
    ++version_;
    const auto levels = scalarPyramid(values, rows_, cols_, largest);
    const auto sizes = levelSizes(rows_, cols_);
    defineLevels(scalarTex_, levels.size(), [&](size_t i) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, sizes[i].second, sizes[i].first, 0, GL_RED, GL_FLOAT, levels[i].data());
    });
}

void HeatImage::release()
{
    if (!flagTex_.empty()) glDeleteTextures(static_cast<GLsizei>(flagTex_.size()), flagTex_.data());
    if (!scalarTex_.empty()) glDeleteTextures(static_cast<GLsizei>(scalarTex_.size()), scalarTex_.data());
    for (Target& t : targets_) {
        if (t.colour) glDeleteTextures(1, &t.colour);
        if (t.fbo) glDeleteFramebuffers(1, &t.fbo);
        t = Target{};
    }
    flagTex_.clear();
    scalarTex_.clear();
    drawn_.valid = false;
    rows_ = cols_ = 0;
}

std::string HeatmapRenderer::init() { return init(embeddedShader("heatmap.vert"), embeddedShader("heatmap.frag")); }

std::string HeatmapRenderer::init(const std::string& vertex, const std::string& fragment)
{
    release();
    if (vertex.empty() || fragment.empty()) return "the heatmap's shaders were not embedded into this build";
    std::string error;
    const GLuint vs = compile(GL_VERTEX_SHADER, vertex, error);
    if (!vs) return error;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, error);
    if (!fs) {
        glDeleteShader(vs);
        return error;
    }
    const GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        glDeleteProgram(p);
        return "the heatmap's shaders do not link";
    }
    program_ = p;
    GLint oldVao = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &oldVao);
    glGenVertexArrays(1, &vao_);
    glBindVertexArray(static_cast<GLuint>(oldVao));
    // A framebuffer with a texture to draw into: refused by a driver without them.
    HeatImage probe;
    probe.setFlags(1, 1, {0});
    std::string why;
    if (!draw(probe, HeatView{}, HeatColours{}, &why)) {
        probe.release();
        release();
        return why;
    }
    probe.release();
    return "";
}

std::optional<HeatPicture> HeatmapRenderer::draw(HeatImage& image, const HeatView& v, const HeatColours& colours,
                                                 std::string* error)
{
    if (!program_ || image.flagTex_.empty() || v.width <= 0 || v.height <= 0) return std::nullopt;
    auto picture = [&] {
        // GL's rows run bottom-up: the picture's top row is row height - 1 of the texture.
        const HeatImage::Target& t = image.targets_[image.current_];
        HeatPicture pic;
        pic.texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.colour));
        pic.uv0 = ImVec2(0.0f, static_cast<float>(v.height) / static_cast<float>(t.h));
        pic.uv1 = ImVec2(static_cast<float>(v.width) / static_cast<float>(t.w), 0.0f);
        return pic;
    };
    if (image.drawn_.valid && image.drawn_.version == image.version_ && image.drawn_.view == v &&
        image.drawn_.colours == colours)
        return picture();
    const bool scalars = v.mode != HeatMode::State && !image.scalarTex_.empty();
    // The GL state this draw changes, put back at the end.
    GLint oldFbo = 0, oldProgram = 0, oldVao = 0, oldActive = 0, oldTex0 = 0, oldTex1 = 0, viewport[4] = {};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &oldFbo);
    glGetIntegerv(GL_CURRENT_PROGRAM, &oldProgram);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &oldVao);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &oldActive);
    glGetIntegerv(GL_VIEWPORT, viewport);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &oldTex0);
    glActiveTexture(GL_TEXTURE1);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &oldTex1);
    const GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
    const GLboolean depth = glIsEnabled(GL_DEPTH_TEST), cull = glIsEnabled(GL_CULL_FACE);
    auto restore = [&] {
        glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(oldFbo));
        glUseProgram(static_cast<GLuint>(oldProgram));
        glBindVertexArray(static_cast<GLuint>(oldVao));
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(oldTex1));
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(oldTex0));
        glActiveTexture(static_cast<GLenum>(oldActive));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        if (blend) glEnable(GL_BLEND);
        if (scissor) glEnable(GL_SCISSOR_TEST);
        if (depth) glEnable(GL_DEPTH_TEST);
        if (cull) glEnable(GL_CULL_FACE);
    };

    // The other framebuffer of the two: the last picture may still be read by the frame before.
    // It grows to the largest picture asked for (in steps of 64 pixels), so that panning,
    // which changes the part of a matrix on screen every frame, reallocates nothing.
    image.current_ = 1 - image.current_;
    image.drawn_.valid = false;
    HeatImage::Target& target = image.targets_[image.current_];
    if (!target.fbo || v.width > target.w || v.height > target.h) {
        const int w = std::max(target.w, (v.width + 63) / 64 * 64);
        const int h = std::max(target.h, (v.height + 63) / 64 * 64);
        if (!target.colour) glGenTextures(1, &target.colour);
        if (!target.fbo) glGenFramebuffers(1, &target.fbo);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, target.colour);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindFramebuffer(GL_FRAMEBUFFER, target.fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.colour, 0);
        target.w = w;
        target.h = h;
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            if (error)
                *error = "the OpenGL driver refused an offscreen framebuffer of " + std::to_string(w) + " x " +
                         std::to_string(h) + " pixels";
            restore();
            return std::nullopt;
        }
    }

    // The smallest level whose texels are at least as large as a pixel: a pixel then spans
    // at most 2 x 2 of them.
    // (Elements may be longer one way than the other: the shorter side decides.)
    const float side = std::min(v.cellW, v.cellH);
    int level = 0;
    if (side < 1.0f)
        level = std::min(static_cast<int>(image.flagTex_.size()) - 1,
                         static_cast<int>(std::ceil(std::log2(1.0f / side) - 1e-4f)));
    const int levelRows = (image.rows_ + (1 << level) - 1) >> level;
    const int levelCols = (image.cols_ + (1 << level) - 1) >> level;

    glBindFramebuffer(GL_FRAMEBUFFER, target.fbo);
    glViewport(0, 0, v.width, v.height);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(program_);
    glBindVertexArray(vao_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, image.flagTex_[level]);
    glActiveTexture(GL_TEXTURE1);
    // Without scalars (State mode) the scalar sampler reads no texture, and its value is unused.
    glBindTexture(GL_TEXTURE_2D, scalars ? image.scalarTex_[level] : 0);
    auto at = [&](const char* name) { return glGetUniformLocation(program_, name); };
    glUniform1i(at("uFlags"), 0);
    glUniform1i(at("uScalar"), 1);
    glUniform2i(at("uLevelSize"), levelCols, levelRows);
    glUniform1i(at("uLevel"), level);
    glUniform2i(at("uSize"), image.cols_, image.rows_);
    glUniform2f(at("uFirst"), v.firstCol, v.firstRow);
    glUniform2f(at("uCell"), v.cellW, v.cellH);
    glUniform1f(at("uHeight"), static_cast<float>(v.height));
    glUniform1i(at("uMode"), scalars ? static_cast<int>(v.mode) : 0);
    glUniform1i(at("uIsP"), v.isP ? 1 : 0);
    glUniform2f(at("uRange"), v.lo, v.hi);
    glUniform1f(at("uBand"), v.band);   // frames for the states in every mode (the legend's marks)
    float map[kMapStops * 3];
    for (int i = 0; i < kMapStops; ++i) {
        const ImVec4 c = ImGui::ColorConvertU32ToFloat4(heatColour(static_cast<float>(i) / (kMapStops - 1)));
        map[i * 3] = c.x;
        map[i * 3 + 1] = c.y;
        map[i * 3 + 2] = c.z;
    }
    glUniform3fv(at("uMap"), kMapStops, map);
    const ImU32 list[] = {colours.cell,    colours.inShared, colours.loadedEarlier, colours.loadedThisPhase,
                          colours.readNow, colours.finished, colours.error,         colours.edge};
    float rgba[8 * 4];
    for (int i = 0; i < 8; ++i) {
        const ImVec4 c = ImGui::ColorConvertU32ToFloat4(list[i]);
        rgba[i * 4] = c.x;
        rgba[i * 4 + 1] = c.y;
        rgba[i * 4 + 2] = c.z;
        rgba[i * 4 + 3] = c.w;
    }
    glUniform4fv(at("uColours"), 8, rgba);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    restore();
    image.drawn_ = HeatImage::Drawn{v, colours, image.version_, true};
    return picture();
}

std::vector<uint8_t> HeatmapRenderer::readBack(const HeatImage& image, int width, int height) const
{
    std::vector<uint8_t> px(static_cast<size_t>(width) * height * 4), out(px.size());
    const GLuint fbo = image.targets_[image.current_].fbo;
    if (!fbo) return {};
    GLint oldFbo = 0, oldAlign = 4;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &oldFbo);
    glGetIntegerv(GL_PACK_ALIGNMENT, &oldAlign);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glPixelStorei(GL_PACK_ALIGNMENT, oldAlign);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(oldFbo));
    const size_t row = static_cast<size_t>(width) * 4;
    for (int y = 0; y < height; ++y) std::copy_n(px.data() + (height - 1 - y) * row, row, out.data() + y * row);
    return out;
}

void HeatmapRenderer::release()
{
    if (program_) glDeleteProgram(program_);
    if (vao_) glDeleteVertexArrays(1, &vao_);
    program_ = vao_ = 0;
}

HeatmapRenderer* sharedHeatmapRenderer(std::string* why)
{
    static HeatmapRenderer renderer;
    static bool tried = false;
    static std::string failure;
    if (!tried) {
        tried = true;
        if (const char* off = std::getenv("TILESCOPE_NO_SHADERS"); off && *off && std::string(off) != "0")
            failure = "TILESCOPE_NO_SHADERS is set";
        else
            failure = renderer.init();
        if (!failure.empty() && why) *why = failure;
    }
    return renderer.ready() ? &renderer : nullptr;
}

}  // namespace ts::app
