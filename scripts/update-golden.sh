#!/usr/bin/env bash
# Rewrites the golden text files under tests/data/golden/ from what the code
# builds now. Review `git diff tests/data/golden` before committing.
# Usage: scripts/update-golden.sh [BUILD_DIR]   (default: build-sanitize)
# BUILD_DIR must build every test; scripts/test.sh leaves build-sanitize so,
# while its build/ holds only the tests that need a build without sanitizers.
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-sanitize}"
ninja -C "$build" script_tests examples_tests optimizer_tests rewriter_tests
export ONNXSCRIPT_UPDATE_GOLDEN=1
"$build/tests/script_tests" --gtest_filter='Golden*'
"$build/tests/examples_tests" --gtest_filter='Golden*'
"$build/tests/optimizer_tests" --gtest_filter='Golden*'
"$build/tests/rewriter_tests" --gtest_filter='Golden*'
git -C "$root" status --short tests/data/golden
