#!/usr/bin/env bash
# Usage: scripts/test.sh   (what .ci/run runs)
# The whole test suite on a fresh machine: install what is missing, build, run
# every test; then build again with AddressSanitizer and
# UndefinedBehaviorSanitizer and run every test there too, the conformance
# suite included (a sanitizer report in a case's child process fails that case).
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"

run_suite() {
  local build_dir="$1" ctest_filter="$2"
  shift 2
  "$root/scripts/build.sh" "$build_dir" "$@"
  (cd "$build_dir" && ctest --output-on-failure -j "$(nproc)" --no-tests=error $ctest_filter)
}

echo "== tests (RelWithDebInfo)"
run_suite "$root/build" ""
echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_suite "$root/build-sanitize" "" -DONNXSCRIPT_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
