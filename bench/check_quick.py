#!/usr/bin/python3
"""Checks the outputs of `boids-bench --quick --backend cpu`: every CSV column, a row for each
method, precision and start, hashed float within 48 bytes of memory per boid, the fits of both
methods with finite exponents of the right shape, and a non-trivial PNG.

    check_quick.py QUICK.csv QUICK.json QUICK.png
"""
import csv
import json
import math
import os
import sys

COLUMNS = ["backend", "method", "precision", "state", "count", "ms_per_step", "boid_steps_per_second",
           "pair_interactions_per_second", "candidates_per_boid", "neighbors_per_boid", "bytes_per_boid"]
NUMERIC = COLUMNS[4:] + ["fraction_of_limit", "traffic_bytes_per_boid"]
HASHED_FLOAT_BYTES = 48  # memory per boid a hashed float flock may hold
EXPONENTS = {"naive": (1.5, 2.5), "hashed": (0.5, 1.5)}


def check(csv_path, json_path, png_path):
    problems = []
    with open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        rows = list(reader)
    for column in COLUMNS + ["device", "hardware", "traffic_bytes_per_boid"]:
        if column not in header:
            problems.append(f"{csv_path}: no column '{column}'")
    if problems:
        return problems
    for i, row in enumerate(rows):
        for column in NUMERIC:
            try:
                value = float(row[column])
            except ValueError:
                problems.append(f"{csv_path} row {i + 1}: {column} '{row[column]}' is not a number")
                continue
            if not math.isfinite(value) or value < 0:
                problems.append(f"{csv_path} row {i + 1}: {column} {value} is not finite and >= 0")
        if not row["device"] or not row["hardware"]:
            problems.append(f"{csv_path} row {i + 1}: no device or hardware")
        if (row["method"], row["precision"]) == ("hashed", "float") and \
                not float(row["bytes_per_boid"]) <= HASHED_FLOAT_BYTES:
            problems.append(f"{csv_path} row {i + 1}: hashed float holds {row['bytes_per_boid']} "
                            f"bytes per boid, more than {HASHED_FLOAT_BYTES}")
    for method in ("naive", "hashed"):
        for precision in ("float", "double"):
            for state in ("random", "flocked"):
                counts = {r["count"] for r in rows if (r["method"], r["precision"], r["state"]) ==
                          (method, precision, state)}
                if len(counts) < 2:
                    problems.append(f"{csv_path}: {len(counts)} sizes of {method} {precision} {state}, want >= 2")

    with open(json_path) as f:
        report = json.load(f)
    if len(report.get("rows", [])) != len(rows):
        problems.append(f"{json_path}: {len(report.get('rows', []))} rows, the CSV has {len(rows)}")
    if "cpu" not in report.get("machine", {}):
        problems.append(f"{json_path}: no machine.cpu")
    else:
        cpu = report["machine"]["cpu"]
        if not cpu.get("memory_bytes_per_second", 0) > 0 or not cpu.get("peak_flops", {}).get("float", 0) > 0:
            problems.append(f"{json_path}: machine.cpu has no bandwidth or peak")
    for key in ("date", "commit", "settings"):
        if key not in report:
            problems.append(f"{json_path}: no '{key}'")
    fits = report.get("fits", {})
    for method, (low, high) in EXPONENTS.items():
        fit = fits.get(method)
        if not isinstance(fit, dict):
            problems.append(f"{json_path}: no fit for {method}")
            continue
        exponent, r2 = fit.get("exponent"), fit.get("r2")
        if not isinstance(exponent, (int, float)) or not math.isfinite(exponent):
            problems.append(f"{json_path}: {method} exponent {exponent!r} is not finite")
        elif not low <= exponent <= high:
            problems.append(f"{json_path}: {method} exponent {exponent:.3f} is outside [{low}, {high}]")
        if not isinstance(r2, (int, float)) or not math.isfinite(r2) or not r2 <= 1.0:
            problems.append(f"{json_path}: {method} r2 {r2!r} is not a finite number <= 1")

    with open(png_path, "rb") as f:
        png = f.read()
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        problems.append(f"{png_path}: not a PNG")
    elif len(png) < 10000:
        problems.append(f"{png_path}: only {len(png)} bytes")
    return problems


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    problems = check(*argv[1:])
    for problem in problems:
        print("check_quick: " + problem)
    if not problems:
        print("check_quick: outputs complete, fits " + ", ".join(
            f"{m} {f['exponent']:.2f} (r2 {f['r2']:.3f})" for m, f in json.load(open(argv[2]))["fits"].items()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
