#!/usr/bin/env python3
"""Conformance of the reference backend with the published step, bit for bit.

For each state (random flocks made by `boids run --steps 0 --save`, and the hand-made edge
cases in tests/data/) and each parameter set, runs

    boids run --backend reference --init STATE --steps N --save OUT [params]
    seed_step.py              --init STATE --steps N --save OUT [params]

and requires every number of the two outputs to be the same double, sign of zero included.
The published step runs with the engine's two departures (seed_step.py --departures): the
edge cases include a velocity whose square overflows and a coordinate that the published step
wraps to L.

Usage: seed_conformance.py BOIDS_EXECUTABLE SEED_STEP_PY DATA_DIR WORK_DIR
"""

import os
import struct
import subprocess
import sys

# (count, seed, generator params) for the random starts.
RANDOM_STATES = {
    "default": (300, 42, {}),
    "fast": (200, 7, {"--max-speed": "2"}),
    "small_world": (250, 2024, {"--world": "37.5", "--max-speed": "0.75"}),
    "dense": (300, 99, {"--world": "20"}),
    "sparse": (120, 18446744073709551615, {}),
}

# (state, steps, params) for each run. The edge-case file is laid out for r = 10 (pairs
# exactly r and r/2 apart, groups 20 apart); the other radii turn those pairs into other
# cases and let the groups meet.
CASES = [
    ("default", 60, {}),
    ("default", 25, {"--radius": "25", "--separation": "3", "--alignment": "0.5", "--cohesion": "1.3"}),
    ("default", 20, {"--radius": "60"}),  # larger than half the world: every offset wraps
    ("default", 30, {"--separation": "0", "--alignment": "0", "--cohesion": "0"}),
    ("fast", 40, {"--max-speed": "2", "--radius": "7.25", "--cohesion": "3.1", "--alignment": "0.7"}),
    ("small_world", 50, {"--world": "37.5", "--max-speed": "0.75", "--radius": "6"}),
    ("dense", 40, {"--world": "20", "--radius": "5", "--separation": "2.5"}),
    ("dense", 15, {"--world": "20", "--radius": "0.3", "--max-speed": "0.1"}),
    ("sparse", 80, {"--radius": "15", "--alignment": "1.75", "--cohesion": "0.35"}),
    ("edge", 1, {}),
    ("edge", 2, {}),
    ("edge", 9, {}),
    ("edge", 40, {}),
    ("edge", 1, {"--radius": "5"}),
    ("edge", 12, {"--radius": "5"}),
    ("edge", 1, {"--radius": "20", "--max-speed": "0.3"}),
    ("edge", 12, {"--radius": "20", "--max-speed": "2.5"}),
    ("edge", 10, {"--radius": "60", "--separation": "0.5"}),
    ("edge", 5, {"--separation": "0"}),
    ("edge", 5, {"--alignment": "0", "--cohesion": "0"}),
    ("edge", 5, {"--separation": "4", "--alignment": "0"}),
    ("edge", 8, {"--separation": "2.2", "--alignment": "1.9", "--cohesion": "0.9"}),
]

EDGE_FILE = "seed_edge_cases.csv"


def bits(value):
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def read_csv(path):
    with open(path, encoding="ascii") as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "x,y,vx,vy":
        raise ValueError(f"{path}: bad header")
    return [[float(v) for v in line.split(",")] for line in lines[1:] if line]


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print("FAILED:", " ".join(command), "\n" + result.stdout)
        sys.exit(1)


def flags(params):
    return [item for pair in params.items() for item in pair]


def compare(name, ours, oracle, start):
    """Returns the number of differing numbers; prints the first few."""
    if len(ours) != len(oracle):
        print(f"{name}: {len(ours)} boids from boids, {len(oracle)} from the published step")
        return 1
    bad = 0
    for i, (a, b) in enumerate(zip(ours, oracle)):
        for column, u, v in zip(("x", "y", "vx", "vy"), a, b):
            if bits(u) != bits(v):
                if bad < 5:
                    print(f"{name}: boid {i} {column}: boids {u!r}, seed {v!r}")
                bad += 1
    # Both sides doing nothing would agree; the state must actually have moved.
    if not any(bits(u) != bits(v) for a, b in zip(oracle, start) for u, v in zip(a, b)):
        print(f"{name}: the state did not change, so the comparison proves nothing")
        bad += 1
    return bad


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    boids, oracle, data_dir, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)

    states = {"edge": os.path.join(data_dir, EDGE_FILE)}
    for name, (count, seed, params) in RANDOM_STATES.items():
        path = os.path.join(work, f"start_{name}.csv")
        # The reference backend keeps the start in double; float backends would round it.
        run([boids, "run", "--backend", "reference", "--count", str(count), "--seed", str(seed),
             "--steps", "0", "--save", path] + flags(params))
        states[name] = path

    failures = 0
    for number, (state, steps, params) in enumerate(CASES):
        name = f"case {number} ({state}, {steps} steps, {' '.join(flags(params)) or 'defaults'})"
        ours = os.path.join(work, f"case{number}_boids.csv")
        seed = os.path.join(work, f"case{number}_seed.csv")
        common = ["--init", states[state], "--steps", str(steps), "--save"]
        run([boids, "run", "--backend", "reference"] + common + [ours] + flags(params))
        run([sys.executable, oracle, "--departures"] + common + [seed] + flags(params))
        bad = compare(name, read_csv(ours), read_csv(seed), read_csv(states[state]))
        print(f"{name}: {'OK' if bad == 0 else f'{bad} numbers differ'}")
        failures += bad != 0
    if failures:
        print(f"{failures} of {len(CASES)} cases differ from the published step")
        sys.exit(1)
    print(f"all {len(CASES)} cases agree with the published step bit for bit")


if __name__ == "__main__":
    main()
