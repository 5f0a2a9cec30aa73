// The histogram of a traced block (sim/teaching/histogram_view.hpp).
#include "sim/teaching/histogram_view.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>

namespace ts::sim {

int BinRequest::passes() const
{
    std::map<int, int> n;
    int most = 0;
    for (const BinLane& l : lanes) most = std::max(most, ++n[l.bin]);
    return most;
}

int BinRequest::busiestBin() const
{
    std::map<int, int> n;
    for (const BinLane& l : lanes) ++n[l.bin];
    int best = -1, most = 0;
    for (const auto& [bin, c] : n)
        if (c > most) best = bin, most = c;
    return best;
}

int TextLoad::sectors() const
{
    std::set<long long> s;
    for (const auto& [thread, byte] : lanes) s.insert(byte / 32);
    return static_cast<int>(s.size());
}

namespace {
/// Of the items at the last step at or before `step`, the first of warp `warp`, else the last.
template <class T>
int shownAt(const std::vector<T>& items, int step, unsigned warp)
{
    int last = -1;
    for (size_t i = 0; i < items.size() && items[i].step <= step; ++i) last = static_cast<int>(i);
    if (last < 0) return -1;
    for (int i = last; i >= 0 && items[static_cast<size_t>(i)].step == items[static_cast<size_t>(last)].step; --i)
        if (items[static_cast<size_t>(i)].warp == warp) {
            int first = i;
            while (first > 0 && items[static_cast<size_t>(first - 1)].step == items[static_cast<size_t>(i)].step &&
                   items[static_cast<size_t>(first - 1)].warp == warp)
                --first;
            return first;
        }
    return last;
}
}  // namespace

int HistogramPicture::requestAt(int step, unsigned warp) const { return shownAt(requests, step, warp); }

int HistogramPicture::loadAt(int step, unsigned warp) const { return shownAt(loads, step, warp); }

std::vector<float> HistogramPicture::valuesAt(int array, int size, int step) const
{
    const size_t n = static_cast<size_t>(std::max(size, 0));
    std::vector<float> v(n, 0.0f);
    // Per bin: the latest atomic at or before the step, else the earliest after it.
    std::vector<int64_t> latest(n, -1), earliest(n, INT64_MAX);
    for (const BinRequest& r : requests) {
        if (r.array != array) continue;
        for (const BinLane& l : r.lanes) {
            if (l.bin < 0 || l.bin >= size) continue;
            const auto b = static_cast<size_t>(l.bin);
            if (r.step <= step && static_cast<int64_t>(l.seq) > latest[b]) latest[b] = l.seq, v[b] = l.after;
            else if (r.step > step && latest[b] < 0 && static_cast<int64_t>(l.seq) < earliest[b]) earliest[b] = l.seq, v[b] = l.before;
        }
    }
    return v;
}

HistogramPicture histogramPicture(const Trace& t)
{
    HistogramPicture h;
    // The text: the global array whose loads feed the atomics, taken as the array loaded
    // most often by the block among the read-only inputs (the first input, data).
    std::map<int, size_t> loadsOf;
    for (const Event& e : t.events)
        if (e.op == Op::GlobalLoad && e.array != kNoArray) ++loadsOf[e.array];
    size_t most = 0;
    for (const auto& [a, n] : loadsOf)
        if (n > most) h.text = a, most = n;

    // Each thread's text loads in order: (seq, byte index, code).
    std::map<uint16_t, std::vector<std::pair<uint32_t, const Event*>>> textOf;
    for (const Event& e : t.events)
        if (e.op == Op::GlobalLoad && e.array == h.text) textOf[e.thread].push_back({e.seq, &e});
    for (auto& [thread, v] : textOf) std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

    for (size_t s = 0; s < t.steps.size(); ++s) {
        const Step& st = t.steps[s];
        // The step's atomics per (warp, line): each lane's in order; the k-th of every lane
        // is the warp's k-th atomic instruction there.
        std::map<std::pair<unsigned, unsigned>, std::map<uint16_t, std::vector<const Event*>>> groups;
        for (int i = st.begin; i < st.end; ++i) {
            const Event& e = t.events[static_cast<size_t>(i)];
            if (e.op == Op::Atomic) groups[{e.thread / 32u, e.line}][e.thread].push_back(&e);
        }
        for (const auto& [key, lanes] : groups) {
            size_t occurrences = 0;
            for (const auto& [thread, v] : lanes) occurrences = std::max(occurrences, v.size());
            for (size_t k = 0; k < occurrences; ++k) {
                BinRequest r;
                r.step = static_cast<int>(s);
                r.warp = key.first;
                r.line = key.second;
                for (const auto& [thread, v] : lanes) {
                    if (k >= v.size()) continue;
                    const Event& e = *v[k];
                    r.array = e.array;
                    BinLane l;
                    l.thread = thread;
                    l.bin = e.index;
                    l.after = e.value;
                    l.seq = e.seq;
                    std::memcpy(&l.before, &e.origin, sizeof l.before);
                    // The character: the thread's last text load before the atomic.
                    if (const auto it = textOf.find(thread); it != textOf.end()) {
                        const auto& loads = it->second;
                        const auto p = std::lower_bound(loads.begin(), loads.end(), e.seq,
                                                        [](const auto& a, uint32_t seq) { return a.first < seq; });
                        if (p != loads.begin()) l.character = static_cast<int>((p - 1)->second->value);
                    }
                    r.lanes.push_back(l);
                }
                if (std::find(h.binArrays.begin(), h.binArrays.end(), r.array) == h.binArrays.end())
                    h.binArrays.push_back(r.array);
                h.requests.push_back(std::move(r));
            }
        }
    }
    // The text loads: a warp's lanes may land in different steps (a lane with a letter goes on
    // to its atomic, one with a space does not), so the k-th load of each lane of a warp on a
    // line is one instruction wherever its lanes' events are; it shows at its first step.
    std::vector<int> stepOf(t.events.size(), 0);
    for (size_t s = 0; s < t.steps.size(); ++s)
        for (int i = t.steps[s].begin; i < t.steps[s].end; ++i) stepOf[static_cast<size_t>(i)] = static_cast<int>(s);
    std::map<std::pair<unsigned, unsigned>, std::map<uint16_t, std::vector<size_t>>> warpLoads;   // (warp, line)
    for (size_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.op == Op::GlobalLoad && e.array == h.text) warpLoads[{e.thread / 32u, e.line}][e.thread].push_back(i);
    }
    for (auto& [key, lanes] : warpLoads) {
        size_t occurrences = 0;
        for (auto& [thread, v] : lanes) {
            std::sort(v.begin(), v.end(), [&](size_t a, size_t b) { return t.events[a].seq < t.events[b].seq; });
            occurrences = std::max(occurrences, v.size());
        }
        for (size_t k = 0; k < occurrences; ++k) {
            TextLoad l;
            l.warp = key.first;
            l.line = key.second;
            l.occurrence = static_cast<int>(k);
            for (const auto& [thread, v] : lanes)
                if (k < v.size()) {
                    const int st = stepOf[v[k]];
                    l.step = l.step < 0 ? st : std::min(l.step, st);
                    l.lanes.push_back({thread, t.events[v[k]].index});
                }
            h.loads.push_back(std::move(l));
        }
    }
    std::stable_sort(h.loads.begin(), h.loads.end(), [](const TextLoad& a, const TextLoad& b) { return a.step < b.step; });
    return h;
}

}  // namespace ts::sim
