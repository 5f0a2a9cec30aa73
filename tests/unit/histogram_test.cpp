// PMPP ch. 9's text histograms (registry rows histogram-basic, -private-global,
// -private-shared, -contiguous, -interleaved, -aggregated) against figures found other ways:
// the warp atomic requests and passes Nsight Compute measured on an H200 for Figs. 9.6 and
// 9.10 over 65 536 characters of the book's phrase (2048 requests and 17 184 passes; 2048
// shared atomic instructions and 256 global requests), the same figures and the load sectors
// worked out here warp by warp from the text, and the bins counted here letter by letter.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "sim/catalogue/array_spec.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/array_spec_text.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/teaching/histogram_view.hpp"
#include "histogram_text.hpp"

namespace ts::sim {
namespace {

constexpr const char* kRows[] = {"histogram-basic",      "histogram-private-global", "histogram-private-shared",
                                 "histogram-contiguous", "histogram-interleaved",    "histogram-aggregated"};

Scenario histogram(const std::string& kernel, int n, int tile = 256, TextInput text = {})
{
    Scenario s;
    s.kernel = kernel;
    s.height = 1;
    s.width = n;
    s.tile = tile;
    s.text = std::move(text);
    return s;
}

Simulation run(const Scenario& s)
{
    SimOptions o;
    o.threads = 2;
    return simulate(s, o);
}

/// The characters the simulation counted, back from its input's codes.
std::string textOf(const Simulation& r)
{
    std::string t;
    for (float c : r.M) t.push_back(static_cast<char>(static_cast<int>(c)));
    return t;
}

using test::requestsAndPasses;

std::vector<float> bins(const std::string& text) { return test::binsOf(text); }

TEST(Histogram, TheBookPhraseIsTheDefaultText)
{
    const Simulation r = run(histogram("histogram-basic", 100));
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(textOf(r).substr(0, 41), "programming massively parallel processors");
    EXPECT_EQ(textOf(r).substr(41, 10), "programmin");
}

TEST(Histogram, Fig96RequestsAndPassesEqualNsightCompute)
{
    const Simulation r = run(histogram("histogram-basic", 65536));
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    EXPECT_EQ(r.P, bins(textOf(r)));
    // l1tex__t_requests_pipe_lsu_mem_global_op_red.sum and l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum
    // on an H200: 2048 and 17 184.
    EXPECT_EQ(r.counters.totals.global_atom_requests, 2048u);
    EXPECT_EQ(r.counters.totals.global_atom_passes, 17184u);
    const auto [requests, passes] = requestsAndPasses(textOf(r));
    EXPECT_EQ(r.counters.totals.global_atom_requests, requests);
    EXPECT_EQ(r.counters.totals.global_atom_passes, passes);
    // Each warp loads its 32 characters in one request of one 32-byte sector.
    EXPECT_EQ(r.counters.totals.global_ld_requests, 2048u);
    EXPECT_EQ(r.counters.totals.global_ld_sectors, 2048u);
}

TEST(Histogram, Fig910SharedInstructionsAndGlobalRequestsEqualNsightCompute)
{
    const Simulation r = run(histogram("histogram-private-shared", 65536));
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    // smsp__inst_executed_op_shared_atom.sum 2048 and 256 global REDs on an H200.
    EXPECT_EQ(r.counters.totals.shared_atom_requests, 2048u);
    EXPECT_EQ(r.counters.totals.global_atom_requests, 256u);
    const auto [requests, passes] = requestsAndPasses(textOf(r));
    EXPECT_EQ(r.counters.totals.shared_atom_passes, passes);
    EXPECT_EQ(r.counters.totals.shared_atom_requests, requests);
    // Privatization cuts the global atomics by the block size: one per non-empty bin a block.
    EXPECT_EQ(r.counters.totals.global_atomics, 256u * 7u);
    EXPECT_EQ(r.hazards.raw + r.hazards.war + r.hazards.waw, 0u);
}

TEST(Histogram, EveryRowCountsEveryBinExactlyAtRaggedLengths)
{
    for (const char* kernel : kRows)
        for (int n : {1, 31, 1000, 4097, 65537})
            for (int skew : {-1, 0, 80}) {
                const int tile = std::string(kernel) == "histogram-private-global" ? 256 : n % 2 ? 32 : 1024;
                TextInput text;
                text.skew = skew;
                const Simulation r = run(histogram(kernel, n, tile, text));
                ASSERT_EQ(r.error, "") << kernel << " " << n;
                const std::vector<float> want = bins(textOf(r));
                const std::vector<float> got(r.P.begin(), r.P.begin() + 7);
                EXPECT_EQ(got, want) << kernel << " N " << n << " skew " << skew;
                EXPECT_TRUE(r.matchesReference) << kernel << " N " << n << " skew " << skew;
                EXPECT_EQ(r.hazards.raw + r.hazards.war + r.hazards.waw, 0u) << kernel;
            }
}

TEST(Histogram, Fig99PassesCountEach128ByteLineEqualNsightCompute)
{
    // Each block's private copy is 28 bytes at byte 28 x blockIdx.x, so a warp's atomic may
    // touch two 128-byte lines and take the most lanes on one bin in each, one line after
    // the other. l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum on an H200: 18 839 at
    // 65 536 characters, 28 766 at 100 001 (requests 2303 and 3516, equal either way).
    for (const auto& [n, requests, passes] : {std::tuple{65536, 2303u, 18839u}, std::tuple{100001, 3516u, 28766u}}) {
        const Simulation r = run(histogram("histogram-private-global", n));
        ASSERT_EQ(r.error, "");
        EXPECT_TRUE(r.matchesReference);
        EXPECT_EQ(r.counters.totals.global_atom_requests, requests) << n;
        EXPECT_EQ(r.counters.totals.global_atom_passes, passes) << n;
    }
    // Worked out here: per warp request, the most lanes on one bin within each line.
    const Simulation r = run(histogram("histogram-private-global", 65536));
    const std::string t = textOf(r);
    uint64_t passes = 0;
    for (size_t w = 0; w < t.size(); w += 32) {
        std::map<long long, std::map<long long, uint64_t>> lines;   // line -> byte -> lanes
        for (size_t i = w; i < w + 32; ++i)
            if (t[i] >= 'a' && t[i] <= 'z') {
                const long long byte = 4ll * (7ll * static_cast<long long>(i / 256) + (t[i] - 'a') / 4);
                ++lines[byte / 128][byte];
            }
        for (const auto& [line, bytes] : lines) {
            uint64_t most = 0;
            for (const auto& [byte, lanes] : bytes) most = std::max(most, lanes);
            passes += most;
        }
    }
    passes += 255;   // blocks 1 to 255 merge their seven non-empty bins into one line, one pass each
    EXPECT_EQ(r.counters.totals.global_atom_passes, passes);
}

TEST(Histogram, Fig99KeepsEachBlocksPrivateCopy)
{
    const Simulation r = run(histogram("histogram-private-global", 1000));
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.P.size(), 4u * 7u);   // four blocks of 256
    const std::string t = textOf(r);
    EXPECT_EQ(std::vector<float>(r.P.begin(), r.P.begin() + 7), bins(t));
    uint64_t merges = 0;
    for (size_t b = 1; b < 4; ++b) {
        const std::vector<float> own = bins(t.substr(b * 256, 256));
        EXPECT_EQ(std::vector<float>(r.P.begin() + static_cast<long>(b * 7), r.P.begin() + static_cast<long>(b * 7 + 7)), own);
        merges += static_cast<uint64_t>(std::count_if(own.begin(), own.end(), [](float c) { return c > 0; }));
    }
    // Every letter is a global atomic on its block's copy; then each non-empty bin of blocks
    // 1 to 3 one more, into block 0's copy.
    uint64_t letters = 0;
    for (char c : t) letters += c >= 'a' && c <= 'z';
    EXPECT_EQ(r.counters.totals.global_atomics, letters + merges);
}

TEST(Histogram, InterleavedLoadsTouchAQuarterOfTheContiguousSectors)
{
    const Simulation contiguous = run(histogram("histogram-contiguous", 65536));
    const Simulation interleaved = run(histogram("histogram-interleaved", 65536));
    ASSERT_EQ(contiguous.error, "");
    ASSERT_EQ(interleaved.error, "");
    // Both: 65536 / 4 threads, four characters each, a load request per warp and character.
    EXPECT_EQ(contiguous.counters.totals.global_ld_requests, 2048u);
    EXPECT_EQ(interleaved.counters.totals.global_ld_requests, 2048u);
    // Contiguous: lane t reads byte 4t + k, the warp's 32 loads span 128 bytes, 4 sectors.
    // Interleaved: 32 consecutive bytes, one sector.
    EXPECT_EQ(contiguous.counters.totals.global_ld_sectors, 4u * 2048u);
    EXPECT_EQ(interleaved.counters.totals.global_ld_sectors, 2048u);
}

TEST(Histogram, AggregationSavesSharedAtomicsOnSkewedTextOnly)
{
    TextInput skewed;
    skewed.skew = 90;
    const Simulation plain = run(histogram("histogram-interleaved", 65536, 256, skewed));
    const Simulation aggregated = run(histogram("histogram-aggregated", 65536, 256, skewed));
    ASSERT_EQ(plain.error, "");
    ASSERT_EQ(aggregated.error, "");
    EXPECT_EQ(aggregated.P, plain.P);
    // Worked out per thread: an atomic for each run of one bin among its letters.
    const std::string t = textOf(aggregated);
    const unsigned threads = 65536 / 4;
    uint64_t runs = 0;
    for (unsigned tid = 0; tid < threads; ++tid) {
        int prev = -1;
        for (size_t i = tid; i < t.size(); i += threads)
            if (t[i] >= 'a' && t[i] <= 'z' && (t[i] - 'a') / 4 != prev) ++runs, prev = (t[i] - 'a') / 4;
    }
    EXPECT_EQ(aggregated.counters.totals.shared_atomics, runs);
    uint64_t letters = 0;
    for (char c : t) letters += c >= 'a' && c <= 'z';
    EXPECT_EQ(plain.counters.totals.shared_atomics, letters);
    EXPECT_LT(aggregated.counters.totals.shared_atomics, letters / 2);
}

TEST(Histogram, ThePanelsModelGroupsEachWarpsAtomicWithItsPasses)
{
    SimOptions o;
    o.threads = 2;
    o.trace = true;
    const Simulation r = simulate(histogram("histogram-basic", 65536), o);
    ASSERT_EQ(r.error, "");
    const HistogramPicture h = histogramPicture(r.trace);
    const std::string block0 = textOf(r).substr(0, 256);
    const auto [requests, passes] = requestsAndPasses(block0);
    ASSERT_EQ(h.requests.size(), requests);
    uint64_t sum = 0;
    for (const BinRequest& q : h.requests) {
        sum += static_cast<uint64_t>(q.passes());
        for (const BinLane& l : q.lanes) {
            const char c = block0[l.thread];
            EXPECT_EQ(l.character, c);
            EXPECT_EQ(l.bin, (c - 'a') / 4);
            EXPECT_EQ(l.after, l.before + 1.0f);
        }
    }
    EXPECT_EQ(sum, passes);
    // The bins after the block's last atomic hold at least the block's own letters (blocks
    // run in order, so block 0's atomics see nothing before them).
    EXPECT_EQ(h.valuesAt(h.binArrays.front(), 7, INT32_MAX), bins(block0));
    // Traced block 1 (blocks run in order): before its first atomic the global bins hold
    // block 0's letters, taken from the earliest atomic on each bin, not the first listed.
    Scenario one = histogram("histogram-basic", 65536);
    one.block = Uint3{1, 0, 0};
    const Simulation r1 = simulate(one, o);
    const HistogramPicture h1 = histogramPicture(r1.trace);
    EXPECT_EQ(h1.valuesAt(h1.binArrays.front(), 7, -1), bins(block0));
    EXPECT_EQ(h1.valuesAt(h1.binArrays.front(), 7, INT32_MAX), bins(textOf(r1).substr(0, 512)));
    // One load per warp of 32 consecutive characters: one sector each.
    ASSERT_EQ(h.loads.size(), 8u);
    for (const TextLoad& l : h.loads) EXPECT_EQ(l.sectors(), 1);
}

TEST(Histogram, RandomTextHasTheSkewAsked)
{
    TextInput t;
    t.skew = 50;
    const std::vector<float> v = textValues(t, 100000, 3);
    const long e = std::count(v.begin(), v.end(), static_cast<float>('e'));
    // 50% 'e' plus a 27th of the rest.
    EXPECT_NEAR(static_cast<double>(e) / 100000.0, 0.5 + 0.5 / 27.0, 0.01);
    for (float c : v) EXPECT_TRUE(c == ' ' || (c >= 'a' && c <= 'z'));
    t.skew = 0;
    const std::vector<float> u = textValues(t, 100000, 3);
    EXPECT_NEAR(static_cast<double>(std::count(u.begin(), u.end(), static_cast<float>('e'))) / 100000.0, 1.0 / 27.0, 0.005);
}

TEST(Histogram, ATextIsCheckedBeforeItIsCounted)
{
    EXPECT_EQ(checkText("plain text\nwith lines\t", "t"), "");
    EXPECT_EQ(checkText("caf\xC3\xA9 \xE2\x80\x9Cquoted\xE2\x80\x9D", "t"), "");
    EXPECT_EQ(checkText("", "The text"), "The text is empty; a histogram needs at least one character.");
    EXPECT_EQ(checkText(std::string("ab\0cd", 5), "The file x.bin"),
              "The file x.bin is not text: byte 2 is 0 (a control character; is it a binary file?).");
    EXPECT_EQ(checkText("ab\xFF", "f"), "f is not text: byte 2 is 255 (not UTF-8; is it a binary file?).");
    EXPECT_EQ(checkText("ab\xC3", "f"), "f is not text: byte 2 is 195 (not UTF-8; is it a binary file?).");
    EXPECT_NE(checkText(std::string(kMaxTextBytes + 1, 'a'), "f").find("more than the 1048576 (1 MiB)"), std::string::npos);
    EXPECT_EQ(checkText(std::string(kMaxTextBytes, 'a'), "f"), "");
}

TEST(Histogram, ArrayDescriptionsTakeElementTypes)
{
    ArraySpecFault fault;
    auto spec = readArraySpec("in char data[N], out unsigned int histo[7] = 0", "N = 100",
                              "histo[b] = count(data, 'a' + 4 * b, min('a' + 4 * b + 3, 'z'))", "f.cu", fault);
    ASSERT_TRUE(spec) << fault.message;
    EXPECT_EQ(spec->arrays[0].type, ElementType::Char);
    EXPECT_EQ(spec->arrays[1].type, ElementType::Unsigned);
    EXPECT_TRUE(spec->arrays[1].hasStart);
    spec = readArraySpec("in float a[N], in int b[N] = 0..3, out int c[N]", "N = 10", "c[i] = b[i]", "f.cu", fault);
    ASSERT_TRUE(spec) << fault.message;
    EXPECT_EQ(spec->arrays[0].type, ElementType::Float);
    EXPECT_EQ(spec->arrays[1].type, ElementType::Int);
    EXPECT_FALSE(readArraySpec("in float a[N], out char c[N]", "N = 10", "c[i] = a[i]", "f.cu", fault));
    EXPECT_EQ(fault.message, "a char array is an input of text (`in char data[N]`); an output is float, int or unsigned");
    EXPECT_FALSE(readArraySpec("in char a[N] = 0..3, out int c[N]", "N = 10", "c[i] = a[i]", "f.cu", fault));
    EXPECT_FALSE(readArraySpec("in int a[N], out int c[N]", "N = 10", "c[i] = a[i]", "f.cu", fault));
    EXPECT_NE(fault.message.find("`in int a[n] = LO..HI`"), std::string::npos) << fault.message;
}

TEST(Histogram, CountInAFormulaCountsWithinItsBoundsAndRange)
{
    const std::vector<float> data = {'a', 'b', 'e', 'z', ' ', 'a', 'q'};
    FormulaArray in{"data", 1, 7, false, &data};
    FormulaArray out{"h", 1, 3, false, nullptr};
    ArrayFormula f;
    ASSERT_EQ(f.parse("h[b] = b == 0 ? count(data, 'a', 'd') : b == 1 ? count(data, 'a', 'z', 4, 6) : count(data, 32, 32)",
                      out, {in}, {}),
              "");
    uint64_t flops = 0;
    std::string error;
    EXPECT_EQ(f.evaluateAll({}, flops, error), (std::vector<float>{3, 2, 1}));
    EXPECT_EQ(error, "");
    EXPECT_NE(f.parse("h[b] = count(data, 1)", out, {in}, {}).find("count takes an input array and two bounds"),
              std::string::npos);
    EXPECT_NE(f.parse("h[b] = count(nope, 1, 2)", out, {in}, {}).find("nope is not an input array"), std::string::npos);
    EXPECT_NE(f.parse("h[b] = 'ab'", out, {in}, {}).find("a character literal is one plain character"), std::string::npos);
}

}  // namespace
}  // namespace ts::sim
