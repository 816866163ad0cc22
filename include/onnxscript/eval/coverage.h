#pragma once
/// \file
/// How the evaluator covers the operators libonnx knows: for every (domain,
/// operator, since_version) schema, whether a kernel runs it, its schema's
/// function body is expanded, or nothing can run it. `onnxscript ops
/// --coverage` prints this table.

#include <cstdint>
#include <string>
#include <vector>

namespace onnxscript::eval {

/// How one operator version is evaluated.
enum class CoverageKind : uint8_t {
  kKernel,        ///< A kernel registered for exactly this since_version.
  kInherited,     ///< A kernel registered for an earlier version of the operator serves it.
  kFunctionBody,  ///< No kernel; the schema's function body is expanded and evaluated.
  kMissing,       ///< Neither: running it fails with "no kernel".
};

/// The evaluator's coverage of one schema version.
struct OperatorCoverage {
  std::string domain;                          ///< "" for ai.onnx.
  std::string op_type;                         ///< e.g. "Add".
  int64_t since_version = 0;                   ///< The schema's since_version.
  CoverageKind kind = CoverageKind::kMissing;  ///< How it is evaluated.
  int64_t kernel_since = 0;  ///< For kInherited: the version the kernel was registered at.
  bool deprecated = false;   ///< The schema is marked deprecated.
};

/// Every schema version of every domain libonnx knows, sorted by (domain,
/// operator, since_version), with the built-in registry's coverage of each.
std::vector<OperatorCoverage> operator_coverage();

/// "kernel", "kernel (from N)", "function body" or "missing".
std::string describe(const OperatorCoverage& entry);

}  // namespace onnxscript::eval
