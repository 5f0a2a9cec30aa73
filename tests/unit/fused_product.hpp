// A CPU product written apart from the simulator's own reference, for the unit tests that
// check P bit for bit: M (j x k) times N (k x l), row-major.
#pragma once
#include <cmath>
#include <vector>

namespace ts::test {

/// P = M * N accumulated from 0 in k order, each step rounded once (fmaf), as nvcc does.
inline std::vector<float> fusedProduct(const std::vector<float>& M, const std::vector<float>& N, int j, int k, int l)
{
    std::vector<float> P(static_cast<size_t>(j) * l);
    for (int r = 0; r < j; ++r)
        for (int c = 0; c < l; ++c) {
            float acc = 0;
            for (int i = 0; i < k; ++i) acc = std::fmaf(M[r * k + i], N[i * l + c], acc);
            P[r * l + c] = acc;
        }
    return P;
}

}  // namespace ts::test
