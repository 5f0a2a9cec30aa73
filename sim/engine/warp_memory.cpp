// Warp memory instructions and their transactions (see warp_memory.hpp).
#include "sim/engine/warp_memory.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <tuple>
#include <string>


namespace ts::sim {
namespace {

/// Sorts v[0, n) (n at most 32) and moves its distinct values to the front; returns how many.
uint32_t distinctSorted(uint32_t* v, uint32_t n)
{
    std::sort(v, v + n);
    return static_cast<uint32_t>(std::unique(v, v + n) - v);
}

}  // namespace

namespace {

/// A 128-bit shared access: each half-warp served on its own (see warp_memory.hpp). A
/// wavefront carries at most 128 bytes to the lanes, 16 bytes each: lanes of one
/// quarter-warp reading the same 16 bytes share them, lanes of the two quarters of a half
/// do not. So a half needs one wavefront per 8 distinct chunks of each quarter, summed over
/// its two quarters, and at least as many as its fullest bank holds distinct chunks.
void wideShared(WarpTransactions& t, uint32_t mask, const uint32_t* words)
{
    for (unsigned half = 0; half < 2; ++half) {
        uint32_t chunk[kWarpLanes / 2];
        uint32_t n = 0, perQuarter = 0;
        for (unsigned quarter = 2 * half; quarter < 2 * half + 2; ++quarter) {
            uint32_t q[kWarpLanes / 4];
            uint32_t m = 0;
            for (unsigned lane = quarter * 8; lane < quarter * 8 + 8; ++lane)
                if (mask & (1u << lane)) q[m++] = chunk[n++] = words[lane];
            perQuarter += distinctSorted(q, m);
        }
        if (n == 0) continue;
        n = distinctSorted(chunk, n);
        uint8_t perBank[kSharedBanks] = {};
        uint32_t most = 0;
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t w = chunk[i]; w < chunk[i] + 4; ++w)
                most = std::max<uint32_t>(most, ++perBank[w % kSharedBanks]);
        const uint32_t needed = (perQuarter * 16 + 127) / 128;
        t.wavefronts += std::max(most, needed);
        t.ideal += needed;
    }
}

}  // namespace

WarpTransactions transactionsOf(AccessKind kind, uint32_t mask, const uint32_t* words, bool wide)
{
    WarpTransactions t;
    uint32_t w[kWarpLanes];
    uint32_t n = 0;
    if (mask == 0xFFFFFFFFu) {
        std::copy(words, words + kWarpLanes, w);
        n = kWarpLanes;
    } else {
        for (uint32_t m = mask; m; m &= m - 1) w[n++] = words[std::countr_zero(m)];
    }
    t.lanes = n;
    if (n == 0) return t;
    if (wide && (kind == AccessKind::SharedLoad || kind == AccessKind::SharedStore)) {
        wideShared(t, mask, words);
        return t;
    }
    // A 128-bit global access: a lane's four words lie in the sector (and line) of its
    // first, so the 32-bit arithmetic on the first words gives the sectors and lines.
    switch (kind) {
    case AccessKind::SharedAtomic:
    case AccessKind::GlobalAtomic: {
        // The updates the hardware serialises: the most lanes on one address. A global
        // atomic takes that many passes in each 128-byte line it touches, one line after
        // the other (Nsight Compute's l1tex__t_set_accesses_..._op_red: PMPP Fig. 9.9's
        // private copies, 28 bytes a block, straddle lines and cost the sum).
        std::sort(w, w + n);
        const bool lines = kind == AccessKind::GlobalAtomic;
        uint32_t most = 1, run = 1, total = 0;
        for (uint32_t i = 1; i < n; ++i) {
            if (lines && (w[i] >> 5) != (w[i - 1] >> 5)) total += most, most = 0;
            run = w[i] == w[i - 1] ? run + 1 : 1;
            most = std::max(most, run);
        }
        t.wavefronts = total + most;
        t.ideal = 1;
        if (kind == AccessKind::SharedAtomic) break;   // no sectors: on chip
        [[fallthrough]];
    }
    case AccessKind::GlobalLoad:
    case AccessKind::GlobalStore: {
        // Fast path: lanes in ascending consecutive words (a coalesced row access).
        bool consecutive = true;
        for (uint32_t i = 1; i < n && consecutive; ++i) consecutive = w[i] == w[i - 1] + 1;
        if (consecutive) {
            t.sectors = (w[n - 1] >> 3) - (w[0] >> 3) + 1;
            t.cacheLines = (w[n - 1] >> 5) - (w[0] >> 5) + 1;
            break;
        }
        uint32_t s[kWarpLanes];
        for (uint32_t i = 0; i < n; ++i) s[i] = w[i] >> 3;   // 8 words per 32-byte sector
        t.sectors = distinctSorted(s, n);
        for (uint32_t i = 0; i < t.sectors; ++i) s[i] >>= 2;  // 4 sectors per 128-byte line
        t.cacheLines = static_cast<uint32_t>(std::unique(s, s + t.sectors) - s);
        break;
    }
    case AccessKind::SharedLoad:
    case AccessKind::SharedStore: {
        // Fast path: no bank holds two different words (each lane in a bank of its own, or
        // lanes sharing a word, which one broadcast serves).
        uint32_t seen = 0;
        uint32_t bankWord[kSharedBanks];
        bool clash = false;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t b = w[i] % kSharedBanks;
            if (!(seen & (1u << b))) {
                seen |= 1u << b;
                bankWord[b] = w[i];
            } else {
                clash |= bankWord[b] != w[i];
            }
        }
        t.ideal = 1;
        if (!clash) {
            t.wavefronts = 1;
            break;
        }
        // Distinct words, then the fullest bank.
        const uint32_t d = distinctSorted(w, n);
        uint8_t perBank[kSharedBanks] = {};
        uint32_t most = 0;
        for (uint32_t i = 0; i < d; ++i) most = std::max<uint32_t>(most, ++perBank[w[i] % kSharedBanks]);
        t.wavefronts = most;
        break;
    }
    case AccessKind::ConstantLoad:
        t.wavefronts = distinctSorted(w, n);
        t.ideal = 1;
        break;
    case AccessKind::Branch: break;   // counted by count() itself
    }
    return t;
}

