// Merging schema sources into one catalog.

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "schema.h"

namespace opgen {

Catalog load_catalog(const std::vector<std::unique_ptr<SchemaSource>>& sources) {
  Catalog catalog;
  std::map<std::tuple<std::string, std::string, int64_t>, std::string> seen;  // -> source name
  std::map<std::string, DomainRecord> domains;
  for (const auto& source : sources) {
    for (OpSchemaRecord& s : source->schemas()) {
      auto key = std::make_tuple(s.domain, s.name, s.since_version);
      if (auto it = seen.find(key); it != seen.end()) {
        throw std::runtime_error("opgen: " + s.domain + "::" + s.name + "-" +
                                 std::to_string(s.since_version) + " is defined by both " +
                                 it->second + " and " + source->name());
      }
      seen.emplace(key, source->name());
      catalog.schemas.push_back(std::move(s));
    }
    for (const DomainRecord& d : source->domains()) {
      auto [it, inserted] = domains.emplace(d.domain, d);
      if (!inserted) {
        it->second.min_version = std::min(it->second.min_version, d.min_version);
        it->second.max_version = std::max(it->second.max_version, d.max_version);
      }
    }
  }
  // Domains without any schema (libonnx registers ai.onnx.training empty) get no namespace.
  for (auto& [name, d] : domains) {
    bool used = std::any_of(catalog.schemas.begin(), catalog.schemas.end(),
                            [&](const OpSchemaRecord& s) { return s.domain == name; });
    if (used) catalog.domains.push_back(d);
  }
  std::sort(catalog.schemas.begin(), catalog.schemas.end(), [](const auto& a, const auto& b) {
    return std::tie(a.domain, a.name, a.since_version) <
           std::tie(b.domain, b.name, b.since_version);
  });
  return catalog;
}

}  // namespace opgen
