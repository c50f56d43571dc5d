"""One version, everywhere: the project's (CMakeLists.txt) in `boids --version`, `boids info`,
`boids.__version__`, the CMake package's version file, and the metadata of every output that
records what made it (--json, the checkpoint's header, H5MD's creator, the GSD file)."""

import json
import os
import re
import struct

import boids
import pytest
from conftest import BOIDS, run_cli

SOURCE = os.environ["BOIDS_SOURCE_DIR"]


def project_version():
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        return re.search(r"project\(boids VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


VERSION = project_version()


def test_the_tools_and_the_module_say_the_projects_version():
    said = run_cli("--version").stdout.split()
    assert said[:2] == ["boids", VERSION]
    assert boids.__version__ == VERSION
    info = json.loads(run_cli("info", "--json").stdout)
    assert info["version"] == VERSION
    assert run_cli("info").stdout.startswith("boids " + VERSION)
    if info["commit"]:  # built from a checkout: the commit, everywhere the version is
        assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?", info["commit"])
        assert said[2:] == ["(commit", info["commit"] + ")"]


def test_the_cmake_package_has_the_projects_version():
    build = os.path.dirname(os.path.dirname(os.path.abspath(BOIDS)))
    with open(os.path.join(build, "boidsConfigVersion.cmake")) as f:
        assert f'set(PACKAGE_VERSION "{VERSION}")' in f.read()


def test_every_output_names_the_boids_that_made_it(tmp_path):
    info = json.loads(run_cli("info", "--json").stdout)
    checkpoint, trajectory = tmp_path / "c.bin", tmp_path / "t.h5"
    said = json.loads(run_cli("run", "--count", "50", "--steps", "4", "--checkpoint", checkpoint,
                              "--trajectory", trajectory, "--json").stdout)
    assert said["boids_version"] == VERSION
    assert said["boids_commit"] == (info["commit"] or None)
    with open(checkpoint, "rb") as f:
        head = f.read(16)
        length = struct.unpack("<I", head[12:16])[0]
        header = json.loads(f.read(length))
    assert header["boids_version"] == VERSION
    assert header.get("boids_commit", "") == info["commit"]
    h5py = pytest.importorskip("h5py", reason="python3-h5py is not installed")
    def text(value):
        return value.decode() if isinstance(value, bytes) else str(value)

    with h5py.File(trajectory, "r") as f:
        assert text(f["h5md/creator"].attrs["name"]) == "boids"
        assert text(f["h5md/creator"].attrs["version"]) == VERSION
        assert text(f["parameters"].attrs["boids_version"]) == VERSION
    gsd_fl = pytest.importorskip("gsd.fl", reason="python3-gsd is not installed")
    run_cli("convert", trajectory, tmp_path / "t.gsd")
    made = gsd_fl.open(name=str(tmp_path / "t.gsd"), mode="rb")
    assert made.application.startswith("boids " + VERSION)
    made.close()


def test_a_table_has_a_record_of_what_made_it_beside_it(tmp_path):
    save, metrics, sweep = tmp_path / "end.csv", tmp_path / "m.csv", tmp_path / "sweep.csv"
    args = ["run", "--count", "60", "--steps", "6", "--seed", "9", "--noise", "0.2", "--save",
            save, "--metrics", metrics, "--metrics-every", "3"]
    run_cli(*args)
    for table in (save, metrics):
        with open(str(table) + ".json") as f:
            record = json.load(f)
        assert record["file"] == str(table)
        assert record["made_by"]["boids_version"] == VERSION
        assert record["made_by"]["command"] == ["boids", *map(str, args)]
        assert record["flight"]["seed"] == 9 and record["flight"]["noise"] == 0.2
        assert record["step"] == 6
    with open(str(metrics) + ".json") as f:
        assert json.load(f)["metrics_every"] == 3
    run_cli("sweep", "--model", "vicsek", "--param", "noise=1,2", "--replicas", "2",
            "--steps", "20", "--every", "10", "--csv", sweep)
    with open(str(sweep) + ".json") as f:
        record = json.load(f)
    assert record["made_by"]["command"][:2] == ["boids", "sweep"]
    assert record["grid"] == [{"name": "noise", "values": ["1", "2"]}]
    assert record["replicas"] == 2 and record["first_point"]["model"] == "vicsek"


def test_a_device_gets_no_record(tmp_path):
    done = run_cli("run", "--count", "10", "--steps", "1", "--save", "/dev/stdout")
    assert done.stdout.startswith("x,y,vx,vy")
