#!/usr/bin/env python3
"""The simulator's outputs before and after a refactor, byte for byte (issue 39).

Every shipped preset (simulate --json with the preset's own parameters, narrate --json and
questions --json), every built-in kernel at a ragged size, every exercise solution at the
exercise's public size and every student test kernel (tests/student/{kernels,naming,wrong})
is run through tilescope-cli; the exit status, standard output and standard error of each
run are kept in tests/golden/simulate/NAME.txt.

  simulate_golden.py capture CLI   write the files (run before a change that must not
                                   change what the simulator says)
  simulate_golden.py check CLI     run every case again and compare; a difference prints
                                   the case, its command and the first differing line
  simulate_golden.py add CLI       capture only the cases that have no golden file yet (a
                                   kernel or preset added since), leaving the others as they were

A capture records the arguments it chose for each case, and check runs those, so the two
never disagree about a case's command. Paths printed by the CLI are made relative to the
repository so that a clone anywhere gives the same bytes.
"""
import concurrent.futures
import glob
import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "golden", "simulate")

# A student's file states its launch but not its problem size; these are tried in order and
# the first that the CLI accepts is kept (recorded in the golden file). Ragged sizes, so that
# boundary checks and partial warps are part of what is compared.
SIZE_CANDIDATES = [
    [],
    ["--j", "37", "--k", "29", "--l", "45"],
    ["--width", "37", "--height", "29"],
    ["--width", "37"],
]

# Built-in kernels at a ragged size (their default tile) and the family's arguments.
MATMUL_SIZE = ["--j", "300", "--k", "37", "--l", "140", "--block", "1,1"]
CONV_SIZES = {
    "conv1d": ["--width", "100", "--mask-width", "5", "--block", "1"],
    "conv2d": ["--width", "37", "--height", "29", "--mask-width", "5", "--block", "1,1"],
}
# A described problem of one size (PMPP's stencil: N), ragged against its block edge, 3D block.
DESCRIBED_SIZE = ["--width", "37", "--block", "1,1,1"]
# Sizes a described problem may need instead, tried in order (the first the CLI runs with is
# kept): PMPP ch. 10's many-block sums take any length (a ragged one here, block 3 traced),
# the one-block ones two elements per thread of a power-of-two block.
DESCRIBED_CANDIDATES = [DESCRIBED_SIZE,
                        ["--width", "1001", "--tile", "32", "--block", "3"],
                        ["--width", "64", "--tile", "32", "--block", "0"]]


def preset_args(path):
    """simulate's arguments for a preset: the keys a scenario file and the CLI share."""
    with open(path, "rb") as f:
        s = tomllib.load(f)
    args = ["--kernel", s["kernel"]]
    # The sizes may be in a [sizes] table, a described problem's under its own name (N).
    known = ("j", "k", "l", "width", "height", "mask_width")
    for key, value in s.get("sizes", {}).items():
        s[key if key in known else "width"] = value
    for key, flag in (("j", "--j"), ("k", "--k"), ("l", "--l"), ("width", "--width"),
                      ("height", "--height"), ("mask_width", "--mask-width"),
                      ("tile", "--tile"), ("seed", "--seed"), ("schedule", "--schedule"),
                      ("schedule_seed", "--schedule-seed"), ("drop_barrier", "--drop-barrier"),
                      ("launch", "--launch")):
        if key in s:
            args += [flag, str(s[key])]
    if "block" in s:
        args += ["--block", ",".join(str(v) for v in s["block"])]
    return args


