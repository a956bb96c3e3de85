#!/bin/sh
# Installs what is missing (Debian 12 packages), builds ScaleScope and runs the whole
# test suite through CTest (labels: unit, validation, bench).
set -eu
cd "$(dirname "$0")/.."
./installer/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default --output-on-failure -j "$(nproc)"
