// Checked CUDA runtime calls and device memory for the GPU path's .cu files. Every CUDA
// call goes through check(): a failure becomes one sentence in a gpu::LaunchError, never an
// ignored return code.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gpu.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu::detail {

/// Throws LaunchError "<what> failed: <CUDA's message> (<error name>)." unless e is
/// cudaSuccess. `what` names the step, e.g. "copying M to the device".
void check(cudaError_t e, const char* what);

/// Device 0, queried once per process. Throws Unavailable (why: no driver, no device,
/// driver too old, compute capability too old) if it cannot run this build's kernels.
const DeviceInfo& requireDevice();

/// Throws LaunchError "Out of GPU memory: ..." unless `bytes` of device memory are free.
void requireFreeMemory(size_t bytes);

/// cudaMalloc of `bytes`; on failure LaunchError "Out of GPU memory: ...".
void* deviceAllocate(size_t bytes);

/// `count` elements of T in device memory, freed on destruction. Allocation failure
/// throws LaunchError "Out of GPU memory: ...".
template <class T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t count) : count_(count)
    {
        ptr_ = static_cast<T*>(deviceAllocate(count * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(ptr_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return ptr_; }
    size_t size() const { return count_; }

    /// Copies `h` (exactly size() elements) to the device.
    void upload(const std::vector<T>& h, const char* what)
    {
        check(cudaMemcpy(ptr_, h.data(), count_ * sizeof(T), cudaMemcpyHostToDevice), what);
    }
    /// Copies the buffer back to the host (synchronizes with the default stream).
    std::vector<T> download(const char* what) const
    {
        std::vector<T> h(count_);
        check(cudaMemcpy(h.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost), what);
        return h;
    }
    /// Sets every byte to `byte` (0xFF makes every float a NaN: the poison before a run).
    void fill(unsigned char byte, const char* what)
    {
        check(cudaMemset(ptr_, byte, count_ * sizeof(T)), what);
    }

private:
    T* ptr_ = nullptr;
    size_t count_ = 0;
};

/// A CUDA event, destroyed with its owner.
class Event {
public:
    Event() { check(cudaEventCreate(&e_), "creating a CUDA event"); }
    ~Event() { cudaEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

/// How bench() times a kernel: `warmups` untimed runs of
/// `launch` (module load, cuBLAS's first-call set-up and the clock ramp stay out of the
/// numbers), then `beforeTimed` (e.g. poisoning P, so that the timed runs must write every
/// element), then `reps` runs each between two CUDA events on the default stream.
/// Returns the milliseconds of each timed run; `progress` gets the fraction done after
/// each. `what` names the kernel in error messages.
std::vector<double> timeRuns(const std::string& what, int warmups, int reps, const std::function<void()>& launch,
                             const std::function<void()>& beforeTimed,
                             const std::function<void(double)>& progress);

/// bench()'s measurement of one matrix multiplication of r.scenario, whatever launches it:
/// the simulator's inputs for the seed, `launch(M, N, P)` on device arrays (M row-major, N
/// as storedN() lays it out) timed by timeRuns() into a P poisoned before the timed runs, P
/// checked against the double-precision reference (WrongResult otherwise), and, when
/// `compareWithSimulator` and the size is small, compared bit for bit with the simulator's P.
BenchResult timeMatmul(const BenchRequest& r, const std::function<void(const float*, const float*, float*)>& launch,
                       bool compareWithSimulator, const std::function<void(double)>& progress);

/// The median of `v` (the mean of the middle two for an even count); `v` not empty.
double median(std::vector<double> v);

/// Whether `P`, the GPU's output for scenario `s`, equals bit for bit the P the simulator
/// computes for `s` (simulated without a trace; false if the simulated kernel faults).
bool matchesSimulator(const sim::Scenario& s, const std::vector<float>& P);

/// Copies `v` (one float a element, the simulator's slots) into `d` as elements of type `t`
/// (a described problem's array, sim::ArrayDecl::type): floats as they are, int and unsigned
/// int elements converted (the slots hold them exactly; a NaN, the "not written" poison, as
/// the poison's bits), chars one byte each at the buffer's start (it has room for four times
/// as many).
void uploadAs(DeviceBuffer<float>& d, const std::vector<float>& v, sim::ElementType t, const char* what);
/// `d`'s elements of type `t` back as the simulator's float slots; an integer element still
/// holding the poison's bits is the NaN of "not written".
std::vector<float> downloadAs(const DeviceBuffer<float>& d, sim::ElementType t, const char* what);

}  // namespace ts::gpu::detail
