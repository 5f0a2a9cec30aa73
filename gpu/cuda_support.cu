// Checked CUDA runtime calls and device memory (see cuda_support.hpp).
#include "cuda_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "sim/engine/simulate.hpp"

namespace ts::gpu::detail {

void check(cudaError_t e, const char* what)
{
    if (e == cudaSuccess) return;
    throw LaunchError(std::string(what) + " failed: " + cudaGetErrorString(e) + " (" +
                      cudaGetErrorName(e) + ").");
}

const DeviceInfo& requireDevice()
{
    static const DeviceInfo info = queryDevice();
    if (!info.available) throw Unavailable(info.why);
    return info;
}

namespace {
std::string outOfMemory(size_t needed)
{
    size_t freeBytes = 0, total = 0;
    cudaMemGetInfo(&freeBytes, &total);
    std::ostringstream m;
    m << "Out of GPU memory: the run needs " << (needed + (1u << 20) - 1) / (1u << 20) << " MiB, "
      << freeBytes / (1u << 20) << " MiB are free.";
    return m.str();
}
}  // namespace

void requireFreeMemory(size_t bytes)
{
    size_t freeBytes = 0, total = 0;
    check(cudaMemGetInfo(&freeBytes, &total), "asking the device how much memory is free");
    if (bytes > freeBytes) throw LaunchError(outOfMemory(bytes));
}

void* deviceAllocate(size_t bytes)
{
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // clear the (non-sticky) error so later calls are not blamed
        throw LaunchError(outOfMemory(bytes));
    }
    check(e, "allocating device memory");
    return p;
}

std::vector<double> timeRuns(const std::string& what, int warmups, int reps, const std::function<void()>& launch,
                             const std::function<void()>& beforeTimed,
                             const std::function<void(double)>& progress)
{
    for (int w = 0; w < warmups; ++w) launch();
    check(cudaDeviceSynchronize(), ("the warm-up run of " + what).c_str());
    if (beforeTimed) beforeTimed();
    std::vector<double> ms(static_cast<size_t>(reps));
    Event start, stop;
    for (int i = 0; i < reps; ++i) {
        check(cudaEventRecord(start.get()), "recording the start event");
        launch();
        check(cudaEventRecord(stop.get()), "recording the stop event");
        check(cudaEventSynchronize(stop.get()), ("timed run of " + what).c_str());
        float t = 0;
        check(cudaEventElapsedTime(&t, start.get(), stop.get()), "reading the event timer");
        ms[static_cast<size_t>(i)] = t;
        if (progress) progress((i + 1.0) / (reps + 1));
    }
    return ms;
}

bool matchesSimulator(const sim::Scenario& s, const std::vector<float>& P)
{
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation simulated = sim::simulate(s, o);
    return simulated.error.empty() && simulated.P.size() == P.size() &&
           std::memcmp(simulated.P.data(), P.data(), P.size() * sizeof(float)) == 0;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {
/// The bit pattern of the simulator's NaN poison (std::nanf("")).
uint32_t poisonBits()
{
    const float nan = std::nanf("");
    uint32_t b;
    std::memcpy(&b, &nan, sizeof b);
    return b;
}
}  // namespace

void uploadAs(DeviceBuffer<float>& d, const std::vector<float>& v, sim::ElementType t, const char* what)
{
    switch (t) {
    case sim::ElementType::Float: d.upload(v, what); return;
    case sim::ElementType::Char: {
        std::vector<char> bytes(v.size());
        for (size_t i = 0; i < v.size(); ++i) bytes[i] = static_cast<char>(static_cast<int>(v[i]));
        check(cudaMemcpy(d.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice), what);
        return;
    }
    case sim::ElementType::Int:
    case sim::ElementType::Unsigned: {
        std::vector<float> words(v.size());
        for (size_t i = 0; i < v.size(); ++i) {
            uint32_t b;
            if (std::isnan(v[i])) b = poisonBits();   // an integer output's "not written" mark
            else if (t == sim::ElementType::Int) b = static_cast<uint32_t>(static_cast<int32_t>(v[i]));
            else b = static_cast<uint32_t>(static_cast<int64_t>(v[i]));
            std::memcpy(&words[i], &b, sizeof b);
        }
        d.upload(words, what);
        return;
    }
    }
}

std::vector<float> downloadAs(const DeviceBuffer<float>& d, sim::ElementType t, const char* what)
{
    std::vector<float> v = d.download(what);
    if (t != sim::ElementType::Int && t != sim::ElementType::Unsigned) return v;
    for (float& e : v) {
        uint32_t b;
        std::memcpy(&b, &e, sizeof b);
        if (b == poisonBits()) e = std::nanf("");
        else e = t == sim::ElementType::Int ? static_cast<float>(static_cast<int32_t>(b)) : static_cast<float>(b);
    }
    return v;
}

}  // namespace ts::gpu::detail
