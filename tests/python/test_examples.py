"""The gallery's scripts compile, and each has a title: scripts/docs runs them all (CI's
documentation step), this guards the default pass against a script that cannot even be read.
The site's Python reference names every public name of the module."""

import ast
import os
import subprocess
import sys

GALLERY = os.path.join(os.environ["BOIDS_SOURCE_DIR"], "examples", "gallery")


def test_every_gallery_script_compiles_with_a_title():
    scripts = sorted(f for f in os.listdir(GALLERY) if f.startswith("plot_") and f.endswith(".py"))
    assert len(scripts) >= 8, scripts
    for name in scripts:
        with open(os.path.join(GALLERY, name), encoding="utf-8") as f:
            tree = ast.parse(f.read(), name)
        doc = ast.get_docstring(tree)
        assert doc, f"{name}: no docstring"
        title, underline = doc.splitlines()[:2]
        assert underline == "=" * len(title), f"{name}: the title's underline is not its length"


def test_the_sites_python_reference_names_every_public_name():
    import boids

    with open(os.path.join(os.environ["BOIDS_SOURCE_DIR"], "docs", "api", "python.md"),
              encoding="utf-8") as f:
        page = f.read()
    for name in boids.__all__:
        if name != "__version__":
            assert f"boids.{name}\n" in page or f"boids.{name} " in page, name


def test_every_gallery_figure_is_saved_where_it_says():
    """A script run with no display draws nothing with plt.show() alone: each that makes a
    figure saves it, in BOIDS_GALLERY_OUT or the current directory, and says where."""
    for name in sorted(f for f in os.listdir(GALLERY) if f.startswith("plot_")):
        with open(os.path.join(GALLERY, name), encoding="utf-8") as f:
            text = f.read()
        if "plt.subplots" in text or "plt.figure" in text:
            assert "savefig(" in text and 'os.environ.get("BOIDS_GALLERY_OUT", ".")' in text, name
            assert 'print("saved"' in text or "print(f\"saved" in text, name


def test_a_gallery_script_run_from_anywhere_saves_its_figure(tmp_path):
    """The published example, as a user runs it: from another directory, with no display."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND", "BOIDS_GALLERY_OUT")}
    environment["BOIDS_GALLERY"] = "small"
    done = subprocess.run([sys.executable, os.path.join(GALLERY, "plot_published_example.py")],
                          cwd=tmp_path, env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "published_example.png").stat().st_size > 10000
    assert "saved ./published_example.png" in done.stdout, done.stdout
