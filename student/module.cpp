// Building and loading a student's kernel (student/module.hpp).
#include "student/module.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/loaded_binding.hpp"
#include "student/module_abi.hpp"

extern char** environ;

namespace ts::student {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The compiler that built TileScope and the folder its headers are found under; both can
/// be overridden for an installed copy ($TILESCOPE_CXX, $TILESCOPE_INCLUDE_DIR).
std::string compiler()
{
    if (const char* c = std::getenv("TILESCOPE_CXX"); c && *c) return c;
    return TILESCOPE_CXX_COMPILER;
}
/// The headers: the source tree TileScope was built from, else those installed beside the
/// executable (<prefix>/share/tilescope/include, CMake's install rules).
std::string includeRoot()
{
    if (const char* c = std::getenv("TILESCOPE_INCLUDE_DIR"); c && *c) return c;
    std::error_code ec;
    if (fs::exists(fs::path(TILESCOPE_SOURCE_DIR) / "student" / "module_abi.hpp", ec)) return TILESCOPE_SOURCE_DIR;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return (exe.parent_path().parent_path() / TILESCOPE_INSTALLED_INCLUDE).string();
}
/// What the module is built with: the simulator's floating-point rules (no contraction:
/// the context fuses exactly where nvcc does) and the student's text optimised lightly.
const std::vector<std::string>& compileFlags()
{
    static const std::vector<std::string> f = {"-std=c++20", "-O1", "-ffp-contract=off", "-fPIC", "-shared",
                                               "-fvisibility=hidden"};
    return f;
}

/// 64-bit FNV-1a, as hex: the cache key.
std::string hashOf(const std::string& text)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

/// `s` as the inside of a C++ string literal.
std::string quoted(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

/// The array or size a kernel parameter receives.
enum class Role { M, N, P, J, K, L, Width };

/// Assigns each parameter of a matrix multiplication kernel its role, or reports why not.
std::vector<Role> matmulRoles(const Translation& t, std::vector<Diagnostic>& errors, bool& square)
{
    std::vector<Role> roles;
    square = false;
    std::vector<const KernelParam*> pointers;
    for (const KernelParam& p : t.params)
        if (p.kind != KernelParam::Kind::Int) pointers.push_back(&p);
    const bool named = [&] {
        int m = 0, n = 0, pp = 0;
        for (const KernelParam* p : pointers) m += p->name == "M", n += p->name == "N", pp += p->name == "P";
        return m == 1 && n == 1 && pp == 1;
    }();
    if (pointers.size() != 3) {
        errors.push_back(Diagnostic{t.params.empty() ? 0 : t.params.front().line, 0,
                                    "a matrix multiplication kernel takes three float pointers, M, N and P (this one takes " +
                                        std::to_string(pointers.size()) + ")"});
        return roles;
    }
    int order = 0;
    for (const KernelParam& p : t.params) {
        if (p.kind != KernelParam::Kind::Int) {
            const Role r = named ? (p.name == "M" ? Role::M : p.name == "N" ? Role::N : Role::P)
                                 : (order == 0 ? Role::M : order == 1 ? Role::N : Role::P);
            ++order;
            if (r == Role::P && p.kind == KernelParam::Kind::ConstFloatPointer)
                errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name +
                                                           " is the output P, so it cannot be const float*: the kernel writes it"});
            roles.push_back(r);
            continue;
        }
        if (p.name == "j") roles.push_back(Role::J);
        else if (p.name == "k") roles.push_back(Role::K);
        else if (p.name == "l") roles.push_back(Role::L);
        else if (p.name == "Width" || p.name == "width" || p.name == "n") {
            roles.push_back(Role::Width);
            square = true;
        } else {
            errors.push_back(Diagnostic{p.line, 0, "int parameter " + p.name +
                                                       " is not a size TileScope knows: name the sizes j, k and l (M is j x k, "
                                                       "N is k x l) or Width for square matrices"});
            roles.push_back(Role::J);
        }
    }
    return roles;
}