Space spaceOf(AccessKind k)
{
    switch (k) {
    case AccessKind::GlobalLoad:
    case AccessKind::GlobalStore:
    case AccessKind::GlobalAtomic:
    case AccessKind::Branch: return Space::Global;
    case AccessKind::SharedLoad:
    case AccessKind::SharedStore:
    case AccessKind::SharedAtomic: return Space::Shared;
    case AccessKind::ConstantLoad: break;
    }
    return Space::Constant;
}

bool isStore(AccessKind k) { return k == AccessKind::GlobalStore || k == AccessKind::SharedStore; }

std::vector<LineMemory> memoryByLine(const std::vector<AccessSite>& sites)
{
    std::vector<LineMemory> lines;
    for (const AccessSite& s : sites) {
        if (s.requests == 0 || s.kind == AccessKind::Branch || s.kind == AccessKind::GlobalAtomic ||
            s.kind == AccessKind::SharedAtomic)
            continue;
        auto it = std::find_if(lines.begin(), lines.end(), [&](const LineMemory& l) {
            return l.line == s.line && l.space == spaceOf(s.kind) && l.store == isStore(s.kind);
        });
        if (it == lines.end()) {
            LineMemory l;
            l.line = s.line;
            l.space = spaceOf(s.kind);
            l.store = isStore(s.kind);
            lines.push_back(l);
            it = lines.end() - 1;
        }
        if (std::find(it->arrays.begin(), it->arrays.end(), s.array) == it->arrays.end()) it->arrays.push_back(s.array);
        it->wide |= s.wide;
        it->ideal += s.ideal;
        it->requests += s.requests;
        it->lanes += s.lanes;
        it->sectors += s.sectors;
        it->cacheLines += s.cacheLines;
        it->wavefronts += s.wavefronts;
    }
    std::stable_sort(lines.begin(), lines.end(), [](const LineMemory& a, const LineMemory& b) {
        if (a.line != b.line) return a.line < b.line;
        if (a.space != b.space) return a.space < b.space;
        return a.store < b.store;
    });
    return lines;
}

void addAccessSites(std::vector<AccessSite>& into, const std::vector<AccessSite>& launch)
{
    for (const AccessSite& a : launch) {
        auto it = std::find_if(into.begin(), into.end(), [&](const AccessSite& b) {
            return b.line == a.line && b.array == a.array && b.kind == a.kind && b.wide == a.wide;
        });
        if (it == into.end()) {
            into.push_back(a);
            continue;
        }
        it->requests += a.requests;
        it->lanes += a.lanes;
        it->sectors += a.sectors;
        it->cacheLines += a.cacheLines;
        it->wavefronts += a.wavefronts;
        it->ideal += a.ideal;
        it->divergent += a.divergent;
        it->taken += a.taken;
        it->entered += a.entered;
    }
}

