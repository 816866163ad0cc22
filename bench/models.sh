#!/usr/bin/env bash
# Whole models in the Session against ONNX Runtime 1.30, in one run.
# Usage: bench/models.sh [BUILD_DIR] [ROUNDS]   (default: build, 3 rounds)
# Makes resnet18, resnet50, mobilenet_v2, vit_s_16 and a 4-layer
# TransformerEncoder with torch.onnx.export (opset 17, random weights) into
# $ONNXSCRIPT_BENCH_MODELS (default: ~/.cache/onnxscript/bench-models) unless
# they are there, then, at 1 and 2 threads, runs every model in the Session
# (bench/session_models) and in ONNX Runtime (bench/session_models_ort.mjs),
# alternating, ROUNDS times. Prints per model and thread count the medians
# over rounds of each side's median run time, ours/ORT, both load times
# (Session::load with planning; ORT's session creation) and the relative
# difference between the two outputs.
. "$(dirname "$0")/../scripts/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
rounds="${2:-3}"
models="${ONNXSCRIPT_BENCH_MODELS:-$HOME/.cache/onnxscript/bench-models}"
cmake -S "$root" -B "$build" -DONNXSCRIPT_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build" --target session_models >/dev/null
/usr/bin/python3 "$root/bench/models.py" "$models" >/dev/null 2>&1 ||
  { echo "models.sh: making the models failed (run bench/models.py $models)" >&2; exit 1; }
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for threads in 1 2; do
  for round in $(seq "$rounds"); do
    "$build/bench/session_models" "$models" "$threads" |
      sed "s/^/ours $threads /" >>"$results"
    node "$root/bench/session_models_ort.mjs" "$models" "$threads" |
      sed "s/^/ort $threads /" >>"$results"
  done
done
/usr/bin/python3 - "$results" <<'PY'
import statistics, sys
runs, loads, diffs, order = {}, {}, {}, []
for line in open(sys.argv[1]):
    f = line.split()
    side, threads, name, load, run = f[0], int(f[1]), f[2], float(f[3]), float(f[4])
    key = (name, threads)
    if key not in order:
        order.append(key)
    runs.setdefault((side,) + key, []).append(run)
    loads.setdefault((side,) + key, []).append(load)
    if side == 'ort' and len(f) > 6:
        diffs.setdefault(key, []).append(float(f[6]))
med = statistics.median
print(f"{'model':<22} {'thr':>3} {'ours ms':>9} {'ORT ms':>9} {'ours/ORT':>8}"
      f" {'load ms':>8} {'ORT load':>8} {'load/ORT':>8} {'max rel diff':>12}")
for name, threads in sorted(order, key=lambda k: (k[1], order.index(k))):
    o, t = med(runs[('ours', name, threads)]), med(runs[('ort', name, threads)])
    lo, lt = med(loads[('ours', name, threads)]), med(loads[('ort', name, threads)])
    d = max(diffs.get((name, threads), [float('nan')]))
    print(f"{name:<22} {threads:>3} {o:>9.2f} {t:>9.2f} {o / t:>8.2f}"
          f" {lo:>8.0f} {lt:>8.0f} {lo / lt:>8.2f} {d:>12.1e}")
PY
