// Warps and memory transactions: what the hardware makes of the element accesses that the
// simulator counts. A block's threads form warps of 32 by linear index (threadIdx.x fastest,
// then y, then z), as CUDA forms them. A *warp memory instruction* is one source access
// (source line, array, load or store) executed by the active lanes of one warp at the same
// dynamic point: the same barrier interval and the same per-lane occurrence of that access.
// For each one:
//   - global memory: one request; its sectors are the distinct 32-byte aligned segments the
//     lanes touch, its cache lines the distinct 128-byte lines (every global array starts on
//     a 256-byte boundary, as cudaMalloc guarantees);
//   - shared memory: bank = (byte address / 4) mod 32; wavefronts = the largest number of
//     distinct 4-byte words that fall into one bank (lanes reading one word share a
//     broadcast); bank conflicts = wavefronts - 1. Shared arrays lie in declaration order,
//     packed at 4-byte alignment, as nvcc lays out the kernels' static __shared__ arrays
//     (read from the SASS of matmul-tiled at TILE_WIDTH 2: Mds at +0, Nds at +16);
//   - constant memory: one request that the constant cache serves in as many passes as
//     there are distinct addresses among the lanes;
//   - 128-bit accesses (x.ldg4, x.lds4, x.sts4: LDG.128, LDS.128, STS.128): one request for
//     the four elements of each lane. Global: a lane's 16 aligned bytes lie in one sector, so
//     the sectors are those of the lanes' first words. Shared: each half-warp is served on
//     its own; the fewest wavefronts it can need is one per 128 bytes of the 16-byte chunks
//     its two quarter-warps read, each quarter's distinct chunks counted on their own (lanes
//     of one quarter reading a chunk share it, the two quarters do not), and it takes at
//     least as many as the largest number of distinct words one bank holds among its chunks
//     (so a warp reading 512 contiguous bytes takes 4 wavefronts with no bank conflict, and
//     so does a warp whose four quarters each read the same 128 bytes). That rule is fitted
//     to Nsight Compute's counts on an H100, per instruction (docs/design.md).
//
// A thread's x.unrolled(i) names the iteration of an unrolled loop its next accesses belong
// to: nvcc emits each iteration of a loop with a constant trip count as instructions of its
// own, so a lane that skips a guarded access in one iteration does not shift its later ones
// onto other instructions. Lanes are matched by that tag where their logs part.
// PMPP sec. 5.3 and 6.1 (memory coalescing); the bank model is CUDA's for compute
// capability 5.0 and later (32 banks of 4 bytes).
#pragma once
#include <algorithm>
#include <array>
#include <iterator>
#include <cstdint>
#include <vector>

#include "sim/engine/types.hpp"

