// A student's kernel file on the GPU through NVRTC (see student_launch.hpp).
//
// NVRTC is loaded with dlopen the first time a file is compiled, as cuBLAS is
// (cublas_reference.cu): linked, libnvrtc would be mapped at every start of the CLI and the
// app. The compiled machine code is loaded through the CUDA runtime's library API
// (cudaLibraryLoadData), so that no driver-API library is linked either.
#include "student_launch.hpp"

#include <cmath>

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "conv_launch.hpp"
#include "cuda_support.hpp"
#include "matmul_launch.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/simulate.hpp"
#include "frontend/kernel_roles.hpp"

namespace ts::gpu {
namespace {
using namespace detail;

/// The NVRTC entry points used here, looked up in the loaded library. The types come from
/// nvrtc.h, so a changed signature fails to compile here.
struct NvrtcApi {
    decltype(&nvrtcCreateProgram) create = nullptr;
    decltype(&nvrtcDestroyProgram) destroy = nullptr;
    decltype(&nvrtcAddNameExpression) addNameExpression = nullptr;
    decltype(&nvrtcCompileProgram) compile = nullptr;
    decltype(&nvrtcGetProgramLogSize) logSize = nullptr;
    decltype(&nvrtcGetProgramLog) log = nullptr;
    decltype(&nvrtcGetLoweredName) loweredName = nullptr;
    decltype(&nvrtcGetCUBINSize) cubinSize = nullptr;
    decltype(&nvrtcGetCUBIN) cubin = nullptr;
    decltype(&nvrtcGetErrorString) errorString = nullptr;
    std::string error;   ///< why loading failed; empty once every pointer is set
};

template <class F>
void lookUp(void* lib, const char* name, F& f, std::string& error)
{
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f && error.empty()) error = std::string("libnvrtc has no symbol ") + name;
}

NvrtcApi loadNvrtc()
{
    NvrtcApi api;
    // The major version of the CUDA runtime this binary was built with (13000 -> 13): the
    // NVRTC of the same toolkit. The loader's own search first, then the toolkit's folder.
    const std::string so = "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000);
    std::vector<std::string> names = {so};
#ifdef TILESCOPE_CUDA_LIBRARY_DIR
    names.push_back(std::string(TILESCOPE_CUDA_LIBRARY_DIR) + "/" + so);
#endif
    void* lib = nullptr;
    std::string tried;
    for (const std::string& name : names) {
        lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lib) break;
        tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
    }
    if (!lib) {
        api.error = "NVRTC, the CUDA toolkit's run-time compiler, could not be loaded (" + tried +
                    "), so a kernel file cannot be compiled for the GPU.";
        return api;
    }
    lookUp(lib, "nvrtcCreateProgram", api.create, api.error);
    lookUp(lib, "nvrtcDestroyProgram", api.destroy, api.error);
    lookUp(lib, "nvrtcAddNameExpression", api.addNameExpression, api.error);
    lookUp(lib, "nvrtcCompileProgram", api.compile, api.error);
    lookUp(lib, "nvrtcGetProgramLogSize", api.logSize, api.error);
    lookUp(lib, "nvrtcGetProgramLog", api.log, api.error);
    lookUp(lib, "nvrtcGetLoweredName", api.loweredName, api.error);
    lookUp(lib, "nvrtcGetCUBINSize", api.cubinSize, api.error);
    lookUp(lib, "nvrtcGetCUBIN", api.cubin, api.error);
    lookUp(lib, "nvrtcGetErrorString", api.errorString, api.error);
    if (!api.error.empty()) api.error += ", so a kernel file cannot be compiled for the GPU.";
    return api;
}

/// The loaded API, loaded once; throws Unavailable naming why it could not be.
const NvrtcApi& nvrtc()
{
    static std::once_flag once;
    static NvrtcApi api;
    std::call_once(once, [] { api = loadNvrtc(); });
    if (!api.error.empty()) throw Unavailable(api.error);
    return api;
}

