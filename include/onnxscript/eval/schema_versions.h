#pragma once
/// \file
/// The since-version table: for every ONNX operator, the versions its schema
/// has had, through ai.onnx opset 28, ai.onnx.ml 5, ai.onnx.preview 1 and
/// ai.onnx.preview.training 1. Generated at build time by tools/opgen from
/// libonnx 1.12's registry and the vendored operator table
/// (tools/opgen/schemas/). Kernel dispatch resolves a node's opset to a
/// schema version through it (see KernelRegistry::find).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace onnxscript::eval {

/// The since_versions of every known version of `op_type` in `domain` ("" or
/// "ai.onnx" for the default domain), ascending; empty when the table does
/// not know the operator (custom domains, model-local functions).
std::span<const int64_t> schema_versions(std::string_view domain, std::string_view op_type);

/// The since_version that opset `opset` of `domain` selects for `op_type`:
/// the newest version not after `opset`. nullopt when the table does not
/// know the operator, or it does not exist yet at that opset.
/// Example: Abs at opset 18 is 13; ReduceMax at opset 18 is 18.
std::optional<int64_t> schema_version(std::string_view domain, std::string_view op_type,
                                      int64_t opset);

/// One operator version of the table.
struct OperatorVersion {
  std::string_view domain;  ///< "" for ai.onnx.
  std::string_view op_type;
  int64_t since_version;
};

/// Every operator version the table knows, sorted by (domain, op_type,
/// since_version).
std::vector<OperatorVersion> all_operator_versions();

/// The newest opset of `domain` the table covers (28 for ai.onnx), or
/// nullopt for a domain it does not know.
std::optional<int64_t> newest_known_opset(std::string_view domain);

}  // namespace onnxscript::eval
