"""Trajectories of ``boids run --trajectory`` as NumPy arrays, without knowing their layout.

    >>> t = boids.read_trajectory("flight.h5")
    >>> len(t), t.count, t.dimensions        # whole frames, boids, columns
    >>> t.positions[-1]                      # (N, D) float64: the last frame, read now
    >>> t.velocities[::10, :5]               # every tenth frame of the first five boids
    >>> t.steps, t.times, t.metrics["polarization"]   # (frames,) arrays
    >>> t.parameters["radius"], t.box, t.boundary

Frames are read when sliced, so a file larger than memory is read a piece at a time. A run
that was killed leaves a last frame that never got its step: the whole frames alone are
counted and served.
"""

import os

import numpy as np

__all__ = ["Trajectory", "read_trajectory"]

_OBSERVABLES = ("polarization", "order", "flocks", "largest_flock", "mean_nn_distance",
                "mean_neighbors")


class FrameArray:
    """A per-boid series of a trajectory, (frames, N, D), read from the file when sliced.

    Indexing and slicing take NumPy's forms over the whole frames (``a[k]``, ``a[-1]``,
    ``a[::10, :5]``) and return arrays; ``np.asarray(a)`` reads it whole.
    """

    __slots__ = ("_dataset", "_frames")

    def __init__(self, dataset, frames):
        self._dataset = dataset
        self._frames = frames

    @property
    def shape(self):
        return (self._frames,) + tuple(self._dataset.shape[1:])

    @property
    def dtype(self):
        return self._dataset.dtype

    def __len__(self):
        return self._frames

    def __getitem__(self, key):
        rest = ()
        if isinstance(key, tuple):
            key, rest = key[0], key[1:]
        if isinstance(key, (int, np.integer)):
            k = int(key) + (self._frames if key < 0 else 0)
            if not 0 <= k < self._frames:
                raise IndexError(f"frame {int(key)} of a trajectory of {self._frames} frames")
            return self._dataset[(k,) + rest]
        if isinstance(key, slice):
            frames = range(*key.indices(self._frames))
            if len(frames) == 0:
                return self._dataset[(slice(0, 0),) + rest]
            # h5py reads increasing selections alone: a decreasing one is read and turned.
            step = abs(frames.step)
            first, last = min(frames[0], frames[-1]), max(frames[0], frames[-1])
            values = self._dataset[(slice(first, last + 1, step),) + rest]
            return values if frames.step > 0 else values[::-1]
        indices = np.arange(self._frames)[key]
        return np.stack([self._dataset[(int(k),) + rest] for k in np.atleast_1d(indices)])

    def __array__(self, dtype=None):
        whole = self[:]
        return whole if dtype is None else whole.astype(dtype)

    def __repr__(self):
        return f"<boids trajectory series {self.shape} {self.dtype}>"


class Trajectory:
    """An H5MD trajectory written by ``boids run --trajectory``; see ``read_trajectory``."""

    def __init__(self, path):
        try:
            import h5py
        except ImportError as e:  # pragma: no cover - h5py is Debian's python3-h5py
            raise RuntimeError("reading a trajectory needs h5py (python3-h5py)") from e
        self.path = os.fspath(path)
        try:
            self._file = h5py.File(self.path, "r")
        except FileNotFoundError:
            raise
        except OSError as e:
            raise ValueError(f"trajectory '{self.path}': not an HDF5 file ({e})") from None
        try:
            self._read_layout()
        except BaseException:
            self._file.close()
            raise

    def _read_layout(self):
        f = self._file
        if "h5md" not in f or "particles/flock/position/value" not in f:
            raise ValueError(f"trajectory '{self.path}': not a trajectory of boids "
                             "(no /particles/flock/position)")
        flock = f["particles/flock"]
        position, velocity = flock["position/value"], flock["velocity/value"]
        steps, times = flock["position/step"], flock["position/time"]
        self._frames = min(len(steps), len(times), position.shape[0], velocity.shape[0])
        self.count, self.dimensions = int(position.shape[1]), int(position.shape[2])
        self.steps = steps[:self._frames]
        self.times = times[:self._frames]
        self.positions = FrameArray(position, self._frames)
        self.velocities = FrameArray(velocity, self._frames)
        self.metrics = {name: f[f"observables/{name}/value"][:self._frames]
                        for name in _OBSERVABLES if f"observables/{name}/value" in f}
        self.parameters = {name: _attribute(value)
                           for name, value in f["parameters"].attrs.items()} \
            if "parameters" in f else {}
        edges = flock["box/edges/value"] if "box/edges/value" in flock else flock["box/edges"]
        sides = np.diag(edges[-1]) if edges.ndim == 3 else edges[:]
        self.box = tuple(float(s) for s in sides)
        boundary = flock["box"].attrs.get("boundary", [b"periodic"])
        self.boundary = "walls" if _attribute(boundary[0]) == "none" else "torus"

    def __len__(self):
        return self._frames

    def __getitem__(self, k):
        """Frame ``k``: a dict of its step, time, positions, velocities and metrics."""
        if not isinstance(k, (int, np.integer)):
            raise TypeError("a trajectory's frames are indexed by integers; slice .positions")
        k = int(k) + (self._frames if k < 0 else 0)
        if not 0 <= k < self._frames:
            raise IndexError(f"frame {k} of a trajectory of {self._frames} frames")
        return {"step": int(self.steps[k]), "time": float(self.times[k]),
                "positions": self.positions[k], "velocities": self.velocities[k],
                **{name: values[k].item() for name, values in self.metrics.items()}}

    def __iter__(self):
        return (self[k] for k in range(self._frames))

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return (f"<boids trajectory '{self.path}': {self._frames} frames of {self.count} boids "
                f"in {self.dimensions}D>")


def _attribute(value):
    """An HDF5 attribute as Python: text decoded, one-element arrays as their value."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray):
        return [_attribute(v) for v in value] if value.dtype.kind in "SO" else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def read_trajectory(path):
    """Opens a trajectory of ``boids run --trajectory FILE.h5`` (H5MD) for reading.

    Returns a Trajectory: ``len(t)`` whole frames; ``t.positions`` and ``t.velocities``
    (frames, N, D) float64, read when sliced; ``t.steps``, ``t.times`` and ``t.metrics[name]``
    (frames,) arrays; ``t.parameters``, the run's options; ``t.box`` and ``t.boundary``;
    ``t[k]`` a frame as a dict. Raises FileNotFoundError for a missing file and ValueError for
    one that is not a trajectory of boids.
    """
    return Trajectory(path)
