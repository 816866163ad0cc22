#pragma once
// The since-version table that tools/opgen generates from the merged operator
// table (libonnx 1.12 and tools/opgen/schemas/*.jsonl) into
// build/generated/opsets/schema_versions.cc. Read through
// onnxscript/eval/schema_versions.h.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace onnxscript::eval::detail {

/// One operator: its since_versions are kSinceVersions[first, first + count).
struct OperatorVersions {
  std::string_view domain;  ///< "" for ai.onnx.
  std::string_view op_type;
  size_t first;
  size_t count;
};

/// The opsets the table covers in one domain.
struct DomainOpsets {
  std::string_view domain;  ///< "" for ai.onnx.
  int64_t min_version;
  int64_t max_version;
};

extern const int64_t kSinceVersions[];
extern const OperatorVersions kOperatorVersions[];  ///< Sorted by (domain, op_type).
extern const size_t kOperatorVersionsCount;
extern const DomainOpsets kDomainOpsets[];  ///< Sorted by domain.
extern const size_t kDomainOpsetsCount;

}  // namespace onnxscript::eval::detail

#include <optional>
#include <string>

namespace onnxscript::eval::detail {

/// Why the operator has no kernel at `opset`, when the since-version table
/// knows it: "ReduceMax-18 (opset 18) has no kernel in this build", or
/// "Celu does not exist at opset 11 (its first version is 12)". nullopt for
/// an operator the table does not know.
std::optional<std::string> version_without_kernel(std::string_view domain, std::string_view op_type,
                                                  int64_t opset);

}  // namespace onnxscript::eval::detail
