"""Builds the Python package with the project's CMake, for `pip install .` (pyproject.toml).

The backend is setuptools; this file only tells it that the package's core is CMake's target
`boids_python` and that the `boids` command travels inside it (boids/bin/boids, with the plot
and conversion scripts beside it, where the command looks for them). Options, from the
environment:

    BOIDS_BACKEND=auto|cuda|cpu   auto (default): the CUDA backend when nvcc and a usable GPU
                                  are found, else the cpu backend alone
    BOIDS_BUILD_DIR=DIR           a CMake build tree to build in (reused as it is configured),
                                  else build-python/ beside this file
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(SOURCE, "build-wheel"), exist_ok=True)  # setuptools' own files


def project_version():
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        return re.search(r"project\(boids VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


def cuda_wanted():
    backend = os.environ.get("BOIDS_BACKEND", "auto")
    if backend not in ("auto", "cuda", "cpu"):
        sys.exit(f"BOIDS_BACKEND: expected auto, cuda or cpu, got {backend!r}")
    if backend != "auto":
        return backend == "cuda"
    gpu = shutil.which("nvidia-smi") and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True, text=True).stdout.startswith("GPU")
    return bool(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")) and bool(gpu)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = os.environ.get("BOIDS_BUILD_DIR") or os.path.join(SOURCE, "build-python")
        if not os.path.exists(os.path.join(tree, "CMakeCache.txt")):
            cuda = "ON" if cuda_wanted() else "OFF"
            subprocess.run(["cmake", "-S", SOURCE, "-B", tree, "-DCMAKE_BUILD_TYPE=Release",
                            "-DBOIDS_BUILD_PYTHON=ON", "-DBOIDS_BUILD_TESTS=OFF",
                            "-DBOIDS_BUILD_BENCH=OFF", "-DBOIDS_BUILD_VIEWER=OFF",
                            "-DBOIDS_BUILD_SERVE=ON", "-DBOIDS_ENABLE_MPI=OFF",
                            f"-DBOIDS_ENABLE_CUDA={cuda}", f"-DBOIDS_PYTHON={sys.executable}"],
                           check=True)
        subprocess.run(["cmake", "--build", tree, "--target", "boids_python", "boids",
                        "--parallel", str(os.cpu_count() or 2)], check=True)
        package = os.path.join(os.path.abspath(self.build_lib), "boids")
        os.makedirs(os.path.join(package, "bin"), exist_ok=True)
        built = os.path.join(tree, "python", "boids")
        for name in os.listdir(built):
            if name.startswith("_boids") or name.endswith(".pyi"):
                shutil.copy2(os.path.join(built, name), package)
        shutil.copy2(os.path.join(tree, "bin", "boids"), os.path.join(package, "bin"))
        scripts = os.path.join(SOURCE, "host", "cli")  # the plots' and GSD's, run by the command
        for script in os.listdir(scripts):
            if script.endswith(".py"):
                shutil.copy2(os.path.join(scripts, script), os.path.join(package, "bin"))


setup(
    version=project_version(),
    packages=["boids"],
    package_dir={"": "python"},
    package_data={"boids": ["py.typed"]},
    ext_modules=[Extension("boids._boids", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-wheel"}, "egg_info": {"egg_base": "build-wheel"}},
    zip_safe=False,
)
