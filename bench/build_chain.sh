#!/usr/bin/env bash
# Build throughput against onnx.helper, in one run.
# Usage: bench/build_chain.sh [BUILD_DIR] [NODES]   (default build, 100000)
# Prints nodes/s for each case and ours/onnx.helper (how many times faster).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
nodes="${2:-100000}"
cmake --build "$build" --target build_chain >/dev/null
ours="$("$build/bench/build_chain" "$nodes")"
theirs="$(/usr/bin/python3 "$root/bench/build_chain_onnx_helper.py" "$nodes" | awk '{print $2}')"
printf "%-14s %14s %14s %8s\n" case "ours nodes/s" "helper nodes/s" ratio
echo "$ours" | awk -v h="$theirs" '{ printf "%-14s %14.0f %14.0f %8.1f\n", $1, $2, h, $2 / h }'
