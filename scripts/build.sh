#!/usr/bin/env bash
# Configures and builds one build tree (Ninja; ccache when installed).
# Usage: scripts/build.sh BUILD_DIR [cmake args...]
# Example: scripts/build.sh build-sanitize -DONNXSCRIPT_SANITIZE=ON
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 1 ]; then
  usage >&2
  exit 2
fi
build_dir="$1"
shift
cmake -S "$root" -B "$build_dir" -G Ninja "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
