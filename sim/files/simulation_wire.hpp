// The wire format of a simulation: how a confined child process that ran a student's kernel
// hands its sim::Simulation (trace, counters, P, hazards, faults) back to the app over a pipe
// (issue 36). The app never trusts it: decodeSimulation() checks everything a view could
// index before it returns, and refuses the rest with one sentence. No UI, no CUDA.
//
// A message is one CBOR item (RFC 8949, written and read by nlohmann-json): a map whose
// "format" is "tilescope-simulation" and whose "version" is kSimulationWireVersion, with the
// structure (scenario, shapes, arrays, step labels, error text) as CBOR maps, arrays, integers,
// booleans and strings, and every list of numbers as a CBOR byte string of fixed-size
// little-endian records, so that a trace of millions of events is copied, not parsed item by
// item. The keys:
//
//   format, version
//   scenario          map: kernel (text), j, k, l, height, width, maskWidth, tile (integers),
//                     seed (u64), dropBarriers (u32), block ([x, y, z]), launch (the traced
//                     launch, from 1: a row of several, PMPP sec. 11.6; version 6)
//   grid, block       [x, y, z]
//   arrays            list of maps: name, space (0 global, 1 shared, 2 constant), rows, cols,
//                     columnMajor (boolean)
//   M, N, P, reference  bytes: f32 bit patterns (NaN payloads kept)
//   referenceFlops    u64
//   counters          map: totals (bytes: one Totals), perBlock (bytes: Totals records),
//                     elementLoads, elementStores, elementWriters (lists of bytes: u32 each)
//   trace             map: block, blockDim ([x, y, z]), arrays (as above), events (bytes),
//                     steps (bytes), labels (list of texts, one per step), outputs (bytes),
//                     outputArray (integer)
//   hazards           map: raw, war, waw, uninitialised (u64), uninitialisedSites, sites,
//                     traced (bytes)
//   accessSites       bytes
//   matchesReference, cancelled (booleans), error (text)
//
// The records (offsets in bytes, little-endian, no padding; wire::k...Bytes are their sizes):
//   Totals      240: the 30 u64 fields of sim::Totals in declaration order
//   Event        25: index i32 @0, value f32 @4, seq u32 @8, thread u16 @12, line u16 @14,
//                    op u8 @16, array u8 @17, flags u8 @18, unrolled u8 @19,
//                    originArray u8 @20, origin i32 @21
//   Step         25: kind u8 @0, phase i32 @1, interval i32 @5, iteration i32 @9, line u32 @13,
//                    begin i32 @17, end i32 @21 (its label is labels[i])
//   Output       17: flags u8 @0 (1 known, 2 stored, 4 oneRow, 8 oneCol), row i64 @1, col i64 @9
//   Hazard       36: kind u8 @0, array u8 @1, slot i32 @2, first @6 and second @21, each
//                    thread u16 @0, line u32 @2, write u8 @6, seq u32 @7, ordinal u32 @11
//   HazardSite   34: kind u8, array u8, firstLine u32, secondLine u32, count u64,
//                    exampleBlock 3 x u32, exampleFirst u16, exampleSecond u16
//   Uninitialised 31: array u8, line u32, count u64, exampleBlock 3 x u32, exampleThread u16,
//                    exampleSlot i32
//   AccessSite   79: line u32, array u8, kind u8, requests, lanes, sectors, cacheLines,
//                    wavefronts, ideal, divergent, taken, entered (u64 each), wide u8
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// Version of the wire format; bumped whenever the encoding of any field changes.
inline constexpr uint32_t kSimulationWireVersion = 6;

