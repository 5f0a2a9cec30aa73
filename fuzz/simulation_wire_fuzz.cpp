// libFuzzer harness: the simulation wire format's decoder (sim::decodeSimulation,
// sim/files/simulation_wire.hpp), what the app runs on the message a confined child sends back
// after a student's kernel (issue 36). Arbitrary bytes are decoded against each scenario the
// seed messages were made for. Every input must either decode or throw sim::WireError with one
// sentence; a message that decodes must encode to one that decodes to the same bytes again.
// Any other exception, a crash, a hang (-timeout) or a sanitizer report is a finding.
//
// The seed corpus fuzz/corpus/simulation_wire_fuzz/ holds real messages of the scenarios below,
// written by the harness itself:
//   TILESCOPE_WIRE_SEEDS=fuzz/corpus/simulation_wire_fuzz build-fuzz/bin/simulation_wire_fuzz -runs=0
// Run: scripts/fuzz.sh simulation_wire_fuzz (docs/design.md, "Fuzzing and sanitizers").
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/files/simulation_wire.hpp"

namespace {

/// A seed: its scenario and how it is run (each small enough for -max_len=4096).
struct Seed {
    const char* file;
    ts::sim::Scenario scenario;
    bool trace = true;
    bool cancel = false;
};

std::vector<Seed> makeSeeds()
{
    using namespace ts::sim;
    std::vector<Seed> seeds;
    Scenario dropped = matmulScenario("matmul-tiled", 3, 2, 3, 2, {1, 1, 0}, 3);
    dropped.dropBarriers = 1;   // hazards and stale reads in the trace
    seeds.push_back({"matmul-tiled-dropped-barrier.cbor", dropped});
    seeds.push_back({"conv1d-tiled.cbor", convScenario("conv1d-tiled", 1, 7, 4, 3, {1, 0, 0}, 5)});
    seeds.push_back({"conv2d-basic.cbor", convScenario("conv2d-basic", 2, 3, 2, 3, {1, 0, 0}, 6)});
    seeds.push_back({"matmul-naive-untraced.cbor", matmulScenario("matmul-naive", 5, 3, 4, 2, {0, 0, 0}, 7), false});
    seeds.push_back({"matmul-tiled-cancelled.cbor", matmulScenario("matmul-tiled", 4, 4, 4, 2, {0, 0, 0}, 8), true, true});
    for (Seed& s : seeds) validate(s.scenario);   // resolves the kernel (Scenario::info)
    return seeds;
}

const std::vector<Seed>& seeds()
{
    static const std::vector<Seed> all = makeSeeds();
    return all;
}

/// Writes each seed's message into `dir`.
void writeSeeds(const std::string& dir)
{
    for (const Seed& s : seeds()) {
        ts::sim::SimOptions o;
        o.trace = s.trace;
        o.threads = 1;
        std::atomic<bool> stop{s.cancel};
        if (s.cancel) o.cancel = &stop;
        const std::string bytes = ts::sim::encodeSimulation(ts::sim::simulate(s.scenario, o));
        std::ofstream(dir + "/" + s.file, std::ios::binary) << bytes;
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    if (const char* dir = std::getenv("TILESCOPE_WIRE_SEEDS")) writeSeeds(dir);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::string prefix = "Simulation message refused: ";
    for (const Seed& seed : seeds()) {
        std::optional<ts::sim::Simulation> s;
        try {
            s = ts::sim::decodeSimulation(bytes, seed.scenario, 1 << 20);
        } catch (const ts::sim::WireError& e) {
            ts::fuzz::expectOneSentence(e.what(), prefix);
            continue;
        }
        // Accepted: what the app holds now must go through the wire again unchanged.
        const std::string again = ts::sim::encodeSimulation(*s);
        std::string twice;
        try {
            twice = ts::sim::encodeSimulation(ts::sim::decodeSimulation(again, seed.scenario));
        } catch (const ts::sim::WireError& e) {
            ts::fuzz::expect(false, "the encoding of a decoded simulation is refused", e.what());
        }
        ts::fuzz::expect(twice == again, "a decoded simulation does not survive a second round trip", seed.file);
    }
    return 0;
}
