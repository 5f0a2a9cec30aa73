#!/usr/bin/env bash
# Grades a stand-in class of 35 submissions of exercise tiled-matmul-boundary, right, wrong
# and hostile, with `tilescope-cli grade --submissions --jobs 2` (issue 38), then checks
# grades.csv, grades.json and every submission's Gradescope and PrairieLearn results file
# field by field (tests/grading/check_results.py), and that the right ones got every point
# and the others fewer. CTest runs it as grading.class: class_check.sh CLI
set -euo pipefail
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
class=$work/class
mkdir -p "$class"
t=$root/tests/student
# Right: the reference solution and the same kernel under four naming schemes.
cp "$t/solutions/tiled-matmul-boundary.cu" "$class/right_solution.cu"
for f in pmpp_names rows_inner_cols lab_six_sizes output_first; do cp "$t/naming/$f.cu" "$class/right_$f.cu"; done
# Wrong: the starter and the common mistakes.
cp "$root/assets/exercises/tiled-matmul-boundary.cu" "$class/wrong_starter.cu"
for f in swapped_mds_index missing_barrier_after_load missing_barrier_after_compute no_boundary_check_ragged \
         off_by_one_boundary compile_error barrier_in_branch shared_write_out_of_bounds const_output divide_by_zero \
         endless_loop printf_debugging dynamic_shared double_pointer; do
  cp "$t/wrong/$f.cu" "$class/wrong_$f.cu"
done
# Hostile: files written to harm the grader or the machine (tests/student/hostile/).
for f in asm_syscall_in_kernel embed_secret include_secret_absolute fork_extern_c_block proc_self_environ_fopen \
         write_flood_stdout builtin_trap open_write_file_scope system_extern_c define_expansion_bomb oversize_file; do
  cp "$t/hostile/$f.cu" "$class/hostile_$f.cu"
done
# Folders, as course platforms hand them out: one file deep inside, two files, none, and a
# link to a file outside that must not be followed.
mkdir -p "$class/folder_nested/src/kernels" "$class/folder_two_files" "$class/folder_empty"
cp "$t/solutions/tiled-matmul-boundary.cu" "$class/folder_nested/src/kernels/matmul.cu"
cp "$t/solutions/tiled-matmul-boundary.cu" "$class/folder_two_files/a.cu"
cp "$t/solutions/tiled-matmul-boundary.cu" "$class/folder_two_files/b.cu"
echo "notes" > "$class/folder_empty/README.txt"
ln -s /etc/passwd "$class/link_to_passwd.cu"
count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
[ "$count" -ge 30 ]

out=$work/out
start=$(date +%s.%N)
"$cli" grade --exercise tiled-matmul-boundary --submissions "$class" --jobs 2 --out "$out"
end=$(date +%s.%N)
python3 "$root/tests/grading/check_results.py" class "$out" "$count"
python3 - "$out" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1] + "/grades.json"))
by = {s["submission"]: s for s in j["submissions"]}
full = j["max_score"]
bad = []
for name, s in by.items():
    right = name.startswith("right_") or name == "folder_nested"
    if right and s["score"] != full:
        bad.append(f"{name}: {s['score']} of {full}, expected every point")
    if not right and s["score"] >= full:
        bad.append(f"{name}: every point for a wrong, hostile or ungradable submission")
for name in ("folder_two_files", "folder_empty", "link_to_passwd"):
    if by[name]["graded"]:
        bad.append(f"{name}: graded, expected 'not graded' with a reason")
if "passwd" in json.dumps(by["link_to_passwd"]) and "root:" in json.dumps(by["link_to_passwd"]):
    bad.append("the link's target was read")
for line in bad:
    print(line, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
python3 -c "import sys; n=int(sys.argv[1]); s=float(sys.argv[3])-float(sys.argv[2]); print(f'grading.class: {n} submissions in {s:.1f} s with --jobs 2: {60*n/s:.1f} per minute')" \
    "$count" "$start" "$end"
