#!/usr/bin/env bash
# Build throughput against onnx.helper: each round runs ours and then the
# helper, so every ratio compares two runs made one after the other.
# Usage: bench/build_chain.sh [BUILD_DIR] [NODES] [ROUNDS]
#   BUILD_DIR  the CMake build directory (default: build)
#   NODES      operator nodes in the chain (default: 100000)
#   ROUNDS     rounds of ours-then-helper (default: 1)
# Prints nodes/s for each case, the helper's nodes/s and ours/helper (how many
# times faster) for every round. The row "floor" is build_chain_floor: the
# same chain with no IR, written by hand, about the most any builder could do;
# its ratio says what a target against the helper asks of the hardware. It is
# run only when the tree builds it (cmake -DONNXSCRIPT_BUILD_BENCH_FLOOR=ON).
# With more than one round it then prints each case's median ratio, which
# this noisy machine makes the figure to quote.
. "$(dirname "$0")/../scripts/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
nodes="${2:-100000}"
rounds="${3:-1}"
if ! [[ "$nodes" =~ ^[1-9][0-9]*$ && "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  usage >&2
  exit 2
fi
# The demo's tree leaves the benchmarks out; turn them on (a no-op when on).
cmake -S "$root" -B "$build" -DONNXSCRIPT_BUILD_BENCHMARKS=ON >/dev/null
targets=(build_chain)
floor=()
if grep -q '^ONNXSCRIPT_BUILD_BENCH_FLOOR:BOOL=ON$' "$build/CMakeCache.txt"; then
  targets+=(build_chain_floor)
  floor=("$build/bench/build_chain_floor")
fi
cmake --build "$build" --target "${targets[@]}" >/dev/null
ratios=""
printf "%-6s %-14s %14s %14s %8s\n" round case "ours nodes/s" "helper nodes/s" ratio
for round in $(seq 1 "$rounds"); do
  ours="$("$build/bench/build_chain" "$nodes"; if [ ${#floor[@]} -gt 0 ]; then "${floor[@]}" "$nodes"; fi)"
  theirs="$(/usr/bin/python3 "$root/bench/build_chain_onnx_helper.py" "$nodes" | awk '{print $2}')"
  table="$(echo "$ours" | awk -v h="$theirs" -v r="$round" \
    '{ printf "%-6s %-14s %14.0f %14.0f %8.1f\n", r, $1, $2, h, $2 / h }')"
  echo "$table"
  ratios+="$table"$'\n'
done
if [ "$rounds" -gt 1 ]; then
  echo "median ratio over $rounds rounds:"
  # Per case: sort the ratios and take the middle one (the mean of the two
  # middle ones for an even count).
  echo -n "$ratios" | awk '{ print $2, $5 }' | sort -k1,1 -k2,2g |
    awk '{ r[$1] = r[$1] " " $2; n[$1]++ }
         END { for (c in r) { split(substr(r[c], 2), v, " "); k = n[c];
               m = k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2;
               printf "  %-14s %8.1f\n", c, m } }' | sort
fi
