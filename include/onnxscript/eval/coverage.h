#pragma once
/// \file
/// How the evaluator covers the ONNX operators: for every (domain, operator,
/// since_version) of the since-version table (libonnx 1.12's schemas and the
/// project's table beyond them, through ai.onnx opset 28), whether a kernel
/// runs it, its schema's function body is expanded, or nothing can run it,
/// and whether a function body exists for it at all (libonnx's, or for the
/// versions beyond libonnx the project's own, tools/opgen/schemas/functions/).
/// `onnxscript ops --coverage` prints this table.

#include <cstdint>
#include <string>
#include <vector>

namespace onnxscript::eval {

/// How one operator version is evaluated.
enum class CoverageKind : uint8_t {
  kKernel,        ///< A kernel registered for exactly this since_version.
  kFunctionBody,  ///< No kernel; the schema's function body is expanded and evaluated.
  kMissing,       ///< Neither: running it fails with "no kernel".
  /// Neither, and ONNX deprecated the version (removed the operator at it):
  /// running it fails saying so. Not a gap of this build.
  kDeprecated,
};

/// The evaluator's coverage of one schema version.
struct OperatorCoverage {
  std::string domain;                          ///< "" for ai.onnx.
  std::string op_type;                         ///< e.g. "Add".
  int64_t since_version = 0;                   ///< The schema's since_version.
  CoverageKind kind = CoverageKind::kMissing;  ///< How it is evaluated.
  bool deprecated = false;  ///< The schema is marked deprecated (libonnx's or the project's table).
  bool from_libonnx = false;  ///< libonnx 1.12 knows this version (else only the project's table).
  /// ONNX defines this version by a function body and the evaluator has it
  /// (libonnx's schema, or the project's body beyond libonnx), whether or
  /// not a kernel runs the version instead.
  bool has_function_body = false;
};

/// Every operator version of the since-version table, sorted by (domain,
/// operator, since_version), with the built-in registry's coverage of each.
std::vector<OperatorCoverage> operator_coverage();

/// "kernel", "kernel + function body" (a kernel runs it; a body exists too),
/// "function body" or "missing".
std::string describe(const OperatorCoverage& entry);

}  // namespace onnxscript::eval
