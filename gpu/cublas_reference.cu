// cuBLAS SGEMM in pure FP32 for row-major matrices (see cublas_reference.hpp).
//
// cuBLAS is loaded with dlopen the first time a CublasSgemm is made, not linked: linking it
// makes the loader map libcublas and libcublasLt (several hundred MB) and run their
// constructors at every start of the CLI and the app, about 0.3 s and 200 MB of resident
// memory, although most commands never time cuBLAS (scripts/bench-startup.sh measures it).
#include "cublas_reference.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "gpu.hpp"

#define TS_STRINGIFY2(x) #x
#define TS_STRINGIFY(x) TS_STRINGIFY2(x)

namespace ts::gpu::detail {
namespace {

/// The cuBLAS entry points the reference uses, looked up in the loaded library. The types
/// come from cublas_v2.h, so a changed signature fails to compile here.
struct CublasApi {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetMathMode) setMathMode = nullptr;
    decltype(&cublasSgemm_v2) sgemm = nullptr;
    decltype(&cublasGetStatusString) statusString = nullptr;
    std::string error;   ///< why loading failed; empty once every pointer is set
};

/// Where to look for the library: the loader's own search (LD_LIBRARY_PATH, ld.so.conf),
/// then the CUDA toolkit's library folder this binary was built against.
const char* const kCublasNames[] = {
    "libcublas.so." TS_STRINGIFY(CUBLAS_VER_MAJOR),
#ifdef TILESCOPE_CUDA_LIBRARY_DIR
    TILESCOPE_CUDA_LIBRARY_DIR "/libcublas.so." TS_STRINGIFY(CUBLAS_VER_MAJOR),
#endif
};

template <class F>
bool lookUp(void* lib, const char* name, F& f, std::string& error)
{
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f && error.empty()) error = std::string("libcublas has no symbol ") + name;
    return f != nullptr;
}

CublasApi loadCublas()
{
    CublasApi api;
    void* lib = nullptr;
    std::string tried;
    for (const char* name : kCublasNames) {
        lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (lib) break;
        if (!tried.empty()) tried += "; ";
        tried += dlerror();
    }
    if (!lib) {
        api.error = "cuBLAS could not be loaded (" + tried + ")";
        return api;
    }
    // The library stays loaded until the process ends, as a linked one would.
    lookUp(lib, "cublasCreate_v2", api.create, api.error);
    lookUp(lib, "cublasDestroy_v2", api.destroy, api.error);
    lookUp(lib, "cublasSetMathMode", api.setMathMode, api.error);
    lookUp(lib, "cublasSgemm_v2", api.sgemm, api.error);
    lookUp(lib, "cublasGetStatusString", api.statusString, api.error);
    return api;
}

/// The loaded API, loaded once (thread-safe); throws LaunchError naming why it could not be.
const CublasApi& cublas()
{
    static std::once_flag once;
    static CublasApi api;
    std::call_once(once, [] { api = loadCublas(); });
    if (!api.error.empty()) throw LaunchError(api.error + "; cuBLAS timings need it.");
    return api;
}

void checkBlas(cublasStatus_t s, const char* what)
{
    if (s == CUBLAS_STATUS_SUCCESS) return;
    throw LaunchError(std::string(what) + " failed: " + cublas().statusString(s) + ".");
}
}  // namespace

CublasSgemm::CublasSgemm()
{
    checkBlas(cublas().create(&handle_), "creating a cuBLAS handle");
    // Pedantic math: FP32 inputs, FP32 products and sums, no TF32 tensor-core shortcut.
    checkBlas(cublas().setMathMode(handle_, CUBLAS_PEDANTIC_MATH), "setting cuBLAS to pure FP32");
}

CublasSgemm::~CublasSgemm()
{
    if (handle_) cublas().destroy(handle_);
}

void CublasSgemm::run(const float* M, const float* N, float* P, int j, int k, int l)
{
    // cuBLAS is column-major. A row-major matrix read column-major is its transpose, so
    // P^T (l x j) = N^T (l x k) * M^T (k x j) computes row-major P = M * N with no copies.
    const float alpha = 1.0f, beta = 0.0f;
    checkBlas(cublas().sgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &alpha, N, l, M, k, &beta, P, l),
              "cublasSgemm");
}

}  // namespace ts::gpu::detail
