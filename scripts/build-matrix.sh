#!/bin/sh
# Build configurations that CI checks besides the ones scripts/test.sh (preset `default`)
# and scripts/hardening.sh (preset `asan`, and `fuzz` through scripts/fuzz.sh) build and test:
#  1. preset `release` (Ninja, -O3; build-release/),
#  2. a plain `cmake -S . -B build-make` (Unix Makefiles, no preset: what packagers and IDEs
#     run; its CUDA flags are computed differently from Ninja's),
#  3. preset `fuzz` (clang, libFuzzer instrumentation; build-fuzz/, which scripts/fuzz.sh
#     reuses).
# Each is configured, generated and built to its libraries only (model, views, gpuprobe; the
# fuzz preset instruments model and gpuprobe), to keep CI time down: the test suite runs in
# the other scripts. BUILD_MATRIX_JOBS sets the parallel jobs (default 2).
# Installs what is missing first (Debian 12 packages), like the other scripts.
set -eu
cd "$(dirname "$0")/.."
./installer/install-deps.sh
jobs="${BUILD_MATRIX_JOBS:-2}"
libs="scalescope_model scalescope_views scalescope_gpuprobe"

step() {
  echo "== build-matrix: $1"
  start=$(date +%s)
}
done_step() {
  echo "== build-matrix: $1 ok ($(( $(date +%s) - start )) s)"
}

step "preset release"
cmake --preset release
# shellcheck disable=SC2086
cmake --build build-release -j "$jobs" --target $libs
done_step "preset release"

step "plain configure, Unix Makefiles (build-make)"
cmake -S . -B build-make -G "Unix Makefiles"
# shellcheck disable=SC2086
cmake --build build-make -j "$jobs" --target $libs
done_step "plain configure, Unix Makefiles"

step "preset fuzz"
cmake --preset fuzz
cmake --build build-fuzz -j "$jobs" --target scalescope_model scalescope_gpuprobe
done_step "preset fuzz"
