"""
A flock in three dimensions, to video
=====================================

The same three rules in a box: a 3D flock starts at random and gathers into a few aligned
groups. Each frame is a few steps of the flight drawn as a 3D scatter; the animation is shown
here. The full size is 20,000 boids over 300 frames; the site's build flies 2,000 boids over 40.
Run as a script, it saves the last frame as flock_3d_video.png and, at the full size where
FFmpeg is installed, the animation as flock_3d_video.mp4, in the current directory or in
BOIDS_GALLERY_OUT where that is set.
"""
import os
import warnings

import matplotlib.pyplot as plt
from matplotlib import animation

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
count, frames, steps_a_frame = (2000, 40, 5) if SMALL else (20000, 300, 2)
out_dir = os.environ.get("BOIDS_GALLERY_OUT", ".")  # where the frame and the video are saved

# %%
# A cube at the density of the published example's mean neighbour count (the default world in
# three dimensions), its boids coloured by their height.
flock = boids.Flock(count=count, dimensions=3, seed=3)
side = flock.params["world"]
fig = plt.figure(figsize=(5, 5), dpi=80)
ax = fig.add_subplot(projection="3d")
ax.set(xlim=(0, side), ylim=(0, side), zlim=(0, side), xlabel="x", ylabel="y", zlabel="z")
points = ax.scatter(*flock.positions.T, s=2, c=flock.positions[:, 2], cmap="viridis")


def frame(k):
    global flock
    if k == 0:  # each showing or saving of the animation flies the same flight from its start
        flock = boids.Flock(count=count, dimensions=3, seed=3)
    flock.step(steps_a_frame)
    x, y, z = flock.positions.T
    points._offsets3d = (x, y, z)
    points.set_array(z)
    ax.set_title(f"step {flock.steps_taken}, polarization φ {flock.metrics()['polarization']:.2f}")
    return (points,)


movie = animation.FuncAnimation(fig, frame, frames=frames, interval=50, blit=False)

# %%
# Saved to video with FFmpeg (a run outside the site's build), at 20 frames a second, and the
# last frame as a picture.
if not SMALL and animation.writers.is_available("ffmpeg"):
    movie.save(out := os.path.join(out_dir, "flock_3d_video.mp4"), writer="ffmpeg", fps=20,
               dpi=120)
    print("saved", out)
else:  # no video: fly the frames without drawing them, to the last
    for k in range(frames):
        frame(k)
    warnings.filterwarnings("ignore", "Animation was deleted")  # never drawn, by design
fig.savefig(out := os.path.join(out_dir, "flock_3d_video.png"))
print("saved", out)
plt.show()
