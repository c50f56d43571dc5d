"""boids.info() and boids.validate() return what `boids info --json` and
`boids validate --json` print."""

import boids
from conftest import cli_json


def test_info_is_boids_info_json():
    info = boids.info()
    assert info == cli_json("info")
    assert info["version"] == boids.__version__
    assert set(info["backends"]) == {"reference", "cpu", "cuda"}
    assert info["auto"] in ("cpu", "cuda")


def test_validate_is_boids_validate_json():
    report = boids.validate("cpu")
    assert report == cli_json("validate", "--backend", "cpu")
    assert report["pass"] is True
    assert len(report["cases"]) > 40
    assert all(case["verdict"] == "PASS" for case in report["cases"])