/// NVRTC's errors in the student's file. NVRTC writes `FILE(LINE): error: MESSAGE`, then the
/// source line indented by two spaces and a caret under the column; the column is read
/// from the caret. Errors elsewhere (none expected: nothing is prepended) keep line 0.
std::vector<student::Diagnostic> nvrtcErrors(const std::string& log, const std::string& fileName)
{
    std::vector<student::Diagnostic> out;
    std::vector<std::string> lines;
    {
        std::istringstream in(log);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    const std::string prefix = fileName + "(";
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        const size_t e = l.find(": error: ");
        const size_t fatal = l.find(": catastrophic error: ");
        if (e == std::string::npos && fatal == std::string::npos) continue;
        student::Diagnostic d;
        d.message = e != std::string::npos ? l.substr(e + 9) : l.substr(fatal + 22);
        if (l.rfind(prefix, 0) == 0) {
            d.line = static_cast<unsigned>(std::strtoul(l.c_str() + prefix.size(), nullptr, 10));
            if (i + 2 < lines.size()) {
                const size_t caret = lines[i + 2].find('^');
                if (caret != std::string::npos && caret >= 2 && lines[i + 2].find_first_not_of(' ') == caret)
                    d.column = static_cast<unsigned>(caret - 1);
            }
        } else {
            d.message = l;
        }
        out.push_back(d);
    }
    if (out.empty())
        out.push_back(student::Diagnostic{0, 0, "NVRTC refused the file without an error line: " + log});
    return out;
}

/// What NVRTC made of a student's file.
struct Compiled {
    std::vector<char> cubin;     ///< machine code for the architecture
    std::string mangled;         ///< the kernel's lowered (mangled) name
    std::string maskSymbol;      ///< the lowered name of the __constant__ mask ("" for a matmul)
    double seconds = 0;
};

/// Compiles `k` with NVRTC for `arch` ("sm_90"); `device` names the device in messages.
Compiled compile(const StudentKernel& k, const std::string& arch, const std::string& device)
{
    const NvrtcApi& api = nvrtc();
    const auto t0 = std::chrono::steady_clock::now();
    nvrtcProgram prog = nullptr;
    // The program is named by the student's file, so that NVRTC's messages name it too.
    if (nvrtcResult r = api.create(&prog, k.source.c_str(), k.fileName.c_str(), 0, nullptr, nullptr); r != NVRTC_SUCCESS)
        throw LaunchError(std::string("NVRTC could not take the kernel file: ") + api.errorString(r) + ".");
    struct Destroy {
        const NvrtcApi& api;
        nvrtcProgram& p;
        ~Destroy() { api.destroy(&p); }
    } destroy{api, prog};
    const std::string& name = k.translation.kernelName;
    api.addNameExpression(prog, name.c_str());
    const std::string maskExpression = k.translation.constants.empty() ? "" : "&" + k.translation.constants.front().name;
    if (!maskExpression.empty()) api.addNameExpression(prog, maskExpression.c_str());
    // The device's own architecture (machine code, no PTX left to the driver), and fused
    // multiply-adds on, as nvcc compiles the built-in kernels: `Pvalue += a * b` is one FFMA,
    // which the simulator computes with std::fma (docs/design.md, principle 3).
    const std::string archOption = "--gpu-architecture=" + arch;
    const char* options[] = {archOption.c_str(), "--fmad=true", "-lineinfo"};
    const nvrtcResult compiled = api.compile(prog, 3, options);
    size_t logSize = 0;
    api.logSize(prog, &logSize);
    std::string log(logSize, '\0');
    if (logSize) api.log(prog, log.data());
    if (compiled != NVRTC_SUCCESS) {
        if (compiled == NVRTC_ERROR_INVALID_OPTION)
            throw LaunchError("NVRTC cannot compile for " + arch + " (" + device + "): " + log);
        std::vector<student::Diagnostic> errors = nvrtcErrors(log, k.fileName);
        const std::string first = student::formatDiagnostic(k.fileName, errors.front());
        throw StudentCompileError(first, std::move(errors));
    }
    Compiled c;
    const char* lowered = nullptr;
    if (api.loweredName(prog, name.c_str(), &lowered) != NVRTC_SUCCESS || !lowered)
        throw LaunchError("NVRTC compiled " + k.fileName + " but has no kernel named " + name + " in it.");
    c.mangled = lowered;
    if (!maskExpression.empty()) {
        if (api.loweredName(prog, maskExpression.c_str(), &lowered) != NVRTC_SUCCESS || !lowered)
            throw LaunchError("NVRTC compiled " + k.fileName + " but has no __constant__ array " +
                              k.translation.constants.front().name + " in it.");
        c.maskSymbol = lowered;
    }
    size_t cubinSize = 0;
    api.cubinSize(prog, &cubinSize);
    c.cubin.resize(cubinSize);
    if (cubinSize == 0 || api.cubin(prog, c.cubin.data()) != NVRTC_SUCCESS)
        throw LaunchError("NVRTC gave no machine code for " + arch + ".");
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return c;
}

