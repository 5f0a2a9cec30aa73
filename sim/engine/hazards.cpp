#include "sim/engine/hazards.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ts::sim {

const char* hazardName(HazardKind k)
{
    switch (k) {
    case HazardKind::RAW: return "RAW";
    case HazardKind::WAR: return "WAR";
    case HazardKind::WAW: return "WAW";
    }
    return "?";
}

std::string HazardLog::report(const std::vector<ArrayInfo>& arrays, const Dim3& blockDim) const
{
    auto thread = [&](uint16_t t) {
        std::ostringstream s;
        s << "(tx=" << t % blockDim.x << ", ty=" << (t / blockDim.x) % blockDim.y << ")";
        return s.str();
    };
    std::vector<HazardSite> sorted = sites;
    std::sort(sorted.begin(), sorted.end(), [](const HazardSite& a, const HazardSite& b) {
        return std::tie(a.kind, a.firstLine, a.secondLine) < std::tie(b.kind, b.firstLine, b.secondLine);
    });
    std::ostringstream out;
    for (const HazardSite& h : sorted) {
        const bool firstWrites = h.kind != HazardKind::WAR;
        const bool secondWrites = h.kind != HazardKind::RAW;
        out << hazardName(h.kind) << " hazard on " << (arrays.at(h.array).space == Space::Global ? "global " : "shared ")
            << arrays.at(h.array).name << ": "
            << (firstWrites ? "write" : "read") << " at line " << h.firstLine << ", then "
            << (secondWrites ? "write" : "read") << " at line " << h.secondLine
            << " by another thread with no barrier between; " << h.count
            << " access pairs, e.g. block (" << h.exampleBlock.x << ", " << h.exampleBlock.y
            << ") threads " << thread(h.exampleFirst) << " and " << thread(h.exampleSecond) << "\n";
    }
    for (const UninitialisedSite& u : uninitialisedSites) {
        const ArrayInfo& a = arrays.at(u.array);
        out << "Uninitialised read of shared " << a.name << "[";
        if (a.rows > 1) out << u.exampleSlot / std::max(1, a.cols) << "][" << u.exampleSlot % std::max(1, a.cols);
        else out << u.exampleSlot;
        out << "] at line " << u.line << ": no thread of the block had written that slot; " << u.count
            << " such reads, e.g. block (" << u.exampleBlock.x << ", " << u.exampleBlock.y << ") thread "
            << thread(u.exampleThread) << "\n";
    }
    out << "hazards: " << raw << " RAW, " << war << " WAR, " << waw << " WAW\n";
    return out.str();
}

void markStaleReads(std::vector<Event>& events)
{
    // Walk backwards through each barrier interval: a read is stale if another thread
    // writes the same slot later in the same interval (the read got the value from before).
    struct LaterWrite {
        uint32_t interval;
        uint16_t thread;
        bool many;
    };
    std::vector<std::vector<LaterWrite>> later;  // by array, then slot
    uint32_t interval = 1;
    for (size_t n = events.size(); n-- > 0;) {
        Event& e = events[n];
        if (e.op == Op::Barrier) {
            ++interval;
            continue;
        }
        const bool sharedWrite = e.op == Op::SharedStore || e.op == Op::ZeroFill;
        if (!sharedWrite && e.op != Op::SharedLoad) continue;
        if (later.size() <= e.array) later.resize(e.array + 1u);
        auto& slots = later[e.array];
        if (slots.size() <= static_cast<size_t>(e.index)) slots.resize(e.index + 1u, LaterWrite{0, kNoThread, false});
        LaterWrite& w = slots[e.index];
        if (sharedWrite) {
            if (w.interval == interval && w.thread != e.thread) w.many = true;
            else if (w.interval != interval) w = LaterWrite{interval, e.thread, false};
        } else {
            if (w.interval == interval && (w.thread != e.thread || w.many)) e.flags |= kStale;
            if (std::isnan(e.value)) e.flags |= kStale;   // never written
        }
    }
}

std::string orderReport(const std::vector<OrderSite>& sites, const std::vector<ArrayInfo>& arrays)
{
    std::ostringstream out;
    auto element = [&](uint8_t a, long long i) {
        return (a < arrays.size() ? arrays[a].name : std::string("?")) + "[" + std::to_string(i) + "]";
    };
    auto block = [](const Uint3& b) { return "block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ")"; };
    for (const OrderSite& s : sites) {
        if (s.kind == OrderKind::NoFence)
            out << "No __threadfence() between the store at line " << s.storeLine << " and the flag set at line " << s.flagLine
                << ", which another block waits on at line " << s.readLine << ": the GPU may show it the flag before the data; "
                << s.count << " hand-overs, e.g. " << block(s.writerBlock) << " stored " << element(s.dataArray, s.dataIndex)
                << " and set " << element(s.flagArray, s.flagIndex) << ", " << block(s.readerBlock) << " waited on it\n";
        else
            out << "Plain read at line " << s.readLine << " of data another block handed over through a flag (stored at line "
                << s.storeLine << ", flag set at line " << s.flagLine << "): the GPU may serve it from a stale L1 copy, so read "
                << "it through a volatile pointer; " << s.count << " hand-overs, e.g. " << block(s.readerBlock) << " read "
                << element(s.dataArray, s.dataIndex) << " from " << block(s.writerBlock) << "\n";
    }
    return out.str();
}

}  // namespace ts::sim
