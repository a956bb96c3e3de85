#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`, clang, build-fuzz/) and runs each one
# for SECONDS (default 60) on a copy of its seed corpus, then prints one summary line per
# target. Exits non-zero when a target crashed, leaked, hung (> 10 s on one input) or ran out
# of memory; the input that did it is left in build-fuzz/findings/<target>/.
#
#   scripts/fuzz.sh [--no-build] [SECONDS] [TARGET...]
#
# TARGET is a name without the fuzz_ prefix (scenario, profile, nccl_tests_log, gallery,
# catalog, probe_line, autosave); all of them by default. --no-build skips configuring and
# building (for a second run in parallel with one that built). The seed corpus in
# tests/fuzz/corpus is never written: the run's corpus lives in build-fuzz/fuzz-corpus/ and
# grows across runs. See tests/fuzz/README.md.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=1
if [[ "${1:-}" == "--no-build" ]]; then
  build=0
  shift
fi
seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
  echo "fuzz.sh: SECONDS must be a positive whole number, got \"$seconds\"" >&2
  exit 2
fi
shift || true

all_targets=(scenario profile nccl_tests_log gallery catalog probe_line autosave kineto_trace)
targets=("$@")
(( ${#targets[@]} )) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if [[ ! -d "tests/fuzz/corpus/$t" ]]; then
    echo "fuzz.sh: unknown target \"$t\"; allowed: ${all_targets[*]}" >&2
    exit 2
  fi
done

bin="$root/build-fuzz/fuzz"
if (( build )); then
  cmake --preset fuzz >/dev/null || { echo "fuzz.sh: configuring the fuzz preset failed" >&2; exit 2; }
  cmake --build --preset fuzz || { echo "fuzz.sh: building the fuzz targets failed" >&2; exit 2; }
fi

max_len="${SCALESCOPE_FUZZ_MAX_LEN:-65536}"
status=0
summaries=()
for t in "${targets[@]}"; do
  exe="$bin/fuzz_$t"
  if [[ ! -x "$exe" ]]; then
    echo "fuzz.sh: $exe is not built" >&2
    exit 2
  fi
  work="$root/build-fuzz/fuzz-corpus/$t"
  findings="$root/build-fuzz/findings/$t"
  logs="$root/build-fuzz/fuzz-logs"
  mkdir -p "$work" "$findings" "$logs"
  cp -n "tests/fuzz/corpus/$t"/* "$work"/ 2>/dev/null || true
  dict=()
  if [[ -f "tests/fuzz/$t.dict" ]]; then
    dict=(-dict="tests/fuzz/$t.dict")
  elif [[ "$t" != probe_line ]]; then
    dict=(-dict=tests/fuzz/json.dict)
  fi
  log="$logs/$t.log"
  before=$(find "$findings" -type f | wc -l)
  echo "fuzz.sh: running fuzz_$t for $seconds s (log: ${log#$root/})"
  # The outer timeout only guards against a fuzzer that does not stop by itself.
  timeout --signal=KILL $(( seconds + 300 )) "$exe" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" >"$log" 2>&1
  rc=$?
  after=$(find "$findings" -type f | wc -l)
  new=$(( after - before ))
  last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
  rss=$(sed -nE 's/^stat::peak_rss_mb: *([0-9]+).*/\1/p' "$log" | tail -1)
  corpus=$(find "$work" -type f | wc -l)
  result=ok
  if (( rc != 0 )) || (( new > 0 )); then
    result="FAILED (exit $rc)"
    status=1
    grep -E 'ERROR: |FUZZ FINDING|runtime error|Test unit written' "$log" | head -5 | sed 's/^/  /'
  fi
  line=$(printf 'fuzz: %-15s seconds=%s executions=%s exec/s=%s cov=%s ft=%s corpus=%s peak_rss_mb=%s findings=%s %s' \
    "$t" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "${rss:-?}" "$new" "$result")
  echo "$line"
  summaries+=("$line")
done
echo
printf '%s\n' "${summaries[@]}"
if (( status )); then
  echo "fuzz.sh: findings are in build-fuzz/findings/ (reproduce: build-fuzz/fuzz/fuzz_<target> <file>)" >&2
fi
exit $status