/// A student's kernel compiled and loaded on device 0.
struct Loaded {
    StudentBuild build;
    cudaKernel_t kernel = nullptr;
    int maxThreadsPerBlock = 0;
    void* mask = nullptr;        ///< the __constant__ mask in device memory (a convolution)
    size_t maskBytes = 0;
};

/// Compiles and loads `k` for `d`, once per text and device architecture in this process.
const Loaded& loaded(const StudentKernel& k, const DeviceInfo& d)
{
    static std::mutex mutex;
    static std::map<std::string, Loaded> cache;   // entries are never removed: references stay valid
    const std::string arch = "sm_" + std::to_string(d.ccMajor) + std::to_string(d.ccMinor);
    const std::string key = arch + "\n" + k.translation.kernelName + "\n" + k.source;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    const Compiled c = compile(k, arch, "the device " + d.name);
    const std::string& name = k.translation.kernelName;
    const std::string& mangled = c.mangled;
    const std::vector<char>& cubin = c.cubin;
    Loaded L;
    L.build.architecture = arch;
    L.build.compileSeconds = c.seconds;

    // Loaded for the life of the process, as a module of the simulator is.
    cudaLibrary_t library = nullptr;
    check(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          ("loading the compiled kernel of " + k.fileName).c_str());
    check(cudaLibraryGetKernel(&L.kernel, library, mangled.c_str()), ("finding kernel " + name).c_str());
    if (!c.maskSymbol.empty())
        check(cudaLibraryGetGlobal(&L.mask, &L.maskBytes, library, c.maskSymbol.c_str()),
              ("finding the __constant__ array " + k.translation.constants.front().name).c_str());
    cudaFuncAttributes a{};
    check(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(L.kernel)), ("reading the attributes of " + name).c_str());
    L.build.registers = a.numRegs;
    L.build.staticSharedBytes = static_cast<int>(a.sharedSizeBytes);
    L.maxThreadsPerBlock = a.maxThreadsPerBlock;
    return cache.emplace(key, L).first->second;
}

/// The family of `k`: a convolution reads its mask from a __constant__ array (1D or 2D, as
/// student/module.cpp decides), a matrix multiplication has none.
sim::Family familyOf(const StudentKernel& k)
{
    // An array problem is known by its header, which the simulator's load read.
    if (sim::arraySpecOf(k.translation.kernelName)) return sim::Family::Array;
    if (k.translation.constants.empty()) return sim::Family::Matmul;
    return k.translation.constants.front().extents.size() == 2 ? sim::Family::Conv2D : sim::Family::Conv1D;
}

/// The roles of `k`'s parameters (frontend/kernel_roles.hpp); LaunchError when they do not fit.
std::vector<student::Role> rolesOf(const StudentKernel& k)
{
    // The roles the simulator's load decided (by position where the launch stated its
    // arguments): the GPU binds the same arguments to the same parameters.
    if (const std::vector<int> loaded = sim::loadedParamRoles(k.translation.kernelName);
        loaded.size() == k.translation.params.size() && !loaded.empty()) {
        std::vector<student::Role> roles;
        for (int r : loaded) roles.push_back(static_cast<student::Role>(r));
        return roles;
    }
    std::vector<student::Diagnostic> errors;
    bool square = false;
    const sim::Family f = familyOf(k);
    std::vector<student::Role> roles;
    if (f == sim::Family::Array) {
        const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(k.translation.kernelName);
        std::vector<std::string> inputs;
        for (const sim::ArrayDecl* a : spec->inputs()) inputs.push_back(a->name);
        roles = student::arrayRoles(k.translation, inputs, spec->output()->name, spec->sizes, 0, errors);
    } else {
        roles = f == sim::Family::Matmul ? student::matmulRoles(k.translation, errors, square)
                                         : student::convRoles(k.translation, f == sim::Family::Conv2D, errors);
    }
    if (!errors.empty()) throw LaunchError(student::formatDiagnostic(k.fileName, errors.front()));
    return roles;
}

