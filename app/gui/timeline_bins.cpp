#include "timeline_bins.hpp"

#include <algorithm>

namespace ts::app {

std::vector<TimelineBin> timelineBins(const std::vector<sim::StepKind>& kinds, int maxBins)
{
    const long long n = static_cast<long long>(kinds.size());
    std::vector<TimelineBin> bins;
    if (n == 0) return bins;
    const long long count = std::min<long long>(n, std::max(1, maxBins));
    bins.reserve(static_cast<size_t>(count));
    for (long long i = 0; i < count; ++i) {
        TimelineBin b;
        b.first = static_cast<int>(i * n / count);
        b.end = static_cast<int>((i + 1) * n / count);
        for (int s = b.first; s < b.end; ++s) ++b.kinds[static_cast<size_t>(kinds[s])];
        bins.push_back(b);
    }
    return bins;
}

int binOfStep(const std::vector<TimelineBin>& bins, int step)
{
    if (bins.empty()) return -1;
    step = std::clamp(step, bins.front().first, bins.back().end - 1);
    const auto it = std::upper_bound(bins.begin(), bins.end(), step,
                                     [](int s, const TimelineBin& b) { return s < b.end; });
    return static_cast<int>(it - bins.begin());
}

std::vector<int> labelledMarks(const std::vector<float>& markX, const std::vector<float>& width, float gap, float right)
{
    std::vector<int> out;
    float end = -1e30f;
    for (size_t i = 0; i < markX.size(); ++i) {
        const bool first = out.empty();
        if (!first && (markX[i] < end + gap || markX[i] + width[i] > right)) continue;
        out.push_back(static_cast<int>(i));
        end = markX[i] + width[i];
    }
    return out;
}

}  // namespace ts::app
