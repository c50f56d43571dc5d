"""The package as its users meet it: the type stubs name what the module has, help() explains
it, and a device state describes its memory as __cuda_array_interface__ version 3 asks."""

import ast
import inspect
import os

import numpy as np
import pytest

import boids
from conftest import CUDA, NO_CUDA

STUB = os.path.join(os.path.dirname(boids.__file__), "__init__.pyi")


def stub_names():
    tree = ast.parse(open(STUB).read())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            top.add(node.name)
        if isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return top, members


def test_the_stubs_name_every_public_member():
    top, members = stub_names()
    assert set(boids.__all__) <= top
    public = {name for name in dir(boids.Flock) if not name.startswith("_")}
    assert public == members["Flock"] - {"__init__"}
    stub_init = next(n for n in ast.parse(open(STUB).read()).body
                     if isinstance(n, ast.ClassDef) and n.name == "Flock").body[0]
    keywords = {a.arg for a in stub_init.args.args + stub_init.args.kwonlyargs} - {"self"}
    assert keywords == set(boids._boids.flock_keywords())


def test_every_public_member_is_documented():
    for name in boids.__all__:
        if name != "__version__":
            assert inspect.getdoc(getattr(boids, name)), name
    for name in dir(boids.Flock):
        if not name.startswith("_"):
            assert inspect.getdoc(getattr(boids.Flock, name)), name


def test_a_device_array_speaks_the_cuda_array_interface():
    owner = object()
    array = boids.DeviceArray(owner, 0x7F0000001000, (5, 4), "<f4", 0x55, 0)
    interface = array.__cuda_array_interface__
    assert interface == {"shape": (5, 4), "typestr": "<f4", "data": (0x7F0000001000, True),
                         "version": 3, "strides": None, "stream": 0x55}
    assert boids.DeviceArray(owner, 1, (5,), "<u4", 0, 0).__cuda_array_interface__["stream"] \
        is None


@pytest.mark.skipif(not CUDA["available"], reason=NO_CUDA)
@pytest.mark.parametrize("method,precision", [("hashed", "float"), ("naive", "double")])
def test_a_cuda_flock_hands_out_its_device_memory(method, precision):
    flock = boids.Flock(count=1000, seed=3, backend="cuda", method=method, precision=precision)
    flock.step(20)
    state = flock.device_state()
    boids_interface = state.boids.__cuda_array_interface__
    assert boids_interface["shape"] == (1000, 4) and boids_interface["version"] == 3
    assert boids_interface["typestr"] == ("<f4" if precision == "float" else "<f8")
    assert boids_interface["data"][0] != 0
    assert (state.ids is None) == (method == "naive")
    try:
        import cupy
    except ImportError:
        return  # the interface's contents need a reader of GPU memory
    rows = cupy.asnumpy(cupy.asarray(state.boids)).astype(np.float64)
    order = np.arange(1000) if state.ids is None else cupy.asnumpy(cupy.asarray(state.ids))
    in_input_order = np.empty_like(rows)
    in_input_order[order] = rows
    assert in_input_order.tobytes() == flock.state.tobytes()
