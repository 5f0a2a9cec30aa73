// Building and loading a student's kernel (student/module.hpp).
#include "student/module.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/loaded_binding.hpp"
#include "sim/teaching/expression.hpp"
#include "sim/teaching/words.hpp"
#include "student/kernel_roles.hpp"
#include "student/module_abi.hpp"
#include "student/translation_file.hpp"

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
/// What the module is built with: the student's text optimised lightly, and a multiply
/// whose product is only added contracted into one fused multiply-add, as nvcc's default
/// (--fmad=true) does on the GPU, after inlining: `Pvalue += dot(a, b)` with a __device__
/// dot() rounds once there, so it must here (the memory references of the simulator's
/// context fuse `+= a * b` themselves). The contraction needs the CPU's FMA instructions
/// (x86-64 since 2013); without them a product stays rounded, which can differ from the GPU
/// in the last bit.
const std::vector<std::string>& compileFlags()
{
    static const std::vector<std::string> f = [] {
        std::vector<std::string> v = {"-std=c++20", "-O1", "-fPIC", "-shared", "-fvisibility=hidden"};
#if defined(__x86_64__)
        if (__builtin_cpu_supports("fma")) {
            v.insert(v.end(), {"-ffp-contract=fast", "-fexpensive-optimizations", "-mfma"});
            return v;
        }
#endif
        v.push_back("-ffp-contract=off");
        return v;
    }();
    return f;
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

/// The header lines of a kernel file (`// tilescope: KEY = VALUE`, see LaunchHeader), with
/// the line of each field, or errors for fields it does not know.
struct FileHeader {
    LaunchHeader launch;
    unsigned familyLine = 0, gridLine = 0, blockLine = 0, nLine = 0;
    unsigned arraysLine = 0, sizesLine = 0, referenceLine = 0;
};

FileHeader readHeader(const std::string& source, std::vector<Diagnostic>& errors)
{
    FileHeader h;
    std::istringstream in(source);
    std::string line;
    const std::string tag = "tilescope:";
    for (unsigned number = 1; std::getline(in, line); ++number) {
        const std::string t = sim::trim(line);
        if (t.rfind("//", 0) != 0) continue;
        const std::string comment = sim::trim(t.substr(2));
        if (comment.rfind(tag, 0) != 0) continue;
        const std::string field = comment.substr(tag.size());
        const size_t eq = field.find('=');
        const unsigned column = static_cast<unsigned>(line.find(tag) + 1);
        if (eq == std::string::npos) {
            errors.push_back(Diagnostic{number, column, "a header line is `// tilescope: KEY = VALUE` (family, grid, block, N, arrays, sizes or reference)"});
            continue;
        }
        const std::string key = sim::trim(field.substr(0, eq)), value = sim::trim(field.substr(eq + 1));
        if (key == "family") {
            h.launch.family = value;
            h.familyLine = number;
        } else if (key == "grid") {
            h.launch.grid = value;
            h.gridLine = number;
        } else if (key == "block") {
            h.launch.block = value;
            h.blockLine = number;
        } else if (key == "N") {
            h.launch.nLayout = value;
            h.nLine = number;
        } else if (key == "arrays") {
            h.launch.arrays = value;
            h.arraysLine = number;
        } else if (key == "sizes") {
            h.launch.sizes = value;
            h.sizesLine = number;
        } else if (key == "reference") {
            h.launch.reference = value;
            h.referenceLine = number;
        } else {
            errors.push_back(Diagnostic{number, column, "unknown header field '" + key + "': the fields are family, grid, block, N, arrays, sizes and reference"});
        }
    }
    return h;
}

/// `text` split at its commas, each part trimmed ("a, b" -> {"a", "b"}).
std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t comma = text.find(',', start);
        parts.push_back(sim::trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) return parts;
        start = comma + 1;
    }
}

