#!/bin/sh
# Installs what is missing (Debian 12 packages), builds ScaleScope and starts the desktop
# app on the default scenario. Where there is no display, says so and prints the
# command-line summary of the same scenario instead.
# Usage: scripts/run.sh [scalescope arguments...]   e.g. scripts/run.sh --present
set -eu
cd "$(dirname "$0")/.."
./installer/install-deps.sh
cmake --preset default
cmake --build --preset default --target scalescope scalescope-cli
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] || \
   [ "${QT_QPA_PLATFORM:-}" = "offscreen" ]; then
  exec ./build/app/scalescope "$@"
fi
echo "scripts/run.sh: no display (DISPLAY and WAYLAND_DISPLAY are not set), so the desktop" >&2
echo "app cannot open a window; showing the CLI summary of the default scenario instead." >&2
echo "(With a display: ./build/app/scalescope; headless screenshot:" >&2
echo " QT_QPA_PLATFORM=offscreen ./build/app/scalescope --screenshot out.png)" >&2
exec ./build/app/scalescope-cli simulate
