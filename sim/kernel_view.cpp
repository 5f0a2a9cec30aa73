#include "kernel_view.hpp"

#include <utility>

#include "kernels/context.cuh"

namespace ts::sim {

namespace {

/// The convolution kernels' variables (kernels/conv*.cuh), as threadVariables documents.
Variables convVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty)
{
    const long long bx = t.block.x, by = t.block.y, T = s.tile, mw = s.maskWidth;
    const long long bdx = t.blockDim.x, bdy = t.blockDim.y;
    Variables v{{"tx", tx}, {"ty", ty}, {"bx", bx}, {"by", by}, {"Mask_Width", mw},
                {"MAX_MASK_WIDTH", kernels::MAX_MASK_WIDTH}};
    const KernelInfo* info = findKernel(s.kernel);
    if (info->tiled) v["TILE_SIZE"] = T;
    const bool use = st && st->kind == StepKind::Use;
    if (info->family == Family::Conv1D) {
        const long long i = bx * bdx + tx;
        v["Width"] = s.width;
        v["i"] = i;
        v["n"] = mw / 2;
        v["halo_index_left"] = (bx - 1) * T + tx;
        v["halo_index_right"] = (bx + 1) * T + tx;
        v["N_start_point"] = i - mw / 2;
        v["This_tile_start_point"] = bx * T;
        v["Next_tile_start_point"] = (bx + 1) * T;
        v["Row"] = 0;
        v["Col"] = i;
        if (use) {
            v["j"] = st->iteration;
            v["N_index"] = i - mw / 2 + st->iteration;
        }
        return v;
    }
    v["width"] = s.width;
    v["height"] = s.height;
    if (info->tiled) {
        v["row_o"] = v["Row"] = by * T + ty;
        v["col_o"] = v["Col"] = bx * T + tx;
        v["row_i"] = by * T + ty - mw / 2;
        v["col_i"] = bx * T + tx - mw / 2;
    } else {
        v["Row"] = by * bdy + ty;
        v["Col"] = bx * bdx + tx;
        v["N_start_row"] = v["Row"] - mw / 2;
        v["N_start_col"] = v["Col"] - mw / 2;
    }
    if (use) {
        v["i"] = st->iteration / mw;
        v["j"] = st->iteration % mw;
        if (!info->tiled) {
            v["row_i"] = v["N_start_row"] + v["i"];
            v["col_i"] = v["N_start_col"] + v["j"];
        }
    }
    return v;
}

}  // namespace

Variables threadVariables(const Scenario& s, const Trace& t, int thread, int step)
{
    const long long tx = thread % static_cast<int>(t.blockDim.x);
    const long long ty = thread / static_cast<int>(t.blockDim.x);
    const Step* st = step >= 0 && step < static_cast<int>(t.steps.size()) ? &t.steps[step] : nullptr;
    if (familyOf(s) != Family::Matmul && findKernel(s.kernel)) return convVariables(s, t, st, tx, ty);
    const long long bx = t.block.x, by = t.block.y;
    Variables v{{"tx", tx}, {"ty", ty}, {"bx", bx}, {"by", by}, {"j", s.j}, {"k", s.k}, {"l", s.l}};
    const PElement p = pElementOf(s, t.block, t.blockDim, tx, ty);
    v["Row"] = p.row;
    v["Col"] = p.col;
    const KernelInfo* info = findKernel(s.kernel);
    const bool tiled = info && info->tiled;
    if (tiled) {
        v["TILE_WIDTH"] = s.tile;
        if (st) v["ph"] = st->phase;
    }
    if (st && st->kind == StepKind::Use) v["i"] = st->iteration;
    return v;
}

