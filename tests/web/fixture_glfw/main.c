// A second fixture page for the browser harness (docs/web-tests.md), built with Emscripten's
// GLFW port as the web build's app is: it reads the Right and Left keys and the left button
// once a frame with glfwGetKey / glfwGetMouseButton (as Dear ImGui's GLFW backend sees them),
// counts characters through the char callback, draws step + 1 bars with WebGL2, keeps
// location.hash at "step=N" and counts its frames in window.tilescopeFrames. The harness's
// keys and clicks must reach it through Emscripten's keyCode-to-GLFW mapping.
// Build (Debian's emscripten; NODE_PATH for its Node 20):
//   NODE_PATH=/usr/share/nodejs emcc -O1 main.c -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 \
//     -sMAX_WEBGL_VERSION=2 -o OUT/app.js && cp index.html OUT/
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>

// After each frame: the state for the harness, the view in the hash, one more frame counted.
EM_JS(void, frameDone, (int step, int clicks, int chars, double x, double y), {
    window.glfwState = {step: step, clicks: clicks, chars: chars, x: x, y: y};
    history.replaceState(null, "", "#step=" + step);
    window.tilescopeFrames = (window.tilescopeFrames || 0) + 1;
});
EM_JS(int, startStep, (void), { return Number(new URLSearchParams(location.hash.slice(1)).get("step")) || 0; });
EM_JS(int, windowWidth, (void), { return window.innerWidth; });
EM_JS(int, windowHeight, (void), { return window.innerHeight; });

static GLFWwindow* window;
static int step, clicks, chars, rightWasDown, leftWasDown, buttonWasDown;

static void onChar(GLFWwindow* w, unsigned int codepoint)
{
    (void)w;
    (void)codepoint;
    ++chars;
}

static void frame(void)
{
    const int right = glfwGetKey(window, GLFW_KEY_RIGHT) == GLFW_PRESS;
    const int left = glfwGetKey(window, GLFW_KEY_LEFT) == GLFW_PRESS;
    const int button = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (right && !rightWasDown) ++step;
    if (left && !leftWasDown && step > 0) --step;
    if (button && !buttonWasDown) ++clicks;
    rightWasDown = right, leftWasDown = left, buttonWasDown = button;

    int w = 0, h = 0;
    glfwGetFramebufferSize(window, &w, &h);
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0.10f, 0.12f, 0.16f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    const int bar = w / 24 > 0 ? w / 24 : 1;
    for (int i = 0; i <= step && (2 * i + 1) * bar < w; ++i) {
        glScissor((2 * i + 1) * bar, h / 4, bar, h / 2);
        glClearColor(0.90f, 0.62f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    double x = 0, y = 0;
    glfwGetCursorPos(window, &x, &y);
    frameDone(step, clicks, chars, x, y);
}

int main(void)
{
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    step = startStep();
    window = glfwCreateWindow(windowWidth(), windowHeight(), "harness fixture", NULL, NULL);
    if (!window) return 1;
    glfwMakeContextCurrent(window);
    glfwSetCharCallback(window, onChar);
    emscripten_set_main_loop(frame, 0, 0);
    return 0;
}