/// Copies a convolution's mask M (Mask_Width, or Mask_Width rows of Mask_Width, row-major)
/// into the student's __constant__ array, row i of a 2D mask at row i of the array.
void uploadStudentMask(const StudentKernel& k, const Loaded& L, const sim::Scenario& s, const std::vector<float>& M)
{
    const std::vector<long long>& extents = k.translation.constants.front().extents;
    const long long capacity = extents.front();
    const bool twoD = extents.size() == 2;
    if (s.maskWidth > capacity)
        throw LaunchError("Mask_Width " + std::to_string(s.maskWidth) + " does not fit the __constant__ array " +
                          k.translation.constants.front().name + " of " + std::to_string(capacity) + " elements a side.");
    std::vector<float> padded(L.maskBytes / sizeof(float), 0.0f);
    const int rows = twoD ? s.maskWidth : 1;
    for (int i = 0; i < rows; ++i)
        std::copy_n(M.data() + size_t(i) * s.maskWidth, s.maskWidth, padded.data() + size_t(i) * capacity);
    check(cudaMemcpy(L.mask, padded.data(), L.maskBytes, cudaMemcpyHostToDevice),
          "copying the mask M to constant memory");
}

/// Checks that `s` runs the kernel of `k` and fits device `d`; LaunchError otherwise.
void checkStudentLaunch(const StudentKernel& k, const Loaded& L, const DeviceInfo& d, const sim::Scenario& s)
{
    if (familyOf(k) == sim::Family::Matmul) checkMatmulSizes(s);
    std::ostringstream e;
    if (s.kernel != k.translation.kernelName || !sim::findKernel(s.kernel)) {
        e << "The scenario names kernel '" << s.kernel << "', not " << k.translation.kernelName << " of " << k.fileName
          << " loaded into the simulator (student::loadKernelSource registers it).";
        throw LaunchError(e.str());
    }
    const sim::LaunchShape sh = sim::launchShape(s);
    const long long threads = 1ll * sh.block.x * sh.block.y * sh.block.z;
    if (threads > std::min(d.maxThreadsPerBlock, L.maxThreadsPerBlock)) {
        e << "A block of " << sh.block.x << " x " << sh.block.y << " = " << threads << " threads exceeds the "
          << std::min(d.maxThreadsPerBlock, L.maxThreadsPerBlock) << " threads per block that " << d.name
          << " allows for " << k.translation.kernelName << ".";
        throw LaunchError(e.str());
    }
    if (L.build.staticSharedBytes > d.sharedMemPerBlock) {
        e << k.translation.kernelName << " declares " << L.build.staticSharedBytes
          << " bytes of shared memory per block, more than the " << d.sharedMemPerBlock << " bytes that " << d.name
          << " allows.";
        throw LaunchError(e.str());
    }
    if (sh.grid.x > static_cast<unsigned>(d.maxGridX) || sh.grid.y > static_cast<unsigned>(d.maxGridY)) {
        e << "The grid of " << sh.grid.x << " x " << sh.grid.y << " blocks exceeds the " << d.maxGridX << " x "
          << d.maxGridY << " blocks that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
}

/// Launches the loaded kernel on the default stream with sim::launchShape(s), its
/// parameters bound by position: M, N, P the device arrays (a convolution: N the input,
/// P the output), j, k, l, Width, height and Mask_Width the sizes.
void launchStudent(const StudentKernel& k, const Loaded& L, const std::vector<student::Role>& roles,
                   const sim::Scenario& s, const float* M, const float* N, float* P)
{
    const sim::LaunchShape sh = sim::launchShape(s);
    const size_t n = roles.size();
    std::vector<const float*> pointers(n, nullptr);
    std::vector<int> values(n, 0);
    std::vector<void*> args(n, nullptr);
    // An array problem's sizes, in the order its header names them.
    int sizes[2] = {0, 0};
    if (const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(k.translation.kernelName)) {
        const sim::Variables v = spec->sizeValues(s);
        for (size_t i = 0; i < spec->sizes.size() && i < 2; ++i) sizes[i] = static_cast<int>(v.at(spec->sizes[i]));
    }
    for (size_t i = 0; i < n; ++i) {
        switch (roles[i]) {
        case student::Role::In0: pointers[i] = M; break;
        case student::Role::In1: pointers[i] = N; break;
        case student::Role::Out: pointers[i] = P; break;
        case student::Role::Size0: values[i] = sizes[0]; break;
        case student::Role::Size1: values[i] = sizes[1]; break;
        case student::Role::M: pointers[i] = M; break;
        case student::Role::N: pointers[i] = N; break;
        case student::Role::P: pointers[i] = P; break;
        case student::Role::J: values[i] = s.j; break;
        case student::Role::K: values[i] = s.k; break;
        case student::Role::L: values[i] = s.l; break;
        case student::Role::Width: values[i] = familyOf(k) == sim::Family::Matmul ? s.j : s.width; break;
        case student::Role::MaskWidth: values[i] = s.maskWidth; break;
        case student::Role::Height: values[i] = s.height; break;
        }
        const bool pointer = k.translation.params[i].kind != student::KernelParam::Kind::Int;
        args[i] = pointer ? static_cast<void*>(&pointers[i]) : static_cast<void*>(&values[i]);
    }
    check(cudaLaunchKernel(reinterpret_cast<const void*>(L.kernel), dim3(sh.grid.x, sh.grid.y, sh.grid.z),
                           dim3(sh.block.x, sh.block.y, sh.block.z), args.data(), 0, nullptr),
          ("launching " + k.translation.kernelName).c_str());
    check(cudaGetLastError(), ("launching " + k.translation.kernelName).c_str());
}

/// "" when a and b hold the same floats bit for bit, else the first element that differs.
std::string firstDifference(const std::vector<float>& gpu, const std::vector<float>& simulated, int l)
{
    if (gpu.size() != simulated.size()) return "P has " + std::to_string(gpu.size()) + " elements on the GPU and " +
                                              std::to_string(simulated.size()) + " in the simulator";
    for (size_t i = 0; i < gpu.size(); ++i)
        if (std::memcmp(&gpu[i], &simulated[i], sizeof(float)) != 0) {
            std::ostringstream m;
            m.precision(9);
            m << "P[" << i / l << "][" << i % l << "] is " << gpu[i] << " on the GPU and " << simulated[i]
              << " in the simulator";
            return m.str();
        }
    return {};
}

}  // namespace

