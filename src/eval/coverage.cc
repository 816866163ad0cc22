#include "onnxscript/eval/coverage.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "eval/schema_functions.h"
#include "onnxscript/eval/kernel.h"
#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/schema/operator_schema.h"

namespace onnxscript::eval {

std::vector<OperatorCoverage> operator_coverage() {
  const KernelRegistry& registry = KernelRegistry::builtin();
  const std::vector<std::tuple<std::string, std::string, int64_t>> registered = registry.entries();
  // What libonnx 1.12 says of the versions it knows (a function body,
  // deprecation), and the versions beyond it that have a project body.
  std::map<std::tuple<std::string, std::string, int64_t>, detail::SchemaVersion> libonnx;
  for (detail::SchemaVersion& schema : detail::all_schema_versions()) {
    auto key = std::make_tuple(schema.domain, schema.op_type, schema.since_version);
    libonnx.emplace(std::move(key), std::move(schema));
  }
  std::vector<OperatorCoverage> out;
  for (const OperatorVersion& version : all_operator_versions()) {
    OperatorCoverage entry;
    entry.domain = version.domain;
    entry.op_type = version.op_type;
    entry.since_version = version.since_version;
    const auto key = std::make_tuple(entry.domain, entry.op_type, entry.since_version);
    const auto known = libonnx.find(key);
    entry.from_libonnx = known != libonnx.end() && known->second.from_libonnx;
    if (const schema::OperatorSchema* table =
            schema::find_schema(entry.domain, entry.op_type, entry.since_version);
        table && table->since_version == entry.since_version)
      entry.deprecated = table->deprecated;
    entry.has_function_body =
        known != libonnx.end() && known->second.function != detail::SchemaFunctionKind::kNone;
    // Dispatch takes only a kernel registered at exactly this version, and a
    // body only of exactly this version.
    if (std::binary_search(registered.begin(), registered.end(), key)) {
      entry.kind = CoverageKind::kKernel;
    } else if (entry.has_function_body) {
      entry.kind = CoverageKind::kFunctionBody;
    } else {
      entry.kind = entry.deprecated ? CoverageKind::kDeprecated : CoverageKind::kMissing;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string describe(const OperatorCoverage& entry) {
  switch (entry.kind) {
    case CoverageKind::kKernel:
      return entry.has_function_body ? "kernel + function body" : "kernel";
    case CoverageKind::kFunctionBody:
      return "function body";
    case CoverageKind::kDeprecated:
      return "deprecated, no kernel";
    case CoverageKind::kMissing:
      break;
  }
  return "missing";
}

}  // namespace onnxscript::eval
