"""
Giant number fluctuations in the ordered Vicsek phase
=====================================================

In a flock that moves in order the number of particles in a region fluctuates far more than in
a gas: the standard deviation ΔN of the count in a box grows as ⟨N⟩^α with α ≈ 0.8 in the
ordered phase, against the 0.5 of independent particles in the disordered one (Chaté, Ginelli,
Grégoire and Raynaud 2008, PRE 77 046113; α = 0.8 in two dimensions). Here Vicsek's model flies
at density 2 and speed 0.5 (Chaté's), with the angular noise below the transition (1.5 rad, in
boids' convention: a turn uniform in [-η/2, η/2]) and above it (5 rad). The world is cut into
boxes of every size, and the counts in them are sampled over the flight's second half, with the
polarization φ: the legend gives φ's mean over those samples ± their standard deviation (one
flight's samples are correlated, so no smaller standard error is claimed for it).

The full size is 100,000 particles for 4,000 steps (10^7 on a GPU shows the law over more
decades); the site's build flies 20,000 for 1,500. Run as a script, it saves the figure as
giant_number_fluctuations.png in the current directory, or in BOIDS_GALLERY_OUT where that is
set.
"""
import os

import matplotlib.pyplot as plt
import numpy as np

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
count, steps = (20_000, 1500) if SMALL else (100_000, 4000)


def counts_in_boxes(positions, side, boxes):
    """The number of particles in each of boxes x boxes equal boxes of a square world."""
    cells = np.floor(positions / side * boxes).astype(int) % boxes
    return np.bincount(cells[:, 0] * boxes + cells[:, 1], minlength=boxes * boxes)


# %%
# For each box size, the counts of all boxes in all samples give ⟨N⟩ and ΔN.
fig, ax = plt.subplots(figsize=(6.5, 6.2))
for eta, phase in ((1.5, "ordered"), (5.0, "disordered")):
    flock = boids.Flock(count, seed=11, model="vicsek", density=2, speed=0.5, noise=eta)
    side = flock.params["world"]
    flock.step(steps // 2)
    # Boxes of a sixteenth of the world and smaller: in larger ones the fixed total holds the
    # counts back.
    divisions = [b for b in (4, 8, 16, 32, 64, 128) if count / b**2 >= 2]
    samples = {b: [] for b in divisions}
    phi = []
    while flock.steps_taken < steps:
        flock.step(steps // 40)
        for b in divisions:
            samples[b].append(counts_in_boxes(flock.positions, side, b))
        phi.append(flock.metrics()["polarization"])
    mean = np.array([np.mean(samples[b]) for b in divisions])
    spread = np.array([np.std(samples[b]) for b in divisions])
    alpha = np.polyfit(np.log(mean), np.log(spread), 1)[0]
    ax.loglog(mean, spread, "o-", label=f"{phase}: η = {eta}, "
              f"polarization φ = {np.mean(phi):.3f} ± {np.std(phi):.3f}, α = {alpha:.2f}")
reference = np.array([1, count / 4])
ax.loglog(reference, 0.5 * reference**0.5, "k:", lw=0.8, label="slope 0.5")
ax.loglog(reference, 0.5 * reference**0.8, "k--", lw=0.8, label="slope 0.8")
ax.set(xlabel="mean count ⟨N⟩ in a box", ylabel="standard deviation ΔN of the count",
       title=f"Vicsek model, {count} particles")
ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12))  # below the axes
fig.tight_layout()
out = os.path.join(os.environ.get("BOIDS_GALLERY_OUT", "."), "giant_number_fluctuations.png")
fig.savefig(out)
print("saved", out)
plt.show()
