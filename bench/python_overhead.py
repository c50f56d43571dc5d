"""What the Python module adds over the C++ engine, measured in one process.

  step    a Python loop of flock.step(1) on a small flock, against the same steps taken in
          one call (the C++ loop): the difference per call is the binding's cost.
  state   flock.state of a large flock (a new (N, 4) float64 array in input order), against
          a copy of an array of the same size (numpy.copy: an allocation and a memcpy).

Usage: PYTHONPATH=build/python python3 bench/python_overhead.py [--csv FILE]
"""
import argparse
import platform
import sys
import time

import numpy as np

import boids

from table import write_csv


def best_of(repeats, run):
    """The fastest of `repeats` runs of run(), in seconds: the least disturbed by the machine."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def step_overhead(count, calls, backend, method, precision):
    flock = boids.Flock(count=count, backend=backend, method=method, precision=precision)
    flock.step(100)  # warm: caches, threads, the cell index

    def loop():
        for _ in range(calls):
            flock.step(1)

    python = best_of(5, loop) / calls
    one_call = best_of(5, lambda: flock.step(calls)) / calls
    return python, one_call


def state_fetch(count, backend, method, precision):
    # At the published example's density (120 boids on 100 x 100), about 3.8 neighbours within r.
    flock = boids.Flock(count=count, density=0.012, backend=backend, method=method,
                        precision=precision)
    if method == "hashed":
        flock.step(5)  # the cells' order, not input order (naive all-pairs at 1 M: not stepped)
    fetch = best_of(7, lambda: flock.state)
    array = flock.state
    copy = best_of(7, lambda: np.copy(array))
    return fetch, copy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", help="also write the rows to FILE")
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()
    rows = []
    for method, precision in [("hashed", "float"), ("naive", "double")]:
        python, one_call = step_overhead(120, 2000, args.backend, method, precision)
        rows.append(dict(measure="step(1) at 120 boids", backend=args.backend, method=method,
                         precision=precision, python_s=python, cpp_s=one_call,
                         difference_us=(python - one_call) * 1e6, ratio=python / one_call))
    for method, precision in [("hashed", "float"), ("hashed", "double"), ("naive", "float")]:
        fetch, copy = state_fetch(1_000_000, args.backend, method, precision)
        rows.append(dict(measure="state of 1 M boids", backend=args.backend, method=method,
                         precision=precision, python_s=fetch, cpp_s=copy,
                         difference_us=(fetch - copy) * 1e6, ratio=fetch / copy))
    device = boids.Flock(count=1, backend=args.backend).device
    print(f"boids {boids.__version__}, {device}, {platform.processor() or platform.machine()}")
    print(f"{'measure':22} {'method':7} {'precision':9} {'python':>11} {'reference':>11} "
          f"{'diff (us)':>10} {'ratio':>6}")
    for r in rows:
        print(f"{r['measure']:22} {r['method']:7} {r['precision']:9} {r['python_s']:11.3e} "
              f"{r['cpp_s']:11.3e} {r['difference_us']:10.2f} {r['ratio']:6.2f}")
    if args.csv:
        write_csv(args.csv, rows)


if __name__ == "__main__":
    sys.exit(main())
