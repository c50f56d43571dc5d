"""A Flock writes what the command line writes: a checkpoint that `boids run --resume`
continues bit for bit, a trajectory whose frames are `boids run --trajectory`'s, and a history
whose DataFrame says what made it."""

import boids
import numpy as np
import pytest
from conftest import run_cli

h5py = pytest.importorskip("h5py", reason="python3-h5py is not installed")

FLOCK = dict(count=400, seed=11, backend="cpu", model="vicsek", noise=1.0, density=4)
CLI_FLOCK = ["--count", 400, "--seed", 11, "--backend", "cpu", "--model", "vicsek", "--noise",
             1.0, "--density", 4]


def test_a_checkpoint_is_continued_by_the_command_line_bit_for_bit(tmp_path):
    flock = boids.Flock(**FLOCK)
    flock.step(25)
    flock.checkpoint(tmp_path / "c.bin")
    flock.step(35)
    run_cli("run", "--resume", tmp_path / "c.bin", "--steps", 60, "--save", tmp_path / "end.npy")
    assert np.array_equal(np.load(tmp_path / "end.npy"), flock.state)
    with pytest.raises(ValueError, match="path: cannot write") as refused:
        flock.checkpoint(tmp_path / "missing" / "c.bin")
    assert "missing" in str(refused.value)
    assert not (tmp_path / "missing").exists()


def test_a_runs_trajectory_holds_the_command_lines_frames(tmp_path):
    flock = boids.Flock(**FLOCK)
    flock.step(3)  # a flight under way: frames at multiples of the flight's steps
    history = flock.run(20, every=5, trajectory=tmp_path / "py.h5", trajectory_every=8)
    assert list(history["step"]) == [3, 5, 10, 15, 20, 23]
    run_cli("run", *CLI_FLOCK, "--steps", 23, "--trajectory", tmp_path / "cli.h5",
            "--trajectory-every", 8)
    with h5py.File(tmp_path / "py.h5", "r") as ours, h5py.File(tmp_path / "cli.h5", "r") as cli:
        steps = list(ours["particles/flock/position/step"])
        assert steps == [3, 8, 16, 23]  # its start, every 8 steps of the flight, its end
        cli_steps = list(cli["particles/flock/position/step"])
        for k, step in enumerate(steps[1:], start=1):
            at = cli_steps.index(step)
            for element in ("position", "velocity"):
                assert np.array_equal(ours[f"particles/flock/{element}/value"][k],
                                      cli[f"particles/flock/{element}/value"][at])
        assert ours["parameters"].attrs["noise"] == 1.0
        assert ours["parameters"].attrs["count"] == 400
    with boids.read_trajectory(tmp_path / "py.h5") as t:
        assert np.array_equal(t.positions[-1], flock.positions)
        assert np.array_equal(t.metrics["polarization"][-1], history["polarization"].iloc[-1])


def test_a_flat_flocks_trajectory_may_keep_its_two_columns(tmp_path):
    flock = boids.Flock(count=200, backend="cpu")
    flock.run(4, trajectory=tmp_path / "flat.h5", trajectory_layout="2d")
    with h5py.File(tmp_path / "flat.h5", "r") as f:
        assert f["particles/flock/position/value"].shape == (2, 200, 2)
    with pytest.raises(ValueError, match="trajectory_layout: expected '2d' or '3d'"):
        flock.run(4, trajectory=tmp_path / "x.h5", trajectory_layout="4d")
    with pytest.raises(ValueError, match="need trajectory=PATH"):
        flock.run(4, trajectory_every=2)
    with pytest.raises(ValueError, match="trajectory: cannot write"):
        flock.run(4, trajectory=tmp_path / "missing" / "x.h5")
    assert flock.steps_taken == 4  # a refused run flies nothing


def test_a_runs_history_says_what_made_it(tmp_path):
    pandas = pytest.importorskip("pandas", reason="python3-pandas is not installed")
    flock = boids.Flock(**FLOCK)
    history = flock.run(10, every=5)
    assert isinstance(history, pandas.DataFrame)
    made = history.attrs["made_by"]
    assert made["boids_version"] == boids.__version__
    assert made["boids_commit"] == boids.info()["commit"]
    flight = history.attrs["flight"]
    assert flight["noise"] == 1.0 and flight["count"] == 400 and flight["seed"] == 11
    assert {key: flight[key] for key in flock.params} == flock.params
    assert history.attrs["step"] == 10 and history.attrs["metrics_every"] == 5