void WarpMemory::startLaunch(unsigned threads)
{
    threads_ = threads;
    siteOf_.clear();
    sites_.clear();
    overflow_ = false;
    memo_.assign(size_t{kMaxSites} * kWarpLanes, Memo{});
    sharedBase_.fill(0);
    logLength_.fill(0);
    if (log_.empty()) log_.resize(256 * kWarpLanes);
    cursor_ = end_ = nullptr;
}

void WarpMemory::growLog()
{
    const size_t used = static_cast<size_t>(cursor_ - log_.data());
    log_.resize(std::max<size_t>(used + kWarpLanes, 2 * log_.size()));
    cursor_ = log_.data() + used;
    end_ = log_.data() + log_.size();
}

uint8_t WarpMemory::siteOf(uint32_t key)
{
    key &= kSiteMask;   // the x.unrolled() tag names an instruction, not a site
    if (key < siteOf_.size() && siteOf_[key] != kNoSite) return siteOf_[key];
    if (sites_.size() >= kMaxSites) {
        // Called on a fiber's way out, where nothing may throw: simulate() reports it.
        overflow_ = true;
        return 0;
    }
    if (key >= siteOf_.size()) siteOf_.resize(key + 1, kNoSite);
    AccessSite s;
    s.kind = kindOfKey(key);
    s.wide = key / 8 % 2 != 0;
    s.array = static_cast<uint8_t>(key / 16 % 256);
    s.line = lineOfKey(key);
    sites_.push_back(s);
    siteOf_[key] = static_cast<uint8_t>(sites_.size() - 1);
    return siteOf_[key];
}

std::vector<AccessSite> WarpMemory::takeFigures()
{
    std::vector<AccessSite> figures = sites_;
    for (AccessSite& s : sites_)
        s.requests = s.lanes = s.sectors = s.cacheLines = s.wavefronts = s.ideal = s.divergent = s.taken = s.entered = 0;
    return figures;
}

void WarpMemory::addFigures(const std::vector<AccessSite>& sites, bool overflowed)
{
    overflow_ |= overflowed;
    for (const AccessSite& s : sites) {
        if (s.requests == 0) continue;
        AccessSite& to = sites_[siteOf(siteKey(s.line, s.array, s.kind, s.wide))];
        to.requests += s.requests;
        to.lanes += s.lanes;
        to.sectors += s.sectors;
        to.cacheLines += s.cacheLines;
        to.wavefronts += s.wavefronts;
        to.ideal += s.ideal;
        to.divergent += s.divergent;
        to.taken += s.taken;
        to.entered += s.entered;
    }
}

void WarpMemory::count(uint8_t si, uint32_t mask, const uint32_t* words, Totals& block)
{
    AccessSite& site = sites_[si];
    if (site.kind == AccessKind::Branch) {
        // The lanes that took it against those active: a split is a divergent branch.
        uint32_t taken = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
            taken |= (words[lane] & 1u) << lane;
        }
        const unsigned active = static_cast<unsigned>(std::popcount(mask));
        ++site.requests;
        site.lanes += active;
        site.taken += static_cast<unsigned>(std::popcount(taken));
        site.entered += taken != 0;
        block.branch_lanes += active;
        if (taken != 0 && taken != mask) {
            ++site.divergent;
            ++block.branch_divergent;
        } else {
            ++block.branch_uniform;
        }
        return;
    }
    const uint32_t w0 = words[std::countr_zero(mask)];
    uint32_t offsets[kWarpLanes];
    for (unsigned lane = 0; lane < kWarpLanes; ++lane) offsets[lane] = words[lane] == kNoWord ? 0 : words[lane] - w0;
    Memo& memo = memo_[size_t{si} * kWarpLanes + w0 % kWarpLanes];
    // An OR of differences rather than a chain of comparisons, so that the compiler turns
    // the loop into a few vector instructions (this runs once per warp instruction).
    uint32_t differ = memo.mask ^ mask;
    for (unsigned lane = 0; lane < kWarpLanes; ++lane) differ |= memo.offsets[lane] ^ offsets[lane];
    if (differ != 0) {
        memo.mask = mask;
        std::copy(std::begin(offsets), std::end(offsets), std::begin(memo.offsets));
        memo.t = transactionsOf(site.kind, mask, words, site.wide);
    }
    const WarpTransactions& t = memo.t;
    ++site.requests;
    site.lanes += site.wide ? 4 * t.lanes : t.lanes;
    site.ideal += t.ideal;
    site.sectors += t.sectors;
    site.cacheLines += t.cacheLines;
    site.wavefronts += t.wavefronts;
    switch (site.kind) {
    case AccessKind::GlobalLoad:
        ++block.global_ld_requests;
        block.global_ld_sectors += t.sectors;
        break;
    case AccessKind::GlobalStore:
        ++block.global_st_requests;
        block.global_st_sectors += t.sectors;
        break;
    case AccessKind::SharedLoad:
        ++block.shared_ld_requests;
        block.shared_ld_wavefronts += t.wavefronts;
        block.shared_ld_conflicts += t.wavefronts - t.ideal;
        break;
    case AccessKind::SharedStore:
        ++block.shared_st_requests;
        block.shared_st_wavefronts += t.wavefronts;
        block.shared_st_conflicts += t.wavefronts - t.ideal;
        break;
    case AccessKind::ConstantLoad:
        ++block.constant_ld_requests;
        block.constant_ld_passes += t.wavefronts;
        break;
    case AccessKind::GlobalAtomic:
        ++block.global_atom_requests;
        block.global_atom_passes += t.wavefronts;
        break;
    case AccessKind::SharedAtomic:
        ++block.shared_atom_requests;
        block.shared_atom_passes += t.wavefronts;
        break;
    case AccessKind::Branch: break;
    }
}

