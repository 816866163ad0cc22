#include "onnxscript/ir/model.h"

namespace onnxscript::ir {

std::optional<int64_t> OpsetImports::find(std::string_view domain) const {
  // "ai.onnx" and "" name the same domain.
  auto canonical = [](std::string_view d) { return d == "ai.onnx" ? std::string_view() : d; };
  for (const auto& [d, v] : entries_)
    if (canonical(d) == canonical(domain)) return v;
  return std::nullopt;
}

void OpsetImports::set(std::string domain, int64_t version) {
  for (auto& [d, v] : entries_) {
    if (d == domain) {
      v = version;
      return;
    }
  }
  entries_.emplace_back(std::move(domain), version);
}

Function* Model::find_function(std::string_view domain, std::string_view name,
                               std::string_view overload) const {
  for (const auto& f : functions_)
    if (f->domain == domain && f->name == name && f->overload == overload) return f.get();
  return nullptr;
}

}  // namespace onnxscript::ir
