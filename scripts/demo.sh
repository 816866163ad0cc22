#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run the
# demo. The demo loads a model, prints it, checks it, writes it back in text
# and binary form, and checks the copy.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build"

cli="$root/build/bin/onnxscript"
out="$root/build/demo"
mkdir -p "$out"
model=/usr/share/libonnx-testdata/data/pytorch-converted/test_ConvTranspose2d/model.onnx

echo "== print $model"
"$cli" print "$model"
echo "== check"
"$cli" check "$model"
echo "== convert to text and back"
"$cli" convert "$model" --to "$out/model.txt"
"$cli" convert "$out/model.txt" --to "$out/model.onnx"
"$cli" check "$out/model.onnx"
cmp <("$cli" print "$model") <("$cli" print "$out/model.onnx") && echo "text of the copy is identical"
if "$cli" run --help >/dev/null 2>&1; then
  echo "== run with the built-in evaluator"
  case_dir="$(dirname "$model")"
  "$cli" run "$model" --input "$case_dir/test_data_set_0/input_0.pb" --output-dir "$out/outputs"
fi
echo "demo: done (outputs in $out)"
