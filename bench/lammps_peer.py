"""boids' hashed step beside LAMMPS' binned neighbor search, in one run, at the same density
and cutoff: the ratio the hashed step is measured by (bench/results/README.md).

LAMMPS (Debian's `lammps`, `scripts/install-deps bench`) builds its neighbor list alone:
atoms at random places in a periodic box of the flock's size, `pair_style zero` with the
cutoff r, no skin, the list rebuilt every step (`neigh_modify every 1 delay 0 check no`), the
atoms moved by `fix nve` at the boids' speed; its time is the "Neigh" row of LAMMPS' timing
breakdown over the steps, on --lammps-ranks MPI ranks. boids is `boids-bench` on the same
flock size and density from a random start (its whole step, the rules included), on the
machine's OpenMP threads. The two alternate, --repeats times each, and the best of each is
kept: timings on shared machines vary by +-20 %, and ratios measured side by side do not.

Usage: python3 bench/lammps_peer.py BOIDS_BENCH [--counts 1000000] [--dimensions 2,3]
       [--precisions float,double] [--steps 20] [--repeats 3] [--lammps lmp]
       [--lammps-ranks 2] [--csv FILE]
"""
import argparse
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from table import write_csv

RADIUS = 10.0
# Boids per r^2 (the published example's), per r^3 (its mean neighbour count).
DENSITY = {2: 1.2, 3: 0.9}
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_WAIT_POLICY="passive")


def side_of(count, dimensions):
    return RADIUS * (count / DENSITY[dimensions]) ** (1.0 / dimensions)


def lammps_input(count, dimensions, steps, seed):
    side = side_of(count, dimensions)
    depth = f"0 {side}" if dimensions == 3 else "-0.5 0.5"
    lines = [
        "units lj", f"dimension {dimensions}", "boundary p p p", "atom_style atomic",
        f"region box block 0 {side} 0 {side} {depth}", "create_box 1 box",
        f"create_atoms 1 random {count} {seed} box", "mass 1 1.0",
        f"velocity all create 0.3 {seed} dist gaussian",
        f"pair_style zero {RADIUS}", "pair_coeff * *",
        "neighbor 0.0 bin", "neigh_modify every 1 delay 0 check no",
        "fix move all nve"]
    if dimensions == 2:
        lines.append("fix flat all enforce2d")
    lines += ["thermo 0", "timestep 1.0", "run 1", f"run {steps}"]
    return "\n".join(lines) + "\n"


def lammps_ms_per_step(args, count, dimensions, work):
    """LAMMPS' neighbour search, ms a step (its "Neigh" time over the timed run's steps)."""
    script = os.path.join(work, "peer.in")
    with open(script, "w") as f:
        f.write(lammps_input(count, dimensions, args.steps, 4242))
    command = [args.lammps, "-in", script, "-screen", "none"]
    if args.lammps_ranks > 1:
        command = [args.mpirun, "--oversubscribe", "-np", str(args.lammps_ranks)] + command
    command += ["-log", os.path.join(work, "log.lammps")]
    done = subprocess.run(command, env=dict(ENV, OMP_NUM_THREADS="1"), capture_output=True,
                          text=True, cwd=work)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    with open(os.path.join(work, "log.lammps")) as f:
        log = f.read()
    # The last run's breakdown: "Neigh   | min | avg | max | %varavg | %total".
    rows = re.findall(r"^Neigh\s*\|\s*([\d.eE+-]+)\s*\|\s*([\d.eE+-]+)", log, re.M)
    if not rows:
        sys.exit("no Neigh row in LAMMPS' log")
    return float(rows[-1][1]) / args.steps * 1e3


def boids_ms_per_step(args, count, dimensions, precision, work):
    table = os.path.join(work, "boids.csv")
    command = [args.bench, "--counts", str(count), "--dimensions", str(dimensions),
               "--density", str(DENSITY[dimensions]), "--backend", "cpu", "--methods",
               "hashed", "--precisions", precision, "--states", "random", "--repeats", "3",
               "--csv", table]
    done = subprocess.run(command, env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr}")
    with open(table, newline="") as f:
        row = next(csv.DictReader(f))
    return float(row["ms_per_step"]), row["hardware"], row["device"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench")
    parser.add_argument("--counts", default="1000000")
    parser.add_argument("--dimensions", default="2,3")
    parser.add_argument("--precisions", default="float,double")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lammps", default="lmp")
    parser.add_argument("--lammps-ranks", type=int, default=2)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--csv")
    args = parser.parse_args()
    if shutil.which(args.lammps) is None:
        sys.exit(f"{args.lammps}: not found (Debian's lammps: scripts/install-deps bench)")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for count in map(int, args.counts.split(",")):
            for dimensions in map(int, args.dimensions.split(",")):
                precisions = args.precisions.split(",")
                boids = {p: math.inf for p in precisions}
                lammps = math.inf
                hardware = device = ""
                for _ in range(args.repeats):  # alternating, the best of each
                    lammps = min(lammps, lammps_ms_per_step(args, count, dimensions, work))
                    for p in precisions:
                        ms, hardware, device = boids_ms_per_step(args, count, dimensions, p, work)
                        boids[p] = min(boids[p], ms)
                for p in precisions:
                    row = {"count": count, "dimensions": dimensions, "precision": p,
                           "boids_ms_per_step": round(boids[p], 3),
                           "lammps_neigh_ms_per_step": round(lammps, 3),
                           "ratio": round(lammps / boids[p], 2),
                           "lammps_ranks": args.lammps_ranks, "boids_device": device,
                           "hardware": hardware}
                    rows.append(row)
                    print(row, flush=True)
    if args.csv:
        write_csv(args.csv, rows)


main()
