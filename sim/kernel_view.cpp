#include "kernel_view.hpp"

#include <algorithm>
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
    // coarsened rung the N tile is COARSE_FACTOR tiles wide, loaded one after the other,
    // and on the warp-tiled rung the M tile is two tiles tall.
    const int T = s.tile, K = info->tileK > 0 ? info->tileK : T, W = T * info->blockColsFactor;
    const int H = T * info->blockRowsFactor;
    if (array == "M") return TileRect{static_cast<int>(block.y) * H, phase * K, H, K};
    if (array == "N") return TileRect{phase * K, static_cast<int>(block.x) * W, K, W};
    return std::nullopt;
}

namespace {

/// The warp-tile layout of KernelInfo::warpRows/warpCols for a block of `blockDim` threads.
struct WarpTiles {
    long long tr, tc, wm, wn, warpsN, lanesX, rowStep, colStep;
    WarpTiles(const KernelInfo& k, const Dim3& blockDim)
        : tr(k.threadRows), tc(k.threadCols), wm(k.warpRows), wn(k.warpCols),
          warpsN(std::max<long long>(1, blockDim.x * k.threadCols / k.warpCols)), lanesX(k.warpCols / k.threadCols),
          rowStep(k.warpRows / (k.threadRows / 4)), colStep(k.warpCols / (k.threadCols / 4))
    {
    }
    /// Element (m, n) of thread t's registers, relative to the block's tile.
    PElement element(long long t, long long m, long long n) const
    {
        const long long warp = t / 32, lane = t % 32;
        const long long wr = (warp / warpsN) * wm, wc = (warp % warpsN) * wn;
        return PElement{wr + (m / 4) * rowStep + (lane / lanesX) * 4 + m % 4,
                        wc + (n / 4) * colStep + (lane % lanesX) * 4 + n % 4};
    }
    /// The linear thread that holds element (r, c) of the block's tile.
    long long owner(long long r, long long c) const
    {
        const long long warp = (r / wm) * warpsN + c / wn;
        const long long ly = (r % wm % rowStep) / 4, lx = (c % wn % colStep) / 4;
        return warp * 32 + ly * lanesX + lx;
    }
};

}  // namespace

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
        if (k->warpRows > 0) {
            const PElement e = WarpTiles(*k, blockDim).element(ty * bdx + tx, 0, 0);
            return PElement{by * rows + e.row, bx * cols + e.col};
        }
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
    if (k && k->warpRows > 0) {
        // Pieces of 4 x 4 spread over the warp's tile (KernelInfo::warpRows).
        const WarpTiles w(*k, blockDim);
        const long long t = ty * blockDim.x + tx;
        const long long row0 = static_cast<long long>(block.y) * blockDim.y * tr;
        const long long col0 = static_cast<long long>(block.x) * blockDim.x * tc;
        for (int m = 0; m < tr; ++m)
            for (int n = 0; n < tc; ++n) {
                const PElement e = w.element(t, m, n);
                out.push_back(PElement{row0 + e.row, col0 + e.col});
            }
        return out;
    }
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

PElementOwner ownerOfPElement(const Scenario& s, long long row, long long col)
{
    const Dim3 bd = launchShape(s).block;
    const long long bdx = bd.x, bdy = bd.y;
    const KernelInfo* k = findKernel(s.kernel);
    if (k && (k->threadRows > 1 || k->threadCols > 1)) {
        // A rung of the optimisation ladder: a block covers bdy*tr rows and bdx*tc columns;
        // within it the thread's elements lie side by side, TILE apart (coarsening), in
        // halves half a block tile apart, or in pieces of a warp tile (threadPElements).
        const long long tr = k->threadRows, tc = k->threadCols, rows = bdy * tr, cols = bdx * tc;
        const long long r = row % rows, c = col % cols;
        const Uint3 b{static_cast<unsigned>(col / cols), static_cast<unsigned>(row / rows), 0};
        if (k->warpRows > 0) {
            const long long t = WarpTiles(*k, bd).owner(r, c);
            return PElementOwner{b, t % bdx, t / bdx};
        }
        if (k->threadColsStrided) return PElementOwner{b, c % bdx, r / tr};
        if (k->threadTileSplit) return PElementOwner{b, (c % (cols / 2)) / (tc / 2), (r % (rows / 2)) / (tr / 2)};
        return PElementOwner{b, c / tc, r / tr};
    }
    // pElementOf is Row = by*bdy + ty, Col = bx*bdx + tx, or with rowFromX Row = bx*bdx + tx,
    // Col = by*bdy + ty: the axis that runs along the rows is divided out of the row.
    const long long xi = rowFromX(s) ? row : col, yi = rowFromX(s) ? col : row;
    return PElementOwner{Uint3{static_cast<unsigned>(xi / bdx), static_cast<unsigned>(yi / bdy), 0}, xi % bdx,
                         yi % bdy};
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
    if (source.empty() || r < 0 || c < 0) return std::nullopt;
    const std::optional<TileRect> tile = phaseTile(s, block, phase, source);
    if (!tile) return std::nullopt;
    if (const KernelInfo* k = findKernel(s.kernel); k->tileK > 0) {
        // A register-tiled rung: Mds is BM x BK, or BK x BM transposed, Nds BK x BN, each
        // twice over in a double buffer (rows buf*BK + ...); the index along k is taken
        // modulo BK. Slots past the tile (the padding of a transposed Mds) hold no element.
        const int K = k->tileK;
        int rr = r % K, cc = c;   // Nds
        if (sharedArray == "Mds") {
            rr = k->mdsTransposed ? c : r;
            cc = k->mdsTransposed ? r % K : c % K;
        }
        if (rr >= tile->rows || cc >= tile->cols) return std::nullopt;
        return PElement{tile->row0 + rr, tile->col0 + cc};
    }
    if (r >= s.tile || c >= s.tile) return std::nullopt;
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

std::string writtenArrayName(const Scenario& s, const ArrayInfo& a)
{
    return familyOf(s) == Family::Conv2D && a.space == Space::Constant ? std::string("Mc") : a.name;
}

std::vector<AccessExplanation> explainAccesses(const Scenario& s, const Trace& t, int thread,
                                               int step, const std::string& source)
{
    std::vector<AccessExplanation> out;
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return out;
    const Variables vars = threadVariables(s, t, thread, step);
    // The names the source writes: conv2d's mask in constant memory is Mc, the trace's M.
    std::vector<std::string> names;
    for (const ArrayInfo& a : t.arrays) names.push_back(writtenArrayName(s, a));

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
            if (!la.used[a] && la.accesses[a].array == writtenArrayName(s, info)) {
                la.used[a] = true;
                acc = &la.accesses[a];
            }
        if (!acc) {
            x.error = "Line " + std::to_string(e.line) + " of the source shows no access to " +
                      writtenArrayName(s, info) + ".";
            out.push_back(x);
            continue;
        }
        x.written = acc->text();
        x.substituted = writtenArrayName(s, info);
        x.evaluated = writtenArrayName(s, info);
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
