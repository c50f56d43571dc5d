"""Strong and weak scaling of `boids run` over MPI ranks on this machine.

  strong  one flock of --total boids over 1, 2, 4, ... ranks: rate(P) / (P rate(1))
  weak    --per-rank boids on each of P ranks:             rate(P) / (P rate(1))

Each rank runs one OpenMP thread, so P ranks use P cores; a P over the machine's cores is
oversubscribed and marked so (its efficiency says nothing of the code). The rate is boids
times steps over the stepping time `boids run --json` reports (rank 0's clock around the
steps, exchanges included), the best of --repeats runs. docs/mpi.md has the model for more
machines.

Usage: python3 bench/mpi_scaling.py BOIDS [--mpirun mpirun] [--ranks 1,2,4] [--csv FILE]
"""
import argparse
import csv
import json
import os
import subprocess
import sys


def rate(args, ranks, count):
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [args.mpirun, "--oversubscribe", "-np", str(ranks), "-x", "OMP_NUM_THREADS",
               "-x", "OMP_WAIT_POLICY", args.boids, "run", "--count", str(count), "--density",
               str(args.density), "--steps", str(args.steps), "--method", args.method,
               "--precision", args.precision, "--seed", "7", "--json"]
    best = 0.0
    for _ in range(args.repeats):
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        best = max(best, json.loads(done.stdout)["boid_steps_per_second"])
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boids")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--total", type=int, default=262144, help="boids, strong scaling")
    parser.add_argument("--per-rank", type=int, default=131072, help="boids a rank, weak")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--density", type=float, default=0.012, help="the seed's, per unit^2")
    parser.add_argument("--method", default="hashed")
    parser.add_argument("--precision", default="float")
    parser.add_argument("--csv")
    args = parser.parse_args()
    cores = os.cpu_count()
    rows = []
    for kind in ("strong", "weak"):
        base = None
        for ranks in map(int, args.ranks.split(",")):
            count = args.total if kind == "strong" else args.per_rank * ranks
            r = rate(args, ranks, count)
            base = base or r
            rows.append({"scaling": kind, "ranks": ranks, "boids": count,
                         "boid_steps_per_second": f"{r:.4g}",
                         "efficiency": f"{r / (ranks * base):.3f}",
                         "oversubscribed": ranks > cores, "method": args.method,
                         "precision": args.precision, "steps": args.steps, "cores": cores})
            print(f"{kind:6} {ranks:3} ranks {count:9} boids  {r:.3g} boid-steps/s  "
                  f"efficiency {r / (ranks * base):.2f}{'  (oversubscribed)' if ranks > cores else ''}",
                  flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
