"""Trajectories open in the field's readers: MDAnalysis (H5MD), ParaView through the XDMF
description, GSD (OVITO, HOOMD-blue) through `boids convert`, and NumPy through
boids.read_trajectory; each with the frames h5py reads, and a killed run's file up to its last
whole frame. Each reader is the real package where Debian has it (python3-mdanalysis,
python3-gsd, paraview's pvbatch), skipped, saying so, where it is missing."""

import os
import shutil
import signal
import subprocess
import time
import warnings
import xml.etree.ElementTree as ET

import boids
import numpy as np
import pytest
from conftest import BOIDS, cli_error, run_cli

h5py = pytest.importorskip("h5py", reason="python3-h5py is not installed")

FLOCKS = {
    "boids": ["--count", "300"],
    "steering": ["--model", "steering", "--count", "200", "--boundary", "walls"],
    "vicsek": ["--model", "vicsek", "--count", "300", "--noise", "1"],
}


def fly(tmp_path, name, *options, steps=12, every=4):
    """Runs a flight with a trajectory; returns the trajectory's path."""
    path = tmp_path / f"{name}.h5"
    run_cli("run", "--backend", "cpu", "--steps", steps, "--trajectory", path,
            "--trajectory-every", every, *options)
    return path


def frames(path):
    """The whole frames as h5py reads them: steps, times, positions, velocities, box sides."""
    with h5py.File(path, "r") as f:
        flock = f["particles/flock"]
        whole = len(flock["position/step"])
        return {"steps": flock["position/step"][:], "times": flock["position/time"][:],
                "positions": flock["position/value"][:whole],
                "velocities": flock["velocity/value"][:whole],
                "box": np.diag(flock["box/edges/value"][whole - 1])}


