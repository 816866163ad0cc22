#include "onnxscript/eval/coverage.h"

#include <fmt/format.h>

#include "eval/schema_functions.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

std::vector<OperatorCoverage> operator_coverage() {
  const KernelRegistry& registry = KernelRegistry::builtin();
  // Registration versions per (domain, op), to tell an exact kernel from one
  // that an earlier registration serves.
  std::vector<std::tuple<std::string, std::string, int64_t>> registered = registry.entries();
  auto latest_registration = [&](const std::string& domain, const std::string& op,
                                 int64_t version) -> int64_t {
    int64_t found = 0;
    for (const auto& [d, o, since] : registered) {
      if (d == domain && o == op && since <= version) found = std::max(found, since);
    }
    return found;
  };
  std::vector<OperatorCoverage> out;
  for (const detail::SchemaVersion& schema : detail::all_schema_versions()) {
    OperatorCoverage entry;
    entry.domain = schema.domain;
    entry.op_type = schema.op_type;
    entry.since_version = schema.since_version;
    entry.deprecated = schema.deprecated;
    const int64_t kernel_since =
        latest_registration(schema.domain, schema.op_type, schema.since_version);
    if (kernel_since == schema.since_version) {
      entry.kind = CoverageKind::kKernel;
    } else if (kernel_since > 0) {
      entry.kind = CoverageKind::kInherited;
      entry.kernel_since = kernel_since;
    } else if (schema.function != detail::SchemaFunctionKind::kNone) {
      entry.kind = CoverageKind::kFunctionBody;
    } else {
      entry.kind = CoverageKind::kMissing;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string describe(const OperatorCoverage& entry) {
  switch (entry.kind) {
    case CoverageKind::kKernel:
      return "kernel";
    case CoverageKind::kInherited:
      return fmt::format("kernel (from {})", entry.kernel_since);
    case CoverageKind::kFunctionBody:
      return "function body";
    case CoverageKind::kMissing:
      break;
  }
  return "missing";
}

}  // namespace onnxscript::eval
