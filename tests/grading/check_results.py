#!/usr/bin/env python3
"""Checks the files `tilescope-cli grade` writes for a class and for the course platforms,
field by field, against the formats docs/grading.md cites (Gradescope's autograder
specifications, PrairieLearn's external grading results). Exit 1 with every problem found.

  check_results.py class OUT N        OUT of `grade --submissions`: N submissions
  check_results.py gradescope FILE [--full | --partial | --zero]
  check_results.py prairielearn FILE [--full | --partial | --zero | --ungradable]
"""
import csv
import json
import math
import sys

problems = []


def problem(text):
    problems.append(text)


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_fields(obj, where, required, optional=()):
    """Every required key present with its type, nothing outside required + optional."""
    if not isinstance(obj, dict):
        problem(f"{where}: not a JSON object")
        return
    for key, kind in required.items():
        if key not in obj:
            problem(f"{where}: '{key}' is missing")
        elif not kind(obj[key]):
            problem(f"{where}: '{key}' has the wrong type: {obj[key]!r}")
    for key in obj:
        if key not in required and key not in optional:
            problem(f"{where}: '{key}' is not a field of the format")


def is_str(v):
    return isinstance(v, str)


def is_bool(v):
    return isinstance(v, bool)


def is_list(v):
    return isinstance(v, list)


def gradescope(path, expect=None):
    """Gradescope autograder specifications, results.json."""
    with open(path) as f:
        r = json.load(f)
    check_fields(r, path, {"score": number, "output": is_str, "tests": is_list},
                 {"execution_time": lambda v: isinstance(v, int) and v >= 0, "visibility": is_str,
                  "stdout_visibility": is_str, "extra_data": lambda v: isinstance(v, dict)})
    tests = r.get("tests", [])
    total = 0.0
    maximum = 0.0
    for i, t in enumerate(tests):
        where = f"{path}: tests[{i}]"
        check_fields(t, where, {"name": is_str, "score": number, "max_score": number, "status": is_str,
                                "output": is_str, "visibility": is_str}, {"number": is_str, "tags": is_list})
        if t.get("status") not in ("passed", "failed"):
            problem(f"{where}: status is {t.get('status')!r}, not passed or failed")
        if t.get("visibility") not in ("hidden", "after_due_date", "after_published", "visible"):
            problem(f"{where}: visibility {t.get('visibility')!r} is not one of Gradescope's")
        if number(t.get("score")) and number(t.get("max_score")):
            if not 0 <= t["score"] <= t["max_score"]:
                problem(f"{where}: score {t['score']} outside 0..max_score {t['max_score']}")
            if t.get("status") == "failed" and t["score"] != 0:
                problem(f"{where}: a failed test with points")
            total += t["score"]
            maximum += t["max_score"]
    if tests and number(r.get("score")) and abs(r["score"] - total) > 1e-9:
        problem(f"{path}: score {r['score']} is not the sum of the tests' {total}")
    if expect == "full" and (not tests or abs(total - maximum) > 1e-9 or maximum <= 0):
        problem(f"{path}: expected every point, got {total} of {maximum}")
    if expect == "partial" and not 0 < total < maximum:
        problem(f"{path}: expected some points but not all, got {total} of {maximum}")
    if expect == "zero" and total != 0:
        problem(f"{path}: expected no points, got {total}")
    return r


