#!/usr/bin/env python3
"""Counts the family branches left in the views and the teaching models (issue 39).

A family branch is a line of app/gui/ or sim/teaching/ code (comments left out) that asks
which family of problem a kernel solves: sim::Family::..., familyOf(), isConvolution(),
`.family ==` / `->family !=`, or a family's name compared as a string. The goal is none:
the views choose their pictures by array and shape, and narration and questions take
names and roles from the problem's description.

  family_branches.py ROOT MAX   prints the count by file; exits 1 if it is over MAX

CTest runs it with MAX the count at the last commit that lowered it (a ratchet): a new
branch fails, and each removal lowers MAX in tests/CMakeLists.txt.
"""
import os
import re
import sys

PATTERN = re.compile(r'Family::|\bisConvolution\(|\bfamilyOf\(|(\.|->)family\s*[!=]=|\bfamily\s*[!=]=\s*"(matmul|conv1d|conv2d|array)"|\bfamilyName\(')


def count(root):
    found = {}
    for top in ("app/gui", "sim/teaching"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for line in f:
                        code = line.split("//", 1)[0]
                        if PATTERN.search(code):
                            rel = os.path.relpath(path, root)
                            found[rel] = found.get(rel, 0) + 1
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = count(sys.argv[1])
    total = sum(found.values())
    for path, n in sorted(found.items(), key=lambda x: (-x[1], x[0])):
        print("%4d  %s" % (n, path))
    print("family branches in app/gui and sim/teaching: %d (at most %s allowed)" % (total, sys.argv[2]))
    sys.exit(1 if total > int(sys.argv[2]) else 0)


if __name__ == "__main__":
    main()