def cases():
    """(name, argv without the CLI, probe sizes?) for every case, in a fixed order."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "assets", "scenarios", "*.toml"))):
        name = os.path.basename(path)[:-5]
        rel = os.path.relpath(path, ROOT)
        out.append(("preset-simulate-" + name, ["simulate", "--json", "--quiet"] + preset_args(path), False))
        out.append(("preset-narrate-" + name, ["narrate", "--json", "--scenario", rel], False))
        out.append(("preset-questions-" + name,
                    ["questions", "--json", "--count", "20", "--scenario", rel], False))
    listing = subprocess.run([CLI, "list-kernels"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        kernel = line.split()[0]
        if kernel == "cublas":
            continue
        size = MATMUL_SIZE if kernel.startswith("matmul") else None
        for prefix, args in CONV_SIZES.items():
            if kernel.startswith(prefix):
                size = args
        if size is None:   # a described problem: its sizes probed
            out.append(("kernel-" + kernel, ["simulate", "--json", "--quiet", "--kernel", kernel], DESCRIBED_CANDIDATES))
            continue
        out.append(("kernel-" + kernel, ["simulate", "--json", "--quiet", "--kernel", kernel] + size, False))
        if kernel == "matmul-tiled":
            for extra in (["--drop-barrier", "after-load"], ["--drop-barrier", "after-compute"],
                          ["--schedule", "random", "--schedule-seed", "7"]):
                out.append(("kernel-" + kernel + "-" + "-".join(e.strip("-") for e in extra),
                            ["simulate", "--json", "--quiet", "--kernel", kernel] + size + extra, False))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "student", "solutions", "*.cu"))):
        exercise = os.path.basename(path)[:-3]
        rel = os.path.relpath(path, ROOT)
        out.append(("solution-" + exercise,
                    ["simulate", "--json", "--quiet", "--kernel-file", rel, "--exercise", exercise], False))
    for folder in ("kernels", "naming", "wrong"):
        for path in sorted(glob.glob(os.path.join(ROOT, "tests", "student", folder, "*.cu"))):
            rel = os.path.relpath(path, ROOT)
            name = "student-" + folder + "-" + os.path.basename(path)[:-3]
            out.append((name, ["simulate", "--json", "--quiet", "--kernel-file", rel], SIZE_CANDIDATES))
    return out


def run(argv):
    p = subprocess.run([CLI] + argv, capture_output=True, text=True, cwd=ROOT, timeout=600,
                       env=dict(os.environ, LC_ALL="C"))
    text = "exit: %d\n--- stdout\n%s\n--- stderr\n%s\n" % (p.returncode, p.stdout, p.stderr)
    return p.returncode, text.replace(ROOT + "/", "")


def capture_one(case):
    name, argv, probe = case
    if probe:
        # The first size the CLI runs with (exit 0, or 1 for a wrong P); a file it refuses
        # whatever the size keeps the refusal of its first candidate.
        tried = [(size,) + run(argv + size) for size in probe]
        ran = [t for t in tried if t[1] != 2] or [tried[0]]
        size, code, text = ran[0]
        argv = argv + size
    else:
        code, text = run(argv)
    with open(os.path.join(GOLDEN, name + ".txt"), "w") as f:
        f.write("args: " + " ".join(argv) + "\n" + text)
    return name


def check_one(path):
    with open(path) as f:
        want = f.read()
    first, rest = want.split("\n", 1)
    argv = first[len("args: "):].split(" ")
    _, got = run(argv)
    if got == rest:
        return None
    wl, gl = rest.splitlines(), got.splitlines()
    for i in range(max(len(wl), len(gl))):
        a = wl[i] if i < len(wl) else "<end>"
        b = gl[i] if i < len(gl) else "<end>"
        if a != b:
            return "%s: tilescope-cli %s\n  line %d was: %s\n  now:        %s" % (
                os.path.basename(path), " ".join(argv), i + 1, a[:400], b[:400])
    return "%s: differs" % os.path.basename(path)


def main():
    global CLI
    if len(sys.argv) != 3 or sys.argv[1] not in ("capture", "check", "add"):
        sys.exit(__doc__)
    CLI = os.path.abspath(sys.argv[2])
    jobs = max(1, os.cpu_count() or 1)
    if sys.argv[1] == "capture":
        os.makedirs(GOLDEN, exist_ok=True)
        for old in glob.glob(os.path.join(GOLDEN, "*.txt")):
            os.remove(old)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            names = list(pool.map(capture_one, cases()))
        print("captured %d cases into %s" % (len(names), os.path.relpath(GOLDEN, ROOT)))
        return
    files = sorted(glob.glob(os.path.join(GOLDEN, "*.txt")))
    if sys.argv[1] == "add":
        have = set(os.path.basename(f)[:-4] for f in files)
        new = [c for c in cases() if c[0] not in have]
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            names = list(pool.map(capture_one, new))
        print("added %d cases: %s" % (len(names), ", ".join(names) or "none"))
        return
    if not files:
        sys.exit("no golden files in %s: run capture first" % GOLDEN)
    # A case added since the capture has no golden file: say so rather than pass silently.
    missing = sorted(set(c[0] for c in cases()) - set(os.path.basename(f)[:-4] for f in files))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        diffs = [d for d in pool.map(check_one, files) if d]
    for d in diffs:
        print(d)
    for m in missing:
        print("%s: a case without a golden file (capture it at the commit before the change)" % m)
    print("%d of %d cases as captured" % (len(files) - len(diffs), len(files)))
    sys.exit(1 if diffs or missing else 0)


if __name__ == "__main__":
    main()
