// The web build cannot start processes: a page (and Node through Emscripten) has none to
// start. student/module.cpp builds a student's kernel with the host compiler through
// posix_spawnp, which Emscripten's libc declares but does not define; here it fails with
// ENOSYS, and the student layer reports that the kernel could not be built (docs/web.md).
#include <spawn.h>

#include <cerrno>

extern "C" int posix_spawnp(pid_t*, const char*, const posix_spawn_file_actions_t*, const posix_spawnattr_t*,
                            char* const[], char* const[])
{
    return ENOSYS;
}
