// The warp memory instructions of a step, lane by lane (see warp_view.hpp).
#include "sim/teaching/warp_view.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>
#include <cstddef>

#include "sim/catalogue/kernel_info.hpp"

namespace ts::sim {
namespace {

bool isMemory(Op op)
{
    return op == Op::GlobalLoad || op == Op::GlobalStore || op == Op::SharedLoad || op == Op::SharedStore ||
           op == Op::ZeroFill || op == Op::ConstantLoad;
}

AccessKind kindOf(Op op)
{
    switch (op) {
    case Op::GlobalLoad: return AccessKind::GlobalLoad;
    case Op::GlobalStore: return AccessKind::GlobalStore;
    case Op::SharedLoad: return AccessKind::SharedLoad;
    case Op::ConstantLoad: return AccessKind::ConstantLoad;
    default: break;
    }
    return AccessKind::SharedStore;   // a store or a zero fill
}

/// An instruction as the grouping finds it: its access, its lanes' events.
struct Raw {
    unsigned warp = 0;
    AccessKind kind = AccessKind::GlobalLoad;
    uint8_t array = kNoArray;
    unsigned line = 0;
    bool wide = false;                     ///< a 128-bit access
    int interval = 0;
    uint32_t mask = 0;
    std::array<int, kWarpLanes> event{};   ///< index into Trace::events, by lane
    int first = -1;                        ///< the smallest of them
};

/// The steps [begin, end) of barrier interval `interval` (steps of one interval are
/// contiguous in a trace).
std::pair<int, int> intervalSteps(const Trace& t, int interval)
{
    int b = 0;
    while (b < static_cast<int>(t.steps.size()) && t.steps[b].interval != interval) ++b;
    int e = b;
    while (e < static_cast<int>(t.steps.size()) && t.steps[e].interval == interval) ++e;
    return {b, e};
}

/// The access key the simulator's model uses: (line, array, 128-bit or not, kind) and the
/// thread's x.unrolled() tag.
uint32_t accessKey(const Event& e)
{
    return WarpMemory::siteKey(e.line, e.array, kindOf(e.op), (e.flags & kVectorHead) != 0) |
           uint32_t{e.unrolled} << WarpMemory::kTagShift;
}

/// Groups the memory events of steps [sb, se) (one barrier interval) into warp memory
/// instructions as WarpMemory::countWarp does: each lane's accesses in execution order;
/// while every active lane made the same access (for a constant load: of the same element),
/// the i-th accesses of the lanes are one instruction; from the first difference on (or
/// from the operand before it, when the two form a constant load and another load of one
/// line), the n-th execution of one source access (line, array, load or store) by the lanes
/// is one instruction, where an access read next to a constant-memory element on its line
/// is matched by that element as well (it names the iteration of the mask loop).
/// `onlyWarp`: keep that warp's only (-1: every warp). Ordered by their earliest event.
std::vector<Raw> groupInterval(const Trace& t, int sb, int se, int onlyWarp)
{
    const unsigned warps = warpCount(t);
    // The interval's memory events by thread, in execution order.
    std::vector<std::vector<int>> byThread(t.blockDim.count());
    for (int s = sb; s < se; ++s)
        for (int i = t.steps[s].begin; i < t.steps[s].end; ++i) {
            const Event& e = t.events[i];
            // A 128-bit access is one instruction: its first element stands for the four.
            if (!isMemory(e.op) || e.thread >= byThread.size() || (e.flags & kVectorTail)) continue;
            if (onlyWarp >= 0 && e.thread / kWarpLanes != static_cast<unsigned>(onlyWarp)) continue;
            byThread[e.thread].push_back(i);
        }
    for (std::vector<int>& v : byThread)
        std::sort(v.begin(), v.end(), [&](int a, int b) { return t.events[a].seq < t.events[b].seq; });
    std::vector<Raw> out;
    auto start = [&](unsigned warp, const Event& e) {
        Raw r;
        r.warp = warp;
        r.kind = kindOf(e.op);
        r.array = e.array;
        r.line = e.line;
        r.wide = (e.flags & kVectorHead) != 0;
        r.interval = t.steps[sb].interval;
        r.event.fill(-1);
        return r;
    };
    auto add = [&](Raw& r, unsigned lane, int i) {
        r.mask |= 1u << lane;
        r.event[lane] = i;
        r.first = r.first < 0 ? i : std::min(r.first, i);
    };
    for (unsigned warp = 0; warp < warps; ++warp) {
        if (onlyWarp >= 0 && warp != static_cast<unsigned>(onlyWarp)) continue;
        const unsigned lanes = static_cast<unsigned>(
            std::min<size_t>(kWarpLanes, byThread.size() - size_t{warp} * kWarpLanes));
        auto log = [&](unsigned lane) -> const std::vector<int>& { return byThread[warp * kWarpLanes + lane]; };
        size_t shortest = SIZE_MAX;
        unsigned first = kWarpLanes;
        for (unsigned lane = 0; lane < lanes; ++lane)
            if (!log(lane).empty()) {
                shortest = std::min(shortest, log(lane).size());
                first = std::min(first, lane);
            }
        if (first == kWarpLanes) continue;
        // Lockstep: the i-th accesses of the active lanes, as long as they are the same
        // access (and, for a constant load, the same element: lanes reading different mask
        // elements are in different iterations). A row that may be the first operand of a
        // statement (a constant load and a load of another space on one line) is held back
        // until the next row: if the lanes part there, it is matched with the parted ones.
        auto emitRow = [&](size_t row) {
            Raw r = start(warp, t.events[log(first)[row]]);
            for (unsigned lane = first; lane < lanes; ++lane)
                if (!log(lane).empty()) add(r, lane, log(lane)[row]);
            out.push_back(r);
        };
        auto isConstantKey = [](uint32_t key) { return static_cast<AccessKind>(key % 8) == AccessKind::ConstantLoad; };
        bool held = false, heldSecond = false;
        uint32_t heldKey = 0;
        size_t i = 0;
        for (; i < shortest; ++i) {
            const Event& lead = t.events[log(first)[i]];
            const uint32_t key = accessKey(lead);
            bool same = true;
            for (unsigned lane = first; lane < lanes && same; ++lane) {
                if (log(lane).empty()) continue;
                const Event& e = t.events[log(lane)[i]];
                same = accessKey(e) == key && (!isConstantKey(key) || e.index == lead.index);
            }
            if (!same) break;
            const bool second = i > 0 && !heldSecond && WarpMemory::lineOfKey(heldKey) == WarpMemory::lineOfKey(key) &&
                                isConstantKey(heldKey) != isConstantKey(key);
            if (held) emitRow(i - 1);
            if (second) {
                emitRow(i);
                held = false;
            } else {
                held = true;
            }
            heldSecond = second;
            heldKey = key;
        }
        bool rest = false;
        for (unsigned lane = 0; lane < lanes; ++lane) rest |= log(lane).size() > i;
        if (held) {
            if (rest) --i;
            else emitRow(i - 1);
        }
        // Diverged: matched by (access, constant element beside it, occurrence).
        std::map<std::tuple<uint32_t, int64_t, uint32_t>, size_t> where;
        for (unsigned lane = 0; lane < lanes; ++lane) {
            const std::vector<int>& l = log(lane);
            if (l.size() <= i) continue;
            std::vector<int64_t> anchor(l.size(), -1);
            for (size_t a = i; a + 1 < l.size(); ++a) {
                const Event& x = t.events[l[a]];
                const Event& y = t.events[l[a + 1]];
                const bool cx = x.op == Op::ConstantLoad, cy = y.op == Op::ConstantLoad;
                if (x.line != y.line || cx == cy) continue;
                anchor[a] = anchor[a + 1] = cx ? x.index : y.index;
                ++a;
            }
            std::map<std::pair<uint32_t, int64_t>, uint32_t> occurrence;
            for (size_t a = i; a < l.size(); ++a) {
                const Event& e = t.events[l[a]];
                const uint32_t key = accessKey(e);
                const uint32_t n = occurrence[{key, anchor[a]}]++;
                const auto [it, inserted] = where.emplace(std::make_tuple(key, anchor[a], n), out.size());
                if (inserted) out.push_back(start(warp, e));
                add(out[it->second], lane, l[a]);
            }
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Raw& a, const Raw& b) { return a.first < b.first; });
    return out;
}

/// The lanes' words of `r` (kNoWord-free: inactive lanes hold 0 and are masked out).
std::array<uint32_t, kWarpLanes> wordsOf(const Trace& t, const Raw& r, const std::vector<uint32_t>& bases)
{
    std::array<uint32_t, kWarpLanes> w{};
    for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
        if (!(r.mask & (1u << lane))) continue;
        const Event& e = t.events[r.event[lane]];
        w[lane] = spaceOf(r.kind) == Space::Shared ? static_cast<uint32_t>(e.index) + bases[e.array]
                                                   : t.arrays[e.array].wordOf(e.index);
    }
    return w;
}

void addTo(Totals& t, AccessKind kind, const WarpTransactions& x)
{
    switch (kind) {
    case AccessKind::GlobalLoad:
        ++t.global_ld_requests;
        t.global_ld_sectors += x.sectors;
        break;
    case AccessKind::GlobalStore:
        ++t.global_st_requests;
        t.global_st_sectors += x.sectors;
        break;
    case AccessKind::SharedLoad:
        ++t.shared_ld_requests;
        t.shared_ld_wavefronts += x.wavefronts;
        t.shared_ld_conflicts += x.wavefronts - x.ideal;
        break;
    case AccessKind::SharedStore:
        ++t.shared_st_requests;
        t.shared_st_wavefronts += x.wavefronts;
        t.shared_st_conflicts += x.wavefronts - x.ideal;
        break;
    case AccessKind::ConstantLoad:
        ++t.constant_ld_requests;
        t.constant_ld_passes += x.wavefronts;
        break;
    }
}

/// The step whose events [begin, end) hold event `i`.
int stepOfEvent(const Trace& t, int i)
{
    const auto it = std::upper_bound(t.steps.begin(), t.steps.end(), i,
                                     [](int v, const Step& s) { return v < s.begin; });
    return static_cast<int>(it - t.steps.begin()) - 1;
}

std::string trimmed(const std::string& s)
{
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    const size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/// Line `line` (from 1) of `text`, or "".
std::string lineOf(const std::string& text, unsigned line)
{
    size_t b = 0;
    for (unsigned n = 1; n < line; ++n) {
        b = text.find('\n', b);
        if (b == std::string::npos) return "";
        ++b;
    }
    const size_t e = text.find('\n', b);
    return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}


}  // namespace

uint32_t WarpInstruction::conflicts() const
{
    if (spaceOf(kind) == Space::Global || transactions.wavefronts == 0) return 0;
    return transactions.wavefronts - transactions.ideal;
}

unsigned warpCount(const Trace& t)
{
    return static_cast<unsigned>((t.blockDim.count() + kWarpLanes - 1) / kWarpLanes);
}

std::vector<uint32_t> sharedBases(const std::vector<ArrayInfo>& arrays)
{
    std::vector<uint32_t> bases(arrays.size(), 0);
    uint32_t words = 0;
    for (size_t a = 0; a < arrays.size(); ++a) {
        if (arrays[a].space != Space::Shared) continue;
        bases[a] = words;
        words += static_cast<uint32_t>(arrays[a].size());
    }
    return bases;
}

std::vector<WarpInstruction> warpInstructions(const Trace& t, int step, unsigned warp)
{
    std::vector<WarpInstruction> out;
    if (step < 0 || step >= static_cast<int>(t.steps.size()) || warp >= warpCount(t)) return out;
    const Step& st = t.steps[step];
    if (st.kind == StepKind::Barrier) return out;
    const auto [sb, se] = intervalSteps(t, st.interval);
    const std::vector<uint32_t> bases = sharedBases(t.arrays);
    for (const Raw& r : groupInterval(t, sb, se, static_cast<int>(warp))) {
        bool inStep = false;
        for (unsigned lane = 0; lane < kWarpLanes; ++lane)
            inStep |= r.event[lane] >= st.begin && r.event[lane] < st.end;
        if (!inStep) continue;
        WarpInstruction w;
        w.kind = r.kind;
        w.array = r.array;
        w.line = r.line;
        w.interval = r.interval;
        w.mask = r.mask;
        const std::array<uint32_t, kWarpLanes> words = wordsOf(t, r, bases);
        w.wide = r.wide;
        w.transactions = transactionsOf(r.kind, r.mask, words.data(), r.wide);
        for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
            WarpLane& l = w.lanes[lane];
            l.thread = static_cast<uint16_t>(warp * kWarpLanes + lane);
            if (!(r.mask & (1u << lane))) continue;
            const Event& e = t.events[r.event[lane]];
            l.active = true;
            l.index = e.index;
            l.word = words[lane];
            l.zeroFill = e.op == Op::ZeroFill;
            l.sector = l.word / (kSectorBytes / 4);
            l.cacheLine = l.word / (kCacheLineBytes / 4);
            l.bank = l.word % kSharedBanks;
        }
        switch (spaceOf(r.kind)) {
        case Space::Global: {
            std::map<uint32_t, uint32_t> sectors;
            for (unsigned lane = 0; lane < kWarpLanes; ++lane)
                if (w.lanes[lane].active) sectors[w.lanes[lane].sector] |= 1u << lane;
            for (const auto& [sector, lanes] : sectors) {
                w.groups.push_back(LaneGroup{sector, lanes, 0, 0});
                const uint32_t line = sector / (kCacheLineBytes / kSectorBytes);
                if (w.cacheLines.empty() || w.cacheLines.back() != line) w.cacheLines.push_back(line);
            }
            break;
        }
        case Space::Shared:
        case Space::Constant: {
            // Distinct words in order of their lowest lane; a bank serves its words one per
            // wavefront in that order (the constant cache its addresses one per pass).
            const bool shared = spaceOf(r.kind) == Space::Shared;
            std::vector<LaneGroup> groups;
            std::array<uint32_t, kSharedBanks> used{};
            uint32_t passes = 0;
            for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
                WarpLane& l = w.lanes[lane];
                if (!l.active) continue;
                auto it = std::find_if(groups.begin(), groups.end(), [&](const LaneGroup& g) { return g.unit == l.word; });
                if (it == groups.end()) {
                    LaneGroup g;
                    g.unit = l.word;
                    g.bank = shared ? l.bank : 0;
                    g.wavefront = shared ? used[l.bank]++ : passes++;
                    groups.push_back(g);
                    it = groups.end() - 1;
                }
                it->lanes |= 1u << lane;
                l.wavefront = it->wavefront;
            }
            std::sort(groups.begin(), groups.end(), [](const LaneGroup& a, const LaneGroup& b) {
                return std::tie(a.bank, a.wavefront) < std::tie(b.bank, b.wavefront);
            });
            w.groups = std::move(groups);
            break;
        }
        }
        out.push_back(std::move(w));
    }
    return out;
}

