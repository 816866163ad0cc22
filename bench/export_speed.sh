#!/usr/bin/env bash
# This exporter against torch.onnx.export (torch 1.13) on the same
# TorchScript files, in one run, and the TransformerEncoder at 2 to 32 layers.
# Usage: bench/export_speed.sh [BUILD_DIR]   (default: build)
# Prints, per model, both times, ONNX nodes, torch/ours, and our time per node.
. "$(dirname "$0")/../scripts/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cmake -S "$root" -B "$build" -DONNXSCRIPT_BUILD_BENCHMARKS=ON -DONNXSCRIPT_WITH_TORCH=ON >/dev/null
cmake --build "$build" --target export_speed >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$root/bench/export_speed.py" make "$work" 2>/dev/null
ours="$("$build/bench/export_speed" "$work")"
theirs="$(/usr/bin/python3 "$root/bench/export_speed.py" time "$work" 2>/dev/null)"
echo "$ours" | grep '^#' || true
echo "$theirs" | grep '^#' || true
printf "%-24s %10s %10s %8s %8s %10s %12s\n" model "ours s" "torch s" "nodes" "torch n" "torch/ours" "ours us/node"
join <(echo "$ours" | grep -v '^#' | sort) <(echo "$theirs" | grep -v '^#' | sort) |
  awk '{ printf "%-24s %10.3f %10.3f %8d %8d %10.1f %12.1f\n", $1, $2, $4, $3, $5, $4 / $2, 1e6 * $2 / $3 }'
