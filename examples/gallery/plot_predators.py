"""
Predators through a flock
=========================

Three predators fly through 600 boids, each pursuing the boid nearest to it; boids closer than
the flee radius (twice the perception radius) steer away from where a predator will be. The
snapshots show the flock splitting around the predators' paths; the series sets the flock's
polarization φ and its number of separate flocks beside the same start flown without them.
The site's build flies 300 boids for 300 steps. Run as a script, it saves the two figures as
predators_snapshots.png and predators_series.png in the current directory, or in
BOIDS_GALLERY_OUT where that is set.
"""
import os

import matplotlib.pyplot as plt

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
count, steps = (300, 300) if SMALL else (600, 1200)
out_dir = os.environ.get("BOIDS_GALLERY_OUT", ".")  # where the figures are saved

# %%
# Snapshots of the hunted flock: boids as arrows, predators as red stars with their recent
# positions behind them.
flock = boids.Flock(count=count, predators=3, seed=5)
fig, axes = plt.subplots(1, 3, figsize=(12, 4.4), sharey=True)
trail = []
for ax, until in zip(axes, (steps // 3, 2 * steps // 3, steps)):
    while flock.steps_taken < until:
        flock.step(5)
        trail.append(flock.predators[:, :2].copy())
    x, y = flock.positions.T
    vx, vy = flock.velocities.T
    ax.quiver(x, y, vx, vy, angles="xy", scale_units="xy", scale=0.3, width=0.004)
    for k in range(flock.predators.shape[0]):
        path = [p[k] for p in trail[-8:]]
        ax.plot([p[0] for p in path], [p[1] for p in path], "r.", ms=3)
    ax.plot(*flock.predators[:, :2].T, "r*", ms=14)
    ax.set(title=f"step {flock.steps_taken}", xlim=(0, 100), ylim=(0, 100), aspect="equal",
           xlabel="x")
axes[0].set_ylabel("y")
fig.tight_layout()
fig.savefig(out := os.path.join(out_dir, "predators_snapshots.png"))
print("saved", out)

# %%
# The same start with and without predators: the hunted flock stays split.
fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
for predators, style in ((0, "-"), (3, "--")):
    series = boids.Flock(count=count, predators=predators, seed=5).run(steps, every=10)
    label = f"{predators} predators"
    top.plot(series["step"], series["polarization"], style, label=label)
    bottom.plot(series["step"], series["flocks"], style, label=label)
top.set(ylabel="polarization φ", ylim=(0, 1.05))
bottom.set(xlabel="step", ylabel="number of flocks")
top.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)  # above the axes
fig.tight_layout()
fig.savefig(out := os.path.join(out_dir, "predators_series.png"))
print("saved", out)
plt.show()
