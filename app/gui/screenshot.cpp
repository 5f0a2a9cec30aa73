#include "screenshot.hpp"

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <vector>

namespace ts::app {

std::string saveScreenshot(ImDrawData* data, int w, int h, unsigned int background, const std::string& path)
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
        // OpenGL's rows run bottom-up; PNG's top-down. Opaque alpha for viewers.
        std::vector<unsigned char> flipped(px.size());
        const size_t row = static_cast<size_t>(w) * 4;
        for (int y = 0; y < h; ++y)
            std::copy_n(px.data() + (h - 1 - y) * row, row, flipped.data() + y * row);
        for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
        if (!stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(row)))
            error = "Cannot write the screenshot to '" + path + "' (is the folder there and writable?).";
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &colour);
    glDeleteFramebuffers(1, &fbo);
    return error;
}

}  // namespace ts::app
