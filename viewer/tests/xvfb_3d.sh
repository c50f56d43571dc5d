#!/bin/sh
# The viewer in three dimensions under Xvfb with Mesa's software OpenGL: 20,000 boids in a box
# for 60 frames, every frame recorded into a video (--record) and the last one saved as a
# screenshot that must show boids in many colours. The video must hold the 60 frames at the
# window's size. Fails, never skips, when Xvfb or ffmpeg is missing.
# Usage: xvfb_3d.sh BOIDS_VIEWER CHECK_SCREENSHOT OUT.png OUT.mp4
set -eu
viewer=$1 check=$2 png=$3 mp4=$4
for tool in xvfb-run Xvfb ffmpeg ffprobe; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "viewer test: $tool not found; install xvfb, xauth and ffmpeg (scripts/install-deps)" >&2
    exit 1
  fi
done
rm -f "$png" "$mp4"
LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x800x24" \
  "$viewer" --dimensions 3 --backend cpu --count 20000 --seed 7 --frames 60 --vsync off \
  --no-panel --screenshot "$png" --record "$mp4"
if [ ! -s "$png" ] || [ ! -s "$mp4" ]; then
  echo "viewer test: no screenshot at $png or no video at $mp4" >&2
  exit 1
fi
"$check" "$png" 0.005 0.6 40
video=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$mp4")
echo "video: $video"
if [ "$video" != "h264,1280,800,60" ]; then
  echo "viewer test: expected h264,1280,800,60 (codec, size, frames), got '$video'" >&2
  exit 1
fi
