#pragma once
/// \file
/// Model validation with libonnx 1.12: the ONNX checker plus strict shape
/// inference. libonnx 1.12 knows IR versions up to 8 and ai.onnx opsets up to
/// 17; models beyond that are reported as such rather than checked wrongly.

#include <string>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde {

/// The highest IR version libonnx 1.12 can check.
inline constexpr int64_t kLibonnxMaxIrVersion = 8;
/// The highest ai.onnx opset libonnx 1.12 knows.
inline constexpr int64_t kLibonnxMaxOpset = 17;

/// What check_model found.
struct CheckResult {
  /// False when the model is beyond what libonnx 1.12 can check; see `skipped_reason`.
  bool checked = false;
  /// Why the model was not checked (IR version or opset too new).
  std::string skipped_reason;
  /// Errors from the checker and from shape inference; empty when the model is valid.
  std::vector<std::string> errors;

  /// True when the model was checked and nothing was found.
  bool ok() const { return checked && errors.empty(); }
};

/// Runs the ONNX checker and strict shape inference (type checks on, node
/// errors fatal, data propagation on) on the model.
CheckResult check_model(const ir::Model& model);

}  // namespace onnxscript::serde