/// The generated translation unit: the ABI header, the student's code at its own line
/// numbers, and the entry point that binds its parameters.
std::string moduleSource(const Translation& t, const std::string& fileName)
{
    std::ostringstream o;
    o << "// Generated by TileScope from " << fileName << "; rebuilt from that file, not edited.\n"
      << "#include \"student/module_abi.hpp\"\n"
      << "namespace ts_student {\n"
      << "#line 1 \"" << quoted(fileName) << "\"\n"
      << t.code << "\n"
      << "#line 1 \"tilescope-module-entry\"\n"
      << "}  // namespace ts_student\n"
      << "extern \"C\" __attribute__((visibility(\"default\"))) int " << kAbiSymbol << "() { return ts::student::kModuleAbi; }\n"
      << "extern \"C\" __attribute__((visibility(\"default\"))) void " << kBindSymbol
      << "(const ts::student::KernelCall& c, std::function<void(ts::sim::ThreadContext&)>& body)\n{\n"
      << "    body = [c](ts::sim::ThreadContext& x) { ts_student::" << t.kernelName << "(x";
    for (size_t i = 0; i < t.params.size(); ++i) {
        switch (t.params[i].kind) {
        case KernelParam::Kind::ConstFloatPointer: o << ", c.input[" << i << "]"; break;
        case KernelParam::Kind::FloatPointer: o << ", c.output[" << i << "]"; break;
        case KernelParam::Kind::Int: o << ", c.value[" << i << "]"; break;
        }
    }
    o << "); };\n}\n";
    return o.str();
}

/// The compiler's errors on the student's lines (`FILE:LINE:COL: error: ...`); the first
/// error elsewhere (the generated entry, a header) when there is none.
std::vector<Diagnostic> compilerErrors(const std::string& log, const std::string& fileName)
{
    std::vector<Diagnostic> out;
    std::string firstOther;
    std::istringstream in(log);
    std::string line;
    const std::string prefix = fileName + ":";
    while (std::getline(in, line)) {
        const size_t e = line.find(": error: ");
        if (e == std::string::npos) continue;
        if (line.rfind(prefix, 0) == 0) {
            unsigned l = 0, c = 0;
            if (std::sscanf(line.c_str() + prefix.size(), "%u:%u", &l, &c) >= 1) {
                out.push_back(Diagnostic{l, c, line.substr(e + 9)});
                continue;
            }
        }
        if (firstOther.empty()) firstOther = line;
    }
    if (out.empty())
        out.push_back(Diagnostic{0, 0, "the module did not build: " +
                                           (firstOther.empty() ? std::string("the compiler failed without an error line")
                                                               : firstOther)});
    return out;
}