bool isName(const std::string& s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

/// An array problem from its header lines (`arrays`, `sizes`, `reference`), checked: every
/// fault is one diagnostic on its header line. Null when there is a fault.
std::shared_ptr<sim::ArraySpec> readArraySpec(const FileHeader& h, const std::string& fileName, std::vector<Diagnostic>& errors)
{
    const LaunchHeader& l = h.launch;
    auto fail = [&](unsigned line, const std::string& why) {
        errors.push_back(Diagnostic{line, 0, why});
        return nullptr;
    };
    if (l.arrays.empty())
        return fail(h.familyLine, "an array problem names its arrays: `// tilescope: arrays = in A[n], in B[n], out C[n]`");
    if (l.sizes.empty())
        return fail(h.arraysLine, "an array problem names its sizes and their defaults: `// tilescope: sizes = n = 1000`");
    if (l.reference.empty())
        return fail(h.arraysLine, "an array problem gives its CPU reference as a formula: `// tilescope: reference = C[i] = A[i] + B[i]`");
    auto spec = std::make_shared<sim::ArraySpec>();
    spec->file = fileName;
    spec->reference = l.reference;
    spec->referenceLine = h.referenceLine;
    // sizes = n = 1000 | rows = 48, cols = 64
    sim::Variables defaults;
    for (const std::string& part : splitCommas(l.sizes)) {
        const size_t eq = part.find('=');
        const std::string name = sim::trim(part.substr(0, eq));
        if (eq == std::string::npos || !isName(name))
            return fail(h.sizesLine, "each size is `NAME = DEFAULT`, like `n = 1000`; got '" + part + "'");
        const std::string value = sim::trim(part.substr(eq + 1));
        const sim::Evaluation ev = sim::evaluate(value, {});
        if (!ev.value) return fail(h.sizesLine, "the default of size " + name + " must be an integer; got '" + value + "'");
        if (*ev.value < 1 || *ev.value > sim::kMaxConvWidth1D)
            return fail(h.sizesLine, "size " + name + " = " + value + ": a size must be between 1 and 2^24");
        if (defaults.count(name)) return fail(h.sizesLine, "size " + name + " is named twice");
        defaults[name] = *ev.value;
        spec->sizes.push_back(name);
        spec->defaults.push_back(static_cast<int>(*ev.value));
    }
    if (spec->sizes.size() > 2)
        return fail(h.sizesLine, "an array problem has one size (1D) or two (2D, rows then columns); this one names " +
                                     std::to_string(spec->sizes.size()));
    // arrays = in A[n], out B[rows][cols]
    for (const std::string& part : splitCommas(l.arrays)) {
        sim::ArrayDecl a;
        const size_t space = part.find_first_of(" \t");
        const std::string role = part.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : sim::trim(part.substr(space));
        const size_t bracket = rest.find('[');
        if ((role != "in" && role != "out") || bracket == std::string::npos || rest.back() != ']')
            return fail(h.arraysLine, "each array is `in NAME[extent]` or `out NAME[rows][cols]`; got '" + part + "'");
        a.output = role == "out";
        a.name = sim::trim(rest.substr(0, bracket));
        if (!isName(a.name)) return fail(h.arraysLine, "'" + a.name + "' is not a name for an array");
        for (size_t p = bracket; p < rest.size();) {
            const size_t close = rest.find(']', p);
            if (rest[p] != '[' || close == std::string::npos)
                return fail(h.arraysLine, "the extents of " + a.name + " are written [n] or [rows][cols]; got '" + rest + "'");
            a.extents.push_back(sim::trim(rest.substr(p + 1, close - p - 1)));
            p = close + 1;
            while (p < rest.size() && rest[p] == ' ') ++p;
        }
        if (a.extents.size() > 2) return fail(h.arraysLine, a.name + " has " + std::to_string(a.extents.size()) + " extents; an array is 1D or 2D");
        for (const sim::ArrayDecl& b : spec->arrays)
            if (b.name == a.name) return fail(h.arraysLine, "the array " + a.name + " is declared twice");
        if (defaults.count(a.name)) return fail(h.arraysLine, a.name + " is both a size and an array");
        for (const std::string& e : a.extents) {
            const sim::Evaluation ev = sim::evaluate(e, defaults);
            if (!ev.value)
                return fail(h.arraysLine, "the extent '" + e + "' of " + a.name + " cannot be evaluated: " +
                                              (ev.unknown.empty() ? ev.error : "it uses " + ev.unknown + ", which is not a size of the sizes line"));
            if (*ev.value < 1)
                return fail(h.arraysLine, "the extent '" + e + "' of " + a.name + " is " + std::to_string(*ev.value) +
                                              " at the default sizes; an array has at least one element");
        }
        spec->arrays.push_back(a);
    }
    int outputs = 0, inputs = 0;
    for (const sim::ArrayDecl& a : spec->arrays) (a.output ? outputs : inputs) += 1;
    if (outputs != 1) return fail(h.arraysLine, "an array problem has exactly one output array (`out NAME[...]`); this one has " + std::to_string(outputs));
    if (inputs > 2) return fail(h.arraysLine, "an array problem has at most two input arrays; this one has " + std::to_string(inputs));
    // The reference, read and computed once at the default sizes (when they are small enough).
    sim::Scenario sample;
    sample.width = spec->defaults.back();
    sample.height = spec->defaults.size() == 2 ? spec->defaults.front() : 1;
    const sim::Variables v = spec->sizeValues(sample);
    std::vector<std::vector<float>> values;
    std::vector<sim::FormulaArray> formulaInputs;
    sim::FormulaArray out;
    long long elements = 0;
    for (const sim::ArrayDecl& a : spec->arrays) {
        int rows = 1, cols = 1;
        std::string error;
        if (!spec->shape(a, v, rows, cols, error)) return fail(h.arraysLine, error);
        elements += 1ll * rows * cols;
        if (a.output) out = sim::FormulaArray{a.name, rows, cols, a.extents.size() == 2, nullptr};
        else formulaInputs.push_back(sim::FormulaArray{a.name, rows, cols, a.extents.size() == 2, nullptr});
    }
    values.reserve(formulaInputs.size());
    for (size_t i = 0; i < formulaInputs.size(); ++i) {
        values.push_back(sim::randomInput(static_cast<size_t>(formulaInputs[i].rows) * formulaInputs[i].cols, 1, i + 1));
        formulaInputs[i].values = &values.back();
    }
    sim::ArrayFormula f;
    if (const std::string e = f.parse(l.reference, out, formulaInputs, v); !e.empty()) return fail(h.referenceLine, e);
    if (elements <= (1ll << 22)) {
        uint64_t flops = 0;
        std::string error;
        f.evaluateAll(v, flops, error);
        if (!error.empty()) return fail(h.referenceLine, error + " (at the default sizes)");
    }
    return spec;
}

/// The variables a launch expression may use for scenario `s`: the sizes of the problem
/// under the names the family's kernels give them, and the file's integer #defines.
sim::Variables launchVariables(const Translation& t, const sim::Scenario& s, sim::Family family,
                               const sim::ArraySpec* spec = nullptr)
{
    sim::Variables v;
    for (const auto& [name, value] : t.defines) v[name] = value;
    if (family == sim::Family::Array) {
        if (spec)
            for (const auto& [name, value] : spec->sizeValues(s)) v[name] = value;
    } else if (family == sim::Family::Matmul) {
        v["j"] = s.j, v["k"] = s.k, v["l"] = s.l;
        v["Width"] = v["width"] = v["n"] = s.j;
    } else {
        v["Width"] = v["width"] = s.width;
        v["height"] = v["Height"] = s.height;
        v["Mask_Width"] = s.maskWidth;
    }
    return v;
}

/// The generated translation unit: the ABI header, the student's code at its own line
/// numbers, and the entry point that binds its parameters.
std::string moduleSource(const Translation& t, const std::string& fileName)
{
    std::ostringstream o;
    o << "// Generated by TileScope from " << fileName << "; rebuilt from that file, not edited.\n"
      << "#include \"student/module_abi.hpp\"\n"
      << "// CUDA's qualifiers: the kernel and its helpers are already templates over the context.\n"
      << "#define __device__\n#define __host__\n#define __forceinline__ inline\n#define __noinline__\n"
      << "#define __restrict__ __restrict\n"
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
    // What the file solves and how it is launched: the exercise's fields, else the file's.
    FileHeader header = readHeader(source, r.errors);
    if (!r.errors.empty()) return r;
    const LaunchHeader& given = options.launch;
    if (!given.family.empty()) header.launch.family = given.family, header.familyLine = 0;
    if (!given.grid.empty()) header.launch.grid = given.grid, header.gridLine = 0;
    if (!given.block.empty()) header.launch.block = given.block, header.blockLine = 0;
    if (!given.nLayout.empty()) header.launch.nLayout = given.nLayout, header.nLine = 0;
    if (!given.arrays.empty()) header.launch.arrays = given.arrays, header.arraysLine = 0;
    if (!given.sizes.empty()) header.launch.sizes = given.sizes, header.sizesLine = 0;
    if (!given.reference.empty()) header.launch.reference = given.reference, header.referenceLine = 0;
    const LaunchHeader& launch = header.launch;
    sim::Family family = sim::Family::Matmul;
    if (launch.family == "array" || (launch.family.empty() && !launch.arrays.empty()))
        family = sim::Family::Array;
    else if (launch.family == "conv1d" || (launch.family.empty() && !t.constants.empty() && t.constants[0].extents.size() == 1))
        family = sim::Family::Conv1D;
    else if (launch.family == "conv2d" || (launch.family.empty() && !t.constants.empty()))
        family = sim::Family::Conv2D;
    else if (!launch.family.empty() && launch.family != "matmul") {
        r.errors.push_back(Diagnostic{header.familyLine, 0, "family '" + launch.family + "' is not one TileScope knows: matmul, conv1d, conv2d or array"});
        return r;
    }
    const bool array = family == sim::Family::Array;
    if (!array) {
        for (const auto& [field, line] : {std::pair{&launch.arrays, header.arraysLine}, std::pair{&launch.sizes, header.sizesLine},
                                          std::pair{&launch.reference, header.referenceLine}})
            if (!field->empty()) {
                r.errors.push_back(Diagnostic{line, 0, "arrays, sizes and reference describe an array problem (`// tilescope: family = array`); this file is a " +
                                                           std::string(family == sim::Family::Matmul ? "matrix multiplication" : "convolution")});
                return r;
            }
    }
    std::shared_ptr<sim::ArraySpec> arraySpec;
    if (array) {
        if (!t.constants.empty()) {
            r.errors.push_back(Diagnostic{t.constants.front().line, 0, "__constant__ " + t.constants.front().name +
                                                                        " is a convolution mask; an array problem's kernel reads only its arrays"});
            return r;
        }
        if (!launch.nLayout.empty()) {
            r.errors.push_back(Diagnostic{header.nLine, 0, "N's layout is a matrix multiplication's field; an array problem's arrays are row-major"});
            return r;
        }
        if (launch.grid.empty() && launch.block.empty()) {
            r.errors.push_back(Diagnostic{header.familyLine ? header.familyLine : header.arraysLine, 0,
                                          "an array problem states its launch: `// tilescope: grid = (n + 255)/256` and `// tilescope: block = 256`"});
            return r;
        }
        arraySpec = readArraySpec(header, fileName, r.errors);
        if (!arraySpec) return r;
    }
    const bool conv = family == sim::Family::Conv1D || family == sim::Family::Conv2D;
    if (conv && t.constants.empty()) {
        r.errors.push_back(Diagnostic{0, 0, "a convolution kernel reads its mask from a __constant__ float array "
                                            "(`__constant__ float M[MAX_MASK_WIDTH];`, PMPP sec. 7.3); this file declares none"});
        return r;
    }
    if (family == sim::Family::Matmul && !t.constants.empty()) {
        r.errors.push_back(Diagnostic{t.constants.front().line, 0, "__constant__ " + t.constants.front().name +
                                                                    " is a convolution mask, but this kernel is a matrix multiplication "
                                                                    "(say `// tilescope: family = conv1d` or conv2d)"});
        return r;
    }
    if (conv && t.constants.front().extents.size() != (family == sim::Family::Conv2D ? 2u : 1u)) {
        r.errors.push_back(Diagnostic{t.constants.front().line, 0, "__constant__ " + t.constants.front().name + " is " +
                                                                    std::to_string(t.constants.front().extents.size()) +
                                                                    "D but the kernel is a " +
                                                                    (family == sim::Family::Conv2D ? "2D" : "1D") + " convolution"});
        return r;
    }
    bool nColumnMajor = false;
    if (!launch.nLayout.empty()) {
        if (conv || (launch.nLayout != "column-major" && launch.nLayout != "row-major")) {
            r.errors.push_back(Diagnostic{header.nLine, 0, conv ? "N's layout is a matrix multiplication's field; a convolution's N is row-major"
                                                                : "N is row-major or column-major; got '" + launch.nLayout + "'"});
            return r;
        }
        nColumnMajor = launch.nLayout == "column-major";
    }
    bool square = false;
    std::vector<Role> roles;
    if (array) {
        std::vector<std::string> inputs;
        for (const sim::ArrayDecl* a : arraySpec->inputs()) inputs.push_back(a->name);
        roles = arrayRoles(t, inputs, arraySpec->output()->name, arraySpec->sizes, header.arraysLine, r.errors);
    } else {
        roles = conv ? convRoles(t, family == sim::Family::Conv2D, r.errors) : matmulRoles(t, r.errors, square);
    }
    if (!r.errors.empty()) return r;
    if (launch.grid.empty() != launch.block.empty()) {
        r.errors.push_back(Diagnostic{std::max(header.gridLine, header.blockLine), 0,
                                      "the launch needs both a grid and a block (`// tilescope: grid = ...` and `// tilescope: block = ...`)"});
        return r;
    }
    std::vector<std::string> gridExpr, blockExpr;
    if (!launch.grid.empty()) {
        gridExpr = splitCommas(launch.grid);
        blockExpr = splitCommas(launch.block);
        // Every name must be known: try the expressions on a sample problem.
        sim::Scenario sample;
        sample.j = sample.k = sample.l = sample.width = sample.height = 64;
        sample.maskWidth = 5;
        const sim::Variables v = launchVariables(t, sample, family, arraySpec.get());
        for (const auto& [exprs, what, line] : {std::tuple{&gridExpr, "grid", header.gridLine}, std::tuple{&blockExpr, "block", header.blockLine}}) {
            if (exprs->size() > 3 || exprs->front().empty()) {
                r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " is one to three expressions, x first, separated by commas; got '" +
                                                           (what == std::string("grid") ? launch.grid : launch.block) + "'"});
                return r;
            }
            for (const std::string& e : *exprs) {
                const sim::Evaluation ev = sim::evaluate(e, v);
                if (!ev.value && (!ev.unknown.empty() || ev.error.find("division by zero") == std::string::npos)) {
                    r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " expression '" + e + "' cannot be evaluated: " +
                                                               (ev.unknown.empty() ? ev.error
                                                                                   : "it uses " + ev.unknown +
                                                                                         ", which is neither a size of the problem nor a #define of the file")});
                    return r;
                }
                if (array && ev.value && *ev.value < 1) {
                    r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " expression '" + e + "' is " + std::to_string(*ev.value) +
                                                               " when the sizes are 64; a launch has at least one block of one thread"});
                    return r;
                }
            }
        }
    }

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
    const std::string stem = (fs::path(dir) / (t.kernelName + "-" + textHash(key))).string();
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
    info.family = family;
    info.nColumnMajor = nColumnMajor;
    if (conv) info.maskCapacity = static_cast<int>(t.constants.front().extents.front());
    info.arrays = arraySpec;
    info.sourceFile = fileName;
    info.source = source;
    info.summary = "your kernel " + t.kernelName + " from " + fs::path(fileName).filename().string();
    info.barriersPerPhase = static_cast<int>(t.barrierLines.size());
    info.square = square;
    if (!t.shared.empty()) {
        const long long* tile = nullptr;
        for (const char* name : {"TILE_WIDTH", "TILE_SIZE", "OUT_TILE_DIM"})
            if (!tile) tile = t.define(name);
        info.tiles = {static_cast<int>(tile ? *tile : t.shared.front().extents.front())};
    }
    if (conv && info.tiles.empty()) info.maxBlockEdge = family == sim::Family::Conv1D ? sim::kMaxThreadsPerBlock : 32;
    if (!gridExpr.empty())
        info.launch = [gridExpr, blockExpr, t, family, arraySpec](const sim::Scenario& s, sim::LaunchShape& shape) -> std::string {
            const sim::Variables v = launchVariables(t, s, family, arraySpec.get());
            unsigned dims[2][3] = {{1, 1, 1}, {1, 1, 1}};
            const char* axis = "xyz";
            for (int which = 0; which < 2; ++which) {
                const std::vector<std::string>& exprs = which == 0 ? gridExpr : blockExpr;
                for (size_t i = 0; i < exprs.size(); ++i) {
                    const sim::Evaluation ev = sim::evaluate(exprs[i], v);
                    const std::string what = std::string("the launch's ") + (which == 0 ? "grid" : "block") + " " + axis[i] + ", " + exprs[i];
                    if (!ev.value) return "Cannot evaluate " + what + ": " + ev.error;
                    if (*ev.value < 1 || *ev.value > (which == 0 ? 65535ll * 32768 : 1024ll))
                        return "The value of " + what + ", is " + std::to_string(*ev.value) + " for this problem; it must be between 1 and " +
                               (which == 0 ? std::string("2^31 - 1") : std::string("1024")) + ".";
                    dims[which][i] = static_cast<unsigned>(*ev.value);
                }
            }
            shape.grid = sim::Dim3{dims[0][0], dims[0][1], dims[0][2]};
            shape.block = sim::Dim3{dims[1][0], dims[1][1], dims[1][2]};
            // One element of P per thread, as far as the views' tile grid goes.
            shape.pRows = shape.block.y;
            shape.pCols = shape.block.x;
            return "";
        };
    r.info = sim::registerLoadedKernel(info);
    // One launch's arguments by parameter position: an input declared without const gets a
    // writable pointer, as PMPP's `float* M` does.
    auto call = [roles, params = t.params](const sim::GlobalPtr<float>& P, auto&& inputOf, auto&& valueOf) {
        KernelCall c;
        for (size_t i = 0; i < roles.size() && i < static_cast<size_t>(KernelCall::kMaxParams); ++i) {
            if (params[i].kind == KernelParam::Kind::Int) c.value[i] = valueOf(roles[i]);
            else if (roles[i] == Role::P || roles[i] == Role::Out) c.output[i] = P;
            else if (params[i].kind == KernelParam::Kind::ConstFloatPointer) c.input[i] = inputOf(roles[i]);
            else c.output[i] = inputOf(roles[i]).writable();
        }
        return c;
    };
    auto bodyOf = [bind](const KernelCall& c) {
        std::function<void(sim::ThreadContext&)> body;
        bind(c, body);
        return body;
    };
    if (array) {
        sim::setLoadedBinder(t.kernelName, sim::ArrayBinder([call, bodyOf](const sim::ArrayArgs& a) {
            return bodyOf(call(a.out, [&](Role r) { return r == Role::In0 ? a.in[0] : a.in[1]; },
                               [&](Role r) { return r == Role::Size1 ? a.size[1] : a.size[0]; }));
        }));
    } else if (conv) {
        sim::setLoadedBinder(t.kernelName, sim::ConvBinder([call, bodyOf](const sim::ConvArgs<sim::ThreadContext>& a) {
            return bodyOf(call(a.P, [&](Role) { return a.N; },
                               [&](Role r) { return r == Role::MaskWidth ? a.maskWidth : r == Role::Height ? a.height : a.width; }));
        }));
    } else {
        sim::setLoadedBinder(t.kernelName, sim::MatmulBinder([call, bodyOf](const sim::MatmulArgs<sim::ThreadContext>& a) {
            return bodyOf(call(a.P, [&](Role r) { return r == Role::M ? a.M : a.N; },
                               [&](Role r) { return r == Role::K ? a.k : r == Role::L ? a.l : a.j; }));
        }));
    }
    r.loadSeconds = since(t0);
    return r;
}

}  // namespace ts::student
