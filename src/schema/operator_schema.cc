// Lookups over the generated operator-schema table (operator_schemas.cc in the
// build tree, written by tools/opgen).

#include "onnxscript/schema/operator_schema.h"

#include <algorithm>
#include <tuple>

namespace onnxscript::schema {

namespace {

// ONNX spells the default domain both "" and "ai.onnx"; the table uses "".
std::string_view normalize_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

// The versions of one operator: a run of the table sorted by (domain, name).
std::span<const OperatorSchema> versions_of(std::string_view domain, std::string_view name) {
  const std::span<const OperatorSchema> all = all_schemas();
  const auto key = std::make_tuple(normalize_domain(domain), name);
  auto of = [](const OperatorSchema& s) { return std::make_tuple(s.domain, s.name); };
  const auto first =
      std::lower_bound(all.begin(), all.end(), key,
                       [&](const OperatorSchema& s, const auto& k) { return of(s) < k; });
  auto last = first;
  while (last != all.end() && of(*last) == key) ++last;
  return {first, last};
}

}  // namespace

const AttributeSchema* OperatorSchema::attribute(std::string_view attribute_name) const {
  const auto it =
      std::lower_bound(attributes.begin(), attributes.end(), attribute_name,
                       [](const AttributeSchema& a, std::string_view n) { return a.name < n; });
  return it != attributes.end() && it->name == attribute_name ? &*it : nullptr;
}

const TypeConstraint* OperatorSchema::constraint(std::string_view type_parameter) const {
  for (const TypeConstraint& c : type_constraints)
    if (c.name == type_parameter) return &c;
  return nullptr;
}

const DomainRange* find_domain(std::string_view domain) {
  domain = normalize_domain(domain);
  for (const DomainRange& d : domains())
    if (d.domain == domain) return &d;
  return nullptr;
}

const OperatorSchema* find_schema(std::string_view domain, std::string_view name,
                                  int64_t opset_version) {
  const OperatorSchema* best = nullptr;
  for (const OperatorSchema& s : versions_of(domain, name))
    if (s.since_version <= opset_version) best = &s;
  return best;
}

bool has_operator(std::string_view domain, std::string_view name) {
  return !versions_of(domain, name).empty();
}

}  // namespace onnxscript::schema