def prairielearn(path, expect=None):
    """PrairieLearn external grading, /grade/results/results.json."""
    with open(path) as f:
        r = json.load(f)
    if r.get("gradable", True) is False:
        check_fields(r, path, {"gradable": is_bool}, {"score": number, "message": is_str, "output": is_str,
                                                       "format_errors": lambda v: is_str(v) or is_list(v), "tests": is_list})
        if expect not in (None, "ungradable"):
            problem(f"{path}: not gradable, expected {expect}")
        return r
    check_fields(r, path, {"gradable": is_bool, "score": number, "message": is_str, "output": is_str, "tests": is_list},
                 {"images": is_list, "format_errors": lambda v: is_str(v) or is_list(v)})
    if number(r.get("score")) and not 0.0 <= r["score"] <= 1.0:
        problem(f"{path}: score {r['score']} is outside 0..1")
    total = 0.0
    maximum = 0.0
    for i, t in enumerate(r.get("tests", [])):
        where = f"{path}: tests[{i}]"
        check_fields(t, where, {"name": is_str, "points": number, "max_points": number, "message": is_str, "output": is_str},
                     {"description": is_str, "images": is_list})
        if number(t.get("points")) and number(t.get("max_points")):
            if not 0 <= t["points"] <= t["max_points"]:
                problem(f"{where}: points {t['points']} outside 0..max_points {t['max_points']}")
            total += t["points"]
            maximum += t["max_points"]
    if maximum > 0 and number(r.get("score")) and abs(r["score"] - total / maximum) > 1e-9:
        problem(f"{path}: score {r['score']} is not points / max_points = {total / maximum}")
    if expect == "full" and r.get("score") != 1.0:
        problem(f"{path}: expected score 1, got {r.get('score')}")
    if expect == "partial" and not 0 < r.get("score", 0) < 1:
        problem(f"{path}: expected a score between 0 and 1, got {r.get('score')}")
    if expect == "zero" and r.get("score") != 0:
        problem(f"{path}: expected score 0, got {r.get('score')}")
    if expect == "ungradable":
        problem(f"{path}: expected gradable false")
    return r


def klass(out, count):
    with open(f"{out}/grades.json") as f:
        j = json.load(f)
    names = [c["name"] for c in j["checks"]]
    if len(j["submissions"]) != count:
        problem(f"grades.json: {len(j['submissions'])} submissions, expected {count}")
    for s in j["submissions"]:
        got = [c["name"] for c in s["checks"]]
        if got != names:
            problem(f"grades.json: {s['submission']} has checks {got}, not the exercise's {names}")
        for c in s["checks"]:
            if not c["passed"] and not c.get("skipped") and not c["diagnosis"]:
                problem(f"grades.json: {s['submission']}: failed check {c['name']} without a diagnosis")
        if abs(sum(c["points"] for c in s["checks"]) - s["score"]) > 1e-9:
            problem(f"grades.json: {s['submission']}: score is not the sum of its checks")
        if s["max_score"] != j["max_score"]:
            problem(f"grades.json: {s['submission']}: max_score {s['max_score']} differs from the exercise's {j['max_score']}")
    with open(f"{out}/grades.csv", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    if header[:7] != ["submission", "file", "graded", "passed", "score", "max_score", "seconds"] or header[-1] != "first_failure":
        problem(f"grades.csv: header {header[:7]} ... {header[-1]}")
    if header[7:-1] != names:
        problem("grades.csv: the check columns are not the exercise's checks")
    if len(rows) - 1 != count:
        problem(f"grades.csv: {len(rows) - 1} rows, expected {count}")
    for row in rows[1:]:
        if len(row) != len(header):
            problem(f"grades.csv: row {row[0]!r} has {len(row)} fields, the header {len(header)}")
    for s in j["submissions"]:
        base = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in s["submission"])
        if not base or base[0] == ".":
            base = "_" + base
        gradescope(f"{out}/gradescope/{base}.json")
        prairielearn(f"{out}/prairielearn/{base}.json")
    return j


def main():
    what = sys.argv[1]
    expect = sys.argv[3][2:] if len(sys.argv) > 3 and sys.argv[3].startswith("--") else None
    if what == "class":
        klass(sys.argv[2], int(sys.argv[3]))
    elif what == "gradescope":
        gradescope(sys.argv[2], expect)
    elif what == "prairielearn":
        prairielearn(sys.argv[2], expect)
    else:
        problem(f"unknown check {what}")
    for p in problems:
        print(p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
