#include "screenshot.hpp"

#include "sim/files/output_target.hpp"

#include <cstdio>

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>

namespace ts::app {

std::string renderImage(ImDrawData* data, int w, int h, unsigned int background, Image& out)
{
    GLuint fbo = 0, colour = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &colour);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
    std::string error;
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        error = "Cannot take a screenshot: the OpenGL driver refused an offscreen framebuffer of " +
                std::to_string(w) + " x " + std::to_string(h) + " pixels.";
    } else {
        glViewport(0, 0, w, h);
        const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(background);
        glClearColor(bg.x, bg.y, bg.z, bg.w);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(data);
        std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        // OpenGL's rows run bottom-up; pictures' top-down. Opaque alpha for viewers.
        out.width = w;
        out.height = h;
        out.rgba.resize(px.size());
        const size_t row = static_cast<size_t>(w) * 4;
        for (int y = 0; y < h; ++y)
            std::copy_n(px.data() + (h - 1 - y) * row, row, out.rgba.data() + y * row);
        for (size_t i = 3; i < out.rgba.size(); i += 4) out.rgba[i] = 255;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &colour);
    glDeleteFramebuffers(1, &fbo);
    return error;
}

Image cropImage(const Image& img, int x, int y, int w, int h)
{
    const int x0 = std::clamp(x, 0, img.width), y0 = std::clamp(y, 0, img.height);
    const int x1 = std::clamp(x + w, x0, img.width), y1 = std::clamp(y + h, y0, img.height);
    Image out;
    out.width = x1 - x0;
    out.height = y1 - y0;
    out.rgba.resize(static_cast<size_t>(out.width) * out.height * 4);
    for (int r = 0; r < out.height; ++r)
        std::copy_n(img.rgba.data() + (static_cast<size_t>(y0 + r) * img.width + x0) * 4,
                    static_cast<size_t>(out.width) * 4, out.rgba.data() + static_cast<size_t>(r) * out.width * 4);
    return out;
}

std::string savePng(const Image& img, const std::string& path)
{
    if (img.width <= 0 || img.height <= 0) return "Cannot write '" + path + "': the picture is empty.";
    std::string why;
    switch (sim::outputTarget(path, why)) {
    case sim::OutputTarget::Refused: return "Cannot write the picture: " + why;
    case sim::OutputTarget::Direct:   // /dev/null, a pipe: into it, never renamed over it
        return stbi_write_png(path.c_str(), img.width, img.height, 4, img.rgba.data(), img.width * 4)
                   ? ""
                   : "Cannot write the picture to '" + path + "'.";
    case sim::OutputTarget::Replace: break;
    }
    // Written beside its name and then renamed, so that a run stopped in the middle (an
    // export cancelled from the app) never leaves half a picture under the name.
    const std::string part = path + ".part";
    if (!stbi_write_png(part.c_str(), img.width, img.height, 4, img.rgba.data(), img.width * 4)) {
        std::remove(part.c_str());
        return "Cannot write the picture to '" + path + "' (is the folder there and writable?).";
    }
    if (std::rename(part.c_str(), path.c_str()) != 0) {
        std::remove(part.c_str());
        return "Cannot write the picture to '" + path + "' (renaming it into place failed).";
    }
    return "";
}

std::string saveScreenshot(ImDrawData* data, int w, int h, unsigned int background, const std::string& path)
{
    Image img;
    if (std::string e = renderImage(data, w, h, background, img); !e.empty()) return e;
    return savePng(img, path);
}

}  // namespace ts::app
