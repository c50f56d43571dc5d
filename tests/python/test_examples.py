"""The examples run, on a tiny size."""

import os
import subprocess
import sys

EXAMPLES = os.path.join(os.environ["BOIDS_SOURCE_DIR"], "examples")


def test_phase_diagram_plots_the_transition(tmp_path):
    out = tmp_path / "phase.png"
    subprocess.run([sys.executable, os.path.join(EXAMPLES, "phase_diagram.py"), "40", "40", "2",
                    str(out)], check=True, env=dict(os.environ, MPLBACKEND="Agg"))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
