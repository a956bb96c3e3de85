#!/bin/sh
# The hardening checks that CI runs after the README's test command (scripts/test.sh):
#  1. the whole test suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#     (preset `asan`; the packaging test is left to the ordinary build),
#  2. every libFuzzer target for FUZZ_SECONDS seconds each (default 60; scripts/fuzz.sh).
# Installs what is missing first (Debian 12 packages), like the other scripts.
set -eu
cd "$(dirname "$0")/.."
./installer/install-deps.sh
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"

echo "== AddressSanitizer + UBSan: build and whole suite"
cmake --preset asan
cmake --build --preset asan
# Leak detection stays on (LeakSanitizer is part of ASan here); any report fails the test.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  ctest --preset asan --output-on-failure -j "$(nproc)" --label-exclude install

echo "== libFuzzer: ${FUZZ_SECONDS} s per target"
./scripts/fuzz.sh "$FUZZ_SECONDS"
