#!/usr/bin/env python3
"""How many turns a GPU warp takes through its threads' candidates in the hashed step.

A GPU thread steps one boid and reads the candidates of its block of cells: 3 runs of cells in
2D, 9 in 3D (kernels/cell_grid.h: span_runs). The 32 threads of a warp step 32 consecutive boids
in cell order, in lockstep: a loop per run takes, run by run, as many turns as the longest of the
warp's runs; one loop over all of a thread's runs takes as many as the most candidates any one
thread has (kernels/hashed_step.h). This counts both over a random flock at the published
example's density, sorted by cell as the step keeps it.

    /usr/bin/python3 bench/warp_turns.py [--count N] [--seed S]

It needs numpy (python3-numpy); without it, it says so and exits with 77, a test's skip.
"""

import argparse
import sys

try:
    import numpy as np
except ImportError:
    print("warp_turns.py needs numpy (Debian: python3-numpy)", file=sys.stderr)
    sys.exit(77)

WARP = 32
RADIUS = 10.0
DENSITY = {2: 0.012, 3: 0.0009}  # boids per unit area or volume, as the bench flies them


def turns(dimensions, count, rng):
    side = (count / DENSITY[dimensions]) ** (1.0 / dimensions)
    cells = int(side // RADIUS)  # cells per axis, each at least the radius wide
    position = rng.random((count, dimensions)) * side
    cell = np.minimum((position / (side / cells)).astype(np.int64), cells - 1)
    key = sum(cell[:, a] * cells**a for a in range(dimensions))
    order = np.argsort(key, kind="stable")
    cell, key = cell[order], key[order]
    per_cell = np.bincount(key, minlength=cells**dimensions)

    layers = (-1, 0, 1) if dimensions == 3 else (0,)
    run_lengths = []  # one row per run: each thread's candidates in it
    for dz in layers:
        for dy in (-1, 0, 1):
            line = (cell[:, 1] + dy) % cells * cells
            if dimensions == 3:
                line += (cell[:, 2] + dz) % cells * cells * cells
            run_lengths.append(
                sum(per_cell[line + (cell[:, 0] + dx) % cells] for dx in (-1, 0, 1))
            )
    runs = np.array(run_lengths)[:, : count // WARP * WARP].reshape(len(run_lengths), -1, WARP)
    run_by_run = runs.max(axis=2).sum(axis=0).mean()
    one_loop = runs.sum(axis=0).max(axis=1).mean()
    candidates = runs.sum(axis=0).mean()
    return candidates, run_by_run, one_loop


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="boids (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="the random start's seed")
    args = parser.parse_args()
    if args.count < WARP:
        parser.error(f"--count must be at least a warp, {WARP}")
    rng = np.random.default_rng(args.seed)
    print("D  candidates/thread  turns: a loop a run  one loop  ratio")
    for dimensions in (2, 3):
        candidates, run_by_run, one_loop = turns(dimensions, args.count, rng)
        print(
            f"{dimensions}  {candidates:17.2f}  {run_by_run:17.2f}  {one_loop:8.2f}"
            f"  {run_by_run / one_loop:5.2f}"
        )


if __name__ == "__main__":
    main()
