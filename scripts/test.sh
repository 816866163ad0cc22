#!/usr/bin/env bash
# The whole test suite on a fresh machine: install what is missing, build, run
# every test; then build again with AddressSanitizer and
# UndefinedBehaviorSanitizer and run the unit tests there (the corpus-wide
# conformance run is left out of the sanitizer pass to keep CI well under 45 minutes).
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
  run_suite "$root/build-sanitize" "-LE conformance" -DONNXSCRIPT_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
