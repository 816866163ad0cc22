// Lookups in the generated since-version table (eval/schema_version_table.h).
#include "onnxscript/eval/schema_versions.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "eval/schema_version_table.h"
#include "onnxscript/schema/operator_schema.h"

namespace onnxscript::eval {

namespace {

std::string_view table_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

}  // namespace

std::span<const int64_t> schema_versions(std::string_view domain, std::string_view op_type) {
  domain = table_domain(domain);
  const detail::OperatorVersions* begin = detail::kOperatorVersions;
  const detail::OperatorVersions* end = begin + detail::kOperatorVersionsCount;
  const auto* it = std::lower_bound(begin, end, std::make_tuple(domain, op_type),
                                    [](const detail::OperatorVersions& e, const auto& key) {
                                      return std::tie(e.domain, e.op_type) < key;
                                    });
  if (it == end || it->domain != domain || it->op_type != op_type) return {};
  return {detail::kSinceVersions + it->first, it->count};
}

std::optional<int64_t> schema_version(std::string_view domain, std::string_view op_type,
                                      int64_t opset) {
  const std::span<const int64_t> versions = schema_versions(domain, op_type);
  auto it = std::upper_bound(versions.begin(), versions.end(), opset);
  if (it == versions.begin()) return std::nullopt;
  return *(it - 1);
}

std::vector<OperatorVersion> all_operator_versions() {
  std::vector<OperatorVersion> out;
  for (size_t i = 0; i < detail::kOperatorVersionsCount; ++i) {
    const detail::OperatorVersions& op = detail::kOperatorVersions[i];
    for (size_t v = 0; v < op.count; ++v)
      out.push_back({op.domain, op.op_type, detail::kSinceVersions[op.first + v]});
  }
  return out;
}

std::optional<int64_t> newest_known_opset(std::string_view domain) {
  domain = table_domain(domain);
  for (size_t i = 0; i < detail::kDomainOpsetsCount; ++i) {
    if (detail::kDomainOpsets[i].domain == domain) return detail::kDomainOpsets[i].max_version;
  }
  return std::nullopt;
}

namespace detail {

std::optional<std::string> version_without_kernel(std::string_view domain, std::string_view op_type,
                                                  int64_t opset) {
  const std::span<const int64_t> versions = schema_versions(domain, op_type);
  if (versions.empty()) return std::nullopt;
  domain = table_domain(domain);
  const std::string name =
      domain.empty() ? std::string(op_type) : fmt::format("{}.{}", domain, op_type);
  const std::optional<int64_t> since = schema_version(domain, op_type, opset);
  if (!since) {
    return fmt::format("{} does not exist at opset {} (its first version is {})", name, opset,
                       versions.front());
  }
  const schema::OperatorSchema* schema = schema::find_schema(domain, op_type, opset);
  if (schema && schema->deprecated) {
    return fmt::format("{}-{} (opset {}) is deprecated: ONNX removed the operator at that version",
                       name, *since, opset);
  }
  return fmt::format("{}-{} (opset {}) has no kernel in this build", name, *since, opset);
}

}  // namespace detail

}  // namespace onnxscript::eval
