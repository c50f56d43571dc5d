#!/bin/sh
# The viewer under Xvfb with Mesa's software OpenGL: 20,000 boids for 90 frames, then a
# screenshot that must show boids. Fails, never skips, when Xvfb is missing.
# Usage: xvfb_screenshot.sh BOIDS_VIEWER CHECK_SCREENSHOT OUT.png
set -eu
viewer=$1 check=$2 png=$3
if ! command -v xvfb-run >/dev/null 2>&1 || ! command -v Xvfb >/dev/null 2>&1; then
  echo "viewer test: xvfb-run/Xvfb not found; install xvfb and xauth (scripts/install-deps)" >&2
  exit 1
fi
rm -f "$png"
LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x800x24" \
  "$viewer" --backend cpu --count 20000 --world 400 --seed 7 --frames 90 --vsync off --screenshot "$png"
if [ ! -s "$png" ]; then
  echo "viewer test: no screenshot at $png" >&2
  exit 1
fi
"$check" "$png" 0.01 0.6 40
