#pragma once
/// \file
/// Runs models in ONNX Runtime 1.30 (npm onnxruntime-node, CPU) from tests, by
/// calling `node tests/interop/ort_run.mjs` on a saved model and .npy files.
///
/// Link the `onnxscript_ort_runner` target. Install ONNX Runtime with
/// scripts/install-deps.sh (it runs `npm ci --ignore-scripts` in tests/interop).
///
/// Note: this is `onnxscript::testing`, not GoogleTest's `::testing`; inside
/// namespace onnxscript, write `::testing::` for GoogleTest's names.

#include <filesystem>
#include <string>
#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/tensor.h"

namespace onnxscript::ir {
class Model;
}  // namespace onnxscript::ir

namespace onnxscript::testing {

/// True when Node.js is found and tests/interop/node_modules/onnxruntime-node
/// is installed.
bool onnxruntime_available();

/// Why onnxruntime_available() is false (empty when it is true), ending with
/// what to do: run scripts/install-deps.sh.
std::string onnxruntime_unavailable_reason();

/// Saves `model` into a fresh temporary directory, runs it in ONNX Runtime
/// with `inputs` bound positionally to the graph inputs, and returns the
/// outputs in order. The temporary directory is removed afterwards. Throws
/// onnxscript::Error with ONNX Runtime's message when it cannot load or run
/// the model, or when ONNX Runtime is not installed.
std::vector<eval::RuntimeValue> run_in_onnxruntime(const ir::Model& model,
                                                   const std::vector<ir::Tensor>& inputs);

/// Like the overload above, for a model file (external data is resolved by
/// ONNX Runtime relative to the file).
std::vector<eval::RuntimeValue> run_in_onnxruntime(const std::filesystem::path& model_path,
                                                   const std::vector<ir::Tensor>& inputs);

/// One run of run_many_in_onnxruntime: a model and its inputs.
struct OnnxRuntimeJob {
  const ir::Model* model = nullptr;  ///< Not owned; must outlive the call.
  std::vector<ir::Tensor> inputs;    ///< Bound positionally to the graph inputs.
};

/// What one job gave: its outputs, or why ONNX Runtime failed (the message
/// run_in_onnxruntime would throw).
struct OnnxRuntimeOutcome {
  std::vector<eval::RuntimeValue> outputs;
  std::string error;  ///< Empty on success.
};

/// Runs every job in one ONNX Runtime process (Node.js start-up and loading
/// onnxruntime-node, about 0.1 s, are paid once), in order. A job's failure
/// is its outcome's `error`; throws Error only when the batch cannot run at
/// all (ONNX Runtime not installed, the process failed).
std::vector<OnnxRuntimeOutcome> run_many_in_onnxruntime(const std::vector<OnnxRuntimeJob>& jobs);

/// The onnxruntime-node version the runner uses ("1.30.0"); throws Error
/// when it cannot be determined.
std::string onnxruntime_version();

}  // namespace onnxscript::testing
