"""Trajectories of ``boids run --trajectory`` as NumPy arrays, without knowing their layout.

    >>> t = boids.read_trajectory("flight.h5")
    >>> len(t), t.count, t.dimensions        # whole frames, boids, columns
    >>> t.positions[-1]                      # (N, D) float64: the last frame, read now
    >>> t.velocities[::10, :5]               # every tenth frame of the first five boids
    >>> t.steps, t.times, t.metrics["polarization"]   # (frames,) arrays
    >>> t.parameters["radius"], t.box, t.boundary
    >>> t.predators, t.predator_positions[-1]  # a flight with --predators: (frames, K, D)

Frames are read when sliced, so a file larger than memory is read a piece at a time. A run
that was killed leaves a last frame that never got its step: the whole frames alone are
counted and served. The file is opened and checked by the reader ``boids convert`` and
``boids serve --replay`` use, and every value handed out is checked as theirs are: a file
they refuse raises ValueError here, in their words.
"""

import os

import numpy as np

__all__ = ["Trajectory", "read_trajectory"]

_OBSERVABLES = ("polarization", "order", "flocks", "largest_flock", "mean_nn_distance",
                "mean_neighbors", "milling", "within_reach")


class FrameArray:
    """A per-boid series of a trajectory, (frames, N, D), read from the file when sliced.

    Indexing and slicing take NumPy's forms over the whole frames (``a[k]``, ``a[-1]``,
    ``a[::10, :5]``) and return arrays; ``np.asarray(a)`` reads it whole.
    """

    __slots__ = ("_dataset", "_frames", "_check", "_columns")

    def __init__(self, dataset, frames, check, columns):
        self._dataset = dataset
        self._frames = frames
        self._check = check  # check(values, frames): raises ValueError for a value refused
        # The flock's columns of the file's: a flat flock's two of the three a box holds.
        self._columns = columns

    @property
    def shape(self):
        return (self._frames, self._dataset.shape[1], self._columns)

    @property
    def dtype(self):
        return self._dataset.dtype

    def __len__(self):
        return self._frames

    def __getitem__(self, key):
        rest = ()
        if isinstance(key, tuple):
            key, rest = key[0], key[1:]
        if len(rest) > 2 or any(r is Ellipsis for r in rest):
            raise IndexError("a trajectory's series is indexed as [frames, boids, columns]")
        boids = rest[0] if rest else slice(None)
        # The columns are chosen once the values read are checked, each boid whole.
        columns = (Ellipsis, rest[1]) if len(rest) > 1 else ()
        if isinstance(key, (int, np.integer)):
            k = int(key) + (self._frames if key < 0 else 0)
            if not 0 <= k < self._frames:
                raise IndexError(f"frame {int(key)} of a trajectory of {self._frames} frames")
            values = self._read(k, boids)
            self._check(values[np.newaxis], [k])
            return values[columns]
        if isinstance(key, slice):
            frames = range(*key.indices(self._frames))
            if len(frames) == 0:
                return self._read(slice(0, 0), boids)[columns]
            # h5py reads increasing selections alone: a decreasing one is read and turned.
            step = abs(frames.step)
            first, last = min(frames[0], frames[-1]), max(frames[0], frames[-1])
            values = self._read(slice(first, last + 1, step), boids)
            self._check(values, list(range(first, last + 1, step)))
            return (values if frames.step > 0 else values[::-1])[columns]
        indices = [int(k) for k in np.atleast_1d(np.arange(self._frames)[key])]
        values = np.stack([self._read(k, boids) for k in indices])
        self._check(values, indices)
        return values[columns]

    def _read(self, frames, boids):
        """Those frames of those boids, each with the flock's columns: a flat flock's file holds
        a third column of zeros (the layout readers of 3D files open), which is left out."""
        try:
            return self._dataset[(frames, boids, slice(0, self._columns))]
        except (OSError, KeyError, TypeError) as e:
            raise ValueError(f"trajectory '{self._dataset.file.filename}': cannot read "
                             f"{self._dataset.name}: {e}") from None

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
        from ._boids import _check_trajectory

        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            raise FileNotFoundError(f"trajectory '{self.path}': no such file")
        layout = _check_trajectory(self.path)  # ValueError, in the command line's words
        try:
            self._file = h5py.File(self.path, "r")
        except OSError as e:
            raise ValueError(f"trajectory '{self.path}': cannot be read ({e})") from None
        try:
            self._read_layout(layout)
        except UnicodeDecodeError as e:
            self._file.close()
            raise ValueError(f"trajectory '{self.path}': an attribute holds text that is not "
                             f"UTF-8 (byte {e.start}: {e.reason})") from None
        except (KeyError, IndexError, AttributeError, TypeError, OSError) as e:
            self._file.close()
            raise ValueError(f"trajectory '{self.path}': {e}") from None
        except BaseException:
            self._file.close()
            raise

    def _read_layout(self, layout):
        f = self._file
        flock = f["particles/flock"]
        self._frames = int(layout["frames"])
        self.count, self.dimensions = int(layout["count"]), int(layout["dimensions"])
        self.box = tuple(float(s) for s in layout["box"])
        for series in ("position", "velocity"):  # numbers, or numpy's TypeError when checked
            if flock[f"{series}/value"].dtype.kind not in "fiu":
                raise TypeError(f"/particles/flock/{series}/value holds "
                                f"{flock[f'{series}/value'].dtype}, not numbers")
        self.steps = flock["position/step"][:self._frames]
        self.times = flock["position/time"][:self._frames]
        d = self.dimensions  # the flock's: a flat flock's file may hold a column of zeros more
        self.positions = FrameArray(flock["position/value"], self._frames, self._positions_in_box,
                                    d)
        self.velocities = FrameArray(flock["velocity/value"], self._frames,
                                     self._finite("velocity"), d)
        self.predators = int(layout["predators"])
        hunters = f["particles/predators"] if self.predators else None
        self.predator_positions = FrameArray(hunters["position/value"], self._frames,
                                             self._positions_in_box, d) if hunters else None
        self.predator_velocities = FrameArray(hunters["velocity/value"], self._frames,
                                              self._finite("velocity"), d) if hunters else None
        self.metrics = {name: f[f"observables/{name}/value"][:self._frames]
                        for name in _OBSERVABLES if f"observables/{name}/value" in f}
        self.parameters = {name: _attribute(value)
                           for name, value in f["parameters"].attrs.items()} \
            if "parameters" in f else {}
        boundary = flock["box"].attrs.get("boundary", [b"periodic"])
        self.boundary = "walls" if _attribute(boundary[0]) == "none" else "torus"
        space = _attribute(flock["box"].attrs.get("space", b""))
        if (space[0] if isinstance(space, list) and space else space) == "open":
            self.boundary = "open"  # its box is the start's region, which the flock leaves

    def _refuse(self, frames, where, what):
        frame, row, column = (int(i) for i in where)
        raise ValueError(f"trajectory '{self.path}': frame {frames[frame]}, row {row}, column "
                         f"{column}: {what}")

    def _finite(self, kind):
        def check(values, frames):
            bad = np.argwhere(~np.isfinite(values))
            if len(bad):
                self._refuse(frames, bad[0], f"a {kind} that is not a finite number")
        return check

    def _positions_in_box(self, values, frames):
        self._finite("position")(values, frames)
        if self.boundary == "open":  # a flock in open space flies beyond its start's region
            return
        sides = np.asarray(self.box[:values.shape[-1]])
        bad = np.argwhere((values < 0) | (values >= sides))
        if len(bad):
            f, r, c = bad[0]
            self._refuse(frames, bad[0], f"{values[f, r, c]!r} lies outside the box "
                                         f"[0, {sides[c]!r})")

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
    (frames,) arrays; ``t.parameters``, the run's options; ``t.box`` and ``t.boundary``
    ("torus", "walls", or "open": open space, whose box is the start's region);
    ``t[k]`` a frame as a dict; with predators, ``t.predators`` of them and
    ``t.predator_positions``, ``t.predator_velocities`` (frames, K, D). Raises
    FileNotFoundError for a missing file, and ValueError for one that is not a trajectory of
    boids, cannot be read, or holds a value the command line refuses (in its words).
    """
    return Trajectory(path)
