#!/bin/sh
# Ctrl-C during an offscreen recording (--record without --frames): a terminal sends SIGINT to
# its whole foreground process group, the viewer's and, unless the viewer keeps it apart, its
# ffmpeg's. The viewer must end the video whole, with the frames it drew, and exit 0.
# Usage: interrupted_record.sh BOIDS_VIEWER OUT.mp4
set -eu
viewer=$1 mp4=$2
for tool in ffmpeg ffprobe setsid; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "viewer test: $tool not found; install ffmpeg (scripts/install-deps)" >&2
    exit 1
  fi
done
rm -f "$mp4"
# setsid: the viewer leads a process group of its own, which the SIGINT below reaches whole,
# as a terminal's Ctrl-C reaches its foreground job; --default-signal: a background job of a
# script starts with SIGINT ignored, which the viewer would keep (as it does under nohup).
env --default-signal=INT -u DISPLAY -u WAYLAND_DISPLAY setsid "$viewer" --offscreen \
  --size 320x200 --count 500 --record "$mp4" &
pid=$!
sleep 4
env kill -s INT -- "-$pid"  # procps kill: a process group
waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
  sleep 0.1
  waited=$((waited + 1))
done
if kill -0 "$pid" 2>/dev/null; then
  env kill -s KILL -- "-$pid"
  echo "viewer test: the viewer went on 30 s after Ctrl-C" >&2
  exit 1
fi
status=0
wait "$pid" || status=$?
if [ "$status" -ne 0 ]; then
  echo "viewer test: the viewer exited $status after Ctrl-C" >&2
  exit 1
fi
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
  -of csv=p=0 "$mp4")
echo "video: $frames frames"
if [ "$frames" -lt 2 ]; then
  echo "viewer test: the video holds $frames frames" >&2
  exit 1
fi