/// A malformed, truncated, oversized or wrong-version message. what() is one sentence on one
/// line that begins "Simulation message refused: ".
struct WireError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Sizes in bytes of the wire's fixed-size records (see the layouts above).
namespace wire {
inline constexpr size_t kTotalsBytes = 240;
inline constexpr size_t kEventBytes = 25;
inline constexpr size_t kStepBytes = 25;
inline constexpr size_t kOutputBytes = 17;
inline constexpr size_t kHazardBytes = 36;
inline constexpr size_t kHazardSiteBytes = 34;
inline constexpr size_t kUninitialisedSiteBytes = 31;
inline constexpr size_t kAccessSiteBytes = 79;
/// Deepest nesting of CBOR maps and arrays a message may have (version 1 needs 4).
inline constexpr size_t kMaxDepth = 8;
}  // namespace wire

/// Encodes everything `s` holds but s.scenario's `info` pointer (sim/engine/simulate.hpp's
/// Simulation) as one message of the format above. Never throws but std::bad_alloc.
std::string encodeSimulation(const Simulation& s);

/// Decodes a message of encodeSimulation(). `scenario` is the scenario the caller asked for:
/// the decoded Simulation carries it, its kernel resolved (info = scenario.kernelInfo(), as
/// simulate() leaves it), and the message's own copy must match it (kernel, j, k, l, height,
/// width, maskWidth, tile, seed, block, dropBarriers) or the message is refused. Throws
/// WireError for anything malformed; never crashes, never allocates more than
/// `maxBytes`-proportional memory, for any input (it comes from a process that ran untrusted
/// code). What it returns for a message of encodeSimulation() encodes to the same bytes again.
///
/// What is checked, beyond the CBOR itself (well formed, nothing after it, nesting at most
/// wire::kMaxDepth, no CBOR tags) and the message's size (at most `maxBytes`):
///  - the format name and version first, then that every map has exactly its keys, each of its
///    type, every integer in its field's range and every enum (Space, Op, StepKind, HazardKind,
///    AccessKind) one of its values, every byte string a whole number of its records;
///  - the scenario as above; grid and block have no zero extent, at most 1024 threads a block
///    and 2^32 blocks, and are launchShape(scenario) wherever this process knows the kernel;
///  - arrays: at most 255, rows and cols >= 0 with rows * cols an int, all of them together at
///    most maxBytes / 4 elements;
///  - M, N, P and reference each hold arrays[0], [1], [2], [2].size() values (they may be empty
///    only when `error` says why); matchesReference is exactly "no error and P equals the
///    reference bit for bit"; cancelled comes with an error;
///  - counters: elementLoads, elementStores and elementWriters hold one vector per array (or,
///    with an error, none), loads and stores arrays[a].size() counts each; a writer list is
///    empty or one per element of a global array, each value at most the grid's thread count;
///    perBlock holds one Totals per block of the grid (none only with an error); totals is the
///    sum of perBlock unless there is an error (a fault stops a serial launch before the sum);
///  - the trace is either the empty Trace{} or the traced block's: block = scenario.block inside
///    the grid, blockDim = block, arrays = the simulation's arrays, one output per thread of the
///    block (stored ones inside the output array, known ones within int range), outputArray -1
///    or an array; every event's op an Op, thread < the block's threads or kNoThread, flags only
///    EventFlag bits; loads and stores name an array of their memory space and an index inside
///    it, Barrier and Fma name none (kNoArray, -1); an origin is (kNoArray, -1) or an element of
///    an array; the events' seq are 0..n-1 each once; steps tile the events in order (the first
///    begins at 0, each begins where the last ended, the last ends at the last event), with
///    phase, interval and iteration between 0 (-1 for iteration) and the number of events and
///    line at most 65535, and one label each;
///  - hazards: every site, uninitialised site and traced hazard names a shared array, slots
///    inside it, threads of the block and example blocks inside the grid; traced hazards' seq
///    name events of the trace (a cancelled run may keep them with no trace), at most
///    HazardLog::kMaxTraced of them;
///  - access sites: kind an AccessKind on an array of its memory space.
Simulation decodeSimulation(std::string_view bytes, const Scenario& scenario, size_t maxBytes = size_t{1} << 31);

}  // namespace ts::sim
