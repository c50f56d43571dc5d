#!/bin/sh
# The viewer with no display (--offscreen): EGL on Mesa's surfaceless platform here, the GPU's
# EGL device on a GPU server. DISPLAY and WAYLAND_DISPLAY are unset and no Xvfb runs. The last
# frame is saved as a screenshot that must show boids in many colours; with a video, every
# frame is recorded (--record) and the video must hold them all at the picture's size. Fails,
# never skips, when ffmpeg is missing for a video.
# Usage: offscreen.sh BOIDS_VIEWER CHECK_SCREENSHOT OUT.png OUT.mp4|- FRAMES WxH OPTION...
set -eu
viewer=$1 check=$2 png=$3 mp4=$4 frames=$5 size=$6
shift 6
record=""
if [ "$mp4" != "-" ]; then
  for tool in ffmpeg ffprobe; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "viewer test: $tool not found; install ffmpeg (scripts/install-deps)" >&2
      exit 1
    fi
  done
  rm -f "$mp4"
  record="--record $mp4"
fi
rm -f "$png"
# shellcheck disable=SC2086  # $record is empty or two words
env -u DISPLAY -u WAYLAND_DISPLAY "$viewer" --offscreen --size "$size" --frames "$frames" \
  --screenshot "$png" $record "$@"
if [ ! -s "$png" ]; then
  echo "viewer test: no screenshot at $png" >&2
  exit 1
fi
# VIEWER_REACH: the share of the width the boids must reach (the world beside the panel).
"$check" "$png" 0.005 0.6 40 "${VIEWER_REACH:-0}"
if [ "$mp4" != "-" ]; then
  video=$(ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$mp4")
  echo "video: $video"
  expected="h264,$(echo "$size" | tr x ,),$frames"
  if [ "$video" != "$expected" ]; then
    echo "viewer test: expected $expected (codec, size, frames), got '$video'" >&2
    exit 1
  fi
fi
