"""Shared by the Python suites: the `boids` command line beside the module, to compare with."""

import json
import os
import subprocess

import boids
import pytest

BOIDS = os.environ.get("BOIDS_EXECUTABLE", "boids")


def run_cli(*args, check=True):
    """Runs `boids ARGS...`; returns the completed process (text)."""
    done = subprocess.run([BOIDS, *map(str, args)], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"boids {' '.join(map(str, args))} failed: {done.stderr}")
    return done


def cli_json(*args):
    return json.loads(run_cli(*args, "--json").stdout)


def cli_error(*args):
    """The message `boids ARGS...` refuses them with, without its `boids: error: ` prefix."""
    done = run_cli(*args, check=False)
    assert done.returncode == 2, f"boids {' '.join(map(str, args))} exited {done.returncode}"
    prefix = "boids: error: "
    assert done.stderr.startswith(prefix), done.stderr
    return done.stderr[len(prefix):].rstrip("\n")


CUDA = boids.info()["backends"]["cuda"]
NO_CUDA = "no usable CUDA device here: " + str(CUDA["reason"])

# Every backend, method and precision, the cuda ones skipped (saying why) without a device.
CONFIGS = [("reference", "naive", "double")] + [
    pytest.param(backend, method, precision, marks=pytest.mark.skipif(
        backend == "cuda" and not CUDA["available"], reason=NO_CUDA),
        id=f"{backend}-{method}-{precision}")
    for backend in ("cpu", "cuda") for method in ("naive", "hashed")
    for precision in ("float", "double")]
