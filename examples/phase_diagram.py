"""Vicsek's order-disorder transition: the polarization against the noise, over replicas.

Usage: phase_diagram.py [COUNT STEPS REPLICAS OUT.png]   (default: 400 2000 8 phase_diagram.png)
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import boids

count, steps, replicas = (int(a) for a in (sys.argv[1:4] or (400, 2000, 8)))
out = sys.argv[4] if len(sys.argv) > 4 else "phase_diagram.png"
noises = np.linspace(0.1, 5.0, 12)
phi = np.empty((len(noises), replicas))
for i, eta in enumerate(noises):
    for k in range(replicas):
        flock = boids.Flock(count, seed=k, model="vicsek", density=4, noise=eta)
        flock.step(steps // 2)  # the transient
        samples = [flock.step(steps // 20) or flock.metrics()["polarization"] for _ in range(10)]
        phi[i, k] = np.mean(samples)
plt.errorbar(noises, phi.mean(1), yerr=phi.std(1) / np.sqrt(replicas), marker="o", capsize=3)
plt.xlabel("noise η (radians)")
plt.ylabel("polarization φ")
plt.title(f"Vicsek model, N = {count}, density 4, {replicas} replicas")
plt.savefig(out, dpi=120)
print(f"wrote {out}")