namespace ts::sim {

inline constexpr unsigned kWarpLanes = 32;
inline constexpr unsigned kSectorBytes = 32;
inline constexpr unsigned kCacheLineBytes = 128;
inline constexpr unsigned kSharedBanks = 32;

/// Which kind of warp instruction an entry of a lane's log is: a memory access, a branch
/// (x.branch(): its word is 1 where the lane took it, 0 where not) or a global atomic.
enum class AccessKind : uint8_t { GlobalLoad, GlobalStore, SharedLoad, SharedStore, ConstantLoad, Branch, GlobalAtomic, SharedAtomic };

/// The transactions of one warp memory instruction, given its lanes' 4-byte word addresses
/// (`words[lane]` for each lane whose bit is set in `mask`). Words of a global array count
/// from the array's start (which is 256-byte aligned); words of shared memory from the
/// block's shared-memory base.
struct WarpTransactions {
    uint32_t lanes = 0;        ///< active lanes
    uint32_t sectors = 0;      ///< global: distinct 32-byte sectors
    uint32_t cacheLines = 0;   ///< global: distinct 128-byte lines
    uint32_t wavefronts = 0;   ///< shared: passes through the banks; constant: distinct addresses
    /// Shared, constant: the fewest wavefronts (passes) the lanes' bytes need: 1 for 32-bit
    /// accesses, one per 128 distinct bytes of each half-warp for 128-bit ones. Bank
    /// conflicts are wavefronts - ideal.
    uint32_t ideal = 0;
};
/// `wide`: a 128-bit access; `words[lane]` is then the first of the lane's four words (a
/// multiple of 4).
WarpTransactions transactionsOf(AccessKind kind, uint32_t mask, const uint32_t* words, bool wide = false);

/// The figures of one source access (line, array, load or store) summed over the launch.
struct AccessSite {
    unsigned line = 0;
    uint8_t array = kNoArray;
    AccessKind kind = AccessKind::GlobalLoad;
    uint64_t requests = 0;     ///< warp memory instructions with at least one active lane
    uint64_t lanes = 0;        ///< element accesses over those requests (4 a lane if wide)
    uint64_t sectors = 0;      ///< global only
    uint64_t cacheLines = 0;   ///< global only
    uint64_t wavefronts = 0;   ///< shared: bank passes; constant: distinct addresses
    uint64_t ideal = 0;        ///< shared, constant: the fewest wavefronts (WarpTransactions::ideal)
    /// Branch sites (AccessKind::Branch; `array` is kNoArray): `requests` counts the warp's
    /// executions of the branch, `lanes` the active lanes over them, `divergent` the
    /// executions where the lanes split, `taken` the lanes that took it (so the SIMD
    /// efficiency of the code it guards is taken / (32 x entered)). Global atomics:
    /// `wavefronts` counts passes (per request, the most lanes on one address within each
    /// 128-byte line it touches, summed over those lines; shared atomics: the most lanes on
    /// one address).
    uint64_t divergent = 0;
    uint64_t taken = 0;
    uint64_t entered = 0;      ///< branch executions where at least one lane took it
    bool wide = false;         ///< 128-bit accesses (four elements a lane)
};

/// Adds the sites of one launch to those of the launches before it (a row of several
/// launches, KernelInfo::laterGrids): a site of the same line, array and kind sums its
/// figures into the one `into` has, any other is appended.
void addAccessSites(std::vector<AccessSite>& into, const std::vector<AccessSite>& launch);

/// The figures of one source line's accesses of one memory space, loads or stores apart,
/// summed over the arrays they touch (Nsight Compute's source view, one row per line).
struct LineMemory {
    unsigned line = 0;
    Space space = Space::Global;
    bool store = false;
    std::vector<uint8_t> arrays;   ///< array ids, in order of first access
    uint64_t requests = 0, lanes = 0, sectors = 0, cacheLines = 0, wavefronts = 0, ideal = 0;
    bool wide = false;             ///< some of the line's accesses are 128-bit
    /// Shared: wavefronts beyond the fewest the accesses need (bank conflicts); constant:
    /// passes beyond one per request.
    uint64_t conflicts() const { return wavefronts - ideal; }
};

/// The memory sites of a launch (branches and atomics left out) grouped by (line, space,
/// load or store), ordered by line, then global before shared before constant, loads
/// before stores.
std::vector<LineMemory> memoryByLine(const std::vector<AccessSite>& sites);

/// The memory space and direction of an access kind (a branch: Global, a load; never asked).
Space spaceOf(AccessKind k);
bool isStore(AccessKind k);

/// Groups a launch's accesses into warp memory instructions and counts their transactions.
///
/// The scheduler runs a block in rounds: every runnable thread runs until it parks at a
/// barrier or finishes, warp after warp, the lanes of a warp one after the other. So when
/// the round has run the last lane of a warp, that warp's instructions of the barrier
/// interval are complete. Each lane logs its accesses while it runs (access(): one store),
/// and the warp is counted when the scheduler leaves it (switchThread()). In the common
/// case every lane logged the same sequence of accesses and the n-th entries of the lanes
/// form the n-th instruction; otherwise (divergence) the entries are matched by source
/// access and per-lane occurrence. Per-block figures go into the Totals given to
/// switchThread; per-site figures accumulate in sites().
class WarpMemory {
public:
    /// Distinct source accesses a kernel may have (far more than any kernel here needs);
    /// past it the model gives up (overflowed()).
    static constexpr unsigned kMaxSites = 64;

    /// Prepares for blocks of `threads` threads (at most 1024).
    void startLaunch(unsigned threads);
    /// Where shared array `array` starts, in 4-byte words from the block's shared base.
    void setSharedBase(uint8_t array, uint32_t word) { sharedBase_[array] = word; }
    uint32_t sharedBase(uint8_t array) const { return sharedBase_[array]; }

    /// The key of a source access: (line, array, 128-bit or not, kind) in the low 24 bits,
    /// the x.unrolled() tag above them. Lines past kMaxLine share one key.
    static constexpr unsigned kMaxLine = 4095;
    static constexpr unsigned kTagShift = 24;
    static constexpr uint32_t kSiteMask = (1u << kTagShift) - 1;
    static constexpr uint32_t siteKey(unsigned line, uint8_t array, AccessKind kind, bool wide)
    {
        return ((std::min(line, kMaxLine) * 256u + array) * 2u + (wide ? 1u : 0u)) * 8u + static_cast<uint32_t>(kind);
    }
    static constexpr unsigned lineOfKey(uint32_t key) { return (key & kSiteMask) / 16u / 256u; }
    static constexpr AccessKind kindOfKey(uint32_t key) { return static_cast<AccessKind>(key % 8u); }

