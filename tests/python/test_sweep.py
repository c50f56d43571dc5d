"""boids.sweep: the command line's sweep from Python, its points the same numbers as `boids sweep
--json` prints, what made them in the table's attrs, a CSV resumed, and the command line's
refusals as ValueError."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas
import pytest

import boids
from conftest import cli_error, run_cli

VICSEK = dict(model="vicsek", count=60, replicas=2, discard=10, steps=20, every=5,
              backend="cpu")


def test_the_points_are_the_command_lines():
    points = boids.sweep({"noise": [0.5, 3], "radius": "1:1.5:0.5"}, **VICSEK)
    cli = json.loads(run_cli("sweep", "--json", "--model", "vicsek", "--count", 60,
                             "--replicas", 2, "--discard", 10, "--steps", 20, "--every", 5,
                             "--backend", "cpu", "--param", "noise=0.5,3",
                             "--param", "radius=1:1.5:0.5").stdout)
    assert isinstance(points, pandas.DataFrame)
    assert len(points) == 4 and len(cli["points"]) == 4
    for column in ("noise", "radius", "polarization", "polarization_sem", "binder"):
        assert np.array_equal(points[column].to_numpy(),
                              np.array([p[column] for p in cli["points"]])), column
    made = points.attrs["made_by"]
    assert made["boids_version"] == boids.__version__
    assert made["command"][:3] == ["boids", "sweep", "--json"]
    assert points.attrs["replicas"] == 2 and points.attrs["first_point"]["model"] == "vicsek"


def test_a_csv_is_written_and_resumed(tmp_path):
    csv = tmp_path / "phases.csv"
    first = boids.sweep({"noise": [1]}, csv=csv, **VICSEK)
    both = boids.sweep({"noise": [1, 2]}, csv=str(csv), resume=True, **VICSEK)
    assert list(both["kept"]) == [True, False]
    assert both["polarization"][0] == first["polarization"][0]
    assert (tmp_path / "phases.csv.json").exists()


def test_bad_input_is_the_command_lines_refusal():
    with pytest.raises(ValueError) as refused:
        boids.sweep({"noise": [1]}, replicas=0, **{k: v for k, v in VICSEK.items()
                                                   if k != "replicas"})
    assert str(refused.value) == cli_error("sweep", "--param", "noise=1", "--replicas", 0).replace(
        "--replicas", "replicas")
    with pytest.raises(ValueError, match="grid"):
        boids.sweep([("noise", 1)])
    with pytest.raises(ValueError, match="^grid: ") as refused:
        boids.sweep({"bogus": [1]}, **VICSEK)
    assert "--param" not in str(refused.value)
    with pytest.raises(ValueError, match="radius"):
        boids.sweep({"noise": [1]}, radius=-1, **VICSEK)
    # A keyword no flock takes is refused as Flock() refuses it, not in the command line's words.
    with pytest.raises(TypeError, match="unexpected keyword argument 'evil'"):
        boids.sweep({"noise": [1]}, evil=1, **VICSEK)
    # One value of a sequence is one point: '1,2' is not flown as two.
    with pytest.raises(ValueError, match="grid 'noise': the value '1,2' is not one value"):
        boids.sweep({"noise": ["1,2"]}, **VICSEK)


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return []


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent's death signal")
def test_a_program_ended_inside_a_sweep_takes_the_sweep_with_it(tmp_path):
    program = ("import boids; boids.sweep({'noise': [1, 2, 3]}, model='vicsek', count=3000, "
               "replicas=2, steps=1000000, backend='cpu', csv='phases.csv')")
    python = subprocess.Popen([sys.executable, "-c", program], cwd=tmp_path)
    deadline = time.monotonic() + 60
    while not _children(python.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    children = _children(python.pid)
    assert children, "the sweep never started"
    python.send_signal(signal.SIGTERM)
    python.wait(timeout=30)
    deadline = time.monotonic() + 20
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [c for c in children if _alive(c)]
    for c in alive:
        os.kill(c, signal.SIGKILL)
    assert not alive, "the sweep flew on after its program ended"
