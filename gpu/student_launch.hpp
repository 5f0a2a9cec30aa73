// A student's own kernel file on the GPU: the file's text exactly as the student wrote it,
// compiled while TileScope runs by NVRTC (the CUDA toolkit's run-time compiler; no nvcc
// needed), loaded through the CUDA runtime's library API, launched with the simulator's
// grid and block for the scenario and its parameters bound by position as the simulator
// binds them (frontend/kernel_roles.hpp), timed as bench() times the built-in kernels, and
// compared bit for bit with the simulator's run of the same file.
// Plain C++ (no CUDA headers): built from gpu/student_launch.cu with CUDA, from
// gpu/gpu_unavailable.cpp without it, where every call throws Unavailable.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "gpu/gpu.hpp"
#include "sim/catalogue/scenario.hpp"
#include "frontend/translate.hpp"

namespace ts::gpu {

/// A student's kernel file as the GPU runs it.
struct StudentKernel {
    std::string source;                ///< the file's text, as written: what NVRTC compiles
    std::string fileName;              ///< the file's path, as NVRTC's messages name it
    /// The file's translation (student::translateCuda, or a saved one): the kernel's name and
    /// its parameters' kinds, from which their roles follow. Its single-source code is not used.
    student::Translation translation;
};

/// NVRTC refused the student's file. what() is the first error as a compiler prints it;
/// `errors` holds all of them, each with its line and column in the student's file.
struct StudentCompileError : LaunchError {
    StudentCompileError(const std::string& what, std::vector<student::Diagnostic> e)
        : LaunchError(what), errors(std::move(e)) {}
    std::vector<student::Diagnostic> errors;
};

/// What compiling a student's kernel for device 0 gave.
struct StudentBuild {
    std::string architecture;          ///< "sm_90": the device's own, machine code (no PTX JIT)
    double compileSeconds = 0;         ///< NVRTC's compile, the first time this process compiled the text
    int registers = 0;                 ///< per thread, of the loaded kernel
    int staticSharedBytes = 0;         ///< per block: the kernel's __shared__ arrays
};

/// Compiles `k` with NVRTC for `architecture` ("sm_90") without loading it, so without a
/// device (NVRTC alone is needed); returns NVRTC's seconds. Throws Unavailable (libnvrtc
/// cannot be loaded), StudentCompileError (the student's lines) or LaunchError.
double compileStudentKernel(const StudentKernel& k, const std::string& architecture);

/// Compiles `k` with NVRTC for device 0's compute capability (--gpu-architecture=sm_XY,
/// fused multiply-adds on, as nvcc's default) and loads it; kept for the life of the
/// process, keyed by the text. Throws Unavailable (no device, or libnvrtc cannot be
/// loaded), StudentCompileError (the file does not compile: the student's lines), or
/// LaunchError (loading failed, the kernel or its parameters do not fit a matrix
/// multiplication: student::matmulRoles).
StudentBuild buildStudentKernel(const StudentKernel& k);

/// Runs `k` once on scenario `s` (s.kernel: the name the file's kernel is registered
/// under, student::loadKernelSource, so that sim::launchShape(s) gives its grid and block)
/// on the inputs M (s.j x s.k) and N (s.k x s.l, row-major) into a poisoned P, and returns
/// P. Throws as buildStudentKernel, and LaunchError when the launch cannot run (block or
/// grid beyond the device's limits, a fault during the run).
std::vector<float> runStudentPlain(const StudentKernel& k, const sim::Scenario& s, const std::vector<float>& M,
                                   const std::vector<float>& N);

/// Times `k` on r.scenario exactly as bench() times a built-in kernel (warm-up, CUDA
/// events, median and minimum of r.reps runs, P checked against the double-precision
/// reference first, bitExactVsSim where the size is small enough to simulate). Throws as
/// runStudentPlain, and WrongResult when P fails the check.
BenchResult benchStudent(const StudentKernel& k, const BenchRequest& r, const std::function<void(double)>& progress = {});

/// The grader's GPU check (student/grade.*): one size, the student's kernel against the
/// simulator and beside the exercise's reference kernel.
struct StudentGpuCheck {
    bool bitExactVsSim = false;        ///< the GPU's P equals the simulator's P of the same file, bit for bit
    std::string why;                   ///< when not: where they first differ, or the simulator's fault
    double studentMs = 0;              ///< median CUDA-event time of the student's kernel
    double referenceMs = 0;            ///< the same for `referenceKernel` at the same sizes and tile
    std::string device;                ///< the device's name
};

/// Runs the student's kernel `k` on `s` (s.kernel: its registered name) once against the
/// simulator, then times it and the registry kernel `referenceKernel` (e.g. "matmul-tiled",
/// at s.tile, or its default tile when it has no instance for s.tile) with `reps` repeats
/// each. Throws Unavailable without a GPU, StudentCompileError, LaunchError (WrongResult
/// when a P fails the reference check, so no time is reported).
StudentGpuCheck checkStudentOnGpu(const StudentKernel& k, const sim::Scenario& s, const std::string& referenceKernel,
                                  int reps = 20);

}  // namespace ts::gpu
