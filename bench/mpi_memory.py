"""Peak memory of each rank of `mpirun -np P boids run`, against one process flying the same
flock: the measure of whether a rank holds only its share (docs/mpi.md).

For every size in --counts and every P in --ranks, the same run (hashed float, 2D, the published
example's density, a random start, --steps steps, and the outputs given by --outputs) is flown under
`mpirun -np P`, each rank wrapped by GNU time, which reports the process's peak resident set
(VmHWM). The CSV has a row per run: the largest rank's peak, the mean of the others, and the
largest over one process's peak at the same size.

With --init csv (or npy) the flock starts from a state file of the same random start, written
first by one process, rather than drawn: the start each rank reads its own part of.

Usage: python3 bench/mpi_memory.py BOIDS [--mpirun mpirun] [--ranks 1,2,4]
       [--counts 1000000,4000000] [--steps 10] [--outputs save,checkpoint] [--init csv|npy]
       [--csv FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from table import write_csv

ENV = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive",
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def outputs_of(names, work):
    files = {"save": ["--save", os.path.join(work, "end.npy")],
             "checkpoint": ["--checkpoint", os.path.join(work, "flight.ckpt")],
             "trajectory": ["--trajectory", os.path.join(work, "flight.h5")]}
    args = []
    for name in names:
        args += files[name]
    return args


def start_of(args, count, work):
    """The options that start the flock: --count, or --init with a file of that start."""
    if not args.init:
        return ["--count", str(count)]
    start = os.path.join(work, f"start-{count}.{args.init}")
    if not os.path.exists(start):
        subprocess.run([args.boids, "run", "--count", str(count), "--density", "0.012",
                        "--steps", "0", "--save", start], env=ENV, check=True,
                       capture_output=True)
    return ["--init", start]


def peaks(args, ranks, count, work):
    """Each rank's peak resident memory in MB, in rank order."""
    # Each rank's report is named by its rank, which mpirun sets in the environment.
    wrapper = f'exec /usr/bin/time -f %M -o "{work}/peak-$OMPI_COMM_WORLD_RANK" "$@"'
    command = [args.mpirun, "--oversubscribe", "-np", str(ranks), "sh", "-c", wrapper, "sh",
               args.boids, "run"] + start_of(args, count, work) + [
               "--density", "0.012", "--backend", "cpu", "--method", "hashed", "--precision",
               "float", "--steps", str(args.steps)] + outputs_of(args.outputs, work)
    done = subprocess.run(command, env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr}")
    found = []
    for rank in range(ranks):
        with open(os.path.join(work, f"peak-{rank}")) as f:
            found.append(int(re.findall(r"\d+", f.read())[-1]) / 1024)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boids")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--counts", default="1000000,4000000")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--outputs", default="", help="save, checkpoint, trajectory")
    parser.add_argument("--init", choices=["csv", "npy"], help="start from a state file")
    parser.add_argument("--csv")
    args = parser.parse_args()
    args.outputs = [o for o in args.outputs.split(",") if o]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for count in map(int, args.counts.split(",")):
            alone = None
            for ranks in map(int, args.ranks.split(",")):
                mb = peaks(args, ranks, count, work)
                worst = mb.index(max(mb))
                largest, others = mb[worst], mb[:worst] + mb[worst + 1:]
                if ranks == 1:
                    alone = largest
                row = {"boids": count, "ranks": ranks, "start": args.init or "drawn",
                       "outputs": "+".join(args.outputs) or "none",
                       "largest_rank_mb": round(largest, 1),
                       "largest_rank": worst,
                       "other_ranks_mean_mb": round(sum(others) / len(others), 1) if others else "",
                       "over_one_process": round(largest / alone, 3) if alone else ""}
                rows.append(row)
                print(row, flush=True)
    if args.csv:
        write_csv(args.csv, rows)


main()
