#!/usr/bin/env python3
"""The published Python `step`, ported line by line, as an independent oracle.

Python floats are IEEE 754 doubles and CPython never fuses a multiply and an add, so this
script rounds every operation exactly as the published model does. It shares no code with
the engine: the conformance test runs both on the same state and requires the same bits.

Usage: seed_step.py --init IN.csv --steps N --save OUT.csv
                    [--radius R] [--separation W] [--alignment W] [--cohesion W]
                    [--max-speed V] [--world L] [--departures]

State files are CSV with the header `x,y,vx,vy`; numbers are written with repr(), the
shortest text that reads back as the same double.
"""

import argparse
import math
import sys

# The published step's fixed gains.
K_SEP = 0.05
K_ALI = 0.05
K_COH = 0.005

# The published step fixes the world at 100; here it is an argument, set before stepping.
WORLD = 100.0
HALF = WORLD / 2

# The engine's two departures from the published step (--departures), where its arithmetic
# zeroes a velocity or leaves a boid outside its world: a velocity with a component above
# 2^510, whose square could overflow, has its speed taken at the scale 2^-600 (exact) and is
# clamped along it; a coordinate that the wrap leaves at WORLD itself is 0.
DEPARTURES = False


def step(b, p):
    """One synchronous step: separation (closer than r/2, weighted 1/distance),
    alignment (mean neighbor velocity) and cohesion (mean neighbor offset) within r;
    speed clamped to [max/2, max]; the world wraps around."""
    n, x, y, vx, vy = b["n"], b["x"], b["y"], b["vx"], b["vy"]
    r2 = p["radius"] * p["radius"]
    s2 = r2 / 4
    cnt, ax, ay = [0] * n, [0.0] * n, [0.0] * n
    cx, cy, sx, sy = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    for i in range(n):
        xi, yi, vxi, vyi = x[i], y[i], vx[i], vy[i]
        for j in range(i + 1, n):
            dx = x[j] - xi
            if dx > HALF:
                dx -= WORLD
            elif dx < -HALF:
                dx += WORLD
            dy = y[j] - yi
            if dy > HALF:
                dy -= WORLD
            elif dy < -HALF:
                dy += WORLD
            d2 = dx * dx + dy * dy
            if d2 >= r2:
                continue
            cnt[i] += 1
            cnt[j] += 1
            ax[i] += vx[j]
            ay[i] += vy[j]
            ax[j] += vxi
            ay[j] += vyi
            cx[i] += dx
            cy[i] += dy
            cx[j] -= dx
            cy[j] -= dy
            if d2 < s2 and d2 > 0:
                sx[i] -= dx / d2
                sy[i] -= dy / d2
                sx[j] += dx / d2
                sy[j] += dy / d2
    vmax = p["max_speed"]
    vmin = vmax / 2
    for i in range(n):
        if cnt[i] > 0:
            vx[i] += p["separation"] * K_SEP * sx[i] + p["alignment"] * K_ALI * (ax[i] / cnt[i] - vx[i]) + p["cohesion"] * K_COH * (cx[i] / cnt[i])
            vy[i] += p["separation"] * K_SEP * sy[i] + p["alignment"] * K_ALI * (ay[i] / cnt[i] - vy[i]) + p["cohesion"] * K_COH * (cy[i] / cnt[i])
        ux, uy, huge = vx[i], vy[i], False
        if DEPARTURES and max(abs(ux), abs(uy)) > 2.0 ** 510:
            ux, uy, huge = ux * 2.0 ** -600, uy * 2.0 ** -600, True
        speed = math.sqrt(ux * ux + uy * uy)
        if huge or speed > vmax:
            vx[i] = ux / speed * vmax
            vy[i] = uy / speed * vmax
        elif speed < vmin and speed > 0:
            vx[i] = vx[i] / speed * vmin
            vy[i] = vy[i] / speed * vmin
        x[i] += vx[i]
        y[i] += vy[i]
        if x[i] < 0:
            x[i] += WORLD
        elif x[i] >= WORLD:
            x[i] -= WORLD
        if y[i] < 0:
            y[i] += WORLD
        elif y[i] >= WORLD:
            y[i] -= WORLD
        if DEPARTURES:
            x[i] = 0.0 if x[i] == WORLD else x[i]
            y[i] = 0.0 if y[i] == WORLD else y[i]
    b["step"] += 1


def read_state(path):
    with open(path, encoding="ascii") as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "x,y,vx,vy":
        sys.exit(f"{path}: expected the header 'x,y,vx,vy'")
    b = {"n": 0, "x": [], "y": [], "vx": [], "vy": [], "step": 0}
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        fields = line.split(",")
        if len(fields) != 4:
            sys.exit(f"{path}, line {number}: expected 4 values")
        for key, field in zip(("x", "y", "vx", "vy"), fields):
            b[key].append(float(field))
    b["n"] = len(b["x"])
    return b


def write_state(path, b):
    out = ["x,y,vx,vy"]
    for i in range(b["n"]):
        out.append(",".join(repr(b[key][i]) for key in ("x", "y", "vx", "vy")))
    with open(path, "w", encoding="ascii") as f:
        f.write("\n".join(out) + "\n")


def main():
    global WORLD, HALF, DEPARTURES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", required=True)
    parser.add_argument("--save", required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--radius", type=float, default=10.0)
    parser.add_argument("--separation", type=float, default=1.5)
    parser.add_argument("--alignment", type=float, default=1.0)
    parser.add_argument("--cohesion", type=float, default=1.0)
    parser.add_argument("--max-speed", type=float, default=1.0)
    parser.add_argument("--world", type=float, default=100.0)
    parser.add_argument("--departures", action="store_true",
                        help="apply the engine's two departures from the published step")
    args = parser.parse_args()
    WORLD = args.world
    DEPARTURES = args.departures
    HALF = WORLD / 2
    p = {
        "radius": args.radius,
        "separation": args.separation,
        "alignment": args.alignment,
        "cohesion": args.cohesion,
        "max_speed": args.max_speed,
    }
    b = read_state(args.init)
    for _ in range(args.steps):
        step(b, p)
    write_state(args.save, b)


if __name__ == "__main__":
    main()
