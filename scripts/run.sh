#!/bin/sh
# Installs what is missing (Debian 12 packages), builds ScaleScope and runs it.
# Until the desktop app exists this runs scalescope-cli on the built-in default scenario.
# Usage: scripts/run.sh [scalescope-cli arguments...]
set -eu
cd "$(dirname "$0")/.."
./installer/install-deps.sh
cmake --preset default
cmake --build --preset default --target scalescope-cli
if [ "$#" -eq 0 ]; then
  exec ./build/app/scalescope-cli simulate
fi
exec ./build/app/scalescope-cli "$@"