/// Runs `args` with stdout and stderr into `logPath`, up to `limit` seconds; its exit
/// status, or -1 when it could not start, -2 when it was killed at the limit.
int runChild(const std::vector<std::string>& args, const std::string& logPath, double limit)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    const Clock::time_point start = Clock::now();
    for (;;) {
        int status = 0;
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        if (w < 0) return -1;
        if (since(start) > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -2;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string readFile(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

std::string defaultCacheDir()
{
    if (const char* d = std::getenv("TILESCOPE_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tilescope/kernels";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tilescope/kernels";
    return (fs::temp_directory_path() / "tilescope-kernels").string();
}

LoadResult loadKernelFile(const std::string& path, const LoadOptions& options)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        LoadResult r;
        r.errors.push_back(Diagnostic{0, 0, "cannot read the kernel file " + path + ": " + std::strerror(errno)});
        return r;
    }
    std::ostringstream s;
    s << f.rdbuf();
    return loadKernelSource(s.str(), path, options);
}

LoadResult loadKernelSource(const std::string& source, const std::string& fileName, const LoadOptions& options)
{
    LoadResult r;
    Clock::time_point t0 = Clock::now();
    Translation t;
    try {
        t = translateCuda(source, fileName);
    } catch (const std::exception& e) {
        r.errors.push_back(Diagnostic{0, 0, e.what()});
        return r;
    }
    r.translateSeconds = since(t0);
    if (!t.ok()) {
        r.errors = t.errors;
        return r;
    }
    if (t.params.size() > static_cast<size_t>(KernelCall::kMaxParams)) {
        r.errors.push_back(Diagnostic{t.params.back().line, 0, "the kernel takes more than " +
                                                                  std::to_string(KernelCall::kMaxParams) + " parameters"});
        return r;
    }
    bool square = false;
    const std::vector<Role> roles = matmulRoles(t, r.errors, square);
    if (!r.errors.empty()) return r;

    // The module, from the cache when the same text was built by the same TileScope.
    const std::string unit = moduleSource(t, fileName);
    std::string key = unit + "\n" + compiler() + "\n" + includeRoot() + "\n" + std::to_string(kModuleAbi) + "\n" +
                      __DATE__ + " " + __TIME__ + "\n";
    for (const std::string& f : compileFlags()) key += f + " ";
    const std::string dir = options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        r.errors.push_back(Diagnostic{0, 0, "cannot create the kernel cache folder " + dir + ": " + ec.message()});
        return r;
    }
    const std::string stem = (fs::path(dir) / (t.kernelName + "-" + hashOf(key))).string();
    r.modulePath = stem + ".so";
    if (!options.useCache || !fs::exists(r.modulePath)) {
        t0 = Clock::now();
        // Files of this process alone: two processes may build the same kernel at once (the
        // module is renamed into place, the last one wins with the same bytes).
        const std::string mine = stem + "." + std::to_string(getpid());
        const std::string cpp = mine + ".cpp", log = mine + ".log", tmp = mine + ".tmp.so";
        {
            std::ofstream out(cpp, std::ios::binary);
            out << unit;
            if (!out) {
                r.errors.push_back(Diagnostic{0, 0, "cannot write " + cpp});
                return r;
            }
        }
        std::vector<std::string> args = {compiler()};
        for (const std::string& f : compileFlags()) args.push_back(f);
        args.insert(args.end(), {"-I", includeRoot(), "-o", tmp, cpp});
        const int rc = runChild(args, log, options.compileSeconds);
        r.compileSeconds = since(t0);
        if (rc == -1) {
            r.errors.push_back(Diagnostic{0, 0, "cannot start the compiler " + compiler() +
                                                    " (set TILESCOPE_CXX to the C++ compiler that built TileScope)"});
            return r;
        }
        if (rc == -2) {
            r.errors.push_back(Diagnostic{0, 0, "the compiler took longer than " +
                                                    std::to_string(static_cast<int>(options.compileSeconds)) +
                                                    " s and was stopped"});
            return r;
        }
        if (rc != 0) {
            r.errors = compilerErrors(readFile(log), fileName);
            for (const std::string& f : {tmp, cpp, log}) fs::remove(f, ec);
            return r;
        }
        fs::remove(cpp, ec);
        fs::remove(log, ec);
        fs::rename(tmp, r.modulePath, ec);
        if (ec) {
            r.errors.push_back(Diagnostic{0, 0, "cannot store the module in " + dir + ": " + ec.message()});
            return r;
        }
    } else {
        r.fromCache = true;
    }

    // Load it and register the kernel. A module stays loaded for the life of the process:
    // simulations may still hold bodies made by an earlier build of the same file.
    t0 = Clock::now();
    void* handle = dlopen(r.modulePath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        r.errors.push_back(Diagnostic{0, 0, std::string("cannot load the compiled kernel: ") + (why ? why : "dlopen failed")});
        return r;
    }
    auto abi = reinterpret_cast<int (*)()>(dlsym(handle, kAbiSymbol));
    auto bind = reinterpret_cast<BindFunction>(dlsym(handle, kBindSymbol));
    if (!abi || !bind || abi() != kModuleAbi) {
        r.errors.push_back(Diagnostic{0, 0, "the compiled kernel " + r.modulePath + " was built for another TileScope; "
                                            "it is rebuilt when loaded without the cache"});
        return r;
    }
    sim::LoadedKernelInfo info;
    info.name = t.kernelName;
    info.family = sim::Family::Matmul;
    info.sourceFile = fileName;
    info.source = source;
    info.summary = "your kernel " + t.kernelName + " from " + fs::path(fileName).filename().string();
    info.barriersPerPhase = static_cast<int>(t.barrierLines.size());
    info.square = square;
    if (!t.shared.empty()) {
        const long long* tile = t.define("TILE_WIDTH");
        if (!tile) tile = t.define("TILE_SIZE");
        info.tiles = {static_cast<int>(tile ? *tile : t.shared.front().extents.front())};
    }
    r.info = sim::registerLoadedKernel(info);
    sim::setLoadedBinder(t.kernelName, [bind, roles, params = t.params](const sim::MatmulArgs<sim::ThreadContext>& a) {
        KernelCall c;
        for (size_t i = 0; i < roles.size() && i < static_cast<size_t>(KernelCall::kMaxParams); ++i) {
            const bool constIn = params[i].kind == KernelParam::Kind::ConstFloatPointer;
            switch (roles[i]) {
            case Role::M: constIn ? void(c.input[i] = a.M) : void(c.output[i] = a.M.writable()); break;
            case Role::N: constIn ? void(c.input[i] = a.N) : void(c.output[i] = a.N.writable()); break;
            case Role::P: c.output[i] = a.P; break;
            case Role::J: c.value[i] = a.j; break;
            case Role::K: c.value[i] = a.k; break;
            case Role::L: c.value[i] = a.l; break;
            case Role::Width: c.value[i] = a.j; break;
            }
        }
        std::function<void(sim::ThreadContext&)> body;
        bind(c, body);
        return body;
    });
    r.loadSeconds = since(t0);
    return r;
}

}  // namespace ts::student
