#!/usr/bin/env bash
# Usage: scripts/demo.sh
# The main job on a fresh machine: install what is missing, build, and run the
# demo. Each example under examples/ exports its model to build/demo/, prints
# it, evaluates it eagerly and through a Session on the exported file, and
# compares the two (a mismatch fails the demo). The onnxscript tool then
# checks every exported model, and round-trips and runs a corpus model.
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" -DONNXSCRIPT_BUILD_TESTS=OFF -DONNXSCRIPT_BUILD_BENCHMARKS=OFF

cli="$root/build/bin/onnxscript"
out="$root/build/demo"
rm -rf "$out"
mkdir -p "$out"

for example in "$root"/examples/*.cc; do
  name="$(basename "$example" .cc)"
  echo "== example $name"
  "$root/build/examples/$name" "$out"
done

for model in "$out"/*.onnx; do
  echo "== check $(basename "$model")"
  "$cli" check "$model"
done

model=/usr/share/libonnx-testdata/data/pytorch-converted/test_ConvTranspose2d/model.onnx
echo "== print $model"
"$cli" print "$model"
echo "== convert to text and back, check the copy"
"$cli" convert "$model" --to "$out/corpus_model.txt"
"$cli" convert "$out/corpus_model.txt" --to "$out/corpus_model.onnx"
"$cli" check "$out/corpus_model.onnx"
cmp <("$cli" print "$model") <("$cli" print "$out/corpus_model.onnx") && echo "text of the copy is identical"
echo "== run it with the built-in evaluator"
case_dir="$(dirname "$model")"
"$cli" run "$model" --input "$case_dir/test_data_set_0/input_0.pb" --output-dir "$out/outputs"
echo "demo: done (outputs in $out)"
