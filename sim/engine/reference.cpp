#include "sim/engine/reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/engine/fma.hpp"

namespace ts::sim {

std::vector<float> matmulReferenceFma(const std::vector<float>& M, const std::vector<float>& N,
                                      int j, int k, int l, const Progress& progress)
{
    std::vector<float> P(static_cast<size_t>(j) * l);
    // Rows are spread over the threads of the caller's oneTBB arena (simulate() sizes it by
    // SimOptions::threads); each element is still summed along k in order, so P is the same
    // bit for bit on any number of threads. Progress: elements started over all of them,
    // reported under a lock that keeps the last fraction, so it never moves back.
    const double total = std::max(1.0, static_cast<double>(j) * l);
    std::atomic<uint64_t> started{0};
    std::mutex reportLock;
    uint64_t reported = 0;
    tbb::parallel_for(tbb::blocked_range<int>(0, j), [&](const tbb::blocked_range<int>& rows) {
        for (int r = rows.begin(); r != rows.end(); ++r)
            for (int c = 0; c < l; ++c) {
                // A row of P can take a second (8192 x 8192 x 8192): look every 256 elements.
                if ((c & 255) == 0) {
                    const uint64_t n = started.fetch_add(static_cast<uint64_t>(std::min(256, l - c)));
                    std::lock_guard<std::mutex> lock(reportLock);
                    if (n >= reported) {
                        reported = n;
                        progress.at(static_cast<double>(n) / total);
                    } else if (progress.stopRequested()) {
                        throw Cancelled();
                    }
                }
                float acc = 0.0f;
                for (int i = 0; i < k; ++i)
                    acc = fusedMultiplyAdd(M[static_cast<size_t>(r) * k + i], N[static_cast<size_t>(i) * l + c], acc);
                P[static_cast<size_t>(r) * l + c] = acc;
            }
    });
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