double compileStudentKernel(const StudentKernel& k, const std::string& architecture)
{
    return compile(k, architecture, "no device asked").seconds;
}

StudentBuild buildStudentKernel(const StudentKernel& k)
{
    const DeviceInfo& d = requireDevice();
    rolesOf(k);
    return loaded(k, d).build;
}

std::vector<float> runStudentPlain(const StudentKernel& k, const sim::Scenario& s, const std::vector<float>& M,
                                   const std::vector<float>& N)
{
    const DeviceInfo& d = requireDevice();
    const std::vector<student::Role> roles = rolesOf(k);
    const Loaded& L = loaded(k, d);
    checkStudentLaunch(k, L, d, s);
    if (familyOf(k) == sim::Family::Array) {
        // An array problem: its inputs as the simulator made them (M, N: the first and
        // second input, N empty when there is one), its output shaped by the header.
        const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(k.translation.kernelName);
        int rows = 1, cols = 1;
        std::string error;
        if (!spec->shape(*spec->output(), spec->sizeValues(s), rows, cols, error)) throw LaunchError(error);
        const size_t sizeP = size_t(rows) * cols;
        requireFreeMemory(4 * (M.size() + N.size() + sizeP));
        // Each buffer holds the bytes of the type its array declares (`in char data[N]`).
        const std::vector<const sim::ArrayDecl*> in = spec->inputs();
        std::optional<DeviceBuffer<float>> dM, dN;
        if (!M.empty()) {
            dM.emplace(M.size());
            uploadAs(*dM, M, in.at(0)->type, "copying the first input to the device");
        }
        if (!N.empty()) {
            dN.emplace(N.size());
            uploadAs(*dN, N, in.at(1)->type, "copying the second input to the device");
        }
        DeviceBuffer<float> dP(sizeP);
        // Poisoned as the simulator poisons it (std::nanf("")), so that an element the kernel
        // must leave alone (a reference of NAN: a stencil's boundary) matches bit for bit; or
        // set to the start the header gives it (`out output[1] = 0`, a total atomics add to).
        const sim::ArrayDecl& out = *spec->output();
        uploadAs(dP, std::vector<float>(sizeP, out.hasStart ? out.start : std::nanf("")), out.type, "setting the output's start");
        launchStudent(k, L, roles, s, dM ? dM->get() : nullptr, dN ? dN->get() : nullptr, dP.get());
        check(cudaDeviceSynchronize(), ("running " + k.translation.kernelName).c_str());
        return downloadAs(dP, out.type, "copying the output back from the device");
    }
    const bool conv = familyOf(k) != sim::Family::Matmul;
    const size_t sizeM = conv ? convMaskElements(s) : size_t(s.j) * s.k;
    const size_t sizeN = conv ? size_t(s.height) * s.width : size_t(s.k) * s.l;
    const size_t sizeP = conv ? sizeN : size_t(s.j) * s.l;
    if (M.size() != sizeM || N.size() != sizeN)
        throw LaunchError("M has " + std::to_string(M.size()) + " and N " + std::to_string(N.size()) +
                          " elements, but the scenario needs " + std::to_string(sizeM) + " and " + std::to_string(sizeN) + ".");
    requireFreeMemory(4 * (sizeM + sizeN + sizeP));
    DeviceBuffer<float> dN(sizeN), dP(sizeP);
    std::optional<DeviceBuffer<float>> dM;
    dN.upload(conv ? N : storedN(s, N), "copying N to the device");
    dP.fill(0xFF, "poisoning P");
    if (conv) {
        uploadStudentMask(k, L, s, M);
    } else {
        dM.emplace(sizeM);
        dM->upload(M, "copying M to the device");
    }
    launchStudent(k, L, roles, s, dM ? dM->get() : nullptr, dN.get(), dP.get());
    check(cudaDeviceSynchronize(), ("running " + k.translation.kernelName).c_str());
    return dP.download("copying P back from the device");
}

