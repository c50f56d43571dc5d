"""Very large Reynolds flocks on GPUs and CPUs.

    >>> import boids
    >>> flock = boids.Flock(count=1000, seed=7)
    >>> flock.step(600)
    >>> flock.metrics()["polarization"]

A flock takes the options of ``boids run`` by their long names (``max_speed`` for
``--max-speed``), accepts and refuses them alike, and flies the same flight: the state after
``flock.step(600)`` equals ``boids run --steps 600 --save`` bit for bit. Bad input raises
ValueError with the command line's message, its flags named as these keywords (``max_speed``
for ``--max-speed``); a failure of the machine raises RuntimeError.
"""

import numbers
import os

try:
    import numpy as np
except ImportError:  # the module's arrays are NumPy's: say so in one line
    raise ImportError("boids needs NumPy (Debian: python3-numpy)") from None

# OpenMP's idle threads sleep rather than spin unless the user chose otherwise, as in the
# command line (host/io/omp_waiting.h): set before the module loads the OpenMP runtime, which
# reads it once.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "passive"

from ._boids import _Flock, __version__  # noqa: E402
from ._boids import info as _info
from ._boids import param_rows as _param_rows
from ._boids import validate as _validate
from ._tables import table
from ._words import FLOCK_KEYWORDS, python_words
from .sweeping import sweep
from .trajectory import Trajectory, read_trajectory

__all__ = ["Flock", "DeviceArray", "DeviceState", "Trajectory", "info", "read_trajectory",
           "sweep", "validate", "__version__"]


def _whole(name, value, least):
    """``value`` as a whole number >= ``least``, or ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise ValueError(f"{name}: expected a whole number >= {least}, got {value!r}")
    return int(value)


def _next_multiple(step, k):
    return (step // k + 1) * k


def _core_property(name, doc):
    """A read-only property that the compiled flock answers."""
    return property(lambda self: getattr(self._core, name), doc=doc)


class Flock:
    """A flock of boids on one backend.

    Its options are those of ``boids run`` by their long names (``max_speed`` for
    ``--max-speed``), each a row of the table of parameters that every front end reads::

