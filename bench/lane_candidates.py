"""What a CPU block of the hashed step meets: a model of kernels/hashed_step.h's blocks (LANES
consecutive boids in cell order, split where their line of cells changes) and their runs (the
cells around each span's columns, on the 3 lines (2D) or 9 (3D) around its own), over a random
start on a torus at the published example's density, cells of r. A span adds each candidate
to all the block's lanes at once, one vector step, whatever lanes the span holds. It gives the
vector steps a boid, how many of those candidates lie within r of some lane of the span (what a
3D block picks), the neighbours a boid has, and, for docs/benchmarks.md's table, the lanes'
tests (steps times lanes) per neighbour, all and picked.

Three designs that visit fewer candidates, modelled before building them: --parts P, finer
cells (1/P of the reach wide, the runs P cells around the span, less the lines wholly beyond
the reach); --skin S, lists kept across steps (cells and lists of r + S, exact for S /
(2 travel) steps, where travel is the most a boid moves a step: each step tests the list's
entries); and --rows R, blocks more compact than a line (cells in bands of R lines along y,
R x R in 3D, keyed by column within a band, so that a block's boids lie on R lines (R x R)
and a span gathers the R + 2 lines ((R + 2)^2) around its band).

It checks itself: the neighbours a boid must be the density times the volume within r, to a
tenth, or it exits 1. It needs numpy (python3-numpy); without it, it says so and exits with
77, a test's skip.

Usage: python3 bench/lane_candidates.py [--dimensions 2|3] [--lanes 8] [--count 200000]
       [--blocks 2500] [--seed 1] [--parts 1] [--skin 0] [--travel 0.1] [--rows 1]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError:
    print("lane_candidates.py: needs numpy (python3-numpy)", file=sys.stderr)
    sys.exit(77)

DENSITY = {2: 1.2, 3: 0.9}  # boids per r^2 and per r^3, as boids-bench's defaults


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dimensions", type=int, choices=(2, 3), default=3)
    parser.add_argument("--lanes", type=int, default=8)
    parser.add_argument("--count", type=int, default=200000)
    parser.add_argument("--blocks", type=int, default=2500, help="blocks measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skin", type=float, default=0.0,
                        help="lists kept across steps: cells and lists of r + SKIN (in radii)")
    parser.add_argument("--travel", type=float, default=0.1,
                        help="the most a boid moves a step, in radii (boids: v_max dt / r)")
    parser.add_argument("--parts", type=int, default=1,
                        help="finer cells: each 1 / PARTS of the reach wide, the runs PARTS "
                             "cells around, less the lines wholly beyond the reach")
    parser.add_argument("--rows", type=int, default=1,
                        help="compact blocks: cells in bands of ROWS lines along y (ROWS x ROWS "
                             "in 3D), a block's boids in one band")
    args = parser.parse_args()
    d, m, rows = args.dimensions, args.parts, args.rows
    if rows < 1 or (rows > 1 and (m > 1 or args.skin > 0)):
        sys.exit("lane_candidates.py: --rows is a whole number >= 1, not with --parts or --skin")
    reach = 1.0 + args.skin  # what a span gathers within, in radii
    side = int(round((args.count / DENSITY[d]) ** (1.0 / d)))  # in radii
    cells = int(side * m // reach)  # along each axis
    width = side / cells
    rng = np.random.default_rng(args.seed)
    x = rng.random((args.count, d)) * side
    cell = np.minimum(np.floor(x * (cells / side)).astype(np.int64), cells - 1)
    key = cell[:, 0] + cells * cell[:, 1] + (cells * cells * cell[:, 2] if d == 3 else 0)
    by_cell = np.argsort(key, kind="stable")  # where the runs read a cell's boids
    held, start = x[by_cell], np.searchsorted(key[by_cell], np.arange(cells ** d + 1))
    # The step's order: bands of `rows` lines (rows x rows), by column within a band, then by
    # line within it; with one row, the cells' own order.
    band = cell[:, 1] // rows + (cells * (cell[:, 2] // rows) if d == 3 else 0)
    inner = cell[:, 1] % rows + (rows * (cell[:, 2] % rows) if d == 3 else 0)
    order = np.lexsort((inner, cell[:, 0], band))
    x, cell, line = x[order], cell[order], band[order]
    steps = range(-m, m + 1)
    around = [(dy, dz) for dy in steps for dz in (steps if d == 3 else (0,))
              if (max(abs(dy) - 1, 0) ** 2 + max(abs(dz) - 1, 0) ** 2) * width ** 2 < reach ** 2]
    if rows > 1:  # the band's lines and one each side, from the band's first line
        lines = range(-1, rows + 1)
        around = [(dy, dz) for dy in lines for dz in (lines if d == 3 else (0,))]

    met = listed = picked = neighbours = 0
    boids = min(args.blocks * args.lanes, args.count)
    for first in range(0, boids, args.lanes):
        i = first
        while i < first + args.lanes:  # the block's spans, one per line
            end = i + 1
            while end < first + args.lanes and line[end] == line[i]:
                end += 1
            lanes = x[i:end]
            y0 = cell[i, 1] - cell[i, 1] % rows  # the band's first line (the span's own, one row)
            z0 = cell[i, 2] - cell[i, 2] % rows if d == 3 else 0
            for dy, dz in around:
                y = (y0 + dy) % cells
                z = (z0 + dz) % cells if d == 3 else 0
                for column in range(cell[i, 0] - m, cell[end - 1, 0] + m + 1):
                    c = column % cells + cells * y + cells * cells * z
                    candidates = held[start[c]:start[c + 1]]
                    if len(candidates) == 0:
                        continue
                    offset = candidates[:, None, :] - lanes[None, :, :]
                    offset -= side * np.round(offset / side)
                    d2 = (offset ** 2).sum(axis=-1)
                    met += len(candidates)  # a vector step each
                    picked += (d2 <= 1).any(axis=1).sum()
                    listed += (d2 <= reach * reach).any(axis=1).sum()
                    neighbours += (d2 < 1).sum()
            i = end
    neighbours -= boids  # each boid is within r of itself
    print(f"{d}D, {args.lanes} lanes, {args.count} boids at {DENSITY[d]} a cell of r"
          + (f", blocks in bands of {rows} lines" if rows > 1 else "") + ":")
    lanes = args.lanes
    print(f"  vector steps a boid           {met / boids:.2f}")
    print(f"  within r of some lane         {picked / met:.2f} of them")
    print(f"  neighbours a boid             {neighbours / boids:.2f}")
    print(f"  lanes' tests a neighbour      {met * lanes / neighbours:.1f}")
    print(f"  picked lanes' tests           {picked * lanes / neighbours:.1f}")
    if args.skin > 0:  # the build tests what its cells hold; each step, the list's entries
        steps = max(int(args.skin / (2 * args.travel) + 1e-9), 1)  # steps a list stays exact
        each = listed * lanes / neighbours
        print(f"  lists of r + {args.skin:g} r, exact for {steps} steps at {args.travel:g} r a step")
        print(f"  list entries a boid           {listed / boids:.2f}")
        print(f"  lanes' tests a neighbour      {each:.1f} a step between builds, "
              f"{(met * lanes / neighbours + (steps - 1) * each) / steps:.1f} over a list's life")
    expected = DENSITY[d] * (math.pi if d == 2 else 4 * math.pi / 3)
    if abs(neighbours / boids - expected) > 0.1 * expected:
        sys.exit(f"lane_candidates.py: {neighbours / boids:.2f} neighbours a boid, not about "
                 f"{expected:.2f}: the model's grid is wrong")


if __name__ == "__main__":
    main()
