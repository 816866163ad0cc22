#pragma once
/// \file
/// Model validation with libonnx 1.12: the ONNX checker plus strict shape
/// inference. libonnx 1.12 knows IR versions up to 8 and ai.onnx opsets up to
/// 17. This is one half of `onnxscript check`; the whole check, which adds the
/// project's own validator and covers IR 13 and opset 28, is
/// onnxscript/check/check.h.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde {

/// The highest IR version libonnx 1.12 can check.
inline constexpr int64_t kLibonnxMaxIrVersion = 8;
/// The highest ai.onnx opset libonnx 1.12 knows.
inline constexpr int64_t kLibonnxMaxOpset = 17;

/// Why libonnx 1.12 cannot check `model` (its IR version or an opset is newer
/// than it knows), or nullopt when it can.
std::optional<std::string> beyond_libonnx(const ir::Model& model);

/// Runs libonnx's checker and strict shape inference (type checks on, node
/// errors fatal, data propagation on) on the model and returns their errors,
/// each prefixed "libonnx checker: " or "libonnx shape inference: "; empty
/// when both accept it. Call only when beyond_libonnx(model) is nullopt: for a
/// newer model the answer would be libonnx's confusion, not a finding.
std::vector<std::string> check_with_libonnx(const ir::Model& model);

}  // namespace onnxscript::serde