void WarpMemory::countWarp(unsigned warp, Totals& block)
{
    const unsigned lanes = std::min(kWarpLanes, threads_ - warp * kWarpLanes);
    // The lanes that logged anything.
    uint32_t active = 0;
    uint32_t shortest = UINT32_MAX;
    for (unsigned lane = 0; lane < lanes; ++lane)
        if (logLength_[lane] != 0) {
            active |= 1u << lane;
            shortest = std::min(shortest, logLength_[lane]);
        }
    if (active == 0) return;
    const unsigned first = static_cast<unsigned>(std::countr_zero(active));
    // While every active lane logged the same access, entry i of the lanes is one instruction.
    // A row is counted one row late: if the lanes part at the row after it, and the two rows
    // could be the two operands of one statement (a constant load and a load of another
    // space on one line, paired left to right as countDivergent pairs them), the row belongs
    // to the parted iteration and countDivergent matches it by its partner's mask element.
    // (conv1d-tiled-cache reads N_ds[..] before M[j]: lanes that skipped a ghost element
    // log the same shared load first and part only at the M[j] after it.)
    const auto constantKey = [](uint32_t key) { return kindOfKey(key) == AccessKind::ConstantLoad; };
    const auto branchKey = [](uint32_t key) { return kindOfKey(key) == AccessKind::Branch; };
    uint32_t bufferA[kWarpLanes], bufferB[kWarpLanes];
    std::fill(std::begin(bufferA), std::end(bufferA), kNoWord);
    std::fill(std::begin(bufferB), std::end(bufferB), kNoWord);
    uint32_t* words = bufferA;      // this row's words
    uint32_t* heldWords = bufferB;  // the held row's words
    bool held = false;              // the previous row is not counted yet
    bool heldSecond = false;        // the previous row is the second of a pair
    uint32_t heldKey = 0;
    uint32_t i = 0;
    for (; i < shortest; ++i) {
        const uint64_t* row = log_.data() + size_t{i} * kWarpLanes;
        const uint32_t key = static_cast<uint32_t>(row[first] >> 32);
        bool same = true;
        if (active == 0xFFFFFFFFu) {
            // An OR of differences, as in count(): a few vector instructions for 32 lanes.
            uint32_t differ = 0;
            for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
                differ |= static_cast<uint32_t>(row[lane] >> 32) ^ key;
                words[lane] = static_cast<uint32_t>(row[lane]);
            }
            same = differ == 0;
        } else {
            for (uint32_t m = active; m; m &= m - 1) {
                const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
                same &= static_cast<uint32_t>(row[lane] >> 32) == key;
                words[lane] = static_cast<uint32_t>(row[lane]);
            }
        }
        // The mask element a convolution reads is the same for every lane in one iteration:
        // lanes reading different elements at the same position of their logs are in
        // different iterations (one skipped a ghost cell), however alike their logs look.
        if (same && constantKey(key))
            for (uint32_t m = active; m; m &= m - 1) same &= words[std::countr_zero(m)] == words[first];
        if (!same) break;
        const bool second = i > 0 && !heldSecond && lineOfKey(heldKey) == lineOfKey(key) &&
                            constantKey(heldKey) != constantKey(key) && !branchKey(heldKey) && !branchKey(key);
        if (held) count(siteOf(heldKey), active, heldWords, block);
        if (second) {
            count(siteOf(key), active, words, block);   // the pair is complete
            held = false;
        } else {
            std::swap(words, heldWords);
            held = true;
        }
        heldSecond = second;
        heldKey = key;
    }
    // From the first difference on (divergence, or lanes that logged different numbers of
    // accesses), countDivergent matches the lanes' accesses. Up to there every lane executed
    // the same accesses in the same iterations, so matching from here gives the same
    // grouping as matching from the start; the held row is not the second of a pair, so
    // countDivergent's pairs, taken left to right from it, are the pairs of the whole log.
    bool rest = false;
    for (unsigned lane = 0; lane < lanes; ++lane) rest |= logLength_[lane] > i;
    uint32_t from = i;
    if (held) {
        if (rest) from = i - 1;
        else count(siteOf(heldKey), active, heldWords, block);
    }
    if (rest) countDivergent(lanes, from, block);
    for (unsigned lane = 0; lane < lanes; ++lane) logLength_[lane] = 0;
}