def mdanalysis_reader(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mda = pytest.importorskip("MDAnalysis", reason="python3-mdanalysis is not installed")
        from MDAnalysis.coordinates.H5MD import H5MDReader
    return mda, H5MDReader(str(path), convert_units=False)


def expect_mdanalysis_frames(path, expected):
    _, reader = mdanalysis_reader(path)
    assert reader.n_atoms == expected["positions"].shape[1]
    seen = 0
    for ts in reader:
        k = ts.frame
        if k >= len(expected["steps"]):
            break
        assert ts.data["step"] == expected["steps"][k]
        assert ts.time == pytest.approx(expected["times"][k])
        assert np.array_equal(ts.positions, expected["positions"][k].astype(np.float32))
        assert np.array_equal(ts.velocities, expected["velocities"][k].astype(np.float32))
        assert np.allclose(ts.dimensions[:3], expected["box"]) and list(ts.dimensions[3:]) == [90] * 3
        seen += 1
    assert seen == len(expected["steps"])


@pytest.mark.parametrize("model", FLOCKS)
def test_mdanalysis_reads_three_dimensional_flights_of_every_model(tmp_path, model):
    path = fly(tmp_path, model, "--dimensions", "3", *FLOCKS[model])
    expect_mdanalysis_frames(path, frames(path))


def test_mdanalysis_reads_a_default_flat_flight_in_a_3d_layout(tmp_path):
    boxed = fly(tmp_path, "boxed", *FLOCKS["boids"])  # the default layout
    flat = fly(tmp_path, "flat", *FLOCKS["boids"], "--trajectory-layout", "2d")
    with pytest.raises(ValueError, match="3-dimensional"):
        mdanalysis_reader(flat)  # MDAnalysis reads boxes of three dimensions alone
    expected = frames(boxed)
    plain = frames(flat)
    assert np.array_equal(expected["positions"][:, :, :2], plain["positions"])
    assert np.array_equal(expected["velocities"][:, :, :2], plain["velocities"])
    assert not expected["positions"][:, :, 2].any() and not expected["velocities"][:, :, 2].any()
    assert list(expected["box"]) == [100, 100, 1]
    expect_mdanalysis_frames(boxed, expected)
    assert "a flock in three dimensions" in cli_error(
        "run", "--dimensions", "3", "--trajectory", tmp_path / "x.h5", "--trajectory-layout", "2d")


def xdmf_frames(path):
    """The frames an XDMF description names: for each, its time and every HDF5 hyperslab it
    reads (file, dataset, start, count), checked against the file's datasets."""
    root = ET.parse(path).getroot()
    collection = root.find("Domain/Grid")
    assert collection.get("CollectionType") == "Temporal"
    return [(float(grid.find("Time").get("Value")), slabs_of(grid, path))
            for grid in collection.findall("Grid")]


def slabs_of(grid, path):
    """The HDF5 hyperslabs a point set of an XDMF description reads, by name, checked against
    the file's datasets."""
    slabs = {}
    for owner in grid:
        if owner.tag not in ("Geometry", "Attribute"):
            continue
        slab = owner.find("DataItem")
        assert slab.get("ItemType") == "HyperSlab"
        corner, source = slab.findall("DataItem")
        start, stride, count = np.array(corner.text.split(), dtype=int).reshape(3, -1)
        file_name, dataset = source.text.split(":")
        with h5py.File(os.path.join(os.path.dirname(path), file_name), "r") as f:
            shape = f[dataset].shape
            assert len(shape) == len(start), dataset
            assert all(s + c <= n for s, c, n in zip(start, count, shape)), dataset
            assert list(map(int, slab.get("Dimensions").split())) == \
                [int(c) for c in count if len(count) == 1 or c != 1] or len(count) == 3
            values = f[dataset][tuple(slice(s, s + c) for s, c in zip(start, count))]
        slabs[owner.get("Name", owner.tag)] = values
    return slabs


@pytest.mark.parametrize("dimensions", [2, 3])
def test_the_xdmf_description_names_every_whole_frame(tmp_path, dimensions):
    path = fly(tmp_path, "flight", "--dimensions", dimensions, "--count", "150")
    expected = frames(path)
    described = xdmf_frames(tmp_path / "flight.xdmf")
    assert [t for t, _ in described] == list(expected["times"])
    with h5py.File(path, "r") as f:
        for k, (_, slabs) in enumerate(described):
            assert np.array_equal(slabs["Geometry"][0], expected["positions"][k])
            assert np.array_equal(slabs["velocity"][0], expected["velocities"][k])
            assert slabs["polarization"][0] == f["observables/polarization/value"][k]
            assert slabs["flocks"][0] == f["observables/flocks/value"][k]
    # `boids convert` writes the same description again from the file alone.
    run_cli("convert", path, tmp_path / "again.xdmf")
    assert (tmp_path / "again.xdmf").read_text() == (tmp_path / "flight.xdmf").read_text()


PARAVIEW_OPEN = """
import sys
from paraview import servermanager
from paraview.simple import XDMFReader
reader = XDMFReader(FileNames=[sys.argv[1]])
reader.UpdatePipelineInformation()
for t in reader.TimestepValues:
    reader.UpdatePipeline(t)
    data = servermanager.Fetch(reader)
"""


def paraview_rows(tmp_path, each_frame, description):
    """The rows pvbatch prints, a frame each, for a script that opens `description` and runs
    `each_frame` (indented four spaces, with `t` and `data`) on every frame."""
    pvbatch = shutil.which("pvbatch")
    if pvbatch is None:
        pytest.skip("ParaView's pvbatch is not installed (Debian's paraview, python3-paraview)")
    script = tmp_path / "read.py"
    script.write_text(PARAVIEW_OPEN + each_frame)
    done = subprocess.run([pvbatch, str(script), str(description)],
                          capture_output=True, text=True, timeout=300)
    rows = [list(map(float, line.split())) for line in done.stdout.splitlines()
            if line[:1].isdigit()]
    return rows, done.stdout + done.stderr


PARAVIEW_FLOCK = """
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    first = data.GetPoints().GetPoint(0)
    velocity = data.GetPointData().GetArray("velocity").GetTuple(0)
    polarization = data.GetFieldData().GetArray("polarization").GetValue(0)
    print(t, data.GetNumberOfPoints(), *first, *velocity, polarization)
"""


def test_paraview_opens_the_xdmf_description(tmp_path):
    path = fly(tmp_path, "flight", "--count", "150")
    expected = frames(path)
    rows, said = paraview_rows(tmp_path, PARAVIEW_FLOCK, tmp_path / "flight.xdmf")
    assert len(rows) == len(expected["steps"]), said
    with h5py.File(path, "r") as f:
        polarization = f["observables/polarization/value"][:]
    for k, values in enumerate(rows):
        assert values[0] == expected["times"][k] and values[1] == 150
        # ParaView gives a point's three coordinates, as the file's default layout holds them.
        assert values[2:5] == pytest.approx(list(expected["positions"][k][0]), rel=1e-6)
        assert values[5:8] == pytest.approx(list(expected["velocities"][k][0]), rel=1e-6)
        assert values[8] == pytest.approx(polarization[k])


PARAVIEW_BLOCKS = """
    flock, hunters = data.GetBlock(0), data.GetBlock(1)
    reach = flock.GetFieldData().GetArray("within_reach").GetValue(0)
    print(t, data.GetNumberOfBlocks(), flock.GetNumberOfPoints(), hunters.GetNumberOfPoints(),
          *hunters.GetPoints().GetPoint(0), reach)
"""


def test_paraview_opens_the_predators_as_a_second_block(tmp_path):
    path = fly(tmp_path, "hunt", "--count", "150", "--predators", "3")
    expected = frames(path)
    rows, said = paraview_rows(tmp_path, PARAVIEW_BLOCKS, tmp_path / "hunt.xdmf")
    assert len(rows) == len(expected["steps"]), said
    with h5py.File(path, "r") as f:
        hunters = f["particles/predators/position/value"][:]
        reach = f["observables/within_reach/value"][:]
    for k, values in enumerate(rows):
        assert values[0] == expected["times"][k] and values[1:4] == [2, 150, 3]
        assert values[4:7] == pytest.approx(list(hunters[k][0]), rel=1e-6)
        assert values[7] == reach[k]


@pytest.mark.parametrize("dimensions", [2, 3])
def test_gsd_from_boids_convert_holds_the_frames(tmp_path, dimensions):
    gsd_hoomd = pytest.importorskip("gsd.hoomd", reason="python3-gsd is not installed")
    path = fly(tmp_path, "flight", "--dimensions", dimensions, "--count", "120")
    expected = frames(path)
    run_cli("convert", path, tmp_path / "flight.gsd")
    with h5py.File(path, "r") as f:
        polarization = f["observables/polarization/value"][:]
    with gsd_hoomd.open(str(tmp_path / "flight.gsd"), "rb") as trajectory:
        assert len(trajectory) == len(expected["steps"])
        for k, frame in enumerate(trajectory):
            box = expected["box"]
            assert frame.configuration.step == expected["steps"][k]
            assert frame.configuration.dimensions == dimensions
            assert list(frame.configuration.box[:3]) == \
                pytest.approx([*box[:2], box[2] if dimensions == 3 else 0])
            # A flat flock's file holds z = 0 beside it (the default layout): its GSD is 2D.
            centred = expected["positions"][k][:, :dimensions] - box[:dimensions] / 2
            assert np.array_equal(frame.particles.position[:, :dimensions],
                                  centred.astype(np.float32))
            assert np.array_equal(frame.particles.velocity[:, :dimensions],
                                  expected["velocities"][k][:, :dimensions].astype(np.float32))
            assert frame.particles.types == ["boid"]
            assert frame.log["boids/polarization"][0] == polarization[k]


@pytest.mark.parametrize("dimensions", [2, 3])
def test_gsd_of_open_space_holds_every_boid_in_one_box(tmp_path, dimensions):
    """Open space has no box: the GSD file's is the whole flight's extent, the positions
    about its centre, the same each frame, so that every boid lies inside it as it flew."""
    gsd_hoomd = pytest.importorskip("gsd.hoomd", reason="python3-gsd is not installed")
    path = fly(tmp_path, "open", "--dimensions", dimensions, "--boundary", "open", "--world", 20,
               "--count", 100, "--predators", 2, steps=60, every=20)
    expected = frames(path)
    run_cli("convert", path, tmp_path / "open.gsd")
    with h5py.File(path, "r") as f:
        hunters = f["particles/predators/position/value"][:len(expected["steps"])]
    every = np.concatenate([expected["positions"][..., :dimensions].reshape(-1, dimensions),
                            hunters[..., :dimensions].reshape(-1, dimensions)])
    low, high = every.min(axis=0), every.max(axis=0)
    assert (high - low > 20).any()  # the flock left the start's region
    centre = (low + high) / 2
    with gsd_hoomd.open(str(tmp_path / "open.gsd"), "rb") as trajectory:
        assert len(trajectory) == len(expected["steps"])
        for k, frame in enumerate(trajectory):
            sides = np.array(frame.configuration.box[:dimensions])
            assert sides == pytest.approx((high - low) * 1.01)
            at = frame.particles.position[:, :dimensions]
            assert (np.abs(at) < sides / 2).all()
            assert np.array_equal(at[:100], (expected["positions"][k][:, :dimensions]
                                             - centre).astype(np.float32))


@pytest.mark.parametrize("dimensions", [2, 3])
def test_predators_are_a_second_particle_group_in_every_reader(tmp_path, dimensions):
    path = fly(tmp_path, "hunt", "--dimensions", dimensions, "--count", "150", "--predators", "3",
               "--save", tmp_path / "end.npy")
    expected = frames(path)
    with h5py.File(path, "r") as f:
        hunters = f["particles/predators"]
        whole = len(expected["steps"])
        assert hunters["position/value"].shape == (whole, 3, 3)  # a flat flock's: z = 0
        assert np.array_equal(hunters["position/step"][:], expected["steps"])
        assert list(hunters["box"].attrs["boundary"]) == \
            [b"periodic"] * dimensions + [b"none"] * (3 - dimensions)
        last = np.hstack([hunters["position/value"][whole - 1][:, :dimensions],
                          hunters["velocity/value"][whole - 1][:, :dimensions]])
        reach = f["observables/within_reach/value"][:whole]
    assert expected["steps"][-1] == 12  # the last frame is the end, which --save wrote
    assert np.array_equal(last, np.load(tmp_path / "end.predators.npy"))
    assert ((0 <= reach) & (reach <= 150)).all()
    expect_mdanalysis_frames(path, expected)  # the flock's group, flat or not
    gsd_hoomd = pytest.importorskip("gsd.hoomd", reason="python3-gsd is not installed")
    run_cli("convert", path, tmp_path / "hunt.gsd")
    with gsd_hoomd.open(str(tmp_path / "hunt.gsd"), "rb") as trajectory:
        frame = trajectory[len(trajectory) - 1]
        assert frame.particles.types == ["boid", "predator"]
        assert list(frame.particles.typeid[148:]) == [0, 0, 1, 1, 1]
        centred = last[:, :dimensions] - expected["box"][:dimensions] / 2
        assert np.array_equal(frame.particles.position[150:, :dimensions],
                              centred.astype(np.float32))
        assert frame.log["boids/within_reach"][0] == reach[-1]
    # The XDMF description: each frame a spatial collection of the flock and the predators.
    root = ET.parse(tmp_path / "hunt.xdmf").getroot()
    frames_described = root.find("Domain/Grid").findall("Grid")
    assert len(frames_described) == len(expected["steps"])
    with h5py.File(path, "r") as f:
        for k, grid in enumerate(frames_described):
            assert grid.get("CollectionType") == "Spatial"
            assert float(grid.find("Time").get("Value")) == expected["times"][k]
            flock, hunters = grid.findall("Grid")
            assert (flock.get("Name"), hunters.get("Name")) == ("flock", "predators")
            flock, hunters = slabs_of(flock, path), slabs_of(hunters, path)
            assert np.array_equal(flock["Geometry"][0], expected["positions"][k])
            assert flock["within_reach"][0] == reach[k]
            assert np.array_equal(hunters["Geometry"][0], f["particles/predators/position/value"][k])
            assert np.array_equal(hunters["velocity"][0], f["particles/predators/velocity/value"][k])
    run_cli("convert", path, tmp_path / "again.xdmf")
    assert (tmp_path / "again.xdmf").read_text() == (tmp_path / "hunt.xdmf").read_text()
    # A predators' group of another shape than the flock's frames is refused, naming it.
    with h5py.File(path, "r+") as f:
        del f["particles/predators/velocity/value"]
        f["particles/predators/velocity/value"] = np.zeros((1, 3, dimensions))
    said = cli_error("convert", path, tmp_path / "bad.xdmf")
    assert "hunt.h5" in said and "predators' positions and velocities" in said, said
    assert not (tmp_path / "bad.xdmf").exists()


def test_read_trajectory_is_h5pys_view(tmp_path):
    path = fly(tmp_path, "flight", *FLOCKS["steering"], steps=9, every=2)
    expected = frames(path)
    # The flat flock's columns of the file's three (z = 0: the layout 3D readers open).
    expected["positions"] = expected["positions"][..., :2]
    expected["velocities"] = expected["velocities"][..., :2]
    with boids.read_trajectory(path) as t:
        assert t.positions.shape == (6, 200, 2)
        assert np.array_equal(t.positions[1, :5, 1], expected["positions"][1, :5, 1])
        assert np.array_equal(t.velocities[2, 3], expected["velocities"][2, 3])
        assert len(t) == 6 and t.count == 200 and t.dimensions == 2
        assert np.array_equal(t.steps, expected["steps"])
        assert np.array_equal(t.times, expected["times"])
        assert np.array_equal(t.positions[:], expected["positions"])
        assert np.array_equal(np.asarray(t.velocities), expected["velocities"])
        assert np.array_equal(t.positions[-1], expected["positions"][-1])
        assert np.array_equal(t.positions[::-2, :7], expected["positions"][::-2, :7])
        assert np.array_equal(t.positions[[0, 4]], expected["positions"][[0, 4]])
        assert t.box == (800.0, 600.0) and t.boundary == "walls"
        assert t.parameters["model"] == "steering" and t.parameters["count"] == 200
        with h5py.File(path, "r") as f:
            for name, values in t.metrics.items():
                assert np.array_equal(values, f[f"observables/{name}/value"][:])
        frame = t[3]
        assert frame["step"] == expected["steps"][3]
        assert np.array_equal(frame["velocities"], expected["velocities"][3])
        with pytest.raises(IndexError):
            t[6]
    with pytest.raises(ValueError, match="not an H5MD file"):  # boids convert's words
        with h5py.File(tmp_path / "other.h5", "w") as f:
            f["x"] = 1
        boids.read_trajectory(tmp_path / "other.h5")
    with pytest.raises(FileNotFoundError):
        boids.read_trajectory(tmp_path / "missing.h5")


def test_a_killed_flight_opens_in_every_reader_up_to_its_last_whole_frame(tmp_path):
    path = tmp_path / "killed.h5"
    run = subprocess.Popen([BOIDS, "run", "--backend", "cpu", "--count", "4000", "--dimensions",
                            "3", "--steps", "1000000", "--trajectory", str(path),
                            "--trajectory-every", "5"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    description = tmp_path / "killed.xdmf"  # the writer holds the HDF5 file's lock: watch this
    while time.monotonic() < deadline:
        if description.exists() and description.read_text().count("<Grid Name=\"frame") >= 3:
            break
        time.sleep(0.05)
    run.send_signal(signal.SIGKILL)
    run.wait()
    expected = frames(path)
    whole = len(expected["steps"])
    assert whole >= 3
    with boids.read_trajectory(path) as t:
        assert len(t) == whole and np.array_equal(t.positions[-1], expected["positions"][-1])
    expect_mdanalysis_frames(path, expected)
    described = xdmf_frames(tmp_path / "killed.xdmf")
    assert whole - 1 <= len(described) <= whole  # written just after each whole frame
    run_cli("convert", path, tmp_path / "killed.gsd")
    gsd_hoomd = pytest.importorskip("gsd.hoomd", reason="python3-gsd is not installed")
    with gsd_hoomd.open(str(tmp_path / "killed.gsd"), "rb") as trajectory:
        assert len(trajectory) == whole


def test_read_trajectory_refuses_what_the_command_line_refuses(tmp_path):
    """The one reader opens the file (boids convert's); every value handed out is checked as
    its are, and every refusal is a ValueError."""
    path = fly(tmp_path, "flight", *FLOCKS["boids"])

    def edited(name, change):
        copy = tmp_path / name
        shutil.copy(path, copy)
        with h5py.File(copy, "r+") as f:
            change(f)
        return copy

    def refused(file, words, read=lambda t: t.positions[:]):
        with pytest.raises(ValueError, match=words):
            with boids.read_trajectory(file) as t:
                read(t)

    def four_columns(f):
        del f["particles/flock/position/value"]
        f["particles/flock/position/value"] = np.zeros((4, 300, 4))

    refused(edited("columns.h5", four_columns), "trajectory")
    refused(edited("nan.h5", lambda f: f["particles/flock/velocity/value"].__setitem__(
        (2, 7, 1), np.inf)), "frame 2, row 7, column 1: a velocity that is not a finite number",
        read=lambda t: t.velocities[::-1])
    refused(edited("outside.h5", lambda f: f["particles/flock/position/value"].__setitem__(
        (1, 0, 0), -1.0)), "frame 1, row 0, column 0: -1.0 lies outside the box",
        read=lambda t: t[1])
    (tmp_path / "text.h5").write_text("not HDF5")
    refused(tmp_path / "text.h5", "not an HDF5 file")

    # Text where numbers belong, and text that is not UTF-8: ValueErrors that say so, not numpy's
    # TypeError or a bare UnicodeDecodeError.
    def text_positions(f):
        shape = f["particles/flock/position/value"].shape
        del f["particles/flock/position/value"]
        f["particles/flock/position/value"] = np.full(shape, b"x", dtype="S1")

    with pytest.raises(ValueError, match="trajectory") as said:
        with boids.read_trajectory(edited("textual.h5", text_positions)) as t:
            t.positions[:]
    assert not isinstance(said.value, TypeError)
    latin1 = edited("latin1.h5", lambda f: f["parameters"].attrs.__setitem__(
        "model", np.bytes_(b"caf\xe9")))
    with pytest.raises(ValueError, match="UTF-8") as said:
        with boids.read_trajectory(latin1) as t:
            t.parameters
    assert not isinstance(said.value, UnicodeDecodeError)
    with pytest.raises(FileNotFoundError):
        boids.read_trajectory(tmp_path / "missing.h5")


def test_a_trajectorys_predators_and_their_reach_are_read(tmp_path):
    path = fly(tmp_path, "hunt", *FLOCKS["boids"], "--predators", "3")
    with boids.read_trajectory(path) as t, h5py.File(path, "r") as f:
        assert t.predators == 3
        assert np.array_equal(t.predator_positions[:],
                              f["particles/predators/position/value"][..., :2])
        assert t.predator_velocities[-1].shape == (3, 2)
        assert np.array_equal(t.metrics["within_reach"], f["observables/within_reach/value"][:])
    with boids.read_trajectory(fly(tmp_path, "plain", *FLOCKS["boids"])) as t:
        assert t.predators == 0 and t.predator_positions is None
