// Building and loading a student's kernel (student/module.hpp).
#include "student/module.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/array_spec_text.hpp"
#include "sim/engine/loaded_binding.hpp"
#include "sim/teaching/expression.hpp"
#include "sim/teaching/words.hpp"
#include "frontend/kernel_roles.hpp"
#include "student/module_abi.hpp"
#include "frontend/translation_file.hpp"
#include "student/confine.hpp"
#include "student/confined_run.hpp"
#include "student/kernel_description.hpp"

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
    unsigned arraysLine = 0, sizesLine = 0, referenceLine = 0, argsLine = 0;
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
            errors.push_back(Diagnostic{number, column, "a header line is `// tilescope: KEY = VALUE` (family, grid, block, N, arrays, sizes, reference or args)"});
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
        } else if (key == "args") {
            h.launch.args = value;
            h.argsLine = number;
        } else {
            errors.push_back(Diagnostic{number, column, "unknown header field '" + key + "': the fields are family, grid, block, N, arrays, sizes, reference and args"});
        }
    }
    return h;
}

using sim::shortQuote;
using sim::splitCommas;

/// An array problem from its header lines (`arrays`, `sizes`, `reference`), checked by
/// sim::readArraySpec: a fault is one diagnostic on the header line it belongs to. Null
/// when there is a fault.
std::shared_ptr<sim::ArraySpec> readArraySpec(const FileHeader& h, const std::string& fileName, std::vector<Diagnostic>& errors)
{
    const LaunchHeader& l = h.launch;
    sim::ArraySpecFault fault;
    std::shared_ptr<sim::ArraySpec> spec = sim::readArraySpec(l.arrays, l.sizes, l.reference, fileName, fault);
    if (!spec) {
        const unsigned line = fault.place == sim::ArraySpecPlace::Family  ? h.familyLine
                              : fault.place == sim::ArraySpecPlace::Sizes ? h.sizesLine
                              : fault.place == sim::ArraySpecPlace::Reference ? h.referenceLine
                                                                              : h.arraysLine;
        errors.push_back(Diagnostic{line, 0, fault.message});
        return nullptr;
    }
    spec->referenceLine = h.referenceLine;
    return spec;
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
        // A pointer to int, unsigned int or char elements: the same array, its float slots
        // read as that type (sim::GlobalPtr::as).
        const std::string& e = t.params[i].element;
        const std::string as = e == "float" ? "" : ".template as<" + std::string(t.params[i].kind == KernelParam::Kind::ConstFloatPointer ? "const " : "") + e + ">()";
        switch (t.params[i].kind) {
        case KernelParam::Kind::ConstFloatPointer: o << ", c.input[" << i << "]" << as; break;
        case KernelParam::Kind::FloatPointer: o << ", c.output[" << i << "]" << as; break;
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

/// Runs the compiler `args` inside a sandbox (student/confine.hpp) that shows it /usr, the
/// headers under `includeDir` and the folder `work` (the only place it may write), with no
/// network, its own /tmp and limits on time, memory and file size. Its exit status, or -1
/// when it could not start, -2 when it was killed at `limit` seconds; `log` gets what it
/// printed.
int runCompiler(const std::vector<std::string>& args, const std::string& includeDir, const std::string& work,
                double limit, std::string& log)
{
    Sandbox box;
    box.readOnly = {includeDir};
    box.writable = {work};
    box.privateTmp = true;
    box.minimalDev = true;
    box.etc = true;
    // A compiler outside /usr (TILESCOPE_CXX) must be visible too.
    if (args.front().rfind("/usr/", 0) != 0) box.readOnly.push_back(args.front());
    ProcessLimits limits;
    limits.wallSeconds = limit;
    limits.cpuSeconds = limit * 2;
    limits.memoryBytes = uint64_t{4} << 30;
    limits.fileBytes = uint64_t{256} << 20;
    limits.openFiles = 256;
    const ChildOutcome c = runLimited(confinedCommand(box, args), limits, "", 1 << 20, 1 << 20);
    log = c.out + c.err;
    if (!c.started) return -1;
    if (c.timedOut) return -2;
    if (c.exitStatus == 127 && log.find("cannot start") != std::string::npos) return -1;
    return c.signal ? 128 + c.signal : c.exitStatus;
}


}  // namespace

std::optional<ArrayProblemFault> checkArrayProblem(const std::string& arrays, const std::string& sizes, const std::string& formula)
{
    FileHeader h;
    h.launch.family = "array";
    h.launch.arrays = arrays;
    h.launch.sizes = sizes;
    h.launch.reference = formula;
    // The header's lines stand for the three keys: 1 arrays (and the family), 2 sizes, 3 formula.
    h.familyLine = h.arraysLine = 1;
    h.sizesLine = 2;
    h.referenceLine = 3;
    std::vector<Diagnostic> errors;
    if (readArraySpec(h, "exercise", errors) && errors.empty()) return std::nullopt;
    if (errors.empty()) return ArrayProblemFault{"formula", "the array problem cannot be read"};
    const Diagnostic& e = errors.front();
    return ArrayProblemFault{e.line == 2 ? "sizes" : e.line == 3 ? "formula" : "arrays", e.message};
}

std::string defaultCacheDir()
{
    if (const char* d = std::getenv("TILESCOPE_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tilescope/kernels";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tilescope/kernels";
    return (fs::temp_directory_path() / "tilescope-kernels").string();
}

std::optional<std::string> readKernelText(const std::string& path, std::string& error)
{
    // Never blocks and never reads past the limit: a FIFO, a terminal, /dev/stdin or
    // /dev/zero given as a kernel file is refused, not waited on or read forever.
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot read the kernel file " + path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        error = "the kernel file " + path + " is not a regular file (a kernel file is a .cu text file)";
        return std::nullopt;
    }
    if (static_cast<uint64_t>(st.st_size) > kMaxKernelFileBytes) {
        close(fd);
        error = "the kernel file " + path + " is " + std::to_string(st.st_size / 1024) + " KiB; a kernel file may have at most " +
                std::to_string(kMaxKernelFileBytes / 1024) + " KiB";
        return std::nullopt;
    }
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, static_cast<size_t>(n));
        if (text.size() > kMaxKernelFileBytes) {
            close(fd);
            error = "the kernel file " + path + " grew past " + std::to_string(kMaxKernelFileBytes / 1024) + " KiB while it was read";
            return std::nullopt;
        }
    }
    close(fd);
    return text;
}