std::optional<TileRect> phaseTile(const Scenario& s, const Uint3& block, int phase,
                                  const std::string& array)
{
    const KernelInfo* info = findKernel(s.kernel);
    if (!info || !info->tiled || info->family != Family::Matmul) return std::nullopt;
    // A phase loads the block's rows of M and columns of N, tileK (BK) deep; on the
    // coarsened rung the N tile is COARSE_FACTOR tiles wide, loaded one after the other.
    const int T = s.tile, K = info->tileK > 0 ? info->tileK : T, W = T * info->blockColsFactor;
    if (array == "M") return TileRect{static_cast<int>(block.y) * T, phase * K, T, K};
    if (array == "N") return TileRect{phase * K, static_cast<int>(block.x) * W, K, W};
    return std::nullopt;
}

PElement pElementOf(const Scenario& s, const Uint3& block, const Dim3& blockDim, long long tx, long long ty)
{
    const long long bx = block.x, by = block.y, bdx = blockDim.x, bdy = blockDim.y;
    if (rowFromX(s)) return PElement{bx * bdx + tx, by * bdy + ty};
    const KernelInfo* k = findKernel(s.kernel);
    if (k && (k->threadRows > 1 || k->threadCols > 1)) {
        // A rung of the ladder: the thread's first element (the others follow down and
        // across, threadPElements).
        const long long tr = k->threadRows, tc = k->threadCols;
        const long long rows = bdy * tr, cols = bdx * tc;
        if (k->threadColsStrided) return PElement{by * rows + ty * tr, bx * cols + tx};
        if (k->threadTileSplit) return PElement{by * rows + ty * (tr / 2), bx * cols + tx * (tc / 2)};
        return PElement{by * rows + ty * tr, bx * cols + tx * tc};
    }
    return PElement{by * bdy + ty, bx * bdx + tx};
}

std::vector<PElement> threadPElements(const Scenario& s, const Uint3& block, const Dim3& blockDim, long long tx,
                                      long long ty)
{
    const PElement first = pElementOf(s, block, blockDim, tx, ty);
    const KernelInfo* k = findKernel(s.kernel);
    const int tr = k ? k->threadRows : 1, tc = k ? k->threadCols : 1;
    const long long colStep = k && k->threadColsStrided ? blockDim.x : 1;
    std::vector<PElement> out;
    if (k && k->threadTileSplit) {
        // Two halves of rows and of columns, half the block's tile apart.
        const long long halfRows = blockDim.y * tr / 2, halfCols = blockDim.x * tc / 2;
        for (int m = 0; m < tr; ++m)
            for (int n = 0; n < tc; ++n)
                out.push_back(PElement{first.row + (m / (tr / 2)) * halfRows + m % (tr / 2),
                                       first.col + (n / (tc / 2)) * halfCols + n % (tc / 2)});
        return out;
    }
    for (int m = 0; m < tr; ++m)
        for (int n = 0; n < tc; ++n) out.push_back(PElement{first.row + m, first.col + n * colStep});
    return out;
}

std::optional<TileRect> blockTileOfP(const Scenario& s, const Uint3& block)
{
    if (familyOf(s) != Family::Matmul || !findKernel(s.kernel)) return std::nullopt;
    const Dim3 bd = launchShape(s).block;
    const PElement first = pElementOf(s, block, bd, 0, 0);
    const PElement last = threadPElements(s, block, bd, bd.x - 1, bd.y - 1).back();
    return TileRect{static_cast<int>(first.row), static_cast<int>(first.col),
                    static_cast<int>(last.row - first.row + 1), static_cast<int>(last.col - first.col + 1)};
}

std::optional<PElement> tileSlotElement(const Scenario& s, const Uint3& block, int phase,
                                        const std::string& sharedArray, int r, int c)
{
    const std::string source = tileSourceArray(s, sharedArray);
    if (source.empty() || r < 0 || c < 0 || r >= s.tile || c >= s.tile) return std::nullopt;
    const std::optional<TileRect> tile = phaseTile(s, block, phase, source);
    if (!tile) return std::nullopt;
    const bool transposed = sharedArray == "Nds" && findKernel(s.kernel)->ndsTransposed;
    if (transposed) std::swap(r, c);
    return PElement{tile->row0 + r, tile->col0 + c};
}