void WarpMemory::countDivergent(unsigned lanes, uint32_t from, Totals& block)
{
    // A lane that skips a loop iteration's access (a ghost cell, a halo element read from
    // elsewhere) would pair its next iteration with the other lanes' current one if the
    // n-th executions were simply matched. Where the statement also reads constant memory
    // (the mask element M[j] or Mc[i][j], the same for every lane in one iteration of the
    // mask loop), that element names the iteration: accesses are matched by (source access,
    // constant element read next to it on the same line, occurrence).
    // An access made under an x.unrolled() tag is matched by the tag too: the iteration of
    // the unrolled loop names its instruction.
    const auto lineOf = [](uint64_t e) { return lineOfKey(static_cast<uint32_t>(e >> 32)); };
    const auto isConstant = [](uint64_t e) {
        return kindOfKey(static_cast<uint32_t>(e >> 32)) == AccessKind::ConstantLoad;
    };
    const auto isBranch = [](uint64_t e) {
        return kindOfKey(static_cast<uint32_t>(e >> 32)) == AccessKind::Branch;
    };
    const auto tagOf = [](uint64_t e) { return static_cast<uint32_t>(e >> 32) >> kTagShift; };
    std::map<std::tuple<uint8_t, uint32_t, uint32_t, uint32_t>, Record> records;
    for (unsigned lane = 0; lane < lanes; ++lane) {
        std::map<std::tuple<uint8_t, uint32_t, uint32_t>, uint32_t> occurrence;
        const uint32_t end = logLength_[lane];
        const auto entry = [&](uint32_t i) { return log_[size_t{i} * kWarpLanes + lane]; };
        // The operands of one statement are read one after the other: a constant load and a
        // load of another space next to each other on one line belong to one iteration.
        // Pairs are taken left to right, so M[j] of the next iteration is never borrowed.
        std::vector<uint32_t> anchor(end > from ? end - from : 0, kNoWord);
        for (uint32_t i = from; i + 1 < end; ++i) {
            const uint64_t a = entry(i), b = entry(i + 1);
            if (lineOf(a) != lineOf(b) || isConstant(a) == isConstant(b) || isBranch(a) || isBranch(b)) continue;
            anchor[i - from] = anchor[i + 1 - from] = static_cast<uint32_t>(isConstant(a) ? a : b);
            ++i;
        }
        for (uint32_t i = from; i < end; ++i) {
            const uint64_t e = entry(i);
            const uint8_t si = siteOf(static_cast<uint32_t>(e >> 32));
            const uint32_t n = occurrence[{si, tagOf(e), anchor[i - from]}]++;
            records[{si, tagOf(e), anchor[i - from], n}].words[lane] = static_cast<uint32_t>(e);
        }
    }
    for (const auto& [key, r] : records) {
        uint32_t mask = 0;
        for (unsigned lane = 0; lane < kWarpLanes; ++lane) mask |= uint32_t{r.words[lane] != kNoWord} << lane;
        count(std::get<0>(key), mask, r.words, block);
    }
}

}  // namespace ts::sim
