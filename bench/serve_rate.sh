#!/usr/bin/env bash
# The frames a second `boids serve` delivers to one page on this machine, for flocks of several
# sizes, each as fast as it steps (--rate 0) at the published example's density:
#   bench/serve_rate.sh [BUILD_DIR] [SECONDS] > serve.csv
set -euo pipefail
build=${1:-build}
seconds=${2:-10}
echo "count,dimensions,max_boids,frames,seconds,frames_per_second,megabytes_per_second,boids_per_frame,steps_per_second"
for case in "100000 2" "1000000 2" "100000 3" "1000000 3"; do
  read -r count dimensions <<< "$case"
  density=0.012
  [ "$dimensions" = 3 ] && density=0.0009  # the same neighbours as 2D (docs/3d.md)
  out=$(mktemp)
  "$build/bin/boids" serve --port 0 --backend auto --count "$count" --density "$density" \
    --dimensions "$dimensions" --rate 0 > "$out" &
  server=$!
  for _ in $(seq 600); do grep -q "serving" "$out" && break; sleep 0.1; done
  port=$(sed -n 's|.*:\([0-9]*\)/.*|\1|p' "$out")
  for max_boids in 2147483647; do
    row=$("$build/bin/boids-serve-bench" "$port" "$seconds" "$max_boids" | tail -1)
    echo "$count,$dimensions,$max_boids,$row"
  done
  kill -TERM "$server"
  wait "$server" 2>/dev/null || true
  rm -f "$out"
done
