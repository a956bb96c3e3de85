#!/usr/bin/env bash
# Checks gpuprobe on a machine with an NVIDIA GPU, in under 10 minutes:
#   1. builds gpuprobe (plain cmake, Release; or uses $GPUPROBE if set),
#   2. runs the quick probe on GPU 0,
#   3. compares its cuBLASLt GEMM with plain cuBLAS (cublasGemmEx) at its best shape,
#   4. compares its copy bandwidth with the datasheet (resources/catalogs/gpus.json),
#   5. runs compute-sanitizer (memcheck) over the probe's own kernels where available,
#   6. prints a short table.
# Exit: 0 all checks pass; 1 a check failed; 3 no NVIDIA GPU here (nothing to check).
# Needs: cmake, ninja or make, a C++20 compiler, Qt 6 Core and Eigen (the model library),
# the CUDA toolkit, python3.
set -u -o pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$root/build-device-check}
work=$(mktemp -d /tmp/gpuprobe-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
say() { printf 'device-check: %s\n' "$*" >&2; }

# --- 0. Is there a GPU at all? (before minutes of building) -------------------------------
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
elif ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  gpus=$(ls /dev/nvidia[0-9]* | wc -l)
else
  gpus=0
fi
if [ "${gpus:-0}" -eq 0 ]; then
  say "no NVIDIA GPU found (no nvidia-smi GPUs, no /dev/nvidia*): nothing to check"
  exit 3
fi
command -v python3 >/dev/null 2>&1 || { say "python3 is needed for the comparisons"; exit 1; }

# --- 1. Build -------------------------------------------------------------------------------
probe=${GPUPROBE:-}
if [ -z "$probe" ]; then
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  export PATH=$PATH:/usr/local/cuda/bin
  say "building gpuprobe in $build"
  if ! timeout 420 cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DSCALESCOPE_BUILD_TESTS=OFF -DSCALESCOPE_WERROR=OFF >"$work/configure.log" 2>&1 ||
     ! timeout 420 cmake --build "$build" --target gpuprobe -j "$(nproc)" >"$work/build.log" 2>&1; then
    tail -n 30 "$work/configure.log" "$work/build.log" >&2 2>/dev/null
    say "build failed"
    exit 1
  fi
  probe=$build/app/gpuprobe
fi
"$probe" --version >&2 || { say "$probe does not run"; exit 1; }

# --- 2. Quick probe on GPU 0 ----------------------------------------------------------------
start=$(date +%s)
timeout 120 "$probe" --quick --devices 0 --tests gemm,memory,transfer,launch \
  --output "$work/quick.json" 2>"$work/quick.err"
code=$?
quick_s=$(( $(date +%s) - start ))
if [ $code -eq 3 ]; then
  say "gpuprobe found no usable GPU: $(tail -n 1 "$work/quick.err")"
  exit 3
fi
[ $code -le 1 ] || { cat "$work/quick.err" >&2; say "quick probe failed (exit $code)"; exit 1; }

# --- 3. The same GEMM through plain cuBLAS, at the best cuBLASLt shape ----------------------
read -r precision size < <(python3 - "$work/quick.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["gpus"][0]["gemm_tflops"]
for p in ("bf16", "fp16", "tf32", "fp32"):
    if g.get(p):
        best = max(g[p], key=lambda x: x["tflops"])
        print(p, best["m"]); break
else:
    print("none 0")
EOF
)
if [ "$precision" != none ]; then
  timeout 120 "$probe" --devices 0 --tests gemm --gemm-library cublas --gemm-sizes "$size" \
    --output "$work/cublas.json" 2>"$work/cublas.err" || true
fi

# --- 5. compute-sanitizer over the probe's kernels (small sizes: memcheck is slow) -----------
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
sanitizer_result="not available"
if [ -x "$sanitizer" ]; then
  if timeout 300 "$sanitizer" --tool memcheck --error-exitcode 99 --print-limit 20 \
       "$probe" --quick --devices 0 --tests gemm,memory,transfer,launch --gemm-sizes 256 \
       --output "$work/sanitized.json" >"$work/sanitizer.log" 2>&1; then
    sanitizer_result="clean"
  else
    sanitizer_result="FAILED (exit $?)"
    tail -n 25 "$work/sanitizer.log" >&2
  fi
fi

# --- 4 and 6. Compare and print ---------------------------------------------------------------
python3 - "$root/resources/catalogs/gpus.json" "$work/quick.json" "$work/cublas.json" \
  "$precision" "$size" "$quick_s" "$sanitizer_result" <<'EOF'
import json, os, re, sys
catalog_path, quick_path, cublas_path, precision, size, quick_s, sanitizer = sys.argv[1:8]
quick = json.load(open(quick_path))
gpu = quick["gpus"][0]
failed = []

def tokens(name):
    return set(t for t in re.split(r"[^a-z0-9]+", name.lower()) if t and t not in ("nvidia", "geforce", "tesla"))

# Datasheet entry: shares the model token (H100, A100, 4090, ...), then most tokens, then
# the closest SM count (H100 SXM 132 vs PCIe 114), then the closest memory size.
catalog = json.load(open(catalog_path))["gpus"]
mine = tokens(gpu["name"])
models = {t for t in mine if re.search(r"\d", t) and not t.endswith("gb")}
best, best_key = None, None
for entry in catalog:
    theirs = tokens(entry["name"])
    if not models & theirs:
        continue
    sm = abs(entry.get("sm_count", 0) - gpu.get("sm_count", 0)) if entry.get("sm_count") and gpu.get("sm_count") else 0
    key = (len(mine & theirs), -sm, -abs(entry["memory_gb"] - gpu.get("memory_bytes", 0) / 1e9))
    if best_key is None or key > best_key:
        best, best_key = entry, key

rows = []
rows.append(("GPU", gpu["name"], best["name"] if best else "not in gpus.json", ""))
rows.append(("quick probe", "%s s" % quick_s, "<= 30 s", "ok" if int(quick_s) <= 30 else "SLOW"))
if int(quick_s) > 30:
    failed.append("quick probe took %s s" % quick_s)
if quick.get("errors"):
    for e in quick["errors"]:
        failed.append("%s: %s" % (e["test"], e["message"]))
    rows.append(("probe errors", str(len(quick["errors"])), "0", "FAIL"))

# Copy bandwidth (bytes read + written) against the datasheet.
memory = [m for m in quick.get("x-gpuprobe", {}).get("memory", []) if m["gpu"] == gpu["index"]]
if memory and best:
    copy = memory[0]["copy_gbps"]
    sheet = best["memory_bandwidth_gbps"]
    ratio = copy / sheet
    verdict = "ok" if 0.6 <= ratio <= 1.05 else "FAIL"
    if verdict != "ok":
        failed.append("copy bandwidth %.0f GB/s is %.0f%% of the datasheet's %.0f" % (copy, 100 * ratio, sheet))
    rows.append(("copy bandwidth", "%.0f GB/s" % copy, "datasheet %.0f GB/s (%.0f%%)" % (sheet, 100 * ratio), verdict))
else:
    rows.append(("copy bandwidth", "-", "no figure or no datasheet", "skip"))

# GEMM: cuBLASLt (the probe) against cublasGemmEx at the best shape.
if precision != "none" and os.path.exists(cublas_path):
    lt = max(gpu["gemm_tflops"][precision], key=lambda x: x["tflops"])
    other = json.load(open(cublas_path))["gpus"][0].get("gemm_tflops", {}).get(precision, [])
    if other:
        ratio = lt["tflops"] / other[0]["tflops"]
        verdict = "ok" if ratio >= 0.9 else "FAIL"
        if verdict != "ok":
            failed.append("cuBLASLt %s at %s^3 is %.0f%% of cuBLAS" % (precision, size, 100 * ratio))
        rows.append(("%s GEMM %s^3" % (precision, size), "%.1f TFLOP/s (cublasLt)" % lt["tflops"],
                     "cublas %.1f TFLOP/s (%.0f%%)" % (other[0]["tflops"], 100 * ratio), verdict))
        if best and best["peak_tflops"].get(precision):
            rows.append(("%s of datasheet" % precision, "%.0f%%" % (100 * lt["tflops"] / best["peak_tflops"][precision]),
                         "peak %.0f TFLOP/s" % best["peak_tflops"][precision], "info"))
    else:
        rows.append(("GEMM vs cuBLAS", "-", "cuBLAS run gave no figure", "FAIL"))
        failed.append("the cuBLAS comparison run gave no figure")
for key, label in (("h2d_gbps", "host to device"), ("d2h_gbps", "device to host")):
    if key in gpu:
        rows.append((label, "pinned %.1f GB/s" % gpu[key].get("pinned", 0), "pageable %.1f GB/s" % gpu[key].get("pageable", 0), "info"))
if "launch_overhead_us" in gpu:
    rows.append(("launch overhead", "%.2f us" % gpu["launch_overhead_us"], "per back-to-back kernel", "info"))
verdict = "ok" if sanitizer == "clean" else ("skip" if sanitizer == "not available" else "FAIL")
if verdict == "FAIL":
    failed.append("compute-sanitizer: " + sanitizer)
rows.append(("compute-sanitizer", sanitizer, "memcheck, probe kernels + cuBLAS", verdict))

widths = [max(len(r[i]) for r in rows) for i in range(4)]
for r in rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
if failed:
    print("FAILED:\n  " + "\n  ".join(failed))
    sys.exit(1)
print("all checks passed")
EOF