OPTIONS

    An option given as None takes its default.
    """

    __slots__ = ("_core",)

    def __init__(self, count=None, seed=42, backend="auto", method=None, precision=None,
                 **params):
        params.update(count=count, seed=seed, backend=backend, method=method,
                      precision=precision)
        with python_words(FLOCK_KEYWORDS):
            self._core = _Flock(params, None)

    @classmethod
    def from_state(cls, array, seed=42, backend="auto", method=None, precision=None, **params):
        """A flock that starts from ``array`` of real numbers (ints or floats): shape (N, 4),
        rows x, y, vx, vy in the world; or (N, 6), rows x, y, z, vx, vy, vz, in a box
        (``dimensions`` 3, taken from the shape).

        Takes the options of Flock() but ``count`` and ``init``; the array is checked as a
        state file is (finite, inside the world, outside the obstacles).
        """
        params.update(seed=seed, backend=backend, method=method, precision=precision)
        flock = cls.__new__(cls)
        with python_words(FLOCK_KEYWORDS):
            flock._core = _Flock(params, array)
        return flock

    def step(self, n=1):
        """Advances the flock n steps without holding the GIL: n a whole number (TypeError
        otherwise), >= 0, and the flock's steps_taken + n at most 10^18 (ValueError otherwise).

        Ctrl-C stops a long call between steps; the flock keeps the steps it completed.
        """
        self._core.step(n)

    def run(self, steps, every=None, trajectory=None, trajectory_every=None,
            trajectory_layout="3d"):
        """Flies ``steps`` more steps and returns the metrics' history, as ``boids run
        --metrics FILE --metrics-every K`` writes it: a row now, one every ``every`` steps of
        the flight (at multiples of it, counted from its start), and one at the end. A pandas
        DataFrame where pandas is installed (Debian's python3-pandas), else a dict of NumPy
        arrays, each column named as the CSV's (``step``, ``polarization``, ...). ``every``
        None: the start and the end alone. The DataFrame's ``attrs`` say what made it, as the
        command line's records do: ``made_by`` (boids' version and commit), ``flight`` (the
        flock and every parameter), ``step`` (the last) and ``metrics_every``.

        ``trajectory=PATH`` records the flight as ``boids run --trajectory`` does (H5MD, read
        by ``read_trajectory``, MDAnalysis, ``boids convert``): a frame now, one every
        ``trajectory_every`` steps of the flight, and one at the end; ``trajectory_layout``
        "2d" keeps a flat flock's own two columns. A run stopped by Ctrl-C keeps its whole
        frames.

            >>> history = flock.run(2000, every=10, trajectory="flight.h5", trajectory_every=100)
            >>> history["polarization"].iloc[-1], history.attrs["flight"]["noise"]
        """
        steps = _whole("steps", steps, 0)
        every = None if every is None else _whole("every", every, 1)
        if trajectory is None and (trajectory_every is not None or trajectory_layout != "3d"):
            raise ValueError("trajectory_every and trajectory_layout need trajectory=PATH")
        if trajectory_layout not in ("2d", "3d"):
            raise ValueError(f"trajectory_layout: expected '2d' or '3d', got {trajectory_layout!r}")
        frames = 0 if trajectory_every is None else _whole("trajectory_every", trajectory_every, 1)
        first = self.steps_taken
        end = first + steps
        if trajectory is not None:
            with python_words(FLOCK_KEYWORDS, {"trajectory": "trajectory"}):
                self._core.open_trajectory(os.fspath(trajectory), frames, end,
                                           3 if trajectory_layout == "3d" else 2)
        rows = []
        try:
            measured = self._core.record_frame(True) if trajectory is not None else None
            rows.append({"step": first, **(measured or self.metrics())})
            while self.steps_taken < end:
                upto = min(_next_multiple(self.steps_taken, k) for k in (every, frames or None)
                           if k is not None) if (every or frames) else end
                self.step(min(upto, end) - self.steps_taken)
                measured = self._core.record_frame(False) if trajectory is not None else None
                at = self.steps_taken
                if at == end or (every is not None and at % every == 0):
                    rows.append({"step": at, **(measured or self.metrics())})
        finally:
            if trajectory is not None:
                self._core.close_trajectory()
        history = table(rows)
        if hasattr(history, "attrs"):
            flight = self._core.flight
            made_by = {key: flight.pop(key) for key in ("boids_version", "boids_commit")}
            made_by["python"] = "boids.Flock.run"
            history.attrs.update(made_by=made_by, flight=flight, step=end,
                                 metrics_every=every or 0)
        return history

    def checkpoint(self, path):
        """Writes the flock now as ``boids run --checkpoint PATH`` does, whole or not at all:
        every option of its flight, its step and its state, which ``boids run --resume PATH
        --steps N`` continues bit for bit."""
        with python_words(FLOCK_KEYWORDS, {"checkpoint": "path"}):
            self._core.checkpoint(os.fspath(path))

    @property
    def state(self):
        """The boids now: a new float64 array of shape (count, 4), rows x, y, vx, vy (shape
        (count, 6), rows x, y, z, vx, vy, vz, in three dimensions), in the order they were
        given (input order), whatever order the backend keeps."""
        return self._core.state

    @property
    def predators(self):
        """The predators now (``predators=K``): a new float64 array of shape (K, 4), rows x, y,
        vx, vy (x, y, z, vx, vy, vz in three dimensions); shape (0, 4) without them."""
        return self._core.predators

    @property
    def positions(self):
        """A view of a new ``state``: columns x, y (x, y, z in three dimensions)."""
        state = self._core.state
        return state[:, : state.shape[1] // 2]

    @property
    def velocities(self):
        """A view of a new ``state``: columns vx, vy (vx, vy, vz in three dimensions)."""
        state = self._core.state
        return state[:, state.shape[1] // 2 :]

    def set_state(self, array):
        """Replaces every boid: ``array`` of shape (count, 4), checked as ``from_state`` checks
        it. The steps taken go on (the noise stays keyed by them), and the predators fly on."""
        with python_words(FLOCK_KEYWORDS):
            self._core.set_state(array)

    def metrics(self):
        """The flock's metrics, as ``boids run --json`` names them: polarization, order,
        milling (Couzin's m_group), flocks, largest_flock, mean_nn_distance, mean_neighbors; with
        predators, within_reach (the boids closer than the flee radius to one)."""
        return self._core.metrics()

    @property
    def params(self):
        """The model and every variant in effect, as ``boids run --json`` reports them."""
        return self._core.params

    def set_params(self, **changes):
        """Changes the model's parameters in place (weights, radius, max_speed, noise, fov,
        goal, wind, obstacles, ...), checked as ``boids run`` checks them; new obstacles must
        leave every boid outside. The world, the model, the dimensions and count, seed,
        backend, method, precision are fixed for a flock's life. A change given as None
        returns to the default.
        """
        with python_words(FLOCK_KEYWORDS):
            self._core.set_params(changes)

    def device_state(self):
        """The flock in GPU memory, without a copy (cuda backend): a DeviceState whose
        ``boids`` (count, 4) and ``ids`` (count,) carry ``__cuda_array_interface__`` (version 3),
        so ``cupy.asarray(state.boids)`` and ``torch.as_tensor(state.boids, device="cuda")``
        read it. Rows are in the backend's order: row k is boid ``ids[k]`` (``ids`` is None
        when the backend keeps input order). Valid until the flock's next step or change.
        RuntimeError for a flock in host memory."""
        boids, ids, count, precision, stream, device = self._core.device_state()
        typestr = "<f4" if precision == "float" else "<f8"
        return DeviceState(
            boids=DeviceArray(self, boids, (count, 4), typestr, stream, device),
            ids=DeviceArray(self, ids, (count,), "<u4", stream, device) if ids else None,
            precision=precision)

    def serve(self, port=8000, bind="127.0.0.1", token=None):
        """Serves the flock to browsers, as ``boids serve`` serves its own, while this script
        steps and changes it: open the address returned (``http://127.0.0.1:8000/``) in another
        tab to watch it. The page draws the flock and charts its order; the script steers, so
        the page has no controls. ``port`` 0 takes any free port; ``bind`` another address than
        loopback needs a ``token`` (16 to 128 letters and digits), or one is made up and is part
        of the address. Served again, the flock leaves its former address; ``stop_serving()``
        or the flock's end closes the pages. ValueError for a bad port, address or token,
        RuntimeError for a port in use.

        A page gets the flock as it is between the script's calls and, during a long
        ``step(n)``, every sixtieth of a second (the flock then steps in stretches that short).
        """
        if isinstance(port, bool) or not isinstance(port, int):
            raise TypeError(f"serve: port must be an int, got {port!r}")
        if not 0 <= port <= 65535:
            raise ValueError(f"port: expected 0 (any) to 65535, got {port}")
        if not isinstance(bind, str):
            raise TypeError(f"serve: bind must be a str, got {bind!r}")
        if token is not None and not isinstance(token, str):
            raise TypeError(f"serve: token must be a str or None, got {token!r}")
        return self._core.serve(port, bind, token or "")

    def stop_serving(self):
        """Stops serving the flock (nothing when it is not served); its pages disconnect."""
        self._core.stop_serving()

    @property
    def serving(self):
        """The address the flock is served at (``serve``), or None."""
        return self._core.serving

    count = _core_property("count", "The number of boids.")
    seed = _core_property("seed", "The seed of the start and of the noise.")
    steps_taken = _core_property(
        "steps_taken", "Steps taken since the flock began; the noise of a step is keyed by it.")
    backend = _core_property(
        "backend", 'Where the flock runs: "reference", "cpu" or "cuda" ("auto" resolved).')
    method = _core_property("method", '"naive" (all pairs) or "hashed" (sorted cells).')
    precision = _core_property("precision", '"float" or "double".')
    device = _core_property(
        "device", 'The device, for people: "CPU, 2 OpenMP threads", a GPU\'s name, ...')
    bytes_allocated = _core_property(
        "bytes_allocated", "Memory the backend holds for the flock, in bytes (on the GPU for "
        "cuda).")

    def __repr__(self):
        if not hasattr(self, "_core"):
            return "<boids.Flock, not made>"
        return (f"boids.Flock(count={self.count}, model={self.params['model']!r}, "
                f"backend={self.backend!r}, method={self.method!r}, "
                f"precision={self.precision!r}, steps_taken={self.steps_taken})")


def _options_doc():
    """Flock's options, a few lines each, as the table of parameters describes them."""
    import textwrap
    lines = []
    for keyword, text in _param_rows():
        # A literal block under the paragraph that introduces it (indented past it), so that
        # help() and the documentation site show the same columns.
        lines += textwrap.wrap(text, 96, initial_indent=f"        {keyword:<19}",
                               subsequent_indent=" " * 27)
    return "\n".join(lines)


Flock.__doc__ = Flock.__doc__.replace("OPTIONS", _options_doc())


class DeviceArray:
    """An array in GPU memory that CuPy, PyTorch and Numba read through
    ``__cuda_array_interface__``; it keeps its flock alive."""

    def __init__(self, owner, pointer, shape, typestr, stream, device):
        self._owner = owner
        self.pointer = pointer
        self.shape = shape
        self.typestr = typestr
        self.device = device
        self._stream = stream

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.typestr, "data": (self.pointer, True),
                "version": 3, "strides": None, "stream": self._stream or None}


class DeviceState:
    """What Flock.device_state returns: ``boids`` (count, 4) of x, y, vx, vy in the backend's
    order, ``ids`` (count,) the input index of each row or None, and their ``precision``."""

    def __init__(self, boids, ids, precision):
        self.boids = boids
        self.ids = ids
        self.precision = precision


def info():
    """What this machine can run, as ``boids info --json`` prints it: the version, each
    backend (available, device, methods, precisions) and what "auto" resolves to."""
    return _info()


def validate(backend="auto"):
    """Runs ``boids validate --backend BACKEND`` ("auto", "cpu" or "cuda") and returns its
    report as ``--json`` prints it: every case with its errors and verdict, and ``pass``."""
    return _validate(backend)
