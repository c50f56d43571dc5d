"""The documentation site: Sphinx over docs/ with MyST, the furo theme, the Python module's
reference from its docstrings (autodoc), the C++ library's from Doxygen's reading of its
installed API (breathe), and the examples gallery made by running examples/gallery
(sphinx-gallery). scripts/docs builds it with warnings as errors; nothing is fetched at build
or view time, so a copy opened from file:// is the whole site.

scripts/docs sets BOIDS_DOXYGEN_XML (Doxygen's output) and puts the built module first on
sys.path; the gallery's scripts find the `boids` command through BOIDS_COMMAND, and save their
figures in BOIDS_GALLERY_OUT (sphinx-gallery draws its own from the figures left open).
"""
import os
import sys

import boids

project = "boids"
author = "the boids developers"
copyright = "the boids developers, BSD-3-Clause"
release = boids.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "breathe",
    "sphinx_gallery.gen_gallery",
]

# The source directory is the repository (scripts/docs: sphinx -c docs .), so that the guide's
# links to the recorded results, the viewer's notes and the changelog are links between pages.
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "docs/index"
include_patterns = ["docs/**", "bench/results/**", "viewer/README.md", "viewer/results/**",
                    "CHANGELOG.md", "CONTRIBUTING.md"]
exclude_patterns = ["docs/gallery/*.md5", "docs/gallery/*.py", "docs/gallery/*.ipynb",
                    "docs/gallery/*.pickle", "docs/gallery/*.zip", "docs/gallery/*.json"]

# Headings become anchors, as GitHub makes them, so that links such as
# testing.md#running-them-and-what-it-costs hold on the site too.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "furo"
html_title = f"boids {release}"
html_static_path = []
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}

breathe_projects = {"boids": os.environ.get("BOIDS_DOXYGEN_XML", "")}
breathe_default_project = "boids"
breathe_default_members = ("members",)

sphinx_gallery_conf = {
    "examples_dirs": "examples/gallery",
    "gallery_dirs": "docs/gallery",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "matplotlib_animations": True,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "show_memory": False,
    "line_numbers": False,
}

# A page's source names files of the repository (host/boids.h, scripts/test); the site links
# only to its pages, and those names are text there.
suppress_warnings = []
sys.dont_write_bytecode = True
