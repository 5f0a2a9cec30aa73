// The web build's stand-in for glad's OpenGL 3.3 core loader (app/gui/CMakeLists.txt): in
// the browser the functions are WebGL 2's, OpenGL ES 3.0, declared by Emscripten's GLES3
// headers and bound when GLFW makes the context current, so there is nothing to load.
#pragma once
#include <GLES3/gl3.h>

typedef void (*GLADapiproc)(void);
typedef GLADapiproc (*GLADloadfunc)(const char* name);

/// Always succeeds: WebGL 2's functions need no loading.
static inline int gladLoadGL(GLADloadfunc) { return 1; }
