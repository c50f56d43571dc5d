#!/usr/bin/python3
"""Vicsek et al. 1995, figure 2a, with `boids run --model vicsek`: the time-averaged
polarization (Vicsek's v_a) against the noise eta at density 4, for several numbers of
particles, each point the mean over seeds of the average after a transient. Writes
OUT.csv (N, L, eta, seeds, mean v_a, its standard error) and OUT.png.

    vicsek_transition.py BOIDS OUT [--counts 400,4000] [--transient T] [--measure M]
                         [--seeds S] [--etas 0:5:0.25] [--jobs J] [--replot]
"""
import argparse
import concurrent.futures
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile


def average_after(boids, count, eta, seed, transient, measure, every):
    with tempfile.TemporaryDirectory() as scratch:
        metrics = os.path.join(scratch, "m.csv")
        side = math.sqrt(count / 4.0)
        command = [boids, "run", "--backend", "cpu", "--model", "vicsek", "--count", str(count),
                   "--world", repr(side), "--noise", repr(eta), "--seed", str(seed), "--steps",
                   str(transient + measure), "--metrics", metrics, "--metrics-every", str(every)]
        env = dict(os.environ, OMP_NUM_THREADS="1")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        with open(metrics, newline="") as f:
            values = [float(r["polarization"]) for r in csv.DictReader(f)
                      if int(r["step"]) >= transient]
    return statistics.fmean(values)


def etas_of(text):
    start, stop, step = (float(v) for v in text.split(":"))
    values, k = [], 0
    while start + k * step <= stop + 1e-9:
        values.append(round(start + k * step, 10))
        k += 1
    return values


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boids")
    parser.add_argument("out")
    parser.add_argument("--counts", default="400,4000")
    parser.add_argument("--transient", type=int, default=3000)
    parser.add_argument("--measure", type=int, default=5000)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--etas", default="0:5:0.25")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--replot", action="store_true",
                        help="draw OUT.png again from OUT.csv, without running")
    args = parser.parse_args(argv[1:])
    counts = [int(c) for c in args.counts.split(",")]
    etas = etas_of(args.etas)
    if args.replot:
        rows = read_rows(args.out + ".csv")
        plot(rows, sorted({r[0] for r in rows}), sorted({r[2] for r in rows}), args,
             args.out + ".png")
        return 0
    work = [(n, eta, seed) for n in counts for eta in etas for seed in range(1, args.seeds + 1)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(average_after, args.boids, n, eta, seed, args.transient,
                               args.measure, args.every): (n, eta, seed) for n, eta, seed in work}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            sys.stderr.write(f"\r{done}/{len(work)} runs")
    sys.stderr.write("\n")

    rows = []
    for n in counts:
        for eta in etas:
            values = [results[(n, eta, s)] for s in range(1, args.seeds + 1)]
            error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
            rows.append((n, math.sqrt(n / 4.0), eta, len(values), statistics.fmean(values), error))
    with open(args.out + ".csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["N", "L", "eta", "seeds", "v_a", "standard_error"])
        for row in rows:
            writer.writerow([row[0], f"{row[1]:.6g}", row[2], row[3], f"{row[4]:.6g}", f"{row[5]:.3g}"])

    plot(rows, counts, etas, args, args.out + ".png")
    return 0


def plot(rows, counts, etas, args, path):
    """v_a against eta, and v_a sqrt(N), which at full noise tends to sqrt(pi) / 2 for every N
    (the mean length of a sum of N random unit vectors is about sqrt(pi N) / 2)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.5), dpi=110)
    markers = "os^dv"
    for k, n in enumerate(counts):
        mine = [r for r in rows if r[0] == n]
        eta = [r[2] for r in mine]
        line = left.errorbar(eta, [r[4] for r in mine], yerr=[r[5] for r in mine],
                             marker=markers[k % len(markers)], capsize=2, linewidth=0.8,
                             label=f"N = {n}, L = {math.sqrt(n / 4.0):.3g}")
        floor = math.sqrt(math.pi / (4 * n))
        left.axhline(floor, color=line[0].get_color(), linestyle=":", linewidth=0.8,
                     label=f"sqrt(pi / 4N) = {floor:.3f}")
        scale = math.sqrt(n)
        right.errorbar(eta, [r[4] * scale for r in mine], yerr=[r[5] * scale for r in mine],
                       marker=markers[k % len(markers)], capsize=2, linewidth=0.8,
                       color=line[0].get_color(), label=f"N = {n}")
    right.axhline(math.sqrt(math.pi) / 2, color="black", linestyle=":", linewidth=0.8,
                  label="sqrt(pi) / 2: headings at random")
    left.set_xlabel("noise eta (radians)")
    left.set_ylabel("v_a (time-averaged polarization)")
    left.set_ylim(0, 1.02)
    left.legend(fontsize=8)
    right.set_xlabel("noise eta (radians)")
    right.set_ylabel("v_a sqrt(N)")
    right.set_yscale("log")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"Vicsek model at density 4 (boids run --model vicsek): transient "
                 f"{args.transient}, averaged over {args.measure} steps, {args.seeds} seeds",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path)


def read_rows(path):
    with open(path, newline="") as f:
        return [(int(r["N"]), float(r["L"]), float(r["eta"]), int(r["seeds"]), float(r["v_a"]),
                 float(r["standard_error"])) for r in csv.DictReader(f)]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
