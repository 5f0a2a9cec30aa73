#!/bin/sh
# gui.frames30: `tilescope --frames 30` measures 30 frames of the default preset and prints
# them (docs/cli.md, --frames). Checks what the numbers must satisfy whatever the machine's
# speed: 30 frames counted, each median above 0 and at most its 99th percentile, the GPU's
# time measured (an OpenGL timer query that never ran reads 0), and the app thread's CPU time
# at most the wall time it was measured over (plus 0.5 ms of clock granularity).
#   frames_check.sh TILESCOPE
set -u
out=$(LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a "$1" --frames 30 2>&1)
status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || { echo "FAIL: the app ended with status $status"; exit 1; }
printf '%s\n' "$out" | awk '
/^frames / {
    seen = 1
    for (i = 3; i < NF; i += 2) v[$i] = $(i + 1)
    bad = ""
    if ($2 != 30) bad = bad " counted " $2 " frames, not 30;"
    split("cpu_ms gpu_ms thread_cpu_ms", kinds, " ")
    for (k = 1; k <= 3; ++k) {
        m = v[kinds[k] "_median"]; p = v[kinds[k] "_p99"]
        if (m == "" || p == "") { bad = bad " no " kinds[k] ";"; continue }
        if (m + 0 <= 0) bad = bad " " kinds[k] "_median is " m ";"
        if (m + 0 > p + 0) bad = bad " " kinds[k] "_median " m " is above its p99 " p ";"
    }
    if (v["thread_cpu_ms_median"] + 0 > v["cpu_ms_median"] + 0.5)
        bad = bad " the thread used more CPU (" v["thread_cpu_ms_median"] " ms) than the frame took (" v["cpu_ms_median"] " ms);"
    if (bad != "") { print "FAIL:" bad; exit 1 }
    print "PASS: 30 frames measured, every median above 0 and at most its p99"
}
END { if (!seen) { print "FAIL: no frames line"; exit 1 } }'
