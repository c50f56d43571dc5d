#!/usr/bin/env bash
# The frames a second `boids serve` delivers to one page on this machine, for flocks of several
# sizes, each as fast as it steps (--rate 0) at the published example's density: their points,
# and pictures of the whole flock at 1280 x 800 (a page whose link cannot carry the points; a
# new picture needs a new step, so the flock's steps a second bound them):
#   bench/serve_rate.sh [BUILD_DIR] [SECONDS] [CASES] > serve.csv
# CASES: "COUNT,DIMENSIONS ..." (default: 100,000 and 1,000,000 in 2D and 3D, and 10,000,000 in
# 2D for pictures).
set -euo pipefail
build=${1:-build}
seconds=${2:-10}
cases=${3:-"100000,2 1000000,2 100000,3 1000000,3 10000000,2"}
echo "count,dimensions,shown,max_boids,frames,seconds,frames_per_second,megabytes_per_second,boids_per_frame,steps_per_second"
for case in $cases; do
  IFS=, read -r count dimensions <<< "$case"
  density=0.012
  [ "$dimensions" = 3 ] && density=0.0009  # the same neighbours as 2D (docs/3d.md)
  out=$(mktemp)
  "$build/bin/boids" serve --port 0 --backend auto --count "$count" --density "$density" \
    --dimensions "$dimensions" --rate 0 > "$out" &
  server=$!
  for _ in $(seq 600); do grep -q "serving" "$out" && break; sleep 0.1; done
  port=$(sed -n 's|.*:\([0-9]*\)/.*|\1|p' "$out")
  side=$(python3 -c "print(($count / $density) ** (1 / $dimensions) / 2)")
  z=0
  [ "$dimensions" = 3 ] && z=$side
  if [ "$count" -le 1000000 ]; then
    row=$("$build/bin/boids-serve-bench" "$port" "$seconds" 2147483647 | tail -1)
    echo "$count,$dimensions,points,2147483647,$row"
  fi
  row=$("$build/bin/boids-serve-bench" "$port" "$seconds" 2147483647 1280 800 "$side" "$side" "$z" | tail -1)
  echo "$count,$dimensions,picture 1280x800,2147483647,$row"
  kill -TERM "$server"
  wait "$server" 2>/dev/null || true
  grep "drawn by" "$out" | sed "s/^/$count,$dimensions: /" >&2 || true  # what drew the pictures
  rm -f "$out"
done
