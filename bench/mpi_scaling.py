"""Strong and weak scaling over MPI ranks on this machine, timed by `boids-bench` under mpirun.

  strong  one flock of --total boids over 1, 2, 4, ... ranks: rate(P) / (P rate(1))
  weak    --per-rank boids on each of P ranks:             rate(P) / (P rate(1))
  alone   P processes of --per-rank boids each, without MPI, at once: the machine's own
          ceiling for weak scaling (cores that share caches, memory and a noisy host)

Each rank runs one OpenMP thread, so P ranks use P cores; a P over the machine's cores is
oversubscribed and marked so (its efficiency says nothing of the code). `boids-bench` under
mpirun spreads every flock it times over the ranks; its rate is the ranks' together, their
exchanges included (the median of its repeats), and this script takes the best of --repeats
runs. docs/mpi.md has the model for more machines.

Usage: python3 bench/mpi_scaling.py BOIDS_BENCH [--mpirun mpirun] [--ranks 1,2,4] [--csv FILE]
"""
import argparse
import csv
import tempfile
import os
import subprocess
import sys

from table import write_csv

ENV = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive",
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def bench(args, count, seed, table):
    """boids-bench's command for one flock of `count` boids, its CSV into `table`."""
    return [args.bench, "--counts", str(count), "--density", str(args.density), "--backend",
            "cpu", "--methods", args.method, "--precisions", args.precision, "--states",
            "random", "--repeats", "3", "--seed", str(seed), "--csv", table]


def rate_of(table):
    with open(table, newline="") as f:
        return float(next(csv.DictReader(f))["boid_steps_per_second"])


def rate(args, ranks, count):
    table = os.path.join(args.work, "ranks.csv")
    command = [args.mpirun, "--oversubscribe", "-np", str(ranks), "-x", "OMP_NUM_THREADS",
               "-x", "OMP_WAIT_POLICY"] + bench(args, count, 7, table)
    best = 0.0
    for _ in range(args.repeats):
        subprocess.run(command, env=ENV, capture_output=True, text=True, check=True)
        best = max(best, rate_of(table))
    return best


def alone(args, copies):
    """P independent processes at once: their summed rate, the best of --repeats."""
    best = 0.0
    for _ in range(args.repeats):
        tables = [os.path.join(args.work, f"alone-{k}.csv") for k in range(copies)]
        runs = [subprocess.Popen(bench(args, args.per_rank, 7 + k, tables[k]), env=ENV,
                                 stdout=subprocess.DEVNULL) for k in range(copies)]
        total = 0.0
        for run, table in zip(runs, tables):
            if run.wait() != 0:
                raise SystemExit(f"boids-bench exited {run.returncode}")
            total += rate_of(table)
        best = max(best, total)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", help="the boids-bench executable")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--total", type=int, default=262144, help="boids, strong scaling")
    parser.add_argument("--per-rank", type=int, default=131072, help="boids a rank, weak")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--density", type=float, default=0.012,
                        help="the published example's, per unit^2")
    parser.add_argument("--method", default="hashed")
    parser.add_argument("--precision", default="float")
    parser.add_argument("--csv")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    args.work = scratch.name
    cores = os.cpu_count()
    rows = []
    for kind in ("strong", "weak", "alone"):
        base = None
        for ranks in map(int, args.ranks.split(",")):
            count = args.total if kind == "strong" else args.per_rank * ranks
            r = alone(args, ranks) if kind == "alone" else rate(args, ranks, count)
            base = base or r
            rows.append({"scaling": kind, "ranks": ranks, "boids": count,
                         "boid_steps_per_second": f"{r:.4g}",
                         "efficiency": f"{r / (ranks * base):.3f}",
                         "oversubscribed": ranks > cores, "method": args.method,
                         "precision": args.precision, "cores": cores})
            print(f"{kind:6} {ranks:3} ranks {count:9} boids  {r:.3g} boid-steps/s  "
                  f"efficiency {r / (ranks * base):.2f}{'  (oversubscribed)' if ranks > cores else ''}",
                  flush=True)
    if args.csv:
        write_csv(args.csv, rows)


if __name__ == "__main__":
    sys.exit(main())
