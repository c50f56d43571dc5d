#!/bin/sh
# A bad option is refused as `boids run` refuses it: exit code 2 and `boids-viewer: error: `
# followed by the same message, before any window opens.
# Usage: refuses.sh BOIDS_VIEWER EXPECTED_MESSAGE OPTION...
set -u
viewer=$1 expected=$2
shift 2
message=$("$viewer" "$@" 2>&1 >/dev/null)
code=$?
if [ "$code" -ne 2 ]; then
  echo "expected exit code 2, got $code ($message)" >&2
  exit 1
fi
case "$message" in
  "boids-viewer: error: $expected"*) echo "refused: $message" ;;
  *) echo "expected 'boids-viewer: error: $expected...', got '$message'" >&2; exit 1 ;;
esac
