"""The `boids` command of an installed package (pip install .): the command line built with
the package, which travels inside it (boids/bin/boids)."""

import os
import sys


def main():
    command = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "boids")
    if not os.access(command, os.X_OK):
        sys.exit(f"boids: the command line was not installed with this package ({command})")
    os.execv(command, [command] + sys.argv[1:])


if __name__ == "__main__":
    main()
