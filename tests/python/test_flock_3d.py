"""boids.Flock in three dimensions: the same flight as `boids run --dimensions 3` bit for bit,
states of shape (N, 6) in and out exact, spheres as rows (x, y, z, radius), and the shapes
and rows of the other dimension refused by name."""

import numpy as np
import pytest

import boids
from conftest import CONFIGS, run_cli


def same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("backend,method,precision", CONFIGS)
def test_a_box_flies_as_boids_run_does(tmp_path, backend, method, precision):
    saved = tmp_path / "end.npy"
    run_cli("run", "--dimensions", 3, "--count", 300, "--noise", 0.4, "--goal", "10,20,30",
            "--backend", backend, "--method", method, "--precision", precision,
            "--steps", 40, "--save", saved)
    flock = boids.Flock(count=300, dimensions=3, noise=0.4, goal=(10, 20, 30), backend=backend,
                        method=method, precision=precision)
    flock.step(40)
    assert flock.state.shape == (300, 6)
    assert same_bits(flock.state, np.load(saved))
    assert flock.params["dimensions"] == 3


def test_states_of_six_columns_go_in_and_out_exactly():
    flock = boids.Flock(count=200, dimensions=3, backend="cpu", precision="double", seed=3)
    flock.step(10)
    state = flock.state
    again = boids.Flock.from_state(state, backend="cpu", precision="double", seed=3,
                                   world=flock.params["world"])
    assert again.params["dimensions"] == 3  # taken from the shape
    assert same_bits(again.state, state)
    flock.step(5)
    again.set_state(flock.state)
    assert same_bits(again.state, flock.state)


def test_positions_and_velocities_are_three_columns_each():
    flock = boids.Flock(count=50, dimensions=3, backend="cpu", seed=4)
    state = flock.state
    assert same_bits(np.ascontiguousarray(flock.positions), state[:, :3].copy())
    assert same_bits(np.ascontiguousarray(flock.velocities), state[:, 3:].copy())
    flat = boids.Flock(count=50, backend="cpu", seed=4)
    assert flat.positions.shape == (50, 2) and flat.velocities.shape == (50, 2)


def test_spheres_as_rows():
    rows = [(20.0, 20.0, 20.0, 6.0), (40.0, 10.0, 30.0, 4.0)]
    flock = boids.Flock(count=300, dimensions=3, world=50, backend="cpu", obstacles=rows,
                        max_speed=2)
    flock.step(60)
    s = flock.state
    for x, y, z, r in rows:
        d = s[:, :3] - np.array([x, y, z])
        d -= 50 * np.round(d / 50)
        assert (np.sum(d * d, axis=1) >= r * r * (1 - 1e-5)).all()


def test_no_obstacles_fit_every_dimension():
    flock = boids.Flock(count=10, dimensions=3, backend="cpu", obstacles=[])
    flock.set_params(obstacles=np.empty((0, 4)))
    flock.step(2)
    assert flock.params["obstacles"] == 0


def test_the_other_dimension_is_refused():
    with pytest.raises(ValueError, match=r"holds boids in three dimensions; this flock flies in 2"):
        boids.Flock.from_state(np.zeros((10, 6)) + 1, dimensions=2)
    with pytest.raises(ValueError, match=r"holds boids in two dimensions; this flock flies in 3"):
        boids.Flock.from_state(np.zeros((10, 4)) + 1, dimensions=3)
    flock = boids.Flock(count=10, dimensions=3, backend="cpu")
    with pytest.raises(ValueError, match=r"holds boids in two dimensions"):
        flock.set_state(np.ones((10, 4)))
    with pytest.raises(ValueError, match=r"in three dimensions expected rows \(x, y, z, radius\)"):
        boids.Flock(count=10, dimensions=3, obstacles=[(5, 5, 2)])
    with pytest.raises(ValueError, match=r"rows \(x, y, z, radius\) are spheres"):
        boids.Flock(count=10, obstacles=[(5, 5, 5, 2)])


def test_a_change_keeps_the_flocks_world():
    # A 3D flock's default world follows its radius; a change of radius keeps the world it has.
    flock = boids.Flock(count=200, dimensions=3, backend="cpu")
    world = flock.params["world"]
    flock.set_params(radius=5)
    assert flock.params["radius"] == 5 and flock.params["world"] == world
    flock.step(2)
    # A flock from rows of six is 3D without `dimensions` given; a change keeps it so.
    rng = np.random.default_rng(3)
    headings = rng.normal(size=(50, 3))
    headings *= 3 / np.linalg.norm(headings, axis=1)[:, None]  # couzin's constant speed
    rows = np.hstack([rng.random((50, 3)) * 40, headings])
    flock = boids.Flock.from_state(rows, model="couzin", world=40, backend="cpu")
    flock.set_params(orientation_width=5)
    assert flock.params["orientation_width"] == 5 and flock.params["dimensions"] == 3
    flock.step(2)
    # A change that names the world is checked as given: the world cannot change.
    with pytest.raises(ValueError, match="cannot change"):
        flock.set_params(world=50)