BenchResult benchStudent(const StudentKernel& k, const BenchRequest& r, const std::function<void(double)>& progress)
{
    const DeviceInfo& d = requireDevice();
    const std::vector<student::Role> roles = rolesOf(k);
    const Loaded& L = loaded(k, d);
    checkStudentLaunch(k, L, d, r.scenario);
    if (familyOf(k) == sim::Family::Array)
        throw LaunchError("bench does not time an array problem yet: verify --kernel-file checks it on the GPU.");
    if (familyOf(k) != sim::Family::Matmul)
        return timeConv(
            r, [&](const std::vector<float>& M) { uploadStudentMask(k, L, r.scenario, M); },
            [&](const float* N, float* P) { launchStudent(k, L, roles, r.scenario, nullptr, N, P); }, progress);
    return timeMatmul(
        r, [&](const float* M, const float* N, float* P) { launchStudent(k, L, roles, r.scenario, M, N, P); }, true,
        progress);
}

StudentGpuCheck checkStudentOnGpu(const StudentKernel& k, const sim::Scenario& s, const std::string& referenceKernel,
                                  int reps)
{
    StudentGpuCheck c;
    c.device = requireDevice().name;
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation simulated = sim::simulate(s, o);
    if (!simulated.error.empty()) {
        c.why = "the simulator stopped the kernel: " + simulated.error + " (it is not run on the GPU)";
        return c;
    }
    c.why = firstDifference(runStudentPlain(k, s, simulated.M, simulated.N), simulated.P,
                            familyOf(k) == sim::Family::Matmul ? s.l : familyOf(k) == sim::Family::Array ? simulated.arrays.at(2).cols : s.width);
    c.bitExactVsSim = c.why.empty();
    if (!c.bitExactVsSim) return c;
    try {
        c.studentMs = benchStudent(k, BenchRequest{s, reps}).msMedian;
    } catch (const WrongResult& e) {
        c.why = std::string("no time: ") + e.what();
        return c;
    }
    sim::Scenario ref = s;
    ref.kernel = referenceKernel;
    ref.info = nullptr;
    const sim::KernelInfo* info = sim::findKernel(referenceKernel);
    if (!info) throw LaunchError("'" + referenceKernel + "' is not a kernel of the registry.");
    if (info->tiled && std::find(info->tiles.begin(), info->tiles.end(), s.tile) == info->tiles.end())
        ref.tile = info->defaultTile;
    c.referenceMs = bench(BenchRequest{ref, reps}).msMedian;
    return c;
}

}  // namespace ts::gpu
