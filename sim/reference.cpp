#include "reference.hpp"

#include <cmath>

namespace ts::sim {

std::vector<float> matmulReferenceFma(const std::vector<float>& M, const std::vector<float>& N,
                                      int j, int k, int l, const Progress& progress)
{
    std::vector<float> P(static_cast<size_t>(j) * l);
    for (int r = 0; r < j; ++r)
        for (int c = 0; c < l; ++c) {
            // A row of P can take a second (8192 x 8192 x 8192): look every 256 elements.
            if ((c & 255) == 0) progress.at((r + static_cast<double>(c) / l) / j);
            float acc = 0.0f;
            for (int i = 0; i < k; ++i)
                acc = std::fmaf(M[static_cast<size_t>(r) * k + i], N[static_cast<size_t>(i) * l + c], acc);
            P[static_cast<size_t>(r) * l + c] = acc;
        }
    return P;
}

std::vector<double> matmulReferenceDouble(const std::vector<float>& M,
                                          const std::vector<float>& N, int j, int k, int l)
{
    std::vector<double> P(static_cast<size_t>(j) * l, 0.0);
    for (int r = 0; r < j; ++r)
        for (int i = 0; i < k; ++i) {
            const double m = M[static_cast<size_t>(r) * k + i];
            for (int c = 0; c < l; ++c)
                P[static_cast<size_t>(r) * l + c] += m * N[static_cast<size_t>(i) * l + c];
        }
    return P;
}

}  // namespace ts::sim
