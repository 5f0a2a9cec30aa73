// The book's phrase of PMPP sec. 9.1 and what a histogram of it must give, worked out here
// character by character (not through the simulator): the seven bins of four letters, and the
// warp requests and passes of PMPP Fig. 9.6's atomic. Shared by the histogram tests.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ts::test {

/// The book's phrase repeated to `n` characters.
inline std::string phrase(size_t n)
{
    const std::string p = "programming massively parallel processors";
    std::string s;
    while (s.size() < n) s += p;
    s.resize(n);
    return s;
}

/// The seven bins counted letter by letter (four letters a bin, PMPP sec. 9.2), as floats.
inline std::vector<float> binsOf(const std::string& text)
{
    std::vector<float> bins(7, 0.0f);
    for (char c : text)
        if (c >= 'a' && c <= 'z') bins[static_cast<size_t>((c - 'a') / 4)] += 1.0f;
    return bins;
}

/// One warp per 32 consecutive characters (one character a thread, Figs. 9.6 to 9.10): the
/// warps whose characters hold a letter make one request each, which the hardware serialises
/// into as many passes as the most lanes on one bin (the bins lie in one 128-byte line).
inline std::pair<uint64_t, uint64_t> requestsAndPasses(const std::string& text)
{
    uint64_t requests = 0, passes = 0;
    for (size_t w = 0; w < text.size(); w += 32) {
        std::map<int, uint64_t> lanes;
        for (size_t i = w; i < std::min(text.size(), w + 32); ++i)
            if (text[i] >= 'a' && text[i] <= 'z') ++lanes[(text[i] - 'a') / 4];
        if (lanes.empty()) continue;
        ++requests;
        uint64_t most = 0;
        for (const auto& [bin, n] : lanes) most = std::max(most, n);
        passes += most;
    }
    return {requests, passes};
}

}  // namespace ts::test
