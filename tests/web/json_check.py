#!/usr/bin/env python3
"""The web build's simulator against the native one (issue 28, docs/web-tests.md): for every
kernel of the registry (`tilescope-cli list-kernels` of the native CLI, bench-only kernels
left out) on a small and a ragged size, `OTHER simulate --kernel K SIZE --json` must print
the same bytes as the native `tilescope-cli simulate --kernel K SIZE --json`, and end with the
same exit status. No field is removed before the comparison: the JSON holds counters of the
simulation and no timings, so every byte must agree. On a difference the first JSON path
that differs is named and both outputs are kept in --out.

Usage: json_check.py --native build/bin/tilescope-cli
                     --other 'node --no-experimental-fetch build-web/bin/tilescope-cli.js'
                     [--out DIR] [--kernels K1,K2]
(NODE_PATH=/usr/share/nodejs in the environment for Debian's Node 20.) With --other the
native CLI again, the check runs without a web build (the harness's own test).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

# The two sizes of each family of kernels, chosen by the kernel's name. Small: a square a
# 16-wide tile divides (one block of the 16-tile kernels, part of one for the 128-wide ones).
# Ragged: no side a multiple of any tile (16, 32, 64, 128), so that boundary checks, zero
# fills and ghost cells are all exercised, and a mask width that is not the default.
SIZES = {
    "matmul-": [("small", ["--width", "16"]),
                ("ragged", ["--j", "19", "--k", "23", "--l", "13"])],
    "conv1d-": [("small", ["--width", "32"]),
                ("ragged", ["--width", "45", "--mask-width", "3"])],
    "conv2d-": [("small", ["--width", "16", "--height", "16"]),
                ("ragged", ["--width", "19", "--height", "11", "--mask-width", "3"])],
    # PMPP's 3D stencil (a described problem of one size, N), 3D blocks of 4^3 threads.
    "stencil-": [("small", ["--width", "8", "--tile", "4"]),
                 ("ragged", ["--width", "13", "--tile", "4"])],
    # PMPP ch. 10's sums: the one-block trees take two elements per thread of a power-of-two
    # block (no ragged size: two blocks sizes instead), the many-block ones any length.
    "reduction-simple": [("small", ["--width", "32"]), ("wider", ["--width", "128"])],
    "reduction-convergent": [("small", ["--width", "32"]), ("wider", ["--width", "128"])],
    "reduction-shared": [("small", ["--width", "32", "--tile", "16"]), ("wider", ["--width", "128", "--tile", "64"])],
    # The warp-shuffle finish needs whole warps: blocks of 32 threads and more.
    "reduction-shuffle": [("small", ["--width", "64", "--tile", "32"]), ("ragged", ["--width", "1001", "--tile", "64"])],
    "reduction-": [("small", ["--width", "64", "--tile", "16"]),
                   ("ragged", ["--width", "1001", "--tile", "32"])],
    # PMPP ch. 9's histograms over the book's phrase: whole warps a block; Fig. 9.9's row is
    # compiled for 256 threads a block only.
    "histogram-private-global": [("small", ["--width", "300", "--tile", "256"]),
                                 ("ragged", ["--width", "1001", "--tile", "256"])],
    "histogram-": [("small", ["--width", "256", "--tile", "32"]),
                   ("ragged", ["--width", "1001", "--tile", "64"])],
    # PMPP ch. 11's scans: one section in one block (at most 1, 2 or 4 elements a thread), the
    # sequential scan one thread of any length.
    "scan-sequential": [("small", ["--width", "16", "--tile", "1"]), ("ragged", ["--width", "1001", "--tile", "1"])],
    "scan-": [("small", ["--width", "16", "--tile", "16"]), ("ragged", ["--width", "61", "--tile", "64"])],
}


def registry_kernels(native):
    """The kernels `native list-kernels` names, without those it marks as bench only."""
    out = subprocess.run([native, "list-kernels"], capture_output=True, text=True, check=True).stdout
    kernels = [line.split()[0] for line in out.splitlines() if line.strip() and "(bench only)" not in line]
    if not kernels:
        raise SystemExit(f"json_check: `{native} list-kernels` named no kernel.")
    return kernels


def first_difference(a, b, path="$"):
    """The JSON path where two parsed values first differ, with both values, or None."""
    if type(a) is not type(b):
        return f"{path}: {json.dumps(a)[:80]} against {json.dumps(b)[:80]}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} against {list(b)}"
        for k in a:
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items against {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {json.dumps(a)} against {json.dumps(b)}"


def explain(native_out, other_out):
    """Why two outputs differ, in one line."""
    try:
        a, b = json.loads(native_out), json.loads(other_out)
    except json.JSONDecodeError as e:
        return f"one output is not JSON ({e})"
    d = first_difference(a, b)
    return d if d else "the same JSON written with other bytes (spacing, number format or key order)"


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True)
    return p, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--native", required=True, help="the native tilescope-cli")
    ap.add_argument("--other", required=True, help="the command that stands for tilescope-cli (shell words)")
    ap.add_argument("--out", default="json_check_out", help="folder for the outputs that differ")
    ap.add_argument("--kernels", default="", help="only these kernels, comma-separated (default: all)")
    a = ap.parse_args()
    other = shlex.split(a.other)
    kernels = registry_kernels(a.native)
    if a.kernels:
        wanted = a.kernels.split(",")
        unknown = [k for k in wanted if k not in kernels]
        if unknown:
            raise SystemExit(f"json_check: {', '.join(unknown)} is not a registry kernel (list-kernels).")
        kernels = wanted
    failures, cases, t_native, t_other = [], 0, 0.0, 0.0
    t_start = time.monotonic()
    for kernel in kernels:
        family = next((f for f in SIZES if kernel.startswith(f)), None)
        if family is None:
            failures.append(kernel)
            print(f"{kernel}: no sizes for this family of kernels; add its prefix to SIZES in json_check.py")
            continue
        for label, size in SIZES[family]:
            args = ["simulate", "--kernel", kernel, *size, "--json", "--quiet"]
            n, tn = run([a.native, *args])
            o, to = run([*other, *args])
            cases += 1
            t_native += tn
            t_other += to
            what = f"{kernel} {label} ({' '.join(size)})"
            if n.returncode != 0:
                failures.append(what)
                print(f"{what}: the native CLI failed (status {n.returncode}): {n.stderr.decode(errors='replace').strip()}")
            elif n.stdout == o.stdout and n.returncode == o.returncode:
                print(f"{what}: equal, {len(n.stdout)} bytes; native {tn:.2f} s, other {to:.2f} s")
            else:
                failures.append(what)
                os.makedirs(a.out, exist_ok=True)
                stem = os.path.join(a.out, f"{kernel}-{label}")
                for suffix, data in ((".native.json", n.stdout), (".other.json", o.stdout)):
                    with open(stem + suffix, "wb") as f:
                        f.write(data)
                why = (f"status {o.returncode} against {n.returncode}: {o.stderr.decode(errors='replace').strip()[-300:]}"
                       if n.returncode != o.returncode else explain(n.stdout, o.stdout))
                print(f"{what}: DIFFERENT ({why}); outputs in {stem}.*.json")
    summary = (f"json_check: {cases - len(failures)} of {cases} runs equal over {len(kernels)} kernels; "
               f"native {t_native:.1f} s, other {t_other:.1f} s, wall {time.monotonic() - t_start:.1f} s")
    print(summary)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "report.txt"), "w") as f:
        f.write(summary + "\n")
    if failures:
        print(f"json_check: FAILED: {', '.join(failures)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
