#!/usr/bin/env bash
# Eager overhead per op against numpy, in one run.
# Usage: bench/eager_overhead.sh [BUILD_DIR]   (default: build)
# Prints ns/op for each case and numpy/ours (how many times faster we are).
. "$(dirname "$0")/../scripts/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
# The demo's tree leaves the benchmarks out; turn them on (a no-op when on).
cmake -S "$root" -B "$build" -DONNXSCRIPT_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build" --target eager_overhead >/dev/null
ours="$("$build/bench/eager_overhead" 2>/dev/null)"
theirs="$(/usr/bin/python3 "$root/bench/eager_overhead_numpy.py")"
printf "%-10s %12s %12s %10s\n" case "ours ns/op" "numpy ns/op" "numpy/ours"
join <(echo "$ours" | sort) <(echo "$theirs" | sort) |
  awk '{ printf "%-10s %12.1f %12.1f %10.2f\n", $1, $2, $3, $3 / $2 }'