std::string tileSourceArray(const Scenario& s, const std::string& sharedArray)
{
    const KernelInfo* info = findKernel(s.kernel);
    if (!info || !info->tiled || info->family != Family::Matmul) return {};
    if (sharedArray == "Mds") return "M";
    if (sharedArray == "Nds") return "N";
    return {};
}

std::string sourceLine(const std::string& text, unsigned line)
{
    size_t b = 0;
    for (unsigned n = 1; n < line; ++n) {
        b = text.find('\n', b);
        if (b == std::string::npos) return {};
        ++b;
    }
    if (line == 0 || b > text.size()) return {};
    size_t e = text.find('\n', b);
    return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::vector<AccessExplanation> explainAccesses(const Scenario& s, const Trace& t, int thread,
                                               int step, const std::string& source)
{
    std::vector<AccessExplanation> out;
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return out;
    const Variables vars = threadVariables(s, t, thread, step);
    // The names the source writes: conv2d's mask in constant memory is Mc, the trace's M.
    auto written = [&](const ArrayInfo& a) {
        return familyOf(s) == Family::Conv2D && a.space == Space::Constant ? std::string("Mc") : a.name;
    };
    std::vector<std::string> names;
    for (const ArrayInfo& a : t.arrays) names.push_back(written(a));

    // The textual accesses of each line, and how many of each array were matched so far.
    struct LineAccesses {
        std::vector<AccessText> accesses;
        std::vector<bool> used;
    };
    std::map<unsigned, LineAccesses> lines;

    const Step& st = t.steps[step];
    for (int n = st.begin; n < st.end; ++n) {
        const Event& e = t.events[n];
        if (e.thread != thread || e.array == kNoArray) continue;
        const ArrayInfo& info = t.arrays[e.array];
        AccessExplanation x;
        x.op = e.op;
        x.value = e.value;
        x.line = e.line;
        x.array = info.name;
        x.recorded = e.index;

        auto [it, fresh] = lines.try_emplace(e.line);
        if (fresh) {
            it->second.accesses = findAccesses(sourceLine(source, e.line), names);
            it->second.used.assign(it->second.accesses.size(), false);
        }
        LineAccesses& la = it->second;
        const AccessText* acc = nullptr;
        for (size_t a = 0; a < la.accesses.size() && !acc; ++a)
            if (!la.used[a] && la.accesses[a].array == written(info)) {
                la.used[a] = true;
                acc = &la.accesses[a];
            }
        if (!acc) {
            x.error = "Line " + std::to_string(e.line) + " of the source shows no access to " +
                      written(info) + ".";
            out.push_back(x);
            continue;
        }
        x.written = acc->text();
        x.substituted = written(info);
        x.evaluated = written(info);
        std::vector<long long> subs;
        for (const std::string& sub : acc->subscripts) {
            x.substituted.append("[").append(substitute(sub, vars)).append("]");
            Evaluation ev = evaluate(sub, vars);
            if (!ev.value) {
                x.error = ev.error;
                x.unknown = ev.unknown;
                break;
            }
            subs.push_back(*ev.value);
            x.evaluated.append("[").append(std::to_string(*ev.value)).append("]");
        }
        if (x.error.empty()) {
            // Row-major: a[r][c] is element r*cols + c; a 1D subscript is the flat index.
            if (subs.size() == 1) x.flat = subs[0];
            else if (subs.size() == 2) x.flat = subs[0] * info.cols + subs[1];
            else x.error = "Only one or two subscripts are understood; " + x.written + " has " +
                           std::to_string(subs.size()) + ".";
        }
        if (!x.error.empty()) x.evaluated.clear();
        out.push_back(x);
    }
    return out;
}

}  // namespace ts::sim
