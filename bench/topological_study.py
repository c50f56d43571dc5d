#!/usr/bin/python3
"""The published example flown with topological neighbors (each boid heeds its 7 nearest,
`--nearest 7`) against the metric rule (all within r), at the published example's density, half
of it and a quarter of it: does the topological flock stay one flock where the metric one breaks up?
Writes OUT.csv (density, rule, step, seeds, the mean and standard error over seeds of the
polarization and the largest flock's share) and OUT.png, and prints a table of the last
--tail steps.

    topological_study.py BOIDS OUT [--noise ETA] [--seeds S] [--steps T] [--every K]
                         [--tail T] [--jobs J] [--replot]
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

COUNT = 120  # the published example: 120 boids, world 100, r = 10, weights 1.5 / 1 / 1
DENSITIES = (1.0, 0.5, 0.25)  # of the published example's 0.012 boids per unit area
RULES = (("metric", 0), ("nearest 7", 7))


def flight(boids, density, nearest, seed, steps, every, noise):
    """One flight's metrics rows: (step, polarization, largest flock's share)."""
    side = 100 / math.sqrt(density)
    with tempfile.TemporaryDirectory() as scratch:
        metrics = os.path.join(scratch, "m.csv")
        command = [boids, "run", "--backend", "cpu", "--precision", "double", "--count",
                   str(COUNT), "--world", repr(side), "--nearest", str(nearest), "--seed",
                   str(seed), "--steps", str(steps), "--noise", repr(noise), "--metrics", metrics,
                   "--metrics-every", str(every)]
        env = dict(os.environ, OMP_NUM_THREADS="1")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        with open(metrics, newline="") as f:
            return [(int(r["step"]), float(r["polarization"]), int(r["largest_flock"]) / COUNT)
                    for r in csv.DictReader(f)]


def mean_and_error(values):
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, error


def run_all(args):
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for density in DENSITIES:
            for name, nearest in RULES:
                for seed in range(42, 42 + args.seeds):
                    jobs[(density, name, seed)] = pool.submit(
                        flight, args.boids, density, nearest, seed, args.steps, args.every,
                        args.noise)
    rows = []
    for density in DENSITIES:
        for name, _ in RULES:
            flights = [jobs[(density, name, seed)].result() for seed in range(42, 42 + args.seeds)]
            for k, (step, _, _) in enumerate(flights[0]):
                phi = mean_and_error([f[k][1] for f in flights])
                share = mean_and_error([f[k][2] for f in flights])
                rows.append({"density": density, "rule": name, "noise": args.noise, "step": step,
                             "seeds": args.seeds,
                             "polarization": phi[0], "polarization_sem": phi[1],
                             "largest_share": share[0], "largest_share_sem": share[1]})
            print_tail(density, name, flights, args)
    return rows


def print_tail(density, name, flights, args):
    """Prints the last --tail steps' means: each flight's average, then over the flights."""
    first = args.steps - args.tail
    phi = [statistics.fmean(r[1] for r in f if r[0] >= first) for f in flights]
    share = [statistics.fmean(r[2] for r in f if r[0] >= first) for f in flights]
    whole = sum(1 for f in flights if f[-1][2] >= 0.9)
    # The first step at which the largest flock holds 90 % of the boids; past the end if never.
    reached = [next((r[0] for r in f if r[2] >= 0.9), math.inf) for f in flights]
    median = statistics.median(reached)
    p, pe = mean_and_error(phi)
    s, se = mean_and_error(share)
    print(f"| {density:g} | {name} | {p:.3f} ± {pe:.3f} | {s:.3f} ± {se:.3f} | "
          f"{whole} of {len(flights)} | {median:g} |")


def read_rows(path):
    with open(path, newline="") as f:
        return [dict(r, density=float(r["density"]), step=int(r["step"]),
                     **{k: float(r[k]) for k in ("polarization", "polarization_sem",
                                                  "largest_share", "largest_share_sem")})
                for r in csv.DictReader(f)]


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(2, len(DENSITIES), figsize=(12, 6.5), sharex=True, sharey=True)
    colours = {"metric": "#d08770", "nearest 7": "#5e81ac"}
    for column, density in enumerate(DENSITIES):
        for row, (key, label) in enumerate((("polarization", "polarization"),
                                           ("largest_share", "largest flock's share"))):
            ax = axes[row][column]
            for name, _ in RULES:
                mine = [r for r in rows if r["density"] == density and r["rule"] == name]
                steps = [r["step"] for r in mine]
                mean = [r[key] for r in mine]
                error = [r[key + "_sem"] for r in mine]
                ax.plot(steps, mean, color=colours[name], label=name)
                ax.fill_between(steps, [m - e for m, e in zip(mean, error)],
                                [m + e for m, e in zip(mean, error)], color=colours[name],
                                alpha=0.25, linewidth=0)
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
            if row == 0:
                side = 100 / math.sqrt(density)
                ax.set_title(f"density x {density:g} (world {side:.0f})")
            if row == 1:
                ax.set_xlabel("step")
            if column == 0:
                ax.set_ylabel(label)
    axes[0][0].legend(loc="lower right")
    seeds = int(rows[0]["seeds"])
    noise = rows[0].get("noise", 0)
    figure.suptitle(f"120 boids, r = 10, noise {noise}: metric neighbours against the 7 nearest "
                    f"(mean ± s.e. over {seeds} seeds)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boids")
    parser.add_argument("out")
    parser.add_argument("--noise", type=float, default=0.0)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--tail", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--replot", action="store_true",
                        help="draw OUT.png again from OUT.csv, without running")
    args = parser.parse_args(argv[1:])
    if args.replot:
        plot(read_rows(args.out + ".csv"), args.out + ".png")
        return 0
    print(f"Noise {args.noise:g}; over steps {args.steps - args.tail} to {args.steps}, "
          f"{args.seeds} seeds:\n")
    print("| density | rule | polarization | largest flock's share | one flock (90 %) at the end "
          "| median step it first holds 90 % |")
    print("|---|---|---|---|---|---|")
    rows = run_all(args)
    with open(args.out + ".csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, args.out + ".png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