LoadResult loadKernelFile(const std::string& path, const LoadOptions& options)
{
    std::string error;
    const std::optional<std::string> text = readKernelText(path, error);
    if (!text) {
        LoadResult r;
        r.errors.push_back(Diagnostic{0, 0, error});
        return r;
    }
    return loadKernelSource(*text, path, options);
}

namespace {

/// The cache's name for what kernel file `source` (called `fileName`, loaded with
/// `options`) was found to be: its description, stored beside its module once it has been
/// scanned, translated and built (student/kernel_description.hpp). Any change of the text,
/// the name, the exercise's launch or this build of TileScope gives another name.
std::string descriptionKey(const std::string& source, const std::string& fileName, const LoadOptions& options)
{
    const LaunchHeader& l = options.launch;
    return textHash(source + "\n" + fileName + "\n" + l.args + "\n" + l.family + "\n" + l.grid + "\n" + l.block + "\n" + l.nLayout + "\n" +
                    l.arrays + "\n" + l.sizes + "\n" + l.reference + "\n" + compiler() + "\n" + includeRoot() + "\n" +
                    std::to_string(kModuleAbi) + "\n" + __DATE__ + " " + __TIME__);
}

}  // namespace

LoadResult loadKernelSource(const std::string& source, const std::string& fileName, const LoadOptions& options)
{
    LoadResult r;
    Clock::time_point t0 = Clock::now();
    // A text opened before, unchanged: its description and module come from the cache, and
    // the front end (libclang) is not even loaded. Only a text that passed the scan, the
    // translation and the build has one.
    const std::string cacheDir = options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
    const std::string described = (fs::path(cacheDir) / ("description-" + descriptionKey(source, fileName, options) + ".json")).string();
    if (options.useCache && confinementRefusal().empty()) {
        std::ifstream in(described, std::ios::binary);
        if (in) {
            try {
                KernelDescription d = descriptionFromJson(nlohmann::json::parse(in));
                if (fs::exists(d.modulePath)) {
                    d.source = source;
                    d.sourceFile = fileName;
                    r.modulePath = d.modulePath;
                    r.fromCache = true;
                    r.info = registerDescription(d);
                    useConfinedRunner(d);
                    r.loadSeconds = since(t0);
                    return r;
                }
            } catch (const std::exception&) {
                // A damaged entry: built again below, and written anew.
            }
        }
    }
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
    if (!given.args.empty()) header.launch.args = given.args, header.argsLine = 0;
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
    if (!launch.args.empty()) {
        // By position, as <<<grid, block>>>(args) binds them: the names are the student's.
        std::vector<std::string> inputs;
        if (array)
            for (const sim::ArrayDecl* a : arraySpec->inputs()) inputs.push_back(a->name);
        const std::string fam = array ? "array" : family == sim::Family::Matmul ? "matmul" : family == sim::Family::Conv1D ? "conv1d" : "conv2d";
        roles = bindArguments(t, launch.args, fam, inputs, array ? arraySpec->output()->name : std::string(),
                              array ? arraySpec->sizes : std::vector<std::string>{}, header.argsLine, r.errors, square);
    } else if (array) {
        std::vector<std::string> inputs;
        for (const sim::ArrayDecl* a : arraySpec->inputs()) inputs.push_back(a->name);
        roles = arrayRoles(t, inputs, arraySpec->output()->name, arraySpec->sizes, header.arraysLine, r.errors);
    } else {
        roles = conv ? convRoles(t, family == sim::Family::Conv2D, r.errors) : matmulRoles(t, r.errors, square);
    }
    // Each pointer's element type is its array's: float for a matrix multiplication or a
    // convolution, the arrays line's type (`in char data[N]`) for an array problem.
    for (size_t i = 0; i < t.params.size() && i < roles.size(); ++i) {
        const KernelParam& p = t.params[i];
        if (p.kind == KernelParam::Kind::Int) continue;
        const sim::ArrayDecl* decl = nullptr;
        if (array) {
            const std::vector<const sim::ArrayDecl*> in = arraySpec->inputs();
            decl = roles[i] == Role::Out ? arraySpec->output() : roles[i] == Role::In1 && in.size() > 1 ? in[1] : in.empty() ? nullptr : in[0];
        }
        const std::string want = decl ? sim::elementTypeName(decl->type) : "float";
        if (p.element != want)
            r.errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name + " points to " + p.element + ", but " +
                                                         (decl ? "the arrays line declares " + decl->name + " as " + want + " (write `" +
                                                                     (decl->output ? "out " : "in ") + p.element + " " + decl->name + "[...]`)"
                                                               : std::string("a matrix multiplication's and a convolution's arrays are float"))});
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
        const sim::Variables v = launchVariables(t.defines, sample, family, arraySpec.get());
        for (const auto& [exprs, what, line] : {std::tuple{&gridExpr, "grid", header.gridLine}, std::tuple{&blockExpr, "block", header.blockLine}}) {
            if (exprs->size() > 3 || exprs->front().empty()) {
                r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " is one to three expressions, x first, separated by commas; got '" +
                                                           shortQuote(what == std::string("grid") ? launch.grid : launch.block) + "'"});
                return r;
            }
            for (const std::string& e : *exprs) {
                const sim::Evaluation ev = sim::evaluate(e, v);
                if (!ev.value && (!ev.unknown.empty() || ev.error.find("division by zero") == std::string::npos)) {
                    r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " expression '" + shortQuote(e) + "' cannot be evaluated: " +
                                                               (ev.unknown.empty() ? shortQuote(ev.error)
                                                                                   : "it uses " + ev.unknown +
                                                                                         ", which is neither a size of the problem nor a #define of the file")});
                    return r;
                }
                if (array && ev.value && *ev.value < 1) {
                    r.errors.push_back(Diagnostic{line, 0, std::string("the ") + what + " expression '" + shortQuote(e) + "' is " + std::to_string(*ev.value) +
                                                               " when the sizes are 64; a launch has at least one block of one thread"});
                    return r;
                }
            }
        }
    }

    // A block's statically declared __shared__ arrays may take at most 48 KiB, as nvcc
    // allows (more needs dynamic shared memory and an opt-in): refused on the array that
    // passes it.
    {
        constexpr unsigned long long kStaticSharedBytes = 48 * 1024;
        unsigned long long bytes = 0;
        for (const SharedArray& a : t.shared) {
            unsigned long long elements = 1;
            for (long long e : a.extents) elements *= static_cast<unsigned long long>(std::max<long long>(e, 0));
            bytes += 4 * elements;
            if (bytes > kStaticSharedBytes) {
                r.errors.push_back(Diagnostic{a.line, 0, "with __shared__ " + a.name + " the block declares " + std::to_string(bytes) +
                                                             " bytes of shared memory, more than the 49152 (48 KiB) a CUDA block may declare statically"});
                return r;
            }
        }
    }
    // The __constant__ mask lives in constant memory, of which CUDA gives a kernel 64 KiB.
    for (const SharedArray& c : t.constants) {
        unsigned long long elements = 1;
        for (long long e : c.extents) elements *= static_cast<unsigned long long>(std::max<long long>(e, 0));
        if (4 * elements > 64 * 1024) {
            r.errors.push_back(Diagnostic{c.line, 0, "__constant__ " + c.name + " takes " + std::to_string(4 * elements) +
                                                         " bytes, more than the 65536 (64 KiB) of constant memory CUDA gives a kernel"});
            return r;
        }
    }
    // Each simulated thread runs on a stack of its own, sized from its local arrays
    // (stackBytesFor); past CUDA's own limit a file is refused, naming the largest array.
    if (t.localBytes > kMaxLocalBytesPerThread) {
        const auto largest = std::max_element(t.locals.begin(), t.locals.end(),
                                              [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
        const unsigned line = largest == t.locals.end() ? 0 : largest->line;
        const std::string what = largest == t.locals.end() ? std::string("its local arrays")
                                                           : "the local array " + largest->name + " (" +
                                                                 std::to_string(largest->bytes / 1024) + " KiB)";
        r.errors.push_back(Diagnostic{line, 0, "each thread's local arrays take " + std::to_string(t.localBytes / 1024) +
                                                   " KiB with " + what + ", but a CUDA thread has at most " +
                                                   std::to_string(kMaxLocalBytesPerThread / 1024) + " KiB of local memory"});
        return r;
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
    // A student's text reaches the compiler and the runner only where they can be confined
    // (or where the user allowed them to run without, knowingly).
    if (const std::string refusal = confinementRefusal(); !refusal.empty()) {
        r.errors.push_back(Diagnostic{0, 0, refusal});
        return r;
    }
    if (!options.useCache || !fs::exists(r.modulePath)) {
        t0 = Clock::now();
        // A folder of this process alone, the only one the sandboxed compiler may write: two
        // processes may build the same kernel at once (the module is renamed into place, the
        // last one wins with the same bytes).
        const fs::path work = stem + "." + std::to_string(getpid()) + ".d";
        fs::remove_all(work, ec);
        fs::create_directories(work, ec);
        if (ec) {
            r.errors.push_back(Diagnostic{0, 0, "cannot create the build folder " + work.string() + ": " + ec.message()});
            return r;
        }
        const std::string cpp = (work / "kernel.cpp").string(), tmp = (work / "kernel.so").string();
        {
            std::ofstream out(cpp, std::ios::binary);
            out << unit;
            if (!out) {
                r.errors.push_back(Diagnostic{0, 0, "cannot write " + cpp});
                fs::remove_all(work, ec);
                return r;
            }
        }
        // The compiler by its real path: the sandbox shows /usr but not /etc/alternatives' links.
        std::string cxx = compiler();
        if (cxx.find('/') == std::string::npos)
            for (const char* dirName : {"/usr/bin/", "/bin/", "/usr/local/bin/"})
                if (access((dirName + cxx).c_str(), X_OK) == 0) {
                    cxx = dirName + cxx;
                    break;
                }
        const fs::path real = fs::canonical(cxx, ec);
        if (!ec) cxx = real.string();
        std::vector<std::string> args = {cxx};
        for (const std::string& f : compileFlags()) args.push_back(f);
        args.insert(args.end(), {"-I", includeRoot(), "-o", tmp, cpp});
        std::string log;
        const int rc = runCompiler(args, includeRoot(), work.string(), options.compileSeconds, log);
        r.compileSeconds = since(t0);
        if (rc == -1) {
            r.errors.push_back(Diagnostic{0, 0, "cannot start the compiler " + compiler() +
                                                    " (set TILESCOPE_CXX to the C++ compiler that built TileScope)"});
            fs::remove_all(work, ec);
            return r;
        }
        if (rc == -2) {
            r.errors.push_back(Diagnostic{0, 0, "the compiler took longer than " +
                                                    std::to_string(static_cast<int>(options.compileSeconds)) +
                                                    " s and was stopped"});
            fs::remove_all(work, ec);
            return r;
        }
        if (rc != 0) {
            r.errors = compilerErrors(log, fileName);
            fs::remove_all(work, ec);
            return r;
        }
        fs::rename(tmp, r.modulePath, ec);
        std::error_code ignored;
        fs::remove_all(work, ignored);
        if (ec) {
            r.errors.push_back(Diagnostic{0, 0, "cannot store the module in " + dir + ": " + ec.message()});
            return r;
        }
    } else {
        r.fromCache = true;
    }

    // Register the kernel from what the file says; its code stays in the module, which only
    // the confined runner opens (student/confined_run.hpp).
    t0 = Clock::now();
    KernelDescription d;
    d.name = t.kernelName;
    d.family = family;
    d.nColumnMajor = nColumnMajor;
    if (conv) d.maskCapacity = static_cast<int>(t.constants.front().extents.front());
    d.arrays = arraySpec;
    d.sourceFile = fileName;
    d.source = source;
    d.summary = "your kernel " + t.kernelName + " from " + fs::path(fileName).filename().string();
    d.barriersPerPhase = static_cast<int>(t.barrierLines.size());
    d.square = square;
    // The front end writes a student's atomicAdd / atomicExch as these (frontend/translate_edits.cpp).
    d.atomics = false;
    for (const char* a : {"ts_ctx.atomicAdd(", "ts_ctx.atomicExch(", "ts_ctx.atomicSub(", "ts_ctx.atomicMax(", "ts_ctx.atomicMin("})
        d.atomics = d.atomics || t.code.find(a) != std::string::npos;
    if (!t.shared.empty()) {
        const long long* tile = nullptr;
        for (const char* name : {"TILE_WIDTH", "TILE_SIZE", "OUT_TILE_DIM"})
            if (!tile) tile = t.define(name);
        d.tiles = {static_cast<int>(tile ? *tile : t.shared.front().extents.front())};
    }
    if (conv && d.tiles.empty()) d.maxBlockEdge = family == sim::Family::Conv1D ? sim::kMaxThreadsPerBlock : 32;
    d.stackBytes = stackBytesFor(t.localBytes);
    d.gridExpr = gridExpr;
    d.blockExpr = blockExpr;
    d.defines = t.defines;
    d.roles = roles;
    for (const KernelParam& p : t.params) d.paramKinds.push_back(p.kind);
    // The student's names of the problem's arrays, for the views and the diagnoses.
    for (size_t i = 0; i < roles.size() && i < t.params.size(); ++i) {
        const Role role = roles[i];
        const char* simName = role == Role::M ? "M" : role == Role::N ? "N" : role == Role::P ? "P" : nullptr;
        if (!array && simName && t.params[i].kind != KernelParam::Kind::Int) d.labels.emplace_back(simName, t.params[i].name);
    }
    if (conv) d.labels.emplace_back("M", t.constants.front().name);
    d.modulePath = r.modulePath;
    r.info = registerDescription(d);
    useConfinedRunner(d);
    {
        // For the next open of the same text (see above); written whole, then renamed.
        const std::string tmp = described + "." + std::to_string(getpid()) + ".tmp";
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << toJson(d).dump();
        out.close();
        std::error_code ignored;
        if (out) fs::rename(tmp, described, ignored);
        else fs::remove(tmp, ignored);
    }
    r.loadSeconds = since(t0);
    return r;
}

}  // namespace ts::student