std::vector<unsigned> warpsWithAccesses(const Trace& t, int step)
{
    std::vector<unsigned> warps;
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return warps;
    std::vector<bool> seen(warpCount(t), false);
    const Step& st = t.steps[step];
    for (int i = st.begin; i < st.end; ++i) {
        const Event& e = t.events[i];
        if (isMemory(e.op) && e.thread != kNoThread && e.thread / kWarpLanes < seen.size())
            seen[e.thread / kWarpLanes] = true;
    }
    for (unsigned w = 0; w < seen.size(); ++w)
        if (seen[w]) warps.push_back(w);
    return warps;
}

std::vector<Totals> memoryPerStep(const Trace& t)
{
    std::vector<Totals> out(t.steps.size());
    const std::vector<uint32_t> bases = sharedBases(t.arrays);
    int s = 0;
    while (s < static_cast<int>(t.steps.size())) {
        const auto [sb, se] = intervalSteps(t, t.steps[s].interval);
        if (sb != s) break;   // intervals out of order: not a trace buildTrace made
        for (const Raw& r : groupInterval(t, sb, se, -1)) {
            const std::array<uint32_t, kWarpLanes> words = wordsOf(t, r, bases);
            addTo(out[stepOfEvent(t, r.first)], r.kind, transactionsOf(r.kind, r.mask, words.data(), r.wide));
        }
        s = se;
    }
    return out;
}

std::string laneRanges(uint32_t mask)
{
    std::string s;
    for (unsigned lane = 0; lane < kWarpLanes;) {
        if (!(mask & (1u << lane))) {
            ++lane;
            continue;
        }
        unsigned last = lane;
        while (last + 1 < kWarpLanes && (mask & (1u << (last + 1)))) ++last;
        if (!s.empty()) s += ", ";
        s += std::to_string(lane);
        if (last > lane) s += (last == lane + 1 ? ", " : "-") + std::to_string(last);
        lane = last + 1;
    }
    return s;
}

std::vector<const CompiledNote*> compiledNotesFor(const Scenario& s, unsigned line, const std::string& array)
{
    std::vector<const CompiledNote*> out;
    const KernelInfo* info = s.kernelInfo();
    if (!info) return out;
    const std::string text = trimmed(lineOf(kernelSource(info->sourceFile), line));
    if (text.empty()) return out;
    for (const CompiledNote& n : info->compiledNotes)
        if (text == n.statement && s.tile >= n.minTile && s.tile <= n.maxTile &&
            (array.empty() || array == n.array))
            out.push_back(&n);
    return out;
}

}  // namespace ts::sim
