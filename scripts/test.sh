#!/usr/bin/env bash
# Usage: scripts/test.sh   (what .ci/run runs)
# The whole test suite on a fresh machine: install what is missing, then
# build and test two trees (docs/building.md says which test runs where):
#   build-sanitize/  AddressSanitizer + UndefinedBehaviorSanitizer: the library,
#                    the tool and every test (a sanitizer report in a
#                    conformance case's child process fails that case),
#                    with LibTorch for the torchlib comparison suite;
#   build/           the optimized tree the demo uses: the library, the tool,
#                    the examples, and only the tests a sanitizer would
#                    distort (allocation counts, huge-page pool blocks, the
#                    installed package linked by a program without sanitizers).
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
start=$SECONDS

run_suite() {
  local build_dir="$1"
  shift
  "$root/scripts/build.sh" "$build_dir" "$@"
  (cd "$build_dir" && ctest --output-on-failure -j "$(nproc)" --no-tests=error)
}

echo "== optimized tree (build/): the tests that need a build without sanitizers"
run_suite "$root/build" -DONNXSCRIPT_BUILD_TESTS=ON -DONNXSCRIPT_UNSANITIZED_TESTS_ONLY=ON \
  -DONNXSCRIPT_BUILD_BENCHMARKS=ON -DONNXSCRIPT_BUILD_EXAMPLES=ON
echo "== sanitized tree (build-sanitize/): every other test, under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_suite "$root/build-sanitize" -DONNXSCRIPT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DONNXSCRIPT_BUILD_EXAMPLES=OFF -DONNXSCRIPT_BUILD_BENCHMARKS=OFF -DONNXSCRIPT_WITH_TORCH=ON
echo "test: both trees passed in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"
