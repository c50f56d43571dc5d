"""The gallery's scripts compile, and each has a title: scripts/docs runs them all (CI's
documentation step), this guards the default pass against a script that cannot even be read.
The site's Python reference names every public name of the module."""

import ast
import os

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
