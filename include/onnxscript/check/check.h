#pragma once
/// \file
/// `onnxscript check`: model validation up to IR 13 and opset 28. Two
/// checkers look at a model. libonnx 1.12's checker and strict shape
/// inference run where libonnx applies (IR <= 8, ai.onnx <= 17, ai.onnx.ml <=
/// 3); the project's own validator runs on every model, against the run-time
/// operator-schema table (onnxscript/schema/operator_schema.h):
///
/// - structure: single assignment (every name defined once, in the graph or
///   any enclosing one), every input defined before its use, graph inputs,
///   initializers and outputs, outer names in subgraphs, an opset import for
///   each domain used, and element types the IR version allows (float8 needs
///   IR 9, int4/uint4 IR 10, float4e2m1 IR 11, float8e8m0 IR 12, int2/uint2 IR 13);
/// - each node against its operator's schema at the imported version: input
///   and output counts, required formals present, attribute names, types and
///   required ones, and type-constraint binding (the values of one type
///   parameter share one type that the parameter allows);
/// - strict inference: each node is typed by onnxscript::infer, a rule that
///   rejects it is an error, and so is a declared type that contradicts the
///   inferred one;
/// - model-local functions: each body with its own opset imports, where
///   attribute references to the function's attributes are allowed.
///
/// Errors name the graph, the node (index, name, operator) and the rule broken.

#include <cstdint>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::check {

/// The newest IR version the validator knows.
inline constexpr int64_t kMaxIrVersion = 13;
/// The newest ai.onnx opset the validator knows.
inline constexpr int64_t kMaxOpset = 28;

/// What check_model found.
struct CheckResult {
  /// False only for a model beyond the validator's bounds (IR > 13, or an
  /// opset newer than the schema table knows); see `skipped_reason`.
  bool checked = false;
  /// Why the model was not checked.
  std::string skipped_reason;
  /// True when libonnx 1.12 checked the model too (IR <= 8, opsets it knows).
  bool libonnx_checked = false;
  /// Errors from every checker that ran; empty when the model is valid.
  /// libonnx's begin "libonnx checker: " or "libonnx shape inference: ".
  std::vector<std::string> errors;

  /// True when the model was checked and nothing was found.
  bool ok() const { return checked && errors.empty(); }
};

/// Checks `model` with libonnx where it applies and with the project's own
/// validator always (see the file comment).
CheckResult check_model(const ir::Model& model);

/// The project's validator alone: its errors (empty when the model is valid).
/// Runs on any model; parts of a model beyond the schema table (an unknown
/// domain, a newer opset) get the structural checks only.
std::vector<std::string> validate_model(const ir::Model& model);

/// Why `model` is beyond what the validator knows (IR version or an opset
/// newer than the table), or empty when it is within bounds.
std::string beyond_validator(const ir::Model& model);

/// The canonical ONNX type string of `type`, as the schema table spells
/// allowed types: "tensor(float)", "seq(tensor(int64))",
/// "map(string,tensor(float))", "optional(tensor(bool))", "sparse_tensor(int8)".
/// Empty when the type is incomplete (no element type, no kind).
std::string canonical_type_string(const ir::Type& type);

}  // namespace onnxscript::check