    /// One element access by the running thread: word `word` of array `array` (for shared
    /// arrays the slot; the array's base is added here) on source line `line`. `vector`:
    /// kVectorHead for the first element of a 128-bit access (logged for the four), kVectorTail
    /// for the other three (not logged), 0 for a 32-bit access. `tag`: the thread's
    /// x.unrolled() tag.
    void access(AccessKind kind, uint8_t array, unsigned line, uint32_t word, uint8_t vector = 0, uint8_t tag = 0)
    {
        if (vector & kVectorTail) return;
        if (cursor_ >= end_) [[unlikely]] growLog();
        const uint64_t key = siteKey(line, array, kind, vector != 0) | uint32_t{tag} << kTagShift;
        const bool shared = kind == AccessKind::SharedLoad || kind == AccessKind::SharedStore;
        *cursor_ = key << 32 | (shared ? sharedBase_[array] + word : word);
        cursor_ += kWarpLanes;
    }

    /// The scheduler stops running thread `from` and starts `to` (kNoThread: none, on either
    /// side). When `from`'s warp is left, its instructions are counted into `block` and the
    /// sites. Never throws.
    void switchThread(uint16_t from, uint16_t to, Totals& block)
    {
        if (from != kNoThread) {
            const unsigned lane = from % kWarpLanes;
            logLength_[lane] = static_cast<uint32_t>((cursor_ - (log_.data() + lane)) / kWarpLanes);
            if (to == kNoThread || to / kWarpLanes != from / kWarpLanes) countWarp(from / kWarpLanes, block);
        }
        if (to != kNoThread) {
            cursor_ = log_.data() + to % kWarpLanes;
            end_ = log_.data() + log_.size();
            running_ = to;
        }
    }

    const std::vector<AccessSite>& sites() const { return sites_; }

    /// The sites with the figures counted since startLaunch() or the last call, in the
    /// order first executed; the figures then restart from zero (the sites stay, in their
    /// order). A worker thread of a parallel launch hands over what each run of blocks
    /// counted (sim/engine/machine.cpp).
    std::vector<AccessSite> takeFigures();
    /// Adds `sites`' figures one site after the other: to the site here with the same
    /// line, array and kind, or to a new site appended after the others, as count() would
    /// create it (past kMaxSites the model overflows the same way). Sites without requests
    /// are skipped. `overflowed`: the sites come from a model that overflowed.
    void addFigures(const std::vector<AccessSite>& sites, bool overflowed);

    /// The kernel had more than kMaxSites distinct accesses: the figures are not to be used.
    bool overflowed() const { return overflow_; }

private:
    static constexpr uint8_t kNoSite = 0xFF;
    static constexpr uint32_t kNoWord = 0xFFFFFFFFu;
    /// The lanes' words of one warp memory instruction; kNoWord marks an inactive lane.
    struct Record {
        Record() { std::fill(std::begin(words), std::end(words), kNoWord); }
        uint32_t words[kWarpLanes];
    };
    /// The last instruction counted at a site for each value of its first active lane's
    /// word mod 32: an instruction with the same lanes, the same word mod 32 and the same
    /// offsets of the other lanes from it has the same sectors, lines and bank passes (they
    /// depend only on those), so loop iterations that repeat a pattern are not re-examined.
    struct Memo {
        uint32_t mask = 0;
        uint32_t offsets[kWarpLanes];
        WarpTransactions t;
    };
    void growLog();
    uint8_t siteOf(uint32_t key);
    void countWarp(unsigned warp, Totals& block);
    void countDivergent(unsigned lanes, uint32_t from, Totals& block);
    void count(uint8_t site, uint32_t mask, const uint32_t* words, Totals& block);

    unsigned threads_ = 0;
    uint16_t running_ = 0;
    bool overflow_ = false;
    uint64_t* cursor_ = nullptr;           ///< the running lane's next log entry
    uint64_t* end_ = nullptr;              ///< the log's end (cursor_ >= end_: full)
    /// The lanes' logs, interleaved: entry i of lane L at [i * 32 + L], key << 32 | word.
    std::vector<uint64_t> log_;
    std::array<uint32_t, kWarpLanes> logLength_{};
    std::vector<uint8_t> siteOf_;          ///< by (line, array, kind) key
    std::vector<AccessSite> sites_;
    std::vector<Memo> memo_;                     ///< by site, then first word mod 32
    std::array<uint32_t, 256> sharedBase_{};
};

}  // namespace ts::sim
