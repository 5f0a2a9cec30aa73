// The web build's fibers on the paths the registry kernels never take (docs/web.md, "Speed"):
// a fault while other threads are parked at a barrier (they are unwound: forced_unwind), in
// the first thread of a round and in a later one, a barrier only some threads reach, locals
// with destructors in the faulting and the unwound fibers, and the simulator after a fault.
// The output must be the same natively and in the web build: the web build makes
// build-web/bin/fiber_faults.js (CMakeLists.txt), the native build fiber_faults_native
// (tests/web/CMakeLists.txt), and web.fiber_faults compares their outputs (scripts/web-test.sh).
#include <cstdio>
#include <string>
#include <vector>
#include "kernels/context.cuh"
#include "sim/engine/machine.hpp"
#include "sim/engine/simulate.hpp"

using namespace ts;
static int alive = 0;
struct Tracker { Tracker() { ++alive; } ~Tracker() { --alive; } };

template <class X> void readsPastTheEnd(X& x, typename X::template GlobalPtr<const float> A, typename X::template GlobalPtr<float> B)
{ const int i = x.blockIdx.x * x.blockDim.x + x.threadIdx.x; B[i] = A[i + 1]; }
template <class X> void barrierInBranch(X& x) { Tracker t; std::vector<int> v(100); if (x.threadIdx.x == 0) x.syncthreads(); }
template <class X> void twoBarriers(X& x) { Tracker t; if (x.threadIdx.x < 2) x.syncthreads(); else x.syncthreads(); }
// All threads pass one barrier; then thread 1 faults while 2 and 3 wait at the second barrier.
template <class X> void faultAfterBarrier(X& x, typename X::template GlobalPtr<const float> A)
{
    Tracker t; std::string s(200, 'x');
    x.syncthreads();
    float v = 0;
    if (x.threadIdx.x == 1) v = A[100];
    x.syncthreads();
    (void)v;
}

std::string faultOf(sim::Machine& m, sim::Dim3 grid, sim::Dim3 block, const std::function<void(sim::ThreadContext&)>& body)
{
    sim::LaunchConfig cfg; cfg.grid = grid; cfg.block = block;
    try { sim::runGrid(m, cfg, body); } catch (const sim::KernelFault& f) { return f.what(); }
    return "";
}

int main()
{
    for (int rep = 0; rep < 3; ++rep) {
    { sim::Machine m; std::vector<float> a = {0.5f, -0.25f, 0.75f, 1.5f}, b(4);
      sim::GlobalPtr<const float> A(a.data(), 4, &m, m.arrayId("A", sim::Space::Global, 1, 4));
      sim::GlobalPtr<float> B(b.data(), 4, &m, m.arrayId("B", sim::Space::Global, 1, 4));
      std::printf("1 %s | alive %d\n", faultOf(m, {2,1,1}, {2,1,1}, [&](sim::ThreadContext& x){ readsPastTheEnd(x, A, B); }).c_str(), alive); }
    { sim::Machine m; std::printf("2 %s | alive %d\n", faultOf(m, {1,1,1}, {4,1,1}, [](sim::ThreadContext& x){ barrierInBranch(x); }).c_str(), alive); }
    { sim::Machine m; std::printf("3 %s | alive %d\n", faultOf(m, {1,1,1}, {4,1,1}, [](sim::ThreadContext& x){ twoBarriers(x); }).c_str(), alive); }
    { sim::Machine m; std::vector<float> a(4, 1.0f);
      sim::GlobalPtr<const float> A(a.data(), 4, &m, m.arrayId("A", sim::Space::Global, 1, 4));
      std::printf("4 %s | alive %d\n", faultOf(m, {3,1,1}, {64,1,1}, [&](sim::ThreadContext& x){ faultAfterBarrier(x, A); }).c_str(), alive); }
    { sim::Machine m; std::vector<float> a(4, 1.0f);
      sim::GlobalPtr<const float> A(a.data(), 4, &m, m.arrayId("A", sim::Space::Global, 1, 4));
      std::printf("6 %s | alive %d\n", faultOf(m, {2,1,1}, {64,1,1}, [&](sim::ThreadContext& x){ Tracker t; x.syncthreads(); float v = 0; if (x.threadIdx.x == 0 && x.blockIdx.x == 1) v = A[50]; x.syncthreads(); (void)v; }).c_str(), alive); }
    { sim::Machine m; std::vector<float> a(4, 1.0f);
      sim::GlobalPtr<const float> A(a.data(), 4, &m, m.arrayId("A", sim::Space::Global, 1, 4));
      std::printf("7 %s | alive %d\n", faultOf(m, {1,1,1}, {64,1,1}, [&](sim::ThreadContext& x){ Tracker t; float v = 0; if (x.threadIdx.x == 0) v = A[60]; x.syncthreads(); (void)v; }).c_str(), alive); }
    { sim::Machine m; std::printf("5 [%s] | alive %d\n", faultOf(m, {2,2,1}, {8,8,1}, [](sim::ThreadContext& x){ Tracker t; x.syncthreads(); x.syncthreads(); }).c_str(), alive); }
    }
    return 0;
}
