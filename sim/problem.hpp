// What a family of kernels (matrix multiplication, 1D and 2D convolution) contributes to a
// simulation: its inputs, the shapes of M, N and P, the kernel body bound to the
// simulator's arrays, and its CPU reference. simulate() does the rest the same way for all.
#pragma once
#include <functional>
#include <vector>

#include "context.hpp"
#include "scenario.hpp"

namespace ts::sim {

/// The simulated body of one thread.
using Body = std::function<void(ThreadContext&)>;

/// One family's part of a simulation.
struct Problem {
    ArrayInfo M, N, P;                 ///< names, memory spaces and shapes (row-major)
    std::vector<float> inM, inN;       ///< inputs, pseudo-random from the scenario's seed
    std::vector<float> reference;      ///< what a correct kernel's P is, bit for bit
    /// Binds the kernel to the simulator's arrays. M may be ignored by kernels that read
    /// the mask from constant memory (they register it with the machine themselves).
    std::function<Body(Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N,
                       GlobalPtr<float> P, const std::vector<float>& inM)>
        bind;
};

/// Matrix multiplication (matmul-naive, matmul-tiled): M j x k, N k x l, P j x l.
Problem matmulProblem(const Scenario& s);

}  // namespace ts::sim
